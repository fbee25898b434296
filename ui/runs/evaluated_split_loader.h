// Opens the split a run's evaluation evaluated (jobs/evaluated_split.h), from the experiment
// the run stores, so its samples can be shown as images with the dataset's class names.
// Opening reads the dataset's files (Fashion-MNIST's test split: 8 MB, about half a second),
// so the studio does it on QtConcurrent's pool and applies the result on the UI thread.
#pragma once

#include <QFuture>
#include <QString>
#include <QStringList>

#include <memory>
#include <string>

#include "data/dataset.h"
#include "types/label_overlay.h"

namespace ts::ui {

struct OpenedSplit {
    std::shared_ptr<const ts::Dataset> data;  // null when it could not be opened
    QStringList classNames;                   // the dataset's; empty when not opened
    QString error;                            // why not: the engine's message, naming the file
};

// Never throws: a bad experiment, missing files or a split that does not exist end in `error`.
// `overlay`: the run's recorded label marks (runLabelOverlay), so a run trained with excluded
// samples shows the samples its predictions index; class names do not depend on it.
OpenedSplit openEvaluatedSplitOfRun(const std::string& experimentYaml, const std::string& split,
                                    const ts::LabelOverlay& overlay = {});
QFuture<OpenedSplit> openEvaluatedSplitOfRunAsync(std::string experimentYaml, std::string split,
                                                  ts::LabelOverlay overlay = {});

}  // namespace ts::ui

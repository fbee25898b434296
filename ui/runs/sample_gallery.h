// Samples of a run's evaluated split as a grid of images (widgets/image_grid.h) captioned
// "true label → predicted (confidence %)": the Evaluation tab's sample view, and the one
// place any other view sends a list of samples to be looked at.
//
//   gallery->showRunSamples(reader, runId, "test", {12, 40, 41}, tr("3 samples B gets wrong"));
//
// opens the split off the UI thread (captions use class numbers and the grid shows blank
// cells until it is open); a split that cannot be opened (the dataset moved or was deleted)
// leaves the captions and says, in the grid's note, that the images cannot be shown and why.
#pragma once

#include <QFutureWatcher>
#include <QList>
#include <QWidget>

#include <string>
#include <vector>

#include "evaluated_split_loader.h"
#include "evaluation_samples.h"

namespace ts {
class RunReader;
}
namespace ts::widgets {
class ImageGrid;
}

namespace ts::ui {

class SampleGallery : public QWidget {
    Q_OBJECT
public:
    explicit SampleGallery(QWidget* parent = nullptr);

    // The split the samples come from: opened in the background unless it is the one already
    // open (or opening); one that failed to open is tried again. `experimentYaml` is the run's
    // stored experiment (RunInfo::experimentYaml), `overlay` its recorded label marks.
    void openSplit(const std::string& experimentYaml, const std::string& split, const ts::LabelOverlay& overlay = {});
    void setSplit(const OpenedSplit& opened);  // one opened elsewhere
    const OpenedSplit& split() const { return m_opened; }
    bool isOpening() const { return m_watcher != nullptr; }

    // Lists `samples` under `title` (the split's images once it is open).
    void showSamples(const QString& title, std::vector<EvaluatedSample> samples);
    // For another view: samples `sampleIndices` of `split` as run `runId`'s newest evaluation
    // of that split predicted them. False, with the reason in the note, when the run has no
    // such evaluation. Throws StoreError.
    bool showRunSamples(ts::RunReader& reader, qint64 runId, const QString& split, const QList<qint64>& sampleIndices,
                        const QString& title);
    void clear();

    EvaluationSamples* model() const { return m_model; }
    ts::widgets::ImageGrid* grid() const { return m_grid; }
    QString note() const;

signals:
    // The split has been opened, or failed to open (split().error says why).
    void splitOpened();

private:
    void applyOpened(const OpenedSplit& opened);
    void updateNote();

    EvaluationSamples* m_model = nullptr;
    ts::widgets::ImageGrid* m_grid = nullptr;
    std::string m_yaml, m_splitName;  // what is open or opening
    ts::LabelOverlay m_overlay;
    OpenedSplit m_opened;
    QFutureWatcher<OpenedSplit>* m_watcher = nullptr;  // the newest opening; older ones are dropped
};

}  // namespace ts::ui

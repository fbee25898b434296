#include "evaluated_split_loader.h"

#include <QtConcurrent/QtConcurrentRun>

#include "io/yaml/experiment_yaml.h"
#include "jobs/evaluated_split.h"

namespace ts::ui {

OpenedSplit openEvaluatedSplitOfRun(const std::string& experimentYaml, const std::string& split, const LabelOverlay& overlay)
{
    OpenedSplit opened;
    try {
        const ExperimentSpec spec = parseExperiment(experimentYaml, "the run's stored experiment");
        std::shared_ptr<Dataset> data = openEvaluatedSplit(spec, split, {}, overlay);
        for (const std::string& name : data->classNames()) opened.classNames << QString::fromStdString(name);
        opened.data = std::move(data);
    } catch (const std::exception& e) {
        opened.error = QString::fromLocal8Bit(e.what());
    }
    return opened;
}

QFuture<OpenedSplit> openEvaluatedSplitOfRunAsync(std::string experimentYaml, std::string split, LabelOverlay overlay)
{
    return QtConcurrent::run([yaml = std::move(experimentYaml), split = std::move(split), overlay = std::move(overlay)] {
        return openEvaluatedSplitOfRun(yaml, split, overlay);
    });
}

}  // namespace ts::ui

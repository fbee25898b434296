#include "jobs/job_overlay.h"

#include <filesystem>

#include "data/dataset.h"
#include "jobs/job_parts.h"
#include "store/label_overlay.h"

namespace ts {

LabelOverlay currentLabelOverlay(const JobEnvironment& env, const ExperimentSpec& spec)
{
    if (env.workspaceDir.empty()) return {};
    const Workspace workspace{std::filesystem::absolute(env.workspaceDir).lexically_normal().string()};  // read, not created
    return readLabelOverlay(workspace, datasetKey(spec.dataset, experimentDataDirectory(spec)));
}

void logLabelOverlay(TrainListener& listener, const LabelOverlay& overlay)
{
    if (overlay.empty()) return;
    publishLog(listener, LogEvent::Level::Info,
               makeMessage(MessageId::JobLabelOverlay, {std::to_string(overlay.count(LabelMark::Action::Relabel)),
                                                        std::to_string(overlay.count(LabelMark::Action::Exclude))}));
}

}  // namespace ts

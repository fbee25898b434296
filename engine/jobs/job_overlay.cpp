#include "jobs/job_overlay.h"

#include <filesystem>

#include "data/dataset.h"
#include "jobs/job_parts.h"
#include "store/database.h"
#include "store/label_overlay.h"
#include "store/run_writer.h"

namespace ts {

LabelOverlay currentLabelOverlay(const JobEnvironment& env, const ExperimentSpec& spec)
{
    if (env.workspaceDir.empty()) return {};
    const Workspace workspace{std::filesystem::absolute(env.workspaceDir).lexically_normal().string()};  // read, not created
    return readLabelOverlay(workspace, datasetKey(spec.dataset, experimentDataDirectory(spec)));
}

namespace {

Message overlayMessage(const LabelOverlay& overlay)
{
    return makeMessage(MessageId::JobLabelOverlay, {std::to_string(overlay.count(LabelMark::Action::Relabel)),
                                                    std::to_string(overlay.count(LabelMark::Action::Exclude))});
}

}  // namespace

void logLabelOverlay(TrainListener& listener, const LabelOverlay& overlay)
{
    if (!overlay.empty()) publishLog(listener, LogEvent::Level::Info, overlayMessage(overlay));
}

void recordLabelOverlayLog(RunWriter& writer, std::int64_t runId, const LabelOverlay& overlay)
{
    if (!overlay.empty()) writer.addLog(runId, {store::unixNow(), "info", overlayMessage(overlay)});
}

}  // namespace ts

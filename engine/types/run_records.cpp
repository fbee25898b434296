#include "types/run_records.h"

namespace ts {

namespace {
const char* const kNames[] = {"queued", "running", "finished", "failed", "stopped", "crashed"};
}

const char* runStatusName(RunStatus status) { return kNames[static_cast<int>(status)]; }

std::optional<RunStatus> parseRunStatus(const std::string& name)
{
    for (int i = 0; i < 6; ++i)
        if (name == kNames[i]) return static_cast<RunStatus>(i);
    return std::nullopt;
}

bool lowerIsBetter(const std::string& metric)
{
    return metric.size() >= 4 && metric.compare(metric.size() - 4, 4, "loss") == 0;
}

}  // namespace ts

#include "learn/lesson_runs.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "io/yaml/experiment_yaml.h"

namespace ts::learn {

const MetricSummary* LessonRun::summary(const std::string& name) const
{
    for (const MetricSummary& s : summaries)
        if (s.name == name) return &s;
    return nullptr;
}

std::optional<RunScore> runScore(const LessonRun& run, const std::string& what)
{
    for (const char* prefix : {"val_", "test_"}) {
        const std::string name = prefix + what;
        const MetricSummary* s = run.summary(name);
        if (s && s->count > 0 && std::isfinite(s->best)) return RunScore{name, s->best};
    }
    return std::nullopt;
}

bool hasStore(const Workspace& workspace)
{
    std::error_code ec;
    return std::filesystem::is_regular_file(workspace.databasePath(), ec);
}

std::vector<LessonRun> lessonRuns(RunReader& reader, const std::string& experimentName)
{
    std::vector<LessonRun> out;
    std::vector<RunListing> listed = reader.listRuns();  // newest first
    for (auto it = listed.rbegin(); it != listed.rend(); ++it) {
        if (it->run.experimentName != experimentName) continue;
        const std::optional<RunInfo> info = reader.run(it->run.id);
        if (!info) continue;
        LessonRun run;
        run.info = *info;
        run.summaries = std::move(it->summaries);
        try {
            run.spec = parseExperiment(info->experimentYaml, "run " + std::to_string(info->id));
        } catch (const std::exception&) {
            continue;  // an experiment this version cannot read says nothing about the lesson
        }
        out.push_back(std::move(run));
    }
    return out;
}

std::vector<const LessonRun*> finishedRuns(const std::vector<LessonRun>& runs)
{
    std::vector<const LessonRun*> out;
    for (const LessonRun& r : runs)
        if (r.finished()) out.push_back(&r);
    return out;
}

std::string score(double value)
{
    // Three decimals, the precision runs differ by; a small loss keeps two significant digits
    // ("0.00042", not "0.000").
    char text[32];
    std::snprintf(text, sizeof text, value != 0 && std::abs(value) < 0.01 ? "%.2g" : "%.3f", value);
    return text;
}

std::string signedScore(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%+.3f", value);
    return text;
}

std::string rate(double value) { return numberArg(value); }

LessonResult noRuns(const LessonContext& context)
{
    return {false, makeMessage(MessageId::LessonNoRuns, {context.starting.name}), {}};
}

}  // namespace ts::learn

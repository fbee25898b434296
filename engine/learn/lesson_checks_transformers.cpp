// The lesson checks about Transformers (issue 40): draw an attention block into a ViT, see why
// Transformers warm up, watch a character-level GPT learn to write.
#include <algorithm>
#include <cmath>
#include <limits>

#include "learn/lesson_runs.h"

namespace ts {

using namespace learn;
using namespace lesson_goals;

namespace {

std::int64_t attentionLayers(const ExperimentSpec& spec)
{
    return std::count_if(spec.model.nodes.begin(), spec.model.nodes.end(),
                         [](const Node& n) { return n.op == "MultiHeadAttention"; });
}

bool sameRate(double a, double b) { return std::abs(a - b) <= 1e-12 + 1e-9 * std::abs(b); }

// How a run ended: the last value of its held-out loss (val_loss, else test_loss), or where
// the loss blew up (the trainer's "train.diverged_*" end, its first argument the step).
struct Ending {
    bool diverged = false;
    std::string step;    // where it diverged
    std::string metric;  // "val_loss"
    double loss = std::numeric_limits<double>::infinity();
};
std::optional<Ending> ending(const LessonRun& run)
{
    const Message& m = run.info.message;
    if (run.info.status == RunStatus::Failed && m.id.starts_with("train.diverged_") && !m.args.empty())
        return Ending{true, m.args[0], "", std::numeric_limits<double>::infinity()};
    if (!run.finished()) return std::nullopt;
    for (const char* name : {"val_loss", "test_loss"})
        if (const MetricSummary* s = run.summary(name); s && s->count > 0) return Ending{false, "", name, s->last};
    return std::nullopt;
}

// The lowest bits per character a run reached.
std::optional<RunScore> lowestBpc(const LessonRun& run)
{
    for (const char* name : {"val_bpc", "test_bpc"})
        if (const MetricSummary* s = run.summary(name); s && s->count > 0 && std::isfinite(s->min)) return RunScore{name, s->min};
    return std::nullopt;
}

// The samples a language model wrote at the end of each epoch, in its log.
std::vector<Message> writtenSamples(RunReader& reader, std::int64_t runId)
{
    std::vector<Message> out;
    for (const LogLine& line : reader.logs(runId))
        if (line.message.id == "train.text_sample") out.push_back(line.message);
    return out;
}

}  // namespace

LessonResult checkAttentionStepByStep(const LessonContext& context)
{
    if (!hasStore(context.workspace)) return noRuns(context);
    RunReader reader(context.workspace);
    const std::vector<LessonRun> runs = lessonRuns(reader, context.starting.name);
    const std::vector<const LessonRun*> done = finishedRuns(runs);
    // The best run with attention, else the best without (the starting experiment has none).
    const LessonRun* best = nullptr;
    RunScore bestScore;
    for (const LessonRun* r : done) {
        const std::optional<RunScore> s = runScore(*r, "acc");
        if (!s) continue;
        const bool attends = attentionLayers(r->spec) > 0;
        const bool bestAttends = best && attentionLayers(best->spec) > 0;
        if (!best || (attends && !bestAttends) || (attends == bestAttends && s->value > bestScore.value)) best = r, bestScore = *s;
    }
    if (!best) return noRuns(context);
    const std::int64_t layers = attentionLayers(best->spec);
    const std::string id = std::to_string(best->info.id);
    if (layers == 0)
        return {false, makeMessage(MessageId::LessonAttentionNoBlock, {id, bestScore.metric, score(bestScore.value)}), {}};
    const bool passed = bestScore.value >= kVitAccuracy;
    return {passed,
            makeMessage(passed ? MessageId::LessonAttentionPassed : MessageId::LessonAttentionNotYet,
                        {id, std::to_string(layers), bestScore.metric, score(bestScore.value), score(kVitAccuracy)}),
            {}};
}

LessonResult checkWhyWarmUp(const LessonContext& context)
{
    const double shipped = context.starting.optimizer.lr;
    const LessonResult noPlain{false, makeMessage(MessageId::LessonWarmupNoPlain, {rate(shipped)}), {}};
    if (!hasStore(context.workspace)) return noPlain;
    RunReader reader(context.workspace);
    const std::vector<LessonRun> runs = lessonRuns(reader, context.starting.name);
    // Runs without warm-up count when they finished or diverged; runs with warm-up when they finished.
    std::vector<std::pair<const LessonRun*, Ending>> plain, warm;
    for (const LessonRun& r : runs) {
        const std::optional<Ending> e = ending(r);
        if (!e) continue;
        if (r.spec.schedule.warmupSteps == 0)
            plain.emplace_back(&r, *e);
        else if (!e->diverged)
            warm.emplace_back(&r, *e);
    }
    if (plain.empty()) return noPlain;
    // Newest warm-up run first, each against the newest run without warm-up at its learning rate.
    std::optional<LessonResult> first;
    for (auto w = warm.rbegin(); w != warm.rend(); ++w) {
        const LessonRun& withRun = *w->first;
        const auto p = std::find_if(plain.rbegin(), plain.rend(), [&](const auto& candidate) {
            return sameRate(candidate.first->spec.optimizer.lr, withRun.spec.optimizer.lr);
        });
        if (p == plain.rend()) continue;
        const Ending& with = w->second;
        const Ending& without = p->second;
        const bool passed = without.diverged || with.loss < without.loss;
        const std::string steps = std::to_string(withRun.spec.schedule.warmupSteps);
        const std::string withId = std::to_string(withRun.info.id), withoutId = std::to_string(p->first->info.id);
        const std::string lr = rate(withRun.spec.optimizer.lr);
        LessonResult r;
        r.passed = passed;
        if (without.diverged)
            r.headline = makeMessage(MessageId::LessonWarmupPassedDiverged, {steps, withId, with.metric, score(with.loss), withoutId, without.step, lr});
        else if (passed)
            r.headline = makeMessage(MessageId::LessonWarmupPassed,
                                     {steps, withId, with.metric, score(with.loss), withoutId, score(without.loss), lr});
        else
            r.headline = makeMessage(MessageId::LessonWarmupNotYet,
                                     {steps, withId, with.metric, score(with.loss), score(without.loss), withoutId, lr});
        if (passed) return r;
        if (!first) first = r;
    }
    if (first) return *first;
    const LessonRun& latest = *plain.back().first;
    return {false,
            makeMessage(MessageId::LessonWarmupNoWarm, {std::to_string(latest.info.id), rate(latest.spec.optimizer.lr),
                                                        std::to_string(kWarmupSuggestedSteps)}),
            {}};
}

LessonResult checkMakeItWrite(const LessonContext& context)
{
    if (!hasStore(context.workspace)) return noRuns(context);
    RunReader reader(context.workspace);
    const std::vector<LessonRun> runs = lessonRuns(reader, context.starting.name);
    // The lowest bits per character among runs that wrote at least kSampleEpochs samples, else
    // among all.
    const LessonRun* best = nullptr;
    RunScore bestScore;
    std::vector<Message> bestSamples;
    for (const LessonRun* r : finishedRuns(runs)) {
        const std::optional<RunScore> s = lowestBpc(*r);
        if (!s) continue;
        std::vector<Message> samples = writtenSamples(reader, r->info.id);
        const bool enough = std::int64_t(samples.size()) >= kSampleEpochs;
        const bool bestEnough = std::int64_t(bestSamples.size()) >= kSampleEpochs;
        if (!best || (enough && !bestEnough) || (enough == bestEnough && s->value < bestScore.value))
            best = r, bestScore = *s, bestSamples = std::move(samples);
    }
    if (!best) return noRuns(context);
    const std::string id = std::to_string(best->info.id);
    if (std::int64_t(bestSamples.size()) < kSampleEpochs)
        return {false,
                makeMessage(MessageId::LessonWriteNoSamples, {id, bestScore.metric, score(bestScore.value),
                                                              std::to_string(bestSamples.size()), std::to_string(kSampleEpochs)}),
                {}};
    if (bestScore.value > kWritingBpc)
        return {false, makeMessage(MessageId::LessonWriteNotYet, {id, bestScore.metric, score(bestScore.value), score(kWritingBpc)}), {}};
    return {true,
            makeMessage(MessageId::LessonWritePassed, {id, bestScore.metric, score(bestScore.value), score(kWritingBpc),
                                                       std::to_string(bestSamples.size())}),
            bestSamples};
}

}  // namespace ts

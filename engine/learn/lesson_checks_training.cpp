// The lesson checks about training itself: overfit one batch, find a learning rate, beat the
// MLP with a CNN, fix an imbalanced dataset, fit a larger batch in the same memory.
#include <algorithm>
#include <cmath>

#include "backend/backend.h"
#include "learn/lesson_runs.h"
#include "tensor/format_bytes.h"
#include "train/memory_advice.h"

namespace ts {

using namespace learn;
using namespace lesson_goals;

namespace {

bool hasOp(const ExperimentSpec& spec, const std::string& op)
{
    return std::any_of(spec.model.nodes.begin(), spec.model.nodes.end(), [&](const Node& n) { return n.op == op; });
}

bool sameRate(double a, double b) { return std::abs(a - b) <= 1e-12 + 1e-9 * std::abs(b); }

// The finished run with the best score of `what` among those `keep` accepts; lower is better
// for losses.
struct Best {
    const LessonRun* run = nullptr;
    RunScore score;
};
template <class Keep>
Best bestRun(const std::vector<const LessonRun*>& runs, const std::string& what, Keep keep)
{
    const bool lower = what == "loss";
    Best best;
    for (const LessonRun* r : runs) {
        if (!keep(*r)) continue;
        const std::optional<RunScore> s = runScore(*r, what);
        if (!s) continue;
        if (!best.run || (lower ? s->value < best.score.value : s->value > best.score.value)) best = {r, *s};
    }
    return best;
}

bool rebalanced(const DatasetSpec& d)
{
    return d.sampler == "class_balanced" || (d.sampler == "weighted" && !d.classWeights.empty());
}

}  // namespace

LessonResult checkOverfitOneBatch(const LessonContext& context)
{
    if (!hasStore(context.workspace)) return noRuns(context);
    RunReader reader(context.workspace);
    const std::vector<LessonRun> runs = lessonRuns(reader, context.starting.name);
    const std::vector<const LessonRun*> done = finishedRuns(runs);
    if (done.empty()) return noRuns(context);
    // The overfit run whose training loss ended lowest.
    const LessonRun* best = nullptr;
    double first = 0, last = 0;
    for (const LessonRun* r : done) {
        if (r->spec.training.overfitBatches <= 0) continue;
        const MetricSeries loss = reader.metric(r->info.id, "train_loss");
        if (loss.values.empty() || !std::isfinite(loss.values.back())) continue;
        if (!best || loss.values.back() < last) best = r, first = loss.values.front(), last = loss.values.back();
    }
    if (!best) return {false, makeMessage(MessageId::LessonOverfitNoRun, {std::to_string(done.size())}), {}};
    const bool passed = last < kOverfitLoss;
    const std::vector<std::string> args{std::to_string(best->info.id), std::to_string(best->spec.training.overfitBatches),
                                        score(first), score(last), score(kOverfitLoss)};
    return {passed, makeMessage(passed ? MessageId::LessonOverfitPassed : MessageId::LessonOverfitNotYet, args), {}};
}

LessonResult checkFindLearningRate(const LessonContext& context)
{
    if (!hasStore(context.workspace)) return noRuns(context);
    RunReader reader(context.workspace);
    const std::vector<LessonRun> runs = lessonRuns(reader, context.starting.name);
    const std::vector<const LessonRun*> done = finishedRuns(runs);
    const double shipped = context.starting.optimizer.lr;
    const auto atShipped = [&](const LessonRun& r) { return sameRate(r.spec.optimizer.lr, shipped); };
    const Best baseline = bestRun(done, "loss", atShipped);
    if (!baseline.run) return {false, makeMessage(MessageId::LessonLrNoBaseline, {rate(shipped)}), {}};
    const Best tuned = bestRun(done, "loss", [&](const LessonRun& r) { return !atShipped(r); });
    if (!tuned.run)
        return {false,
                makeMessage(MessageId::LessonLrNoChange, {rate(shipped), baseline.score.metric, score(baseline.score.value),
                                                          std::to_string(baseline.run->info.id)}),
                {}};
    const double goal = kLearningRateLoss * baseline.score.value;
    const bool passed = tuned.score.value <= goal;
    const std::vector<std::string> args{std::to_string(tuned.run->info.id), rate(tuned.run->spec.optimizer.lr),
                                        tuned.score.metric, score(tuned.score.value), score(baseline.score.value),
                                        rate(shipped), std::to_string(baseline.run->info.id), score(goal)};
    return {passed, makeMessage(passed ? MessageId::LessonLrPassed : MessageId::LessonLrNotYet, args), {}};
}

LessonResult checkBeatTheMlp(const LessonContext& context)
{
    if (!hasStore(context.workspace)) return noRuns(context);
    RunReader reader(context.workspace);
    const std::vector<LessonRun> runs = lessonRuns(reader, context.starting.name);
    const std::vector<const LessonRun*> done = finishedRuns(runs);
    const Best mlp = bestRun(done, "acc", [](const LessonRun& r) { return !hasOp(r.spec, "Conv2d"); });
    if (!mlp.run) return {false, makeMessage(MessageId::LessonCnnNoMlp), {}};
    const Best cnn = bestRun(done, "acc", [](const LessonRun& r) { return hasOp(r.spec, "Conv2d"); });
    if (!cnn.run)
        return {false,
                makeMessage(MessageId::LessonCnnNoCnn, {std::to_string(mlp.run->info.id), mlp.score.metric, score(mlp.score.value)}),
                {}};
    const bool passed = cnn.score.value > mlp.score.value;
    const std::vector<std::string> args{std::to_string(cnn.run->info.id), cnn.score.metric, score(cnn.score.value),
                                        score(mlp.score.value), std::to_string(mlp.run->info.id)};
    return {passed, makeMessage(passed ? MessageId::LessonCnnPassed : MessageId::LessonCnnNotYet, args), {}};
}

LessonResult checkFixImbalance(const LessonContext& context)
{
    if (!hasStore(context.workspace)) return noRuns(context);
    RunReader reader(context.workspace);
    const std::vector<LessonRun> runs = lessonRuns(reader, context.starting.name);
    const std::vector<const LessonRun*> done = finishedRuns(runs);
    const Best baseline = bestRun(done, "macro_f1", [](const LessonRun& r) { return !rebalanced(r.spec.dataset); });
    if (!baseline.run) return {false, makeMessage(MessageId::LessonImbalanceNoBaseline), {}};
    const Best fixed = bestRun(done, "macro_f1", [](const LessonRun& r) { return rebalanced(r.spec.dataset); });
    if (!fixed.run)
        return {false,
                makeMessage(MessageId::LessonImbalanceNoFix, {std::to_string(baseline.run->info.id), score(baseline.score.value)}),
                {}};
    const double gain = fixed.score.value - baseline.score.value;
    const bool passed = gain >= kImbalanceF1Gain;
    const std::vector<std::string> args{std::to_string(fixed.run->info.id), fixed.run->spec.dataset.sampler,
                                        score(fixed.score.value), score(baseline.score.value),
                                        std::to_string(baseline.run->info.id), signedScore(gain), score(kImbalanceF1Gain)};
    return {passed, makeMessage(passed ? MessageId::LessonImbalancePassed : MessageId::LessonImbalanceNotYet, args), {}};
}

LessonResult checkFitLargerBatch(const LessonContext& context)
{
    if (!hasStore(context.workspace)) return noRuns(context);
    RunReader reader(context.workspace);
    const std::vector<LessonRun> runs = lessonRuns(reader, context.starting.name);
    const std::vector<const LessonRun*> done = finishedRuns(runs);
    if (done.empty()) return noRuns(context);
    // Planned on the CPU backend, as the Train page shows it: on a GPU only cuDNN's workspace differs.
    Backend& cpu = cpuBackend();
    const ExperimentSpec& start = context.starting;
    const double budget = kBatchBudget * double(planRunMemory(start, start.training.batchSize, cpu).total());
    const std::int64_t target = kBatchFactor * start.training.batchSize;
    // The largest effective batch within the budget, else the largest of all.
    const LessonRun* closest = nullptr;
    std::int64_t closestBatch = 0;
    double closestBytes = 0;
    bool closestFits = false;
    for (const LessonRun* r : done) {
        const TrainingSpec& t = r->spec.training;
        const std::int64_t effective = t.batchSize * std::max<std::int64_t>(1, t.accumulationSteps);
        const double bytes = double(planRunMemory(r->spec, t.batchSize, cpu).total());
        const bool fits = bytes <= budget;
        if (!closest || (fits && !closestFits) || (fits == closestFits && effective > closestBatch))
            closest = r, closestBatch = effective, closestBytes = bytes, closestFits = fits;
    }
    if (closestFits && closestBatch >= target) {
        const TrainingSpec& t = closest->spec.training;
        return {true,
                makeMessage(MessageId::LessonBatchPassed,
                            {std::to_string(closest->info.id), std::to_string(closestBatch), std::to_string(t.batchSize),
                             std::to_string(std::max<std::int64_t>(1, t.accumulationSteps)), formatBytes(closestBytes),
                             formatBytes(budget)}),
                {}};
    }
    return {false,
            makeMessage(MessageId::LessonBatchNotYet, {std::to_string(target), formatBytes(budget), std::to_string(closest->info.id),
                                                       std::to_string(closestBatch), formatBytes(closestBytes)}),
            {}};
}

}  // namespace ts

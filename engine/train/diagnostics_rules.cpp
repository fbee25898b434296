// The diagnostics over the event stream: losses, gradient norms, data wait, epoch metrics,
// the trainer's own warnings and failure, and the allocator's counts (thresholds: diagnostics.h).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <thread>

#include "tensor/format_bytes.h"
#include "train/diagnostics.h"

namespace ts {

namespace {

using enum MessageId;

constexpr std::size_t kWindow = 10;     // logged steps per loss window
constexpr std::size_t kRecent = 20;     // logged steps the gradient rules look back on
constexpr std::size_t kPersistent = 16;  // of kRecent: "persistently"
constexpr std::int64_t kWaitWarmup = 10, kWaitWindow = 50;
constexpr double kMiB = 1024.0 * 1024.0;

// Four significant digits: enough to read a loss or a rate in a sentence.
std::string num(double v)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.4g", v);
    return buffer;
}

double mean(const auto& values)
{
    return values.empty() ? 0.0 : std::accumulate(values.begin(), values.end(), 0.0) / double(values.size());
}

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values.empty() ? 0.0 : values[values.size() / 2];
}

void keepLast(std::deque<double>& values, double v, std::size_t n)
{
    values.push_back(v);
    if (values.size() > n) values.pop_front();
}

double argNumber(const Message& m, std::size_t i, double fallback = -1)
{
    if (i >= m.args.size()) return fallback;
    char* end = nullptr;
    const double v = std::strtod(m.args[i].c_str(), &end);
    return end != m.args[i].c_str() ? v : fallback;
}

}  // namespace

bool Diagnostics::highLearningRate(double lr) const
{
    return lr >= (spec_.optimizer.type == "sgd" ? kHighSgdLr : kHighAdaptiveLr);
}

void Diagnostics::nonFinite(std::vector<LogEvent>& out, const std::string& step, const std::string& epoch, double lr,
                            const std::string& value)
{
    if (!(lr > 0)) lr = lastLr_ > 0 ? lastLr_ : spec_.optimizer.lr;
    fire(out, DiagNonFinite, {step, epoch, num(lr), num(spec_.optimizer.lr * 0.1)});
    char* end = nullptr;
    const long long n = std::strtoll(step.c_str(), &end, 10);
    if (end != step.c_str()) transformerWarmup(out, n, value);
}

// A Transformer that breaks down in its first steps without warm-up: the advice is warm-up.
void Diagnostics::transformerWarmup(std::vector<LogEvent>& out, std::int64_t step, const std::string& value)
{
    if (attention_.empty() || spec_.schedule.warmupSteps > 0 || continued_ || step > kWarmupHorizon) return;
    const double lr = lastLr_ > 0 ? lastLr_ : spec_.optimizer.lr;
    std::string names;
    for (std::size_t i = 0; i < attention_.size(); ++i) names += (i ? ", " : "") + attention_[i];
    fire(out, DiagTransformerWarmup,
         {std::to_string(step), std::to_string(totalSteps_), value, std::isfinite(lowestLoss_) ? num(lowestLoss_) : "-",
          num(lr), names, std::to_string(suggestedWarmupSteps(totalSteps_, step))});
}

// A jump: a loss well above the untrained model's, or, once the run had learned, above where
// it started and well above its best.
void Diagnostics::checkWarmup(const StepEvent& s, std::vector<LogEvent>& out)
{
    if (!(firstLoss_ > 0)) {
        firstLoss_ = s.loss;
        return;
    }
    const bool aboveStart = s.loss > kWarmupJump * firstLoss_;
    const bool lostProgress = firstWindow_ && bestWindow_ <= 0.9 * *firstWindow_ && s.loss > std::max(*firstWindow_, 1.5 * bestWindow_);
    if (aboveStart || lostProgress) transformerWarmup(out, s.step, num(s.loss));
}

void Diagnostics::onStep(const StepEvent& s, std::vector<LogEvent>& out)
{
    if (!std::isfinite(s.loss) || !std::isfinite(s.gradNorm)) {
        nonFinite(out, std::to_string(s.step), std::to_string(s.epoch), s.lr, num(std::isfinite(s.loss) ? s.gradNorm : s.loss));
        return;
    }
    checkWarmup(s, out);  // against the windows before this step
    lowestLoss_ = std::min(lowestLoss_, s.loss);
    lastLr_ = s.lr;
    lastStep_ = s.step;
    checkDataWait(s, out);
    keepLast(gradNorms_, s.gradNorm, kRecent);
    keepLast(recentLosses_, s.loss, kRecent);
    checkGradients(out);
    if (s.step <= spec_.schedule.warmupSteps) return;  // a warm-up's losses say little about convergence
    losses_.push_back(s.loss);
    if (losses_.size() % kWindow == 0) {
        const double m = mean(std::vector<double>(losses_.end() - kWindow, losses_.end()));
        windowMeans_.push_back(m);
        if (!firstWindow_) firstWindow_ = bestWindow_ = m;
        bestWindow_ = std::min(bestWindow_, m);
        checkLossWindow(out);
    }
    checkConvergence(out);
}

void Diagnostics::checkConvergence(std::vector<LogEvent>& out)
{
    if (continued_ || convergenceChecked_ || !firstWindow_) return;
    const std::int64_t logEvery = std::max<std::int64_t>(1, spec_.training.logEverySteps);
    const std::int64_t perEpoch = stepsPerEpoch_ > 0 ? stepsPerEpoch_ / logEvery : 100;
    const std::size_t checkAt = std::size_t(std::max<std::int64_t>(20, std::min<std::int64_t>(100, perEpoch)));
    if (losses_.size() < checkAt) return;
    convergenceChecked_ = true;
    if (bestWindow_ < 0.95 * *firstWindow_) return;
    fire(out, DiagNotConverging, {std::to_string(lastStep_), num(*firstWindow_), num(windowMeans_.back())});
}

void Diagnostics::checkLossWindow(std::vector<LogEvent>& out)
{
    if (!highLearningRate(lastLr_)) return;
    const std::size_t n = windowMeans_.size();
    const auto& w = windowMeans_;
    const std::int64_t logEvery = std::max<std::int64_t>(1, spec_.training.logEverySteps);
    // A rise that matters: half again the best, and a tenth of where the loss started (the
    // noise of a loss near zero doubles it without meaning anything).
    if (n >= 4 && w[n - 1] > w[n - 2] && w[n - 2] > w[n - 3] && w[n - 3] > w[n - 4] && w[n - 1] > 1.5 * bestWindow_ &&
        w[n - 1] - bestWindow_ > 0.1 * *firstWindow_)
        fire(out, DiagLossRising, {num(w[n - 4]), num(w[n - 1]), std::to_string(3 * kWindow * logEvery), num(lastLr_)});
    const std::vector<double> last(losses_.end() - kWindow, losses_.end());
    const double m = w[n - 1];
    double var = 0;
    for (double v : last) var += (v - m) * (v - m);
    const double sd = std::sqrt(var / double(kWindow));
    if (sd > 0.5 * m && m > 0.5 * *firstWindow_) {
        const auto [lo, hi] = std::minmax_element(last.begin(), last.end());
        fire(out, DiagLossOscillating, {std::to_string(kWindow * logEvery), num(*lo), num(*hi), num(lastLr_)});
    }
}

void Diagnostics::checkGradients(std::vector<LogEvent>& out)
{
    if (gradNorms_.size() < kRecent) return;
    const std::vector<double> norms(gradNorms_.begin(), gradNorms_.end());
    const auto high = std::count_if(norms.begin(), norms.end(), [](double g) { return g > kGradientNormHigh; });
    const auto low = std::count_if(norms.begin(), norms.end(), [](double g) { return g < kGradientNormVanishing; });
    const std::string window = std::to_string(kRecent);
    if (std::size_t(high) >= kPersistent)
        fire(out, DiagGradientExploding, {std::to_string(high), window, num(median(norms))});
    const double loss = mean(recentLosses_);
    if (std::size_t(low) >= kPersistent && firstWindow_ && loss > 0.5 * *firstWindow_)
        fire(out, DiagGradientVanishing, {std::to_string(low), window, num(median(norms)), num(loss)});
}

void Diagnostics::checkDataWait(const StepEvent& s, std::vector<LogEvent>& out)
{
    if (++loggedSteps_ <= kWaitWarmup) {  // the loader's queue fills during the first steps
        waitStart_ = s.wallTime;
        return;
    }
    waitSum_ += s.dataWaitSeconds;
    if (++waitSteps_ < kWaitWindow) return;
    const double span = s.wallTime - waitStart_;
    if (span > 0 && waitSum_ / span > kDataWaitShare) starving(out, waitSum_ / span);
    waitStart_ = s.wallTime;
    waitSum_ = 0;
    waitSteps_ = 0;
}

void Diagnostics::starving(std::vector<LogEvent>& out, double share)
{
    fire(out, DiagLoaderStarving,
         {std::to_string(std::lround(share * 100)), std::to_string(spec_.dataset.numWorkers),
          std::to_string(std::thread::hardware_concurrency())});
}

void Diagnostics::onEpoch(const EpochEvent& e, std::vector<LogEvent>& out)
{
    if (e.dataWaitFraction > kDataWaitShare) starving(out, e.dataWaitFraction);
    const auto metric = [&](const char* name) {
        const auto it = e.metrics.find(name);
        return it != e.metrics.end() ? it->second : NAN;
    };
    const char* held = e.metrics.count("val_loss") ? "val_loss" : "test_loss";
    const double v = metric(held), t = metric("train_loss");
    if (!std::isfinite(v) || !std::isfinite(t)) return;
    heldLoss_.push_back(v);
    trainLoss_.push_back(t);
    heldEpochs_.push_back(e.epoch);
    const std::size_t n = heldLoss_.size(), k = std::size_t(kOverfitEpochs);
    if (n < k + 1) return;
    for (std::size_t i = n - k; i < n; ++i)
        if (!(heldLoss_[i] > heldLoss_[i - 1])) return;
    if (!(trainLoss_[n - 1] < trainLoss_[n - 1 - k])) return;
    const std::size_t best = std::size_t(std::min_element(heldLoss_.begin(), heldLoss_.end()) - heldLoss_.begin());
    fire(out, DiagOverfitting,
         {held, std::to_string(k), num(heldLoss_[n - 1 - k]), num(heldLoss_[n - 1]), num(trainLoss_[n - 1 - k]),
          num(trainLoss_[n - 1]), std::to_string(heldEpochs_[best])});
}

void Diagnostics::onLog(const LogEvent& l, std::vector<LogEvent>& out)
{
    const Message& m = l.message;
    if (m.id == "train.f16_overflow") {  // step, the scale that overflowed, the scale now
        const double step = argNumber(m, 0), before = argNumber(m, 1), now = argNumber(m, 2);
        if (now < 0) return;
        ++overflows_;
        if (firstScale_ < 0) firstScale_ = before > 0 ? before : now;
        if (lowestScale_ < 0 || now < lowestScale_) {
            lowestScale_ = now;
            if (step > 100) ++scaleDrops_;  // past the first search for a scale that fits
        }
        if (scaleDrops_ >= 4 || now < 1)
            fire(out, DiagLossScaleFalling, {numberArg(firstScale_), numberArg(now), std::to_string(overflows_), m.args.at(0)});
    } else if (m.id == "train.skipped_nan_loss" || m.id == "train.skipped_infinite_loss" ||
               m.id == "train.skipped_non_finite_gradient") {
        if (++skippedSteps_ == 3 && m.args.size() >= 2)
            nonFinite(out, m.args[0], m.args[1], -1, m.id == "train.skipped_infinite_loss" ? "inf" : "nan");
    }
}

void Diagnostics::onFinished(const FinishedEvent& f, std::vector<LogEvent>& out)
{
    // The trainer's divergence: step, epoch, batch, lr, lr / 10, classes.
    if (f.outcome == FinishedEvent::Outcome::Failed && f.message.id.starts_with("train.diverged_") &&
        f.message.args.size() >= 4)
        nonFinite(out, f.message.args[0], f.message.args[1], argNumber(f.message, 3),
                  f.message.id == "train.diverged_infinite_loss" ? "inf" : "nan");
}

std::vector<LogEvent> Diagnostics::observeMemory(std::int64_t epoch, const AllocatorStats& stats)
{
    std::vector<LogEvent> out;
    const double allocated = double(stats.allocated), reserved = double(stats.reserved);
    allocated_.push_back(allocated);
    const std::size_t n = allocated_.size();
    if (n >= 4 && allocated_[n - 1] > allocated_[n - 2] && allocated_[n - 2] > allocated_[n - 3] &&
        allocated_[n - 3] > allocated_[n - 4]) {
        const double grown = allocated_[n - 1] - allocated_[n - 4];
        if (grown > 16 * kMiB && grown > 0.1 * allocated_[n - 4])
            fire(out, DiagMemoryGrowing, {formatBytes(allocated_[n - 4]), formatBytes(allocated_[n - 1]), "3"});
    }
    if (reserved > 2 * allocated && reserved - allocated > 256 * kMiB)
        fire(out, DiagMemoryFragmented, {formatBytes(reserved), formatBytes(allocated), std::to_string(epoch)});
    return out;
}

}  // namespace ts

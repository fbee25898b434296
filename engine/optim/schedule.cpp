// Learning-rate schedules (formulas in schedule.h). Pure functions of the step: no state, so
// the studio's preview, a fresh run and a resumed run all see the same curve.
#include "optim/schedule.h"
#include "tensor/quote_text.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace ts {

namespace {

constexpr double kPi = 3.14159265358979323846;
const char* const kValidTypes = "constant, step, multistep, exponential, cosine, cosine_restarts, onecycle, plateau, range_test";

void require(bool ok, const std::string& what)
{
    if (!ok) throw std::invalid_argument("schedule: " + what);
}

// Cosine annealing from `from` (pct 0) to `to` (pct 1).
double cosineAnneal(double from, double to, double pct) { return to + (from - to) * (1 + std::cos(kPi * pct)) / 2; }

double cosineRestarts(const ScheduleSpec& s, double baseLr, std::int64_t step, std::int64_t stepsPerEpoch)
{
    require(s.restartEpochs >= 1, "cosine_restarts needs restart_epochs >= 1");
    require(s.restartMultiplier >= 1, "cosine_restarts needs restart_multiplier >= 1");
    const double first = double(s.restartEpochs) * double(stepsPerEpoch);
    double start = 0, period = first;
    if (s.restartMultiplier == 1) {
        start = std::floor(step / first) * first;
    } else {
        // Periods grow geometrically, so this loop runs O(log step) times.
        while (step >= start + period) {
            start += period;
            period *= s.restartMultiplier;
        }
    }
    return cosineAnneal(baseLr, s.minLr, (step - start) / period);
}

// torch.optim.lr_scheduler.OneCycleLR with its defaults: div_factor 25, final_div_factor 1e4,
// anneal_strategy 'cos', three_phase False. Phase ends are float step indices, as in torch.
double oneCycle(const ScheduleSpec& s, double baseLr, std::int64_t step, std::int64_t totalSteps)
{
    require(s.pctStart >= 0 && s.pctStart <= 1, "onecycle needs pct_start in [0, 1]");
    const double maxLr = s.maxLr > 0 ? s.maxLr : 10 * baseLr;
    const double initialLr = maxLr / 25, finalLr = initialLr / 1e4;
    const double peakStep = s.pctStart * double(totalSteps) - 1, lastStep = double(totalSteps) - 1;
    const double t = double(std::min(step, totalSteps - 1));
    // A phase of zero length (tiny runs) is already complete rather than 0/0.
    auto pct = [](double at, double begin, double end) { return end > begin ? (at - begin) / (end - begin) : 1.0; };
    if (t <= peakStep) return cosineAnneal(initialLr, maxLr, pct(t, 0, peakStep));
    return cosineAnneal(maxLr, finalLr, pct(t, peakStep, lastStep));
}

}  // namespace

double warmupFactor(const ScheduleSpec& spec, std::int64_t step)
{
    if (step >= spec.warmupSteps) return 1.0;
    return spec.warmupStartFactor + (1.0 - spec.warmupStartFactor) * double(step) / double(spec.warmupSteps);
}

double scheduledLr(const ScheduleSpec& s, double baseLr, std::int64_t step, std::int64_t stepsPerEpoch,
                   std::int64_t totalSteps)
{
    require(step >= 0, "step must be >= 0");
    require(stepsPerEpoch >= 1, "steps per epoch must be >= 1");
    require(s.warmupSteps >= 0, "warmup_steps must be >= 0");
    require(s.warmupStartFactor >= 0 && s.warmupStartFactor <= 1, "warmup_start_factor must be in [0, 1]");
    const std::int64_t epoch = step / stepsPerEpoch;
    double lr;
    if (s.type == "constant" || s.type == "plateau") {
        lr = baseLr;
    } else if (s.type == "step") {
        require(s.stepSize >= 1, "step needs step_size >= 1");
        lr = baseLr * std::pow(s.gamma, double(epoch / s.stepSize));
    } else if (s.type == "multistep") {
        const auto passed = std::count_if(s.milestones.begin(), s.milestones.end(), [&](std::int64_t m) { return m <= epoch; });
        lr = baseLr * std::pow(s.gamma, double(passed));
    } else if (s.type == "exponential") {
        lr = baseLr * std::pow(s.gamma, double(epoch));
    } else if (s.type == "cosine") {
        require(totalSteps >= 1, "cosine needs total steps >= 1");
        lr = cosineAnneal(baseLr, s.minLr, double(std::min(step, totalSteps)) / double(totalSteps));
    } else if (s.type == "cosine_restarts") {
        lr = cosineRestarts(s, baseLr, step, stepsPerEpoch);
    } else if (s.type == "onecycle") {
        require(totalSteps >= 1, "onecycle needs total steps >= 1");
        lr = oneCycle(s, baseLr, step, totalSteps);
    } else if (s.type == "range_test") {
        require(totalSteps >= 2, "range_test needs total steps >= 2");
        require(s.maxLr > baseLr && baseLr > 0, "range_test needs 0 < lr < max_lr");
        lr = baseLr * std::pow(s.maxLr / baseLr, double(std::min(step, totalSteps - 1)) / double(totalSteps - 1));
    } else {
        throw std::invalid_argument("unknown schedule " + quoteText(s.type) + " (valid: " + kValidTypes + ")");
    }
    return lr * warmupFactor(s, step);
}

PlateauScheduler::PlateauScheduler(const ScheduleSpec& spec, double baseLr) : spec_(spec), lr_(baseLr)
{
    require(spec.factor >= 0 && spec.factor < 1, "plateau needs factor in [0, 1)");
    require(spec.patience >= 0, "plateau needs patience >= 0");
    require(spec.threshold >= 0, "plateau needs threshold >= 0");
}

double PlateauScheduler::update(double metric, bool lowerIsBetter)
{
    bool improved = false;
    if (std::isfinite(metric)) {
        const double margin = std::abs(best_) * spec_.threshold;
        improved = !hasBest_ || (lowerIsBetter ? metric < best_ - margin : metric > best_ + margin);
    }
    if (improved) {
        best_ = metric;
        hasBest_ = true;
        badEpochs_ = 0;
    } else if (++badEpochs_ > spec_.patience) {
        const double reduced = std::max(lr_ * spec_.factor, spec_.minLr);
        if (lr_ - reduced > 1e-8) lr_ = reduced;  // torch's eps: changes smaller than this are ignored
        badEpochs_ = 0;
    }
    return lr_;
}

}  // namespace ts

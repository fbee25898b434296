// SGD, Adam, AdamW and RMSprop over the executor's flat buffers. Each optimizer is a thin
// shell around one backend update primitive; the shared part (state buffers on the
// backend, checkpoint state, step count, weight decay's parameter groups) lives in
// FlatOptimizer.
#include "optim/optimizer.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

#include "backend/backend.h"
#include "exec/executor.h"
#include "tensor/quote_text.h"

namespace ts {

namespace {

// State buffers are flat like the gradients (same layout), zeroed at creation; their names
// are PyTorch's (exp_avg, ...). "step" travels with them as a 1-element i64 tensor.
class FlatOptimizer : public Optimizer {
public:
    FlatOptimizer(Executor& executor, const OptimizerSpec& spec, const std::vector<std::string>& bufferNames)
        : backend_(executor.backend()), param_(executor.flatParameters()), grad_(executor.flatGradients()),
          n_(executor.flatGradients().numel()), ranges_(decayRanges(executor, spec))
    {
        for (const std::string& name : bufferNames) {
            Tensor t = Tensor::empty(Shape{n_}, DType::F32, backend_.allocator());
            backend_.zeroBytes(t.raw(), t.bytes());
            buffers_.emplace_back(name, std::move(t));
        }
    }

    void step(float lr) override
    {
        ++steps_;
        for (const DecayRange& r : ranges_) update(lr, r.begin, r.end - r.begin, r.decay);
    }

    std::vector<std::pair<std::string, Tensor>> state() const override
    {
        std::vector<std::pair<std::string, Tensor>> out;
        for (const auto& [name, buf] : buffers_) {
            Tensor host = Tensor::empty(buf.shape(), DType::F32);
            backend_.copyToHost(host.raw(), buf.raw(), buf.bytes());
            out.emplace_back(name, std::move(host));
        }
        Tensor step = Tensor::empty(Shape{1}, DType::I64);
        step.data<std::int64_t>()[0] = steps_;
        out.emplace_back("step", std::move(step));
        return out;
    }

    // All or nothing: every entry is checked before anything is copied, so a mismatched
    // checkpoint (another optimizer, another model) leaves the optimizer untouched.
    void loadState(const std::vector<std::pair<std::string, Tensor>>& state) override
    {
        std::set<std::string> expected{"step"}, seen;
        for (const auto& b : buffers_) expected.insert(b.first);
        for (const auto& [name, t] : state) {
            if (!expected.count(name))
                throw std::invalid_argument("optimizer state has an unexpected entry " + quoteText(name));
            if (!seen.insert(name).second) throw std::invalid_argument("optimizer state repeats " + quoteText(name));
            const bool isStep = name == "step";
            const DType want = isStep ? DType::I64 : DType::F32;
            const std::int64_t numel = isStep ? 1 : n_;
            if (!t.defined() || t.dtype() != want || t.numel() != numel || t.device().kind != DeviceKind::CPU)
                throw std::invalid_argument("optimizer state " + quoteText(name) + " must be a host " +
                                            std::string(dtypeName(want)) + " tensor of " + std::to_string(numel) +
                                            " elements");
        }
        if (seen != expected) throw std::invalid_argument("optimizer state is missing entries");
        for (const auto& [name, t] : state) {
            if (name == "step") {
                steps_ = t.data<std::int64_t>()[0];
                continue;
            }
            for (auto& b : buffers_)
                if (b.first == name) backend_.copyFromHost(b.second.raw(), t.raw(), b.second.bytes());
        }
    }

    std::int64_t stepCount() const override { return steps_; }
    std::size_t stateBytes() const override
    {
        std::size_t bytes = 0;
        for (const auto& b : buffers_) bytes += b.second.bytes();
        return bytes;
    }

protected:
    // One sweep over elements [offset, offset + count); `decay`: whether weight decay applies there.
    virtual void update(float lr, std::int64_t offset, std::int64_t count, bool decay) = 0;
    float* buffer(std::size_t i, std::int64_t offset) const { return buffers_[i].second.data<float>() + offset; }
    float* param(std::int64_t offset) const { return param_.data<float>() + offset; }
    const float* grad(std::int64_t offset) const { return grad_.data<float>() + offset; }

    Backend& backend_;
    Tensor param_, grad_;  // views: only the trainable prefix (n_ elements) is updated
    std::int64_t n_;
    std::int64_t steps_ = 0;

private:
    // Stretches of the flat buffer that weight decay does or does not touch: the parameters in
    // their layout order, neighbours of one group merged (the alignment padding between them
    // included). One stretch for the whole buffer without decay or with decay_all, so such a
    // run makes the same single sweep as before the groups.
    struct DecayRange {
        std::int64_t begin, end;
        bool decay;
    };
    static std::vector<DecayRange> decayRanges(Executor& executor, const OptimizerSpec& spec)
    {
        const std::int64_t n = executor.flatGradients().numel();
        if (n == 0) return {};
        if (spec.weightDecay == 0 || spec.decayAll) return {{0, n, true}};
        std::vector<std::pair<std::int64_t, bool>> starts;  // (first element, decays), in layout order
        const std::size_t base = executor.flatGradients().offset();
        for (const Parameter& p : executor.parameters())
            if (p.trainable && p.grad.defined())
                starts.emplace_back(static_cast<std::int64_t>((p.grad.offset() - base) / sizeof(float)), p.decay);
        std::sort(starts.begin(), starts.end());
        std::vector<DecayRange> ranges;
        for (const auto& [begin, decay] : starts) {
            if (!ranges.empty() && ranges.back().decay == decay) continue;
            if (!ranges.empty()) ranges.back().end = begin;
            ranges.push_back({ranges.empty() ? 0 : begin, n, decay});
        }
        return ranges;
    }

    std::vector<DecayRange> ranges_;
    std::vector<std::pair<std::string, Tensor>> buffers_;
};

class Sgd final : public FlatOptimizer {
public:
    Sgd(const OptimizerSpec& s, Executor& ex)
        : FlatOptimizer(ex, s, optimizerStateNames(s)), spec_(s)
    {
    }

private:
    void update(float lr, std::int64_t at, std::int64_t count, bool decay) override
    {
        backend_.sgdUpdate(param(at), grad(at), spec_.momentum != 0 ? buffer(0, at) : nullptr, count, lr,
                           spec_.momentum, spec_.nesterov, decay ? spec_.weightDecay : 0.0);
    }
    OptimizerSpec spec_;
};

class Adam final : public FlatOptimizer {
public:
    Adam(const OptimizerSpec& s, Executor& ex, bool decoupled)
        : FlatOptimizer(ex, s, optimizerStateNames(s)), spec_(s), decoupled_(decoupled)
    {
    }

private:
    void update(float lr, std::int64_t at, std::int64_t count, bool decay) override
    {
        backend_.adamUpdate(param(at), grad(at), buffer(0, at), buffer(1, at), count, lr, spec_.beta1, spec_.beta2,
                            spec_.eps, decay ? spec_.weightDecay : 0.0, decoupled_, steps_);
    }
    OptimizerSpec spec_;
    bool decoupled_;
};

class RmsProp final : public FlatOptimizer {
public:
    RmsProp(const OptimizerSpec& s, Executor& ex)
        : FlatOptimizer(ex, s, optimizerStateNames(s)), spec_(s)
    {
    }

private:
    void update(float lr, std::int64_t at, std::int64_t count, bool decay) override
    {
        backend_.rmspropUpdate(param(at), grad(at), buffer(0, at), spec_.momentum > 0 ? buffer(1, at) : nullptr, count,
                               lr, spec_.alpha, spec_.eps, decay ? spec_.weightDecay : 0.0, spec_.momentum);
    }
    OptimizerSpec spec_;
};

// The same range checks torch.optim makes, so a bad experiment fails before training.
void validate(const OptimizerSpec& s)
{
    auto require = [&](bool ok, const std::string& what) {
        if (!ok) throw std::invalid_argument("optimizer " + s.type + ": " + what);
    };
    require(std::isfinite(s.lr) && s.lr >= 0, "lr must be >= 0");
    require(s.weightDecay >= 0, "weight_decay must be >= 0");
    require(s.momentum >= 0 && s.momentum < 1, "momentum must be in [0, 1)");
    require(!s.nesterov || s.momentum > 0, "nesterov needs momentum > 0");
    require(s.eps >= 0, "eps must be >= 0");
    require(s.beta1 >= 0 && s.beta1 < 1 && s.beta2 >= 0 && s.beta2 < 1, "betas must be in [0, 1)");
    require(s.alpha >= 0 && s.alpha <= 1, "alpha must be in [0, 1]");
}

}  // namespace

std::vector<std::string> optimizerStateNames(const OptimizerSpec& spec)
{
    if (spec.type == "adam" || spec.type == "adamw") return {"exp_avg", "exp_avg_sq"};
    if (spec.type == "rmsprop")
        return spec.momentum > 0 ? std::vector<std::string>{"square_avg", "momentum_buffer"}
                                 : std::vector<std::string>{"square_avg"};
    return spec.momentum != 0 ? std::vector<std::string>{"momentum_buffer"} : std::vector<std::string>{};
}

std::unique_ptr<Optimizer> makeOptimizer(const OptimizerSpec& spec, Executor& executor)
{
    if (spec.type != "sgd" && spec.type != "adam" && spec.type != "adamw" && spec.type != "rmsprop")
        throw std::invalid_argument("unknown optimizer " + quoteText(spec.type) + " (valid: sgd, adam, adamw, rmsprop)");
    validate(spec);
    if (spec.type == "sgd") return std::make_unique<Sgd>(spec, executor);
    if (spec.type == "adam") return std::make_unique<Adam>(spec, executor, false);
    if (spec.type == "adamw") return std::make_unique<Adam>(spec, executor, true);
    return std::make_unique<RmsProp>(spec, executor);
}

double gradientNorm(Executor& executor)
{
    const Tensor& g = executor.flatGradients();
    if (g.numel() == 0) return 0.0;
    return std::sqrt(executor.backend().sumSquares(g.data<float>(), g.numel()));
}

double clipGradientNorm(Executor& executor, double maxNorm)
{
    if (!(maxNorm > 0)) throw std::invalid_argument("clipGradientNorm: max norm must be > 0");
    const double norm = gradientNorm(executor);
    // A non-finite norm is returned untouched: scaling by 0 or NaN would only hide it, and
    // the trainer decides whether to skip the step.
    if (std::isfinite(norm) && norm > maxNorm) {
        const Tensor& g = executor.flatGradients();
        executor.backend().scale(g.data<float>(), g.numel(), static_cast<float>(maxNorm / (norm + 1e-6)));
    }
    return norm;
}

void clipGradientValue(Executor& executor, double maxValue)
{
    if (!(maxValue > 0)) throw std::invalid_argument("clipGradientValue: max value must be > 0");
    const Tensor& g = executor.flatGradients();
    const float m = static_cast<float>(maxValue);
    if (g.numel() > 0) executor.backend().clampValues(g.data<float>(), g.numel(), -m, m);
}

std::vector<std::pair<std::string, double>> parameterGradientNorms(Executor& executor)
{
    // Every trainable gradient is a view into the flat gradient buffer: one segmented pass.
    const Tensor& flat = executor.flatGradients();
    std::vector<std::pair<std::string, double>> out;
    std::vector<std::pair<std::int64_t, std::int64_t>> ranges;
    for (const Parameter& p : executor.parameters())
        if (p.trainable && p.grad.defined()) {
            const auto begin = static_cast<std::int64_t>((p.grad.offset() - flat.offset()) / sizeof(float));
            ranges.emplace_back(begin, begin + p.grad.numel());
            out.emplace_back(p.name, 0.0);
        }
    if (ranges.empty()) return out;
    std::vector<double> sums(ranges.size());
    executor.backend().segmentedSumSquares(flat.data<float>(), ranges, sums.data());
    for (std::size_t i = 0; i < out.size(); ++i) out[i].second = std::sqrt(sums[i]);
    return out;
}

}  // namespace ts

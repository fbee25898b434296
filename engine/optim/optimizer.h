// Optimizers update the executor's flat parameter buffer from its flat gradient buffer, on
// the executor's backend, in one sweep per step (the CUDA backend fuses it into one kernel),
// or, with weight decay in groups, one sweep per stretch of parameters of one group.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "types/experiment_spec.h"
#include "tensor/tensor.h"

namespace ts {

class Executor;

class Optimizer {
public:
    virtual ~Optimizer() = default;
    // One update with learning rate `lr` (from the schedule) using the current gradients.
    virtual void step(float lr) = 0;
    // Optimizer state (momenta etc.) as named host tensors, for checkpoints, and back.
    virtual std::vector<std::pair<std::string, Tensor>> state() const = 0;
    virtual void loadState(const std::vector<std::pair<std::string, Tensor>>& state) = 0;
    virtual std::int64_t stepCount() const = 0;
    // Bytes of optimizer state (for the memory plan: Adam keeps two copies of the parameters).
    virtual std::size_t stateBytes() const = 0;
};

// Throws std::invalid_argument for an unknown type or an out-of-range hyperparameter
// (torch.optim's checks, plus momentum < 1). Updates cover flatGradients().numel() elements:
// the trainable prefix of flatParameters(). State buffers are zeroed, on the executor's backend.
// Weight decay applies to the parameters whose Parameter::decay is set (ops/op.h decays():
// weight matrices and kernels, not biases, norms and embeddings), to all with spec.decayAll;
// torch.optim's two param groups {weight_decay: wd} and {weight_decay: 0} do the same.
// state() names: "step" (i64 [1]) and the flat f32 buffers: sgd "momentum_buffer" (momentum > 0),
// adam/adamw "exp_avg", "exp_avg_sq", rmsprop "square_avg" (+ "momentum_buffer").
// loadState() throws std::invalid_argument, changing nothing, unless the names, dtypes and
// sizes are exactly those.
std::unique_ptr<Optimizer> makeOptimizer(const OptimizerSpec& spec, Executor& executor);
// The per-parameter buffers `spec`'s optimizer keeps (the state names above): each is one more
// copy of the trainable parameters, so a run's memory is known before it starts.
std::vector<std::string> optimizerStateNames(const OptimizerSpec& spec);

// Global L2 norm of all gradients (accumulated in double).
double gradientNorm(Executor& executor);
// Scales gradients by maxNorm / (norm + 1e-6) when norm > maxNorm (torch's clip_grad_norm_);
// returns the norm before clipping. A non-finite norm is returned with the gradients left
// as they are. maxNorm must be > 0 (std::invalid_argument otherwise).
double clipGradientNorm(Executor& executor, double maxNorm);
// Clamps every gradient element to [-maxValue, maxValue]; maxValue must be > 0.
void clipGradientValue(Executor& executor, double maxValue);
// L2 norm of each trainable parameter's gradient, in parameter order ("fc1.weight", ...):
// the trainer sums squares per layer prefix for per-layer gradient-norm charts.
std::vector<std::pair<std::string, double>> parameterGradientNorms(Executor& executor);

}  // namespace ts

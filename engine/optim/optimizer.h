// Optimizers update the executor's flat parameter buffer from its flat gradient buffer, on
// the executor's backend, in one sweep per step (the CUDA backend fuses it into one kernel).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "io/experiment_spec.h"
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

// Throws std::invalid_argument for an unknown type.
std::unique_ptr<Optimizer> makeOptimizer(const OptimizerSpec& spec, Executor& executor);

// Global L2 norm of all gradients (accumulated in double).
double gradientNorm(Executor& executor);
// Scales gradients so their global norm is at most maxNorm; returns the norm before clipping.
double clipGradientNorm(Executor& executor, double maxNorm);
// Clamps every gradient element to [-maxValue, maxValue].
void clipGradientValue(Executor& executor, double maxValue);

}  // namespace ts

// Finite-difference gradient checker for one op on the CPU backend (the reference).
//
// The objective is J = sum(output * R) for a fixed random R, accumulated in double. The
// analytic gradient comes from the op's backward with gradOutput = R; every gradient
// buffer is pre-filled with garbage G first and the check compares (grad - G) with the
// central difference (J(x+eps) - J(x-eps)) / 2eps. A backward that forgets to write, or
// overwrites where it must accumulate, fails.
//
// Tolerance (float32 forward): |analytic - numeric| <= atol + rtol * max(|analytic|, |numeric|),
// by default eps = 1e-2, atol = 2e-3, rtol = 2e-2. Truncation error is O(eps^2 f''') and
// float32 rounding of J contributes ~1e-7 * |J| / eps, both well inside these bounds for
// inputs of order one.
#pragma once
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "types/attrs.h"
#include "ops/op.h"

namespace ts::test {

using Fill = std::function<void(Tensor&, std::mt19937_64&)>;

struct GradCase {
    std::string op;
    Attrs attrs;
    std::vector<TensorSpec> inputs;  // full shapes, batch dimension included
    std::vector<Fill> fills;         // per input; empty or missing: standard normal (ints: 0)
    bool training = true;
    double eps = 1e-2, atol = 2e-3, rtol = 2e-2;
    int maxPointsPerTensor = 64;  // elements probed per tensor (chosen at random when larger)
    std::uint64_t seed = 1;
};

// Returns "" when every gradient matches; otherwise a report naming op, tensor, index and values.
std::string gradCheck(const GradCase& c);

// Fills for inputs near kinks and for integer inputs.
Fill normalFill(double stddev = 1.0);
Fill awayFromZero(double margin);  // |x| >= margin: ReLU-like kinks stay out of reach of eps
Fill distinctValues(double spacing);  // a shuffled ramp: no ties in max pooling
Fill integerFill(std::int64_t lo, std::int64_t hi);  // i64 values in [lo, hi)
Fill uniformFill(double lo, double hi);

// Host tensors from literal values (known-value tests); the count must match the shape.
Tensor floats(const Shape& shape, const std::vector<float>& values);
Tensor indices(const Shape& shape, const std::vector<std::int64_t>& values);

// Runs an op's forward alone on the CPU backend (known-value tests). params in Op::params()
// order; `seed` is the context's seed (dropout).
Tensor runForward(const std::string& op, const Attrs& attrs, const std::vector<Tensor>& inputs,
                  const std::vector<Tensor>& params, bool training = true,
                  std::vector<Tensor>* savedOut = nullptr, std::uint64_t seed = 7);

}  // namespace ts::test

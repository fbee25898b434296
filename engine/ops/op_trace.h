// Which primitives an op calls, learnt by running it (TracingBackend) rather than declared:
// the op's forward and backward run on placeholder tensors of the real shapes, and nothing is
// computed. The executor's plan reads it (which passes a backend lacks, which nodes it can
// fuse), and so do `trainstudio-cli ops` and the tests.
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "backend/tracing_backend.h"
#include "ops/op.h"

namespace ts {

// The four ways an op runs: forward and backward, in training or in inference mode (batch
// norm uses other primitives in each; backward in inference mode is rare but possible).
enum class OpPass : std::uint8_t { TrainingForward, TrainingBackward, InferenceForward, InferenceBackward };
inline constexpr std::array kAllOpPasses{OpPass::TrainingForward, OpPass::TrainingBackward, OpPass::InferenceForward,
                                         OpPass::InferenceBackward};
constexpr bool isBackward(OpPass p) { return p == OpPass::TrainingBackward || p == OpPass::InferenceBackward; }
constexpr bool isTraining(OpPass p) { return p == OpPass::TrainingForward || p == OpPass::TrainingBackward; }
constexpr std::string_view opPassName(OpPass p)  // "training forward", ...
{
    switch (p) {
    case OpPass::TrainingForward: return "training forward";
    case OpPass::TrainingBackward: return "training backward";
    case OpPass::InferenceForward: return "inference forward";
    case OpPass::InferenceBackward: return "inference backward";
    }
    return "?";
}

// The primitives one pass of `op` calls, in order, on inputs of these specs and `attrs` with
// every default filled in (normaliseAttrs). Backward gets a gradient for input i where
// inputGrads[i] says so (empty: every differentiable input) and for every trainable parameter,
// all accumulated into.
std::vector<PrimitiveCall> traceOp(const Op& op, OpPass pass, const Attrs& attrs, std::span<const TensorSpec> inputs,
                                   const std::vector<bool>& inputGrads = {});

// Each pass's calls, indexed by OpPass.
struct OpTrace {
    std::array<std::vector<PrimitiveCall>, kAllOpPasses.size()> passes;
    std::vector<PrimitiveCall>& operator[](OpPass p) { return passes[static_cast<std::size_t>(p)]; }
    const std::vector<PrimitiveCall>& operator[](OpPass p) const { return passes[static_cast<std::size_t>(p)]; }
};

// The primitives in `calls` that `backend` does not support (f32), each once, in call order.
std::vector<Primitive> unsupportedPrimitives(const std::vector<PrimitiveCall>& calls, const Backend& backend);

}  // namespace ts

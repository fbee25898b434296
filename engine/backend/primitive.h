// The names of the Backend's primitives, one list: what a backend says it supports
// (Backend::supports), what an op declares it calls (Op::primitives), what the self-test checks.
#pragma once
#include <array>
#include <cstdint>
#include <string_view>

namespace ts {

// Each name is the Backend method's own. The memory group comes first: every backend has it
// (the executor's copies for a CPU fallback are made of it).
#define TS_MEMORY_PRIMITIVES(X) X(fill) X(zeroBytes) X(copyBytes) X(copyToHost) X(copyFromHost) X(copy2d)
#define TS_COMPUTE_PRIMITIVES(X)                                                                                  \
    X(gemm) X(axpy) X(add) X(addBias) X(biasBackward) X(sumSquares) X(segmentedSumSquares)                        \
    X(activationForward) X(activationBackward) X(dropoutForward) X(dropoutBackward)                               \
    X(conv2dForward) X(conv2dBackwardData) X(conv2dBackwardFilter) X(conv2dBackward)                              \
    X(pool2dForward) X(pool2dBackward) X(upsample2dForward) X(upsample2dBackward)                                 \
    X(batchNormForwardTraining) X(batchNormForwardInference) X(batchNormBackward) X(batchNormBackwardInference)    \
    X(batchNormReluForwardTraining) X(batchNormReluBackward) X(groupNormForward) X(groupNormBackward)             \
    X(softmaxForward) X(softmaxBackward) X(crossEntropyForward) X(crossEntropyBackward) X(mseForward)             \
    X(mseBackward) X(bceWithLogitsForward) X(bceWithLogitsBackward) X(robustLossForward) X(robustLossBackward)    \
    X(embeddingForward) X(embeddingBackward)                                                                      \
    X(attentionForward) X(attentionBackward) X(permute) X(recurrentCellForward) X(recurrentCellBackward)             \
    X(sgdUpdate) X(adamUpdate) X(rmspropUpdate) X(scale) X(clampValues)

#define TS_PRIMITIVE_ENUMERATOR(name) name,
enum class Primitive : std::uint8_t {
    TS_MEMORY_PRIMITIVES(TS_PRIMITIVE_ENUMERATOR) TS_COMPUTE_PRIMITIVES(TS_PRIMITIVE_ENUMERATOR)
};
#undef TS_PRIMITIVE_ENUMERATOR

#define TS_PRIMITIVE_ENTRY(name) Primitive::name,
inline constexpr std::array kAllPrimitives{TS_MEMORY_PRIMITIVES(TS_PRIMITIVE_ENTRY) TS_COMPUTE_PRIMITIVES(TS_PRIMITIVE_ENTRY)};
#undef TS_PRIMITIVE_ENTRY

constexpr std::string_view primitiveName(Primitive p)
{
#define TS_PRIMITIVE_CASE(name) \
    case Primitive::name: return #name;
    switch (p) { TS_MEMORY_PRIMITIVES(TS_PRIMITIVE_CASE) TS_COMPUTE_PRIMITIVES(TS_PRIMITIVE_CASE) }
#undef TS_PRIMITIVE_CASE
    return "?";
}

constexpr bool isMemoryPrimitive(Primitive p) { return p <= Primitive::copy2d; }

}  // namespace ts

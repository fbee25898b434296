// The activation functions, each written once as a functor that the CPU loop
// (cpu/cpu_elementwise.cpp) and the one generic CUDA kernel (cuda/cuda_elementwise.cu) both
// call, in float on both: the CPU reference tests the very expression the GPU runs.
//
// TS_ACTIVATIONS is the one list: the Activation enum, kAllActivations, activationName() and
// visitActivation() are generated from it, so an activation is added by a line there and its
// functor here (then its op in ops/activation.cpp). Each functor act::<Name> has
//   forward(x, alpha)        y = f(x)
//   grad(x, y, dy, alpha)    dy * f'(x), given y = f(x) (sigmoid and tanh use y, the rest x)
//   kReadsY                  grad reads y; for the others y may be anything
//   kCheapForward/kCheapGrad a compare or a multiply per element, no exp, erf or tanh (the
//                            CPU splits cheap loops over threads only when they are long)
// alpha is the parameter of those that have one (each says what it is); the others ignore it.
#pragma once
#include <bit>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "backend/host_device.h"

#define TS_ACTIVATIONS(X) X(ReLU) X(LeakyReLU) X(GELU) X(SiLU) X(Sigmoid) X(Tanh) X(ELU) X(Softplus) X(Mish) X(Hardswish)

namespace ts {

#define TS_ACTIVATION_ENUM(name) name,
enum class Activation : std::uint8_t { TS_ACTIVATIONS(TS_ACTIVATION_ENUM) };
#undef TS_ACTIVATION_ENUM

#define TS_ACTIVATION_ENUM(name) Activation::name,
inline constexpr Activation kAllActivations[] = {TS_ACTIVATIONS(TS_ACTIVATION_ENUM)};
#undef TS_ACTIVATION_ENUM

// "ReLU", "GELU", ...: the name of the op that runs it.
constexpr const char* activationName(Activation a)
{
    switch (a) {
#define TS_ACTIVATION_NAME(name) \
    case Activation::name: return #name;
        TS_ACTIVATIONS(TS_ACTIVATION_NAME)
#undef TS_ACTIVATION_NAME
    }
    return "?";
}

namespace act {

inline constexpr float kInvSqrt2 = 0.70710678118654752440f;
inline constexpr float kInvSqrt2Pi = 0.39894228040143267794f;

// exp only ever sees -|x|, so it cannot overflow for large |x|.
TS_HOST_DEVICE inline float sigmoid(float x)
{
    const float e = expf(-fabsf(x));
    const float s = 1.0f / (1.0f + e);
    return x >= 0.0f ? s : e * s;
}

struct ReLU {
    static constexpr bool kReadsY = false, kCheapForward = true, kCheapGrad = true;
    TS_HOST_DEVICE static float forward(float x, float) { return x > 0.0f ? x : 0.0f; }
    // A select, not dy * (x > 0): 0 * inf would be NaN, and GCC turned the product into a
    // branch on the sign of x that mispredicts half the time (9 ms instead of 2 in the CNN's
    // first block). PyTorch's threshold_backward is the same select.
    TS_HOST_DEVICE static float grad(float x, float, float dy, float) { return x > 0.0f ? dy : 0.0f; }
};

// alpha: the negative slope.
struct LeakyReLU {
    static constexpr bool kReadsY = false, kCheapForward = true, kCheapGrad = true;
    TS_HOST_DEVICE static float forward(float x, float slope) { return x > 0.0f ? x : slope * x; }
    TS_HOST_DEVICE static float grad(float x, float, float dy, float slope) { return x > 0.0f ? dy : slope * dy; }
};

TS_HOST_DEVICE inline float floatFromBits(std::int32_t bits)
{
#ifdef __CUDA_ARCH__
    return __int_as_float(bits);
#else
    return std::bit_cast<float>(bits);
#endif
}

// e^v in straight-line float arithmetic (no libm call), so a CPU loop over it vectorises:
// v = n ln 2 + r with |r| <= ln 2 / 2, e^r by its Taylor series to r^7 (truncation < 1e-8
// relative), times 2^n built in the exponent bits. Below e^-87 it gives e^-87 (~2e-38).
TS_HOST_DEVICE inline float expStraight(float v)
{
    v = v < -87.0f ? -87.0f : (v > 88.0f ? 88.0f : v);
    const float n = (v * 1.44269504f + 12582912.0f) - 12582912.0f;  // round(v / ln 2): 1.5 * 2^23 drops the fraction
    const float r = (v - n * 0.693145752f) - n * 1.42860677e-6f;     // ln 2 in two parts keeps r exact enough
    float p = 1.0f / 5040.0f;
    p = p * r + 1.0f / 720.0f;
    p = p * r + 1.0f / 120.0f;
    p = p * r + 1.0f / 24.0f;
    p = p * r + 1.0f / 6.0f;
    p = p * r + 0.5f;
    p = p * r + 1.0f;
    p = p * r + 1.0f;
    return p * floatFromBits((static_cast<std::int32_t>(n) + 127) << 23);
}

// Phi(x), the standard normal CDF, as 0.5 erfc(-x / sqrt 2) with erfc from the Chebyshev fit
// erfc(z) = t exp(-z^2 + P(t)), t = 1 / (1 + z / 2), z >= 0 (Press et al., Numerical Recipes,
// section 6.2: fractional error < 1.2e-7 everywhere), and erfc(-z) = 2 - erfc(z). No
// cancellation for x << 0 (1 + erf would give 0) and no branch, so it vectorises.
TS_HOST_DEVICE inline float normalCdf(float x)
{
    const float z = -x * kInvSqrt2, a = fabsf(z);
    const float t = 1.0f / (1.0f + 0.5f * a);
    float p = 0.17087277f;
    p = p * t - 0.82215223f;
    p = p * t + 1.48851587f;
    p = p * t - 1.13520398f;
    p = p * t + 0.27886807f;
    p = p * t - 0.18628806f;
    p = p * t + 0.09678418f;
    p = p * t + 0.37409196f;
    p = p * t + 1.00002368f;
    p = p * t - 1.26551223f;
    const float e = t * expStraight(p - a * a);
    return 0.5f * (z >= 0.0f ? e : 2.0f - e);
}

// The exact form x * Phi(x) (not tanh's approximation). In float the rounding of x / sqrt 2
// is amplified ~x^2 times in the negative tail (4.7e-6 relative at x = -6.2, where GELU is
// -2e-9); elsewhere within 3e-7 of the double value.
struct GELU {
    static constexpr bool kReadsY = false, kCheapForward = false, kCheapGrad = false;
    TS_HOST_DEVICE static float forward(float x, float) { return x * normalCdf(x); }
    TS_HOST_DEVICE static float grad(float x, float, float dy, float)
    {
        return dy * (normalCdf(x) + x * (kInvSqrt2Pi * expStraight(-0.5f * x * x)));
    }
};

// x * sigmoid(x) (Swish); the derivative recomputes sigmoid since y / x fails at x = 0.
struct SiLU {
    static constexpr bool kReadsY = false, kCheapForward = false, kCheapGrad = false;
    TS_HOST_DEVICE static float forward(float x, float) { return x * sigmoid(x); }
    TS_HOST_DEVICE static float grad(float x, float, float dy, float)
    {
        const float s = sigmoid(x);
        return dy * (s * (1.0f + x * (1.0f - s)));
    }
};

struct Sigmoid {
    static constexpr bool kReadsY = true, kCheapForward = false, kCheapGrad = true;
    TS_HOST_DEVICE static float forward(float x, float) { return sigmoid(x); }
    TS_HOST_DEVICE static float grad(float, float s, float dy, float) { return dy * (s * (1.0f - s)); }
};

struct Tanh {
    static constexpr bool kReadsY = true, kCheapForward = false, kCheapGrad = true;
    TS_HOST_DEVICE static float forward(float x, float) { return tanhf(x); }
    TS_HOST_DEVICE static float grad(float, float t, float dy, float) { return dy * (1.0f - t * t); }
};

// x for x > 0, alpha (e^x - 1) otherwise. The derivative alpha e^x comes from x: from y it
// would be y + alpha, which cancels for x << 0. At 0 it is alpha, as in PyTorch.
struct ELU {
    static constexpr bool kReadsY = false, kCheapForward = false, kCheapGrad = false;
    TS_HOST_DEVICE static float forward(float x, float alpha) { return x > 0.0f ? x : alpha * expm1f(x); }
    TS_HOST_DEVICE static float grad(float x, float, float dy, float alpha)
    {
        return x > 0.0f ? dy : dy * (alpha * expf(x));
    }
};

// Softplus is x itself where beta * x exceeds this (PyTorch's default threshold): there
// log(1 + e^bx) / beta differs from x by less than float resolution, and e^bx could overflow.
inline constexpr float kSoftplusThreshold = 20.0f;
TS_HOST_DEVICE inline float softplus(float x, float beta)
{
    const float bx = x * beta;
    return bx > kSoftplusThreshold ? x : log1pf(expf(bx)) / beta;
}

// log(1 + e^(beta x)) / beta (alpha: beta), a smooth ReLU; its derivative is sigmoid(beta x),
// written as PyTorch's e^bx / (e^bx + 1), which below the threshold cannot overflow.
struct Softplus {
    static constexpr bool kReadsY = false, kCheapForward = false, kCheapGrad = false;
    TS_HOST_DEVICE static float forward(float x, float beta) { return softplus(x, beta); }
    TS_HOST_DEVICE static float grad(float x, float, float dy, float beta)
    {
        const float bx = x * beta;
        if (bx > kSoftplusThreshold) return dy;
        const float z = expf(bx);
        return dy * (z / (z + 1.0f));
    }
};

// x tanh(softplus(x)); d/dx = tanh(sp) + x sigmoid(x) (1 - tanh(sp)^2), since sp' = sigmoid.
struct Mish {
    static constexpr bool kReadsY = false, kCheapForward = false, kCheapGrad = false;
    TS_HOST_DEVICE static float forward(float x, float) { return x * tanhf(softplus(x, 1.0f)); }
    TS_HOST_DEVICE static float grad(float x, float, float dy, float)
    {
        const float t = tanhf(softplus(x, 1.0f));
        return dy * (t + x * sigmoid(x) * (1.0f - t * t));
    }
};

// x relu6(x + 3) / 6, MobileNetV3's cheap swish. Selects, not fminf/fmaxf: they vectorise
// on the CPU, and NaN still comes through (both comparisons fail). The derivative is PyTorch's:
// 0 below -3, x / 3 + 1/2 up to 3 (inclusive), 1 above.
struct Hardswish {
    static constexpr bool kReadsY = false, kCheapForward = true, kCheapGrad = true;
    TS_HOST_DEVICE static float forward(float x, float)
    {
        const float r = x + 3.0f;
        return x * (r < 0.0f ? 0.0f : (r > 6.0f ? 6.0f : r)) / 6.0f;
    }
    TS_HOST_DEVICE static float grad(float x, float, float dy, float)
    {
        return x < -3.0f ? 0.0f : (x <= 3.0f ? dy * (x / 3.0f + 0.5f) : dy);
    }
};

}  // namespace act

// fn(act::<Name>{}) for the activation: the one switch over the list, used to pick the CPU
// loop and the CUDA kernel alike.
template <class Fn> decltype(auto) visitActivation(Activation a, Fn&& fn)
{
    switch (a) {
#define TS_ACTIVATION_CASE(name) \
    case Activation::name: return fn(act::name{});
        TS_ACTIVATIONS(TS_ACTIVATION_CASE)
#undef TS_ACTIVATION_CASE
    }
    throw std::invalid_argument("unknown activation " + std::to_string(int(a)));
}

}  // namespace ts

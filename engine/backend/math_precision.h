// Rounding an f32 value to the precision a matrix product computes in (MathPrecision in
// backend.h), round to nearest, ties to even, as tensor cores convert their operands. The CPU
// backend applies it to GEMM and convolution operands so it stays the reference for mixed
// precision; the self-test uses it to state what a reduced-precision result may differ by.
#pragma once
#include <bit>
#include <cstdint>
#include <optional>
#include <string_view>

#include "backend/backend.h"

namespace ts {

// Keeps `keptMantissaBits` of f32's 23 (exponent range unchanged: TF32, BF16).
inline float roundMantissa(float x, int keptMantissaBits)
{
    std::uint32_t bits = std::bit_cast<std::uint32_t>(x);
    if ((bits & 0x7F800000u) == 0x7F800000u) return x;  // inf and NaN stay as they are
    const int dropped = 23 - keptMantissaBits;
    const std::uint32_t half = (1u << (dropped - 1)) - 1;
    bits += half + ((bits >> dropped) & 1u);
    bits &= ~((1u << dropped) - 1u);
    return std::bit_cast<float>(bits);
}

inline float roundToPrecision(float x, MathPrecision p)
{
    switch (p) {
    case MathPrecision::F32: return x;
    case MathPrecision::TF32: return roundMantissa(x, 10);
    case MathPrecision::BF16: return roundMantissa(x, 7);
    case MathPrecision::F16: return static_cast<float>(static_cast<_Float16>(x));  // beyond 65504: inf
    }
    return x;
}

// "f32" | "tf32" | "bf16" | "f16" (also "fp32", "fp16").
inline std::optional<MathPrecision> parseMathPrecision(std::string_view s)
{
    if (s == "f32" || s == "fp32") return MathPrecision::F32;
    if (s == "tf32") return MathPrecision::TF32;
    if (s == "bf16") return MathPrecision::BF16;
    if (s == "f16" || s == "fp16") return MathPrecision::F16;
    return std::nullopt;
}

inline const char* mathPrecisionName(MathPrecision p)
{
    switch (p) {
    case MathPrecision::F32: return "f32";
    case MathPrecision::TF32: return "tf32";
    case MathPrecision::BF16: return "bf16";
    case MathPrecision::F16: return "f16";
    }
    return "f32";
}

}  // namespace ts

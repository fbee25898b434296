// The backend self-test: runs every Backend primitive, then every registered op's cases
// (Op::cases) forward and backward, on a candidate (the CUDA backend) and on a reference (the
// CPU backend) with the same random inputs and compares the outputs. Plain C++: it reaches
// both backends only through the Backend interface. A primitive the candidate does not
// support (Backend::supports) is reported as such, not run; an op that calls one is reported
// as running on the CPU, which is what the executor does with it.
//
// Each case uploads fresh inputs drawn from the seed to both backends, runs the primitive on
// each, downloads every output and computes the normwise relative error
//     max_i |cand_i - ref_i| / max(max_i |ref_i|, 1e-30)
// per output; the case's error is the worst over its outputs. Gradient outputs (and every
// other in/out buffer) start with the same random values on both sides, so the *Backward
// accumulate (+=) contract is checked too. NaN must meet NaN and +-inf the same infinity.
// Integer outputs (max-pool argmax, dropout mask) and scalars the contract fixes exactly
// must match exactly.
//
// Tolerances (normwise relative error):
//   MathPrecision::F32: memory, elementwise, normalisation, loss, embedding, optimizer
//                       < 1e-5; GEMM, convolution and attention < 1e-4.
//   TF32: GEMM, convolution and attention < 5e-3;  BF16: < 3e-2;  F16: < 5e-3.
//   Reduced precision applies to GEMM, convolution and attention only; everything else keeps 1e-5.
//   An op case's outputs and gradients: kSelftestOpFactor (10) times the loosest tolerance
//   of the primitives it calls (an op chains a few, and a later one can amplify an earlier
//   one's differences: batch norm's backward reads its forward's statistics).
// Both backends are set to the same precision for the run (and restored afterwards). The
// reduced-precision tolerances hold whether the reference rounds the operands like the
// candidate or still computes in f32.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "backend/backend.h"

namespace ts {

constexpr double kSelftestTolerance = 1e-5;          // everything but matrix products
constexpr double kSelftestMatmulToleranceF32 = 1e-4;  // GEMM and convolution in F32
constexpr double kSelftestOpFactor = 10;             // an op case's tolerance over its primitives' (above)
// GEMM and convolution at `p` (see above).
double selftestMatmulTolerance(MathPrecision p);

struct SelftestOptions {
    std::uint64_t seed = 1;
    MathPrecision precision = MathPrecision::F32;
    // false: only the small shapes (a few seconds on the CPU; the typical CNN/MLP sizes are
    // skipped). The CLI always runs everything.
    bool largeShapes = true;
};

struct SelftestCase {
    std::string name;       // the Backend method ("conv2dBackwardData"), or an op's pass ("Conv2d backward")
    std::string shape;      // the call's sizes and settings, e.g. "m=3 n=5 k=7 NT lda=10 alpha=1.5 beta=0.5"
    double error = 0;       // worst normwise relative error over the outputs (inf: mismatch, NaN, throw)
    double tolerance = 0;
    bool passed = false;
    std::string detail;     // which output and element was worst, or what went wrong
    // false: not run, because the candidate does not support it (Backend::supports): a primitive
    // "not supported", an op whose primitives it lacks "runs on the CPU" (the executor's
    // fallback). Neither passed nor failed.
    bool supported = true;
};

struct SelftestReport {
    std::vector<SelftestCase> primitives;  // one per primitive call checked
    std::vector<SelftestCase> ops;         // each registered op's cases, forward and backward
    int passed() const;
    int failed() const;
    int unsupported() const;
};

// Runs every case. Never throws for a failing primitive: an exception from either backend
// fails that case and names it. Both backends must be distinct objects.
SelftestReport compareBackends(Backend& candidate, Backend& reference, const SelftestOptions& options = {});

}  // namespace ts

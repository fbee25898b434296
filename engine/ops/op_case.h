// A configuration an op is checked in, kept beside the op (Op::cases): the gradient check on
// the CPU, the self-test of other backends against the CPU and the ONNX Runtime parity test
// all run every registered op's cases, so a new op is tested by being registered.
#pragma once
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "tensor/dtype.h"
#include "tensor/shape.h"
#include "types/attrs.h"

namespace ts {

// How one input's values are drawn.
struct InputFill {
    enum class Kind : std::uint8_t { Normal, AwayFromZero, Distinct, Integers, Uniform, Mask };
    Kind kind = Kind::Normal;
    double a = 1.0, b = 0.0;

    static InputFill normal(double stddev = 1.0) { return {Kind::Normal, stddev}; }
    // |x| >= margin: kinks (ReLU's 0) stay out of the finite difference's reach.
    static InputFill awayFromZero(double margin) { return {Kind::AwayFromZero, margin}; }
    // A shuffled ramp with this spacing: no ties (max pooling's argmax stays put).
    static InputFill distinct(double spacing) { return {Kind::Distinct, spacing}; }
    static InputFill integers(std::int64_t lo, std::int64_t hi) { return {Kind::Integers, double(lo), double(hi)}; }  // [lo, hi)
    static InputFill uniform(double lo, double hi) { return {Kind::Uniform, lo, hi}; }
    // f32 1 (a real token) with probability `real`, else 0 (padding): a key-padding mask.
    static InputFill mask(double real = 0.75) { return {Kind::Mask, real}; }
};

class Tensor;

// Fills a host tensor as `fill` says (integer tensors: uniform in [a, b) for Integers, else 0):
// the one drawing the gradient check, the self-test and the tests share.
void fillInput(const InputFill& fill, Tensor& t, std::mt19937_64& rng);

struct OpCaseInput {
    Shape shape;  // batch dimension included
    DType dtype = DType::F32;
    InputFill fill = InputFill::normal();
};

struct OpCase {
    std::string label;  // "stride 2, padding 1": names the case in reports
    Attrs attrs;        // as a user writes them; defaults are filled in
    std::vector<OpCaseInput> inputs;
    bool training = true;
    // The gradient check's step and tolerance: |analytic - numeric| <= atol + rtol * max(|a|, |n|).
    double eps = 1e-2, atol = 2e-3, rtol = 2e-2;
};

}  // namespace ts

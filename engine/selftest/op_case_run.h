// One op case (Op::cases) made concrete on one backend: what the self-test's op section runs
// on the candidate and the reference, and what `trainstudio-cli ops` traces to learn which
// primitives an op calls.
//
// Every value is drawn from `seed` on the host and uploaded, so two backends given the same
// seed start from the same inputs (the case's fills), parameters (random, not the usual
// initialisation: zero biases would hide bugs), output gradient and gradient buffers (random:
// backward accumulates into them, so the += contract is checked too).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "ops/op.h"
#include "ops/op_trace.h"

namespace ts {

// Values downloaded from a backend, as doubles, under a name for reports.
struct NamedValues {
    std::string name;  // "output", "d input", "d weight", ...
    std::vector<double> values;
    bool exact = false;  // integers: any difference is a mismatch
};

class OpCaseRun {
public:
    OpCaseRun(const Op& op, const OpCase& c, Backend& backend, std::uint64_t seed);

    void forward();
    void backward();  // after forward()

    // Host copies: the output (after forward), the gradients of the inputs that take one and
    // of the trainable parameters (after backward).
    std::vector<NamedValues> outputs() const;
    std::vector<NamedValues> gradients() const;

private:
    OpContext context();
    NamedValues download(std::string name, const Tensor& t) const;

    const Op& op_;
    Backend& backend_;
    Attrs attrs_;
    bool training_;
    std::uint64_t contextSeed_;
    std::vector<ParamSpec> paramSpecs_;
    std::vector<Tensor> inputs_, params_, saved_, gradInputs_, gradParams_;
    Tensor output_, gradOutput_, workspace_;
};

// The case's input shapes, "x=[2, 3]" or "x1=[4, 5] x2=[4]" (reports).
std::string opCaseShapes(const OpCase& c);

// The primitives one pass of a case calls, in order: a dry run (ops/op_trace.h), nothing
// computed. Backward takes the gradients OpCaseRun takes. The bool form: forward (false) or
// backward in the case's own mode (OpCase::training), as OpCaseRun runs it.
std::vector<PrimitiveCall> traceOpCase(const Op& op, const OpCase& c, OpPass pass);
std::vector<PrimitiveCall> traceOpCase(const Op& op, const OpCase& c, bool backward);

}  // namespace ts

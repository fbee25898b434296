// Self-test cases at the op level: every registered op's cases (Op::cases), forward and then
// backward, on both backends from the same inputs, parameters, output gradient and gradient
// buffers (selftest/op_case_run.h). An op calling a primitive the candidate does not support
// is not compared: the executor runs it on the CPU, and the report says so.
#include <algorithm>
#include <limits>
#include <optional>

#include "ops/registry.h"
#include "selftest/selftest_harness.h"

namespace ts::selftest {

namespace {

bool isMatrixProduct(Primitive p)
{
    return p == Primitive::gemm || p == Primitive::conv2dForward || p == Primitive::conv2dBackwardData ||
           p == Primitive::conv2dBackwardFilter || p == Primitive::conv2dBackward;
}

// kSelftestOpFactor times the loosest tolerance among the primitives a pass calls.
double opTolerance(const Harness& h, const std::vector<PrimitiveCall>& called)
{
    const bool matmul = std::any_of(called.begin(), called.end(), [](const PrimitiveCall& c) { return isMatrixProduct(c.primitive); });
    return kSelftestOpFactor * (matmul ? h.matmulTolerance() : h.elementwiseTolerance());
}

// "runs on the CPU: cuda lacks a, b" when the candidate does not support all of `called`; else "".
std::string cpuFallback(const Backend& candidate, const std::vector<PrimitiveCall>& called)
{
    std::string lacking;
    for (Primitive p : unsupportedPrimitives(called, candidate))
        lacking += (lacking.empty() ? "" : ", ") + std::string(primitiveName(p));
    return lacking.empty() ? "" : "runs on the CPU: " + candidate.name() + " lacks " + lacking;
}

void opCase(Harness& h, const Op& op, const OpCase& c)
{
    const std::string shape = c.label + ": " + opCaseShapes(c);
    SelftestCase fwd{op.type() + " forward", shape, 0, 0, false, {}};
    SelftestCase bwd{op.type() + " backward", shape, 0, 0, false, {}};
    std::vector<PrimitiveCall> forwardCalls, backwardCalls;
    try {
        forwardCalls = traceOpCase(op, c, false);
        backwardCalls = traceOpCase(op, c, true);
    } catch (const std::exception& e) {  // the case does not fit its own op: a bug in the op file
        fwd.error = bwd.error = std::numeric_limits<double>::infinity();
        fwd.detail = bwd.detail = std::string("the case is invalid: ") + e.what();
        h.recordOp(std::move(fwd));
        h.recordOp(std::move(bwd));
        return;
    }
    fwd.tolerance = opTolerance(h, forwardCalls);
    bwd.tolerance = opTolerance(h, backwardCalls);

    // Backward needs forward's saved buffers, so an op whose forward falls back runs on the CPU whole.
    const std::string forwardFallback = cpuFallback(h.backend(kCand), forwardCalls);
    const std::string backwardFallback = forwardFallback.empty() ? cpuFallback(h.backend(kCand), backwardCalls) : forwardFallback;
    std::optional<OpCaseRun> runs[2];
    bool forwardRan[2] = {false, false};
    const std::uint64_t seed = h.nextSeed();
    if (forwardFallback.empty()) {
        h.measure(
            fwd,
            [&](Backend& be, int s) {
                runs[s].emplace(op, c, be, seed);
                runs[s]->forward();
                forwardRan[s] = true;
            },
            [&](int s) { return runs[s]->outputs(); });
    } else {
        fwd.supported = false, fwd.detail = forwardFallback;
    }
    h.recordOp(std::move(fwd));
    if (!backwardFallback.empty()) {
        bwd.supported = false, bwd.detail = backwardFallback;
    } else if (!forwardRan[kCand] || !forwardRan[kRef]) {
        bwd.error = std::numeric_limits<double>::infinity();
        bwd.detail = "not run: the forward threw";
    } else {
        h.measure(bwd, [&](Backend&, int s) { runs[s]->backward(); }, [&](int s) { return runs[s]->gradients(); });
        if (bwd.passed && bwd.detail.empty())  // nothing compared: integer inputs, no parameters (TokenMask)
            bwd.detail = "no gradients: the op takes integers and has no trainable parameters";
    }
    h.recordOp(std::move(bwd));
}

}  // namespace

void opCases(Harness& h)
{
    const OpRegistry& registry = OpRegistry::builtin();
    for (const std::string& type : registry.types()) {
        const Op& op = *registry.find(type);
        for (const OpCase& c : op.cases()) opCase(h, op, c);
    }
}

}  // namespace ts::selftest

// Self-test cases: activations, dropout, embedding and the optimizer updates. Ends with an
// out-of-range embedding index, which must throw: last, in case a backend handles it badly.
#include <limits>
#include <stdexcept>

#include "selftest/selftest_harness.h"

namespace ts::selftest {

namespace {

void activationCases(Harness& h, i64 n)
{
    // Every activation in the backend's list, with alpha 3.5 (ignored by those without a
    // parameter): far from any default, and as Softplus's beta it crosses the threshold
    // (beta x = 20) at x = 5.7, inside the range.
    const float alpha = 3.5f;
    // Exact zeros too: ReLU's derivative at 0 is 0 (PyTorch), a backend using x >= 0 differs there.
    std::vector<float> xs = h.uniformHost(n, -6.0f, 6.0f);
    for (i64 i = 0; i < n; i += 97) xs[static_cast<std::size_t>(i)] = 0.0f;
    auto x = h.upload(xs);
    for (Activation act : kAllActivations) {
        const std::string shape = format("%s alpha=%g n=%lld", activationName(act), alpha, (long long)n);
        auto y = h.uniform(n);
        h.check(Primitive::activationForward, shape, h.elementwiseTolerance(),
                [&](Backend& be, int s) { be.activationForward(act, alpha, x[s], y[s], n); }, {h.out("y", y)});
        h.mirrorReference(y);
        for (GradWrite write : kGradWrites) {
            auto dy = h.uniform(n), dx = h.uniform(n);  // dx's old values: added to, or overwritten
            h.check(Primitive::activationBackward, shape + gradWriteText(write), h.elementwiseTolerance(),
                    [&](Backend& be, int s) { be.activationBackward(act, alpha, x[s], y[s], dy[s], dx[s], n, write); },
                    {h.out("dx", dx)});
        }
    }
}

void dropoutCases(Harness& h, i64 n)
{
    for (float p : {0.25f, 0.5f}) {
        const std::string shape = format("n=%lld p=%g", (long long)n, p);
        auto x = h.uniform(n), y = h.uniform(n);
        auto mask = h.upload(std::vector<std::uint8_t>(static_cast<std::size_t>(n), 7));
        h.check(Primitive::dropoutForward, shape + " seed=12345", h.elementwiseTolerance(),
                [&](Backend& be, int s) { be.dropoutForward(x[s], y[s], mask[s], n, p, 12345); },
                {h.out("y", y), h.out("mask", mask, true)});
        h.mirrorReference(mask);
        auto dy = h.uniform(n), dx = h.uniform(n);
        h.check(Primitive::dropoutBackward, shape, h.elementwiseTolerance(),
                [&](Backend& be, int s) { be.dropoutBackward(dy[s], mask[s], dx[s], n, p); }, {h.out("dx", dx)});
    }
}

void embeddingCases(Harness& h, i64 count, i64 rows, i64 dim)
{
    // Far more indices than rows: the backward must add every duplicate (atomics, not stores).
    const std::string shape = format("count=%lld rows=%lld dim=%lld", (long long)count, (long long)rows, (long long)dim);
    auto indices = h.upload(h.indicesHost(count, rows));
    auto table = h.uniform(rows * dim), y = h.uniform(count * dim);
    h.check(Primitive::embeddingForward, shape, h.elementwiseTolerance(),
            [&](Backend& be, int s) { be.embeddingForward(indices[s], table[s], y[s], count, rows, dim); },
            {h.out("y", y)});
    auto dy = h.uniform(count * dim), dtable = h.uniform(rows * dim);
    h.check(Primitive::embeddingBackward, shape, h.elementwiseTolerance(),
            [&](Backend& be, int s) { be.embeddingBackward(indices[s], dy[s], dtable[s], count, dim); },
            {h.out("dtable", dtable)});
}

void outOfRangeEmbedding(Harness& h)
{
    const i64 count = 9, rows = 4, dim = 3;
    std::vector<std::int64_t> idx{0, 1, 2, 3, 1, 4, 0, 2, 3};  // 4 == rows: out of range
    auto indices = h.upload(idx);
    auto table = h.uniform(rows * dim), y = h.uniform(count * dim);
    if (!h.candidateSupports(Primitive::embeddingForward)) return;
    SelftestCase c{"embeddingForward", "index 4 of 4 rows (must throw std::out_of_range)", 0, h.elementwiseTolerance(),
                   true, "both threw std::out_of_range"};
    for (int s : {kCand, kRef}) {
        const char* who = s == kCand ? "candidate" : "reference";
        try {
            h.backend(s).embeddingForward(indices[s], table[s], y[s], count, rows, dim);
            h.backend(s).synchronize();
            c.passed = false, c.detail = std::string(who) + " did not throw";
        } catch (const std::out_of_range&) {
        } catch (const std::exception& e) {
            c.passed = false, c.detail = std::string(who) + " threw something else: " + e.what();
        }
        if (!c.passed) break;
    }
    if (!c.passed) c.error = std::numeric_limits<double>::infinity();
    h.record(std::move(c));
}

void optimizerCases(Harness& h, i64 n)
{
    const double tol = h.elementwiseTolerance(), lr = 0.05;
    const std::string size = format("n=%lld", (long long)n);
    // fresh: state buffers zeroed (the first step); else random state, as after earlier steps.
    auto state = [&](bool fresh, float lo, float hi) { return fresh ? h.upload(std::vector<float>(static_cast<std::size_t>(n), 0.0f)) : h.uniform(n, lo, hi); };

    struct Sgd { double momentum; bool nesterov; double wd; bool fresh; };
    for (const Sgd& o : {Sgd{0, false, 0, true}, Sgd{0.9, false, 0.1, true}, Sgd{0.9, false, 0.1, false}, Sgd{0.9, true, 0.1, false}}) {
        auto param = h.uniform(n), grad = h.uniform(n), buf = state(o.fresh, -1, 1);
        const bool useBuf = o.momentum > 0;
        std::vector<Harness::Output> outs{h.out("param", param)};
        if (useBuf) outs.push_back(h.out("momentumBuf", buf));
        h.check(Primitive::sgdUpdate,
                format("%s lr=%g momentum=%g%s wd=%g%s", size.c_str(), lr, o.momentum, o.nesterov ? " nesterov" : "", o.wd,
                       useBuf ? (o.fresh ? " first step" : " later step") : " momentumBuf=null"),
                tol, [&](Backend& be, int s) { be.sgdUpdate(param[s], grad[s], useBuf ? buf[s] : nullptr, n, lr, o.momentum, o.nesterov, o.wd); },
                outs);
    }

    struct Adam { double wd; bool decoupled; std::int64_t step; };
    for (const Adam& o : {Adam{0, false, 1}, Adam{0.1, false, 5}, Adam{0.1, true, 1}, Adam{0.1, true, 1000}}) {
        const bool fresh = o.step == 1;
        auto param = h.uniform(n), grad = h.uniform(n), m = state(fresh, -0.5f, 0.5f), v = state(fresh, 0.0f, 0.5f);
        h.check(Primitive::adamUpdate,
                format("%s %s lr=%g wd=%g step=%lld", size.c_str(), o.decoupled ? "AdamW" : "Adam", lr, o.wd, (long long)o.step),
                tol,
                [&](Backend& be, int s) {
                    be.adamUpdate(param[s], grad[s], m[s], v[s], n, lr, 0.9, 0.999, 1e-8, o.wd, o.decoupled, o.step);
                },
                {h.out("param", param), h.out("m", m), h.out("v", v)});
    }

    struct Rms { double momentum, wd; bool fresh; };
    for (const Rms& o : {Rms{0, 0, true}, Rms{0.9, 0.1, true}, Rms{0.9, 0.1, false}}) {
        auto param = h.uniform(n), grad = h.uniform(n), sq = state(o.fresh, 0.0f, 0.5f), buf = state(o.fresh, -1, 1);
        const bool useBuf = o.momentum > 0;
        std::vector<Harness::Output> outs{h.out("param", param), h.out("squareAvg", sq)};
        if (useBuf) outs.push_back(h.out("momentumBuf", buf));
        h.check(Primitive::rmspropUpdate,
                format("%s lr=%g momentum=%g wd=%g%s", size.c_str(), lr, o.momentum, o.wd,
                       o.fresh ? " first step" : " later step"),
                tol,
                [&](Backend& be, int s) {
                    be.rmspropUpdate(param[s], grad[s], sq[s], useBuf ? buf[s] : nullptr, n, lr, 0.99, 1e-8, o.wd, o.momentum);
                },
                outs);
    }
}

}  // namespace

void elementwiseCases(Harness& h)
{
    for (i64 n : h.flatSizes()) {
        activationCases(h, n);
        dropoutCases(h, n);
        optimizerCases(h, n);
    }
    embeddingCases(h, 105, 7, 5);
    embeddingCases(h, 1027, 50, 257);
    if (h.large()) embeddingCases(h, 128 * 32, 1000, 64);
    outOfRangeEmbedding(h);
}

}  // namespace ts::selftest

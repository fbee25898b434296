// Self-test cases: row softmax and the losses (cross-entropy with class weights, label
// smoothing and ignored rows, MSE, BCE with logits), forward and backward.
#include "selftest/selftest_harness.h"

namespace ts::selftest {

namespace {

struct Rows { i64 rows, cols; };

std::string rowsText(const Rows& r) { return format("[%lld, %lld]", (long long)r.rows, (long long)r.cols); }

void softmaxCases(Harness& h, const Rows& r)
{
    const i64 n = r.rows * r.cols;
    auto x = h.uniform(n, -8.0f, 8.0f), y = h.uniform(n);
    h.check(Primitive::softmaxForward, rowsText(r), h.elementwiseTolerance(),
            [&](Backend& be, int s) { be.softmaxForward(x[s], y[s], r.rows, r.cols); }, {h.out("y", y)});
    h.mirrorReference(y);
    auto dy = h.uniform(n), dx = h.uniform(n);
    h.check(Primitive::softmaxBackward, rowsText(r), h.elementwiseTolerance(),
            [&](Backend& be, int s) { be.softmaxBackward(y[s], dy[s], dx[s], r.rows, r.cols); }, {h.out("dx", dx)});
}

void crossEntropyCases(Harness& h, const Rows& r)
{
    const i64 n = r.rows * r.cols;
    auto logits = h.uniform(n, -5.0f, 5.0f);
    std::vector<std::int64_t> targetsHost = h.indicesHost(r.rows, r.cols);
    auto targets = h.upload(targetsHost);
    // Every third row padding: -100, PyTorch's ignore_index.
    for (std::size_t i = 0; i < targetsHost.size(); i += 3) targetsHost[i] = -100;
    auto padded = h.upload(targetsHost);
    auto weights = h.uniform(r.cols, 0.2f, 2.0f);
    auto dloss = h.upload(std::vector<float>{0.7f});
    for (bool weighted : {false, true})
        for (float smoothing : {0.0f, 0.1f})
            for (bool ignoring : {false, true}) {
                const std::string shape = rowsText(r) + (weighted ? " class weights" : "") +
                                          (smoothing > 0 ? " label smoothing 0.1" : "") + (ignoring ? " ignore_index" : "");
                // ignore_index -100 over the padded targets; else a class id no target holds (cols).
                const Buffer<std::int64_t>& t = ignoring ? padded : targets;
                const std::int64_t ignore = ignoring ? -100 : r.cols;
                auto probs = h.uniform(n), loss = h.uniform(1);
                const float* w[2] = {weighted ? weights[kCand] : nullptr, weighted ? weights[kRef] : nullptr};
                h.check(Primitive::crossEntropyForward, shape, h.elementwiseTolerance(),
                        [&](Backend& be, int s) {
                            be.crossEntropyForward(logits[s], t[s], w[s], probs[s], loss[s], r.rows, r.cols, smoothing,
                                                   ignore);
                        },
                        {h.out("loss", loss), h.out("probs", probs)});
                h.mirrorReference(probs);
                auto dlogits = h.uniform(n);
                h.check(Primitive::crossEntropyBackward, shape, h.elementwiseTolerance(),
                        [&](Backend& be, int s) {
                            be.crossEntropyBackward(probs[s], t[s], w[s], dloss[s], dlogits[s], r.rows, r.cols,
                                                    smoothing, ignore);
                        },
                        {h.out("dlogits", dlogits)});
            }
}

// MSE, BCE, L1 and Huber share a shape: (pred or logits, target) -> loss; backward into both or one.
void pairLossCases(Harness& h, i64 n)
{
    const std::string shape = format("n=%lld", (long long)n);
    const double tol = h.elementwiseTolerance();
    auto dloss = h.upload(std::vector<float>{1.3f});
    const char* mseWhich[] = {"", " dtarget=null", " dpred=null"};
    const char* bceWhich[] = {"", " dtarget=null", " dlogits=null"};

    auto pred = h.uniform(n), target = h.uniform(n), loss = h.uniform(1);
    h.check(Primitive::mseForward, shape, tol, [&](Backend& be, int s) { be.mseForward(pred[s], target[s], loss[s], n); },
            {h.out("loss", loss)});
    for (int nulls = 0; nulls < 3; ++nulls) {
        auto dp = h.uniform(n), dt = h.uniform(n);
        std::vector<Harness::Output> outs;
        if (nulls != 2) outs.push_back(h.out("dpred", dp));
        if (nulls != 1) outs.push_back(h.out("dtarget", dt));
        h.check(Primitive::mseBackward, shape + mseWhich[nulls], tol,
                [&](Backend& be, int s) {
                    be.mseBackward(pred[s], target[s], dloss[s], nulls == 2 ? nullptr : dp[s], nulls == 1 ? nullptr : dt[s], n);
                },
                outs);
    }

    auto logits = h.uniform(n, -6.0f, 6.0f), soft = h.uniform(n, 0.0f, 1.0f), bce = h.uniform(1);
    h.check(Primitive::bceWithLogitsForward, shape, tol,
            [&](Backend& be, int s) { be.bceWithLogitsForward(logits[s], soft[s], bce[s], n); }, {h.out("loss", bce)});
    for (int nulls = 0; nulls < 3; ++nulls) {
        auto dl = h.uniform(n), dt = h.uniform(n);
        std::vector<Harness::Output> outs;
        if (nulls != 2) outs.push_back(h.out("dlogits", dl));
        if (nulls != 1) outs.push_back(h.out("dtarget", dt));
        h.check(Primitive::bceWithLogitsBackward, shape + bceWhich[nulls], tol,
                [&](Backend& be, int s) {
                    be.bceWithLogitsBackward(logits[s], soft[s], dloss[s], nulls == 2 ? nullptr : dl[s],
                                             nulls == 1 ? nullptr : dt[s], n);
                },
                outs);
    }

    // L1 (delta 0) and Huber: errors in [-2, 2] fall on both sides of delta 0.5.
    auto wide = h.uniform(n, -2.0f, 2.0f);
    for (const float delta : {0.0f, 0.5f}) {
        const std::string which = shape + (delta > 0 ? " huber" : " l1");
        auto robust = h.uniform(1);
        h.check(Primitive::robustLossForward, which, tol,
                [&](Backend& be, int s) { be.robustLossForward(wide[s], target[s], robust[s], n, delta); }, {h.out("loss", robust)});
        auto dp = h.uniform(n), dt = h.uniform(n);
        h.check(Primitive::robustLossBackward, which, tol,
                [&](Backend& be, int s) { be.robustLossBackward(wide[s], target[s], dloss[s], dp[s], dt[s], n, delta); },
                {h.out("dpred", dp), h.out("dtarget", dt)});
    }
}

}  // namespace

void lossCases(Harness& h)
{
    std::vector<Rows> rows{{3, 7}, {130, 10}, {257, 1000}, {128, 10}};
    if (h.large()) rows.push_back({128 * 32, 784});
    for (const Rows& r : rows) softmaxCases(h, r);
    for (const Rows& r : {Rows{3, 7}, Rows{130, 10}, Rows{257, 1000}, Rows{128, 10}}) crossEntropyCases(h, r);
    std::vector<i64> sizes{105, 65537};
    if (h.large()) sizes.push_back(128 * 784);
    for (i64 n : sizes) pairLossCases(h, n);
}

}  // namespace ts::selftest

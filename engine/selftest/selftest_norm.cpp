// Self-test cases: batch norm (training and inference, forward and backward) and group norm,
// including LayerNorm (group norm with c = D, inner = 1, groups = 1).
#include "selftest/selftest_harness.h"

namespace ts::selftest {

namespace {

struct BnShape { i64 n, c, inner; };

void batchNormCases(Harness& h, const BnShape& b)
{
    const double tol = h.elementwiseTolerance();
    const float momentum = 0.1f, eps = 1e-5f;
    const i64 n = b.n, c = b.c, inner = b.inner, total = n * c * inner;
    const std::string shape = format("[%lld, %lld, %lld]", (long long)n, (long long)c, (long long)inner);
    // x off-centre, so a wrong mean shows; gamma away from 0 and running variances positive.
    auto x = h.uniform(total, -1.0f, 2.0f), gamma = h.uniform(c, 0.5f, 1.5f), beta = h.uniform(c, -0.5f, 0.5f);
    auto y = h.uniform(total), mean = h.uniform(c), invStd = h.uniform(c);
    auto runMean = h.uniform(c), runVar = h.uniform(c, 0.5f, 1.5f);
    // A communicator of one: the synchronised path (its passes, the float round trip) against
    // the CPU's, and the same buffers left for the local path's check after it.
    const CrossRankSum oneRank = [](float*, std::size_t) {};
    for (const CrossRankSum* across : {&oneRank, static_cast<const CrossRankSum*>(nullptr)})
        h.check(Primitive::batchNormForwardTraining, shape + (across ? " across one rank" : ""), tol,
                [&](Backend& be, int s) {
                    be.batchNormForwardTraining(x[s], gamma[s], beta[s], y[s], mean[s], invStd[s], runMean[s],
                                                runVar[s], n, c, inner, momentum, eps, across);
                },
                {h.out("y", y), h.out("saveMean", mean), h.out("saveInvStd", invStd), h.out("runningMean", runMean),
                 h.out("runningVar", runVar)});
    h.mirrorReference(mean);  // the backward gets identical saved statistics
    h.mirrorReference(invStd);

    // 0: every gradient; 1: no dgamma/dbeta (frozen); 2: no dx (an input); 3: across one rank; 4: dx overwritten
    for (int nulls = 0; nulls < 5; ++nulls) {
        auto dy = h.uniform(total), dx = h.uniform(total), dgamma = h.uniform(c), dbeta = h.uniform(c);
        std::vector<Harness::Output> outs;
        if (nulls != 2) outs.push_back(h.out("dx", dx));
        if (nulls != 1) outs.insert(outs.end(), {h.out("dgamma", dgamma), h.out("dbeta", dbeta)});
        const char* which[] = {"", " dgamma=dbeta=null", " dx=null", " across one rank", " overwrite"};
        const GradWrite write = nulls == 4 ? GradWrite::Overwrite : GradWrite::Accumulate;
        h.check(Primitive::batchNormBackward, shape + which[nulls], tol,
                [&](Backend& be, int s) {
                    be.batchNormBackward(x[s], gamma[s], dy[s], mean[s], invStd[s], nulls == 2 ? nullptr : dx[s],
                                         nulls == 1 ? nullptr : dgamma[s], nulls == 1 ? nullptr : dbeta[s], n, c, inner,
                                         nulls == 3 ? &oneRank : nullptr, write);
                },
                outs);
    }

    // With the ReLU after it (the executor's fusion): both outputs, then the backward from the
    // ReLU's output gradient (dyScratch: the gradient of y, which a backend may use as scratch).
    auto yf = h.uniform(total), rf = h.uniform(total);
    h.check(Primitive::batchNormReluForwardTraining, shape, tol,
            [&](Backend& be, int s) {
                be.batchNormReluForwardTraining(x[s], gamma[s], beta[s], yf[s], rf[s], mean[s], invStd[s], runMean[s],
                                                runVar[s], n, c, inner, momentum, eps, nullptr);
            },
            {h.out("y", yf), h.out("r", rf), h.out("saveMean", mean), h.out("saveInvStd", invStd)});
    for (auto* t : {&mean, &invStd, &yf, &rf}) h.mirrorReference(*t);
    {
        auto dr = h.uniform(total), scratch = h.uniform(total), dx = h.uniform(total), dgamma = h.uniform(c),
             dbeta = h.uniform(c);
        h.check(Primitive::batchNormReluBackward, shape + " overwrite", tol,
                [&](Backend& be, int s) {
                    be.batchNormReluBackward(x[s], gamma[s], beta[s], yf[s], rf[s], dr[s], scratch[s], mean[s],
                                             invStd[s], dx[s], dgamma[s], dbeta[s], n, c, inner, nullptr,
                                             GradWrite::Overwrite);
                },
                {h.out("dx", dx), h.out("dgamma", dgamma), h.out("dbeta", dbeta)});
    }

    auto rm = h.uniform(c), rv = h.uniform(c, 0.5f, 1.5f), yi = h.uniform(total);
    h.check(Primitive::batchNormForwardInference, shape, tol,
            [&](Backend& be, int s) {
                be.batchNormForwardInference(x[s], gamma[s], beta[s], rm[s], rv[s], yi[s], n, c, inner, eps);
            },
            {h.out("y", yi)});
    auto dy = h.uniform(total), dx = h.uniform(total), dgamma = h.uniform(c), dbeta = h.uniform(c);
    h.check(Primitive::batchNormBackwardInference, shape, tol,
            [&](Backend& be, int s) {
                be.batchNormBackwardInference(x[s], gamma[s], dy[s], rm[s], rv[s], dx[s], dgamma[s], dbeta[s], n, c, inner,
                                              eps);
            },
            {h.out("dx", dx), h.out("dgamma", dgamma), h.out("dbeta", dbeta)});
}

struct GnShape { i64 n, c, inner, groups; };

void groupNormCases(Harness& h, const GnShape& g)
{
    const double tol = h.elementwiseTolerance();
    const float eps = 1e-5f;
    const i64 n = g.n, c = g.c, inner = g.inner, groups = g.groups, total = n * c * inner, stats = n * groups;
    std::string shape = format("[%lld, %lld, %lld] groups=%lld", (long long)n, (long long)c, (long long)inner,
                               (long long)groups);
    if (inner == 1 && groups == 1) shape += " (LayerNorm)";
    auto x = h.uniform(total, -1.0f, 2.0f), gamma = h.uniform(c, 0.5f, 1.5f), beta = h.uniform(c, -0.5f, 0.5f);
    auto y = h.uniform(total), mean = h.uniform(stats), rstd = h.uniform(stats);
    h.check(Primitive::groupNormForward, shape, tol,
            [&](Backend& be, int s) {
                be.groupNormForward(x[s], gamma[s], beta[s], y[s], mean[s], rstd[s], n, c, inner, groups, eps);
            },
            {h.out("y", y), h.out("mean", mean), h.out("rstd", rstd)});
    h.mirrorReference(mean);
    h.mirrorReference(rstd);
    for (bool frozen : {false, true}) {
        auto dy = h.uniform(total), dx = h.uniform(total), dgamma = h.uniform(c), dbeta = h.uniform(c);
        std::vector<Harness::Output> outs{h.out("dx", dx)};
        if (!frozen) outs.insert(outs.end(), {h.out("dgamma", dgamma), h.out("dbeta", dbeta)});
        h.check(Primitive::groupNormBackward, shape + (frozen ? " dgamma=dbeta=null" : ""), tol,
                [&](Backend& be, int s) {
                    be.groupNormBackward(x[s], gamma[s], dy[s], mean[s], rstd[s], dx[s], frozen ? nullptr : dgamma[s],
                                         frozen ? nullptr : dbeta[s], n, c, inner, groups);
                },
                outs);
    }
}

}  // namespace

void normCases(Harness& h)
{
    std::vector<BnShape> bn{{3, 5, 7}, {7, 13, 257}, {2, 3, 1}};
    if (h.large()) bn.insert(bn.end(), {{128, 32, 28 * 28}, {128, 512, 1}});
    for (const BnShape& b : bn) batchNormCases(h, b);

    std::vector<GnShape> gn{{3, 6, 7, 3}, {5, 12, 259, 4}, {2, 4, 3, 4}, {3, 7, 1, 1}, {130, 257, 1, 1}};
    if (h.large()) gn.insert(gn.end(), {{128, 32, 28 * 28, 8}, {128, 784, 1, 1}});
    for (const GnShape& g : gn) groupNormCases(h, g);
}

}  // namespace ts::selftest

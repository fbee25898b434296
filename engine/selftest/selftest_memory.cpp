// Self-test cases: memory primitives, permute, the small BLAS-like ones, scale/clamp, and GEMM.
#include <cmath>
#include <limits>
#include <utility>

#include "selftest/selftest_harness.h"

namespace ts::selftest {

namespace {

using u8 = std::uint8_t;

std::vector<u8> randomBytes(Harness& h, i64 n)
{
    const std::vector<float> f = h.uniformHost(n, 0.0f, 256.0f);
    return std::vector<u8>(f.begin(), f.end());
}

void byteCases(Harness& h)
{
    // Odd counts at odd offsets: nothing may assume float or vector alignment. The byte
    // outputs are exact: any byte off is an infinite error.
    const i64 n = 4111;
    auto buf = h.upload(randomBytes(h, n));
    h.check(Primitive::zeroBytes, "4099 bytes at offset 1", h.elementwiseTolerance(), [&](Backend& be, int s) { be.zeroBytes(buf[s] + 1, 4099); },
            {h.out("x", buf, true)});
    auto src = h.upload(randomBytes(h, n)), dst = h.upload(randomBytes(h, n));
    h.check(Primitive::copyBytes, "4099 bytes, src offset 3, dst offset 5", h.elementwiseTolerance(),
            [&](Backend& be, int s) { be.copyBytes(dst[s] + 5, src[s] + 3, 4099); }, {h.out("dst", dst, true)});
    auto fsrc = h.uniform(65537), fdst = h.uniform(65537);
    h.check(Primitive::copyBytes, "65537 floats", h.elementwiseTolerance(),
            [&](Backend& be, int s) { be.copyBytes(fdst[s], fsrc[s], 65537 * sizeof(float)); }, {h.out("dst", fdst)});

    const std::vector<u8> host = randomBytes(h, n);
    auto up = h.upload(randomBytes(h, n));
    h.check(Primitive::copyFromHost, "1001 bytes at offset 7", h.elementwiseTolerance(),
            [&](Backend& be, int s) { be.copyFromHost(up[s] + 7, host.data() + 2, 1001); }, {h.out("dst", up, true)});
    auto down = h.upload(randomBytes(h, n));
    std::vector<double> got[2];
    const Harness::Output o{"host", [&](int s) { return got[s]; }, true};
    h.check(Primitive::copyToHost, "1003 bytes from offset 5", h.elementwiseTolerance(),
            [&](Backend& be, int s) {
                std::vector<u8> tmp(1003);
                be.synchronize();
                be.copyToHost(tmp.data(), down[s] + 5, tmp.size());
                got[s].assign(tmp.begin(), tmp.end());
            },
            {o});
}

void copy2dCases(Harness& h)
{
    struct G { i64 rows, cols, srcStride, dstStride; };
    std::vector<G> shapes{{3, 5, 7, 9}, {67, 257, 300, 259}};
    if (h.large()) shapes.push_back({128, 784, 784, 1568});  // a Concat of two [128, 784]
    for (const G& g : shapes)
        for (bool acc : {false, true}) {
            auto src = h.uniform(g.rows * g.srcStride), dst = h.uniform(g.rows * g.dstStride);
            h.check(Primitive::copy2d,
                    format("rows=%lld cols=%lld srcStride=%lld dstStride=%lld%s", (long long)g.rows, (long long)g.cols,
                           (long long)g.srcStride, (long long)g.dstStride, acc ? " accumulate" : ""),
                    h.elementwiseTolerance(),
                    [&](Backend& be, int s) { be.copy2d(src[s], g.srcStride, dst[s], g.dstStride, g.rows, g.cols, acc); },
                    {h.out("dst", dst)});
        }
}

// Permute (y = or += the reordered x): a Transformer's swaps of tokens and channels and of
// tokens and heads, a size-1 dimension, and sizes that are no multiple of a CPU tile.
void permuteCases(Harness& h)
{
    struct P { std::vector<i64> shape; std::vector<int> perm; };
    std::vector<P> cases{{{2, 37, 70}, {0, 2, 1}}, {{3, 17, 4, 9}, {0, 2, 1, 3}}, {{2, 1, 33, 5}, {3, 0, 2, 1}}};
    if (h.large()) cases.push_back({{128, 256, 128}, {0, 2, 1}});  // a char-GPT batch [B, T, C] -> [B, C, T]
    for (const P& p : cases) {
        i64 n = 1;
        std::string shape = "x=[", perm = " perm=[";
        for (std::size_t d = 0; d < p.shape.size(); ++d) {
            n *= p.shape[d];
            shape += format("%s%lld", d ? ", " : "", (long long)p.shape[d]);
            perm += format("%s%d", d ? ", " : "", p.perm[d]);
        }
        for (GradWrite write : kGradWrites) {
            auto x = h.uniform(n), y = h.uniform(n);  // y's old values are kept or overwritten
            h.check(Primitive::permute, shape + "]" + perm + "]" + (write == GradWrite::Accumulate ? " accumulate" : ""),
                    h.elementwiseTolerance(), [&](Backend& be, int s) { be.permute({p.shape, p.perm}, x[s], y[s], write); },
                    {h.out("y", y)});
        }
    }
}

void flatCases(Harness& h)
{
    const double tol = h.elementwiseTolerance();
    for (i64 n : h.flatSizes()) {
        const std::string shape = format("n=%lld", (long long)n);
        auto x = h.uniform(n), y = h.uniform(n), z = h.uniform(n);
        h.check(Primitive::fill, shape, tol, [&](Backend& be, int s) { be.fill(x[s], n, 0.37f); }, {h.out("x", x)});
        auto a = h.uniform(n), b = h.uniform(n);
        h.check(Primitive::axpy, shape + " alpha=-0.7", tol, [&](Backend& be, int s) { be.axpy(n, -0.7f, a[s], y[s]); },
                {h.out("y", y)});
        h.check(Primitive::add, shape, tol, [&](Backend& be, int s) { be.add(n, a[s], b[s], z[s]); }, {h.out("y", z)});
        double sums[2] = {0, 0};
        h.check(Primitive::sumSquares, shape, tol, [&](Backend& be, int s) { sums[s] = be.sumSquares(a[s], n); },
                {h.scalar("sum", sums)});
        // Per-layer gradient norms: ranges of a flat buffer, a one-element one included.
        const std::vector<std::pair<i64, i64>> ranges{{0, n / 3}, {n / 3, n / 3 + 1}, {n / 3 + 1, n}, {0, n}};
        std::vector<double> segments[2];
        Harness::Output segOut{"out", [&](int s) { return segments[s]; }, false};
        h.check(Primitive::segmentedSumSquares, shape + format(" %zu ranges", ranges.size()), tol,
                [&](Backend& be, int s) {
                    segments[s].assign(ranges.size(), -1.0);
                    be.segmentedSumSquares(a[s], ranges, segments[s].data());
                },
                {segOut});
        h.check(Primitive::scale, shape + " alpha=0.3", tol, [&](Backend& be, int s) { be.scale(b[s], n, 0.3f); },
                {h.out("x", b)});

        // Gradient-value clipping must keep NaN (the non-finite check runs after it) and clamp infinities.
        std::vector<float> v = h.uniformHost(n, -3.0f, 3.0f);
        for (i64 i = 0; i < n; i += 97) v[i] = std::numeric_limits<float>::quiet_NaN();
        for (i64 i = 41; i < n; i += 193) v[i] = std::numeric_limits<float>::infinity();
        for (i64 i = 73; i < n; i += 211) v[i] = -std::numeric_limits<float>::infinity();
        auto c = h.upload(v);
        h.check(Primitive::clampValues, shape + " [-1, 1.5] with NaN, +-inf", tol,
                [&](Backend& be, int s) { be.clampValues(c[s], n, -1.0f, 1.5f); }, {h.out("x", c)});
    }
}

void biasCases(Harness& h)
{
    struct G { i64 outer, channels, inner; };
    std::vector<G> shapes{{3, 5, 7}, {5, 17, 259}, {1, 7, 1}};
    if (h.large()) shapes.insert(shapes.end(), {{128, 512, 1}, {128, 32, 28 * 28}});
    for (const G& g : shapes) {
        const std::string shape = format("[%lld, %lld, %lld]", (long long)g.outer, (long long)g.channels, (long long)g.inner);
        auto bias = h.uniform(g.channels), y = h.uniform(g.outer * g.channels * g.inner);
        h.check(Primitive::addBias, shape, h.elementwiseTolerance(),
                [&](Backend& be, int s) { be.addBias(bias[s], y[s], g.outer, g.channels, g.inner); }, {h.out("y", y)});
        auto dy = h.uniform(g.outer * g.channels * g.inner), dbias = h.uniform(g.channels);
        h.check(Primitive::biasBackward, shape, h.elementwiseTolerance(),
                [&](Backend& be, int s) { be.biasBackward(dy[s], dbias[s], g.outer, g.channels, g.inner); },
                {h.out("dbias", dbias)});
    }
}

}  // namespace

void memoryCases(Harness& h)
{
    byteCases(h);
    copy2dCases(h);
    permuteCases(h);
    flatCases(h);
    biasCases(h);
}

void gemmCases(Harness& h)
{
    struct G { i64 m, n, k; };
    std::vector<G> shapes{{3, 5, 7}, {1, 1, 1}, {130, 67, 257}};  // the last: no multiple of any tile size
    if (h.large()) shapes.insert(shapes.end(), {{128, 512, 784}, {784, 512, 128}});  // MLP forward, weight gradient
    for (const G& g : shapes)
        for (int variant = 0; variant < 2; ++variant)
            for (bool ta : {false, true})
                for (bool tb : {false, true}) {
                    // variant 0: packed, C = A B; variant 1: padded leading dimensions, alpha and beta.
                    const i64 pad = variant ? 3 : 0;
                    const float alpha = variant ? 1.5f : 1.0f, beta = variant ? 0.5f : 0.0f;
                    const i64 lda = (ta ? g.m : g.k) + pad, ldb = (tb ? g.k : g.n) + pad, ldc = g.n + pad;
                    auto a = h.uniform((ta ? g.k : g.m) * lda), b = h.uniform((tb ? g.n : g.k) * ldb);
                    auto c = h.uniform(g.m * ldc);  // beta = 0 must ignore these values
                    h.check(Primitive::gemm,
                            format("m=%lld n=%lld k=%lld %c%c lda=%lld ldb=%lld ldc=%lld alpha=%g beta=%g", (long long)g.m,
                                   (long long)g.n, (long long)g.k, ta ? 'T' : 'N', tb ? 'T' : 'N', (long long)lda,
                                   (long long)ldb, (long long)ldc, alpha, beta),
                            h.matmulTolerance(),
                            [&](Backend& be, int s) {
                                be.gemm(ta, tb, g.m, g.n, g.k, alpha, a[s], lda, b[s], ldb, beta, c[s], ldc);
                            },
                            {h.out("c", c)});
                }
}

}  // namespace ts::selftest

// Conv2d, MaxPool2d, AvgPool2d and GlobalAvgPool: hand-computed forwards, a cross-check of
// the im2col + GEMM convolution against direct loops, and the shape errors that must name the
// attribute at fault. Their gradient checks are the ops' own cases (tst_op_registry).
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <random>

#include "backend/backend.h"
#include "backend/cpu/cpu_backend.h"
#include "gradcheck.h"
#include "ops/registry.h"

using namespace ts;
using namespace ts::test;

namespace {

using i64 = std::int64_t;

struct ConvCase {
    int n = 2, c = 3, h = 6, w = 6, k = 4, kh = 3, kw = 3;
    int strideH = 1, strideW = 1, padH = 0, padW = 0, dilH = 1, dilW = 1, groups = 1;
    bool bias = true;

    Attrs attrs() const
    {
        return {{"out_channels", i64(k)},
                {"kernel_size", std::vector<i64>{kh, kw}},
                {"stride", std::vector<i64>{strideH, strideW}},
                {"padding", std::vector<i64>{padH, padW}},
                {"dilation", std::vector<i64>{dilH, dilW}},
                {"groups", i64(groups)},
                {"bias", bias}};
    }
    Shape input() const { return Shape{n, c, h, w}; }
    i64 outH() const { return (h + 2 * padH - dilH * (kh - 1) - 1) / strideH + 1; }
    i64 outW() const { return (w + 2 * padW - dilW * (kw - 1) - 1) / strideW + 1; }
};

Tensor randomTensor(Shape shape, std::mt19937_64& rng)
{
    Tensor t = Tensor::empty(shape);
    normalFill()(t, rng);
    return t;
}

// Compares element by element; QCOMPARE on floats is fuzzy (about 1e-5 relative), enough for
// hand-computed values that are exact in float.
void compareValues(const Tensor& got, const std::vector<float>& expected)
{
    QCOMPARE(got.numel(), i64(expected.size()));
    for (std::size_t i = 0; i < expected.size(); ++i) QCOMPARE(got.data<float>()[i], expected[i]);
}

struct InferResult {
    std::string normaliseError;  // non-empty: the attributes themselves were rejected
    bool threw = false;
    std::string message;
    std::vector<std::string> attrs;
    bool names(const std::string& a) const { return std::find(attrs.begin(), attrs.end(), a) != attrs.end(); }
};

InferResult inferOutput(const std::string& type, const Attrs& given, const Shape& input)
{
    InferResult r;
    const Op* op = OpRegistry::builtin().find(type);
    if (!op) qFatal("op %s is not registered", type.c_str());
    Attrs attrs;
    r.normaliseError = normaliseAttrs(op->attrSpecs(), given, attrs);
    if (!r.normaliseError.empty()) return r;
    const std::vector<TensorSpec> inputs{{input}};
    try {
        op->inferOutput(attrs, inputs);
    } catch (const OpError& e) {
        r.threw = true;
        r.message = e.what();
        r.attrs = e.attrs();
    }
    return r;
}

// Direct convolution in double, with the sum of |terms| per output as the scale that
// float rounding is measured against.
struct Reference {
    std::vector<double> value, scale;
};

template <class Fn> void forEachTap(const ConvCase& cc, Fn&& fn)
{
    const i64 cg = cc.c / cc.groups, kg = cc.k / cc.groups;
    for (i64 n = 0; n < cc.n; ++n)
        for (i64 k = 0; k < cc.k; ++k)
            for (i64 oy = 0; oy < cc.outH(); ++oy)
                for (i64 ox = 0; ox < cc.outW(); ++ox)
                    for (i64 ci = 0; ci < cg; ++ci)
                        for (i64 kr = 0; kr < cc.kh; ++kr)
                            for (i64 ks = 0; ks < cc.kw; ++ks) {
                                const i64 iy = oy * cc.strideH - cc.padH + kr * cc.dilH;
                                const i64 ix = ox * cc.strideW - cc.padW + ks * cc.dilW;
                                if (iy < 0 || iy >= cc.h || ix < 0 || ix >= cc.w) continue;
                                const i64 ch = (k / kg) * cg + ci;
                                fn(((n * cc.c + ch) * cc.h + iy) * cc.w + ix, ((k * cg + ci) * cc.kh + kr) * cc.kw + ks,
                                   ((n * cc.k + k) * cc.outH() + oy) * cc.outW() + ox);
                            }
}

Reference directForward(const ConvCase& cc, const Tensor& x, const Tensor& w, const Tensor& b)
{
    const i64 outs = i64(cc.n) * cc.k * cc.outH() * cc.outW(), plane = cc.outH() * cc.outW();
    Reference r{std::vector<double>(std::size_t(outs)), std::vector<double>(std::size_t(outs))};
    for (i64 o = 0; o < outs; ++o) {
        const double bias = b.defined() ? b.data<float>()[(o / plane) % cc.k] : 0.0;
        r.value[std::size_t(o)] = bias;
        r.scale[std::size_t(o)] = std::abs(bias);
    }
    forEachTap(cc, [&](i64 xi, i64 wi, i64 yi) {
        const double t = double(x.data<float>()[xi]) * w.data<float>()[wi];
        r.value[std::size_t(yi)] += t;
        r.scale[std::size_t(yi)] += std::abs(t);
    });
    return r;
}

// |got - ref| <= 1e-4 * scale: float32 dot products of at most a few hundred terms err by
// far less (~1e-6 of the |terms| sum); a wrong index errs by a whole term.
QString mismatch(const char* what, const float* got, const Reference& ref, const float* garbage = nullptr)
{
    for (std::size_t i = 0; i < ref.value.size(); ++i) {
        const double g = double(got[i]) - (garbage ? double(garbage[i]) : 0.0);
        if (!(std::abs(g - ref.value[i]) <= 1e-4 * std::max(ref.scale[i], 1e-3)))
            return QString("%1[%2]: got %3, direct loops give %4").arg(what).arg(i).arg(g).arg(ref.value[i]);
    }
    return {};
}

// Random valid geometries (seeded), plus fixed sweeps over the output size with 7 samples:
// whatever number of samples the backend packs into one GEMM, they give full chunks, a
// partial last chunk (also of a single sample), and one sample per GEMM, for the general
// and the pointwise (1x1, stride 1, no padding) paths.
std::vector<ConvCase> crossCheckCases()
{
    std::vector<ConvCase> cases{{.n = 3, .c = 4, .h = 9, .w = 11, .k = 4, .strideH = 2, .padW = 2, .dilH = 2, .groups = 4}};
    for (int size : {4, 10, 20, 30, 40}) {
        cases.push_back({.n = 7, .c = 2, .h = size, .w = size, .k = 3, .padH = 1, .padW = 1});
        cases.push_back({.n = 7, .c = 4, .h = size, .w = size + 1, .k = 2, .kh = 1, .kw = 1, .groups = 2});
    }
    // Winograd's 3x3 stride-1 path (cpu_winograd.cpp): even and odd output sizes, padding 0-2,
    // one lane and several (32x32 outputs: a sample per chunk, 9 samples over 8 lanes, so some
    // chunks are empty). The last case takes im2col with the same chunking.
    cases.push_back({.n = 5, .c = 8, .h = 14, .w = 14, .k = 16, .padH = 1, .padW = 1});
    cases.push_back({.n = 3, .c = 9, .h = 7, .w = 9, .k = 8, .padH = 1, .padW = 1});
    cases.push_back({.n = 2, .c = 8, .h = 6, .w = 5, .k = 10, .padH = 2, .padW = 0});
    cases.push_back({.n = 9, .c = 8, .h = 32, .w = 32, .k = 8, .padH = 1, .padW = 1, .bias = false});
    cases.push_back({.n = 9, .c = 2, .h = 32, .w = 32, .k = 3, .padH = 1, .padW = 1});
    std::mt19937_64 rng(2024);
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    while (cases.size() < 36) {
        ConvCase cc;
        cc.groups = pick(1, 3);
        cc.n = pick(1, 4), cc.c = cc.groups * pick(1, 3), cc.k = cc.groups * pick(1, 3);
        cc.h = pick(1, 12), cc.w = pick(1, 12), cc.kh = pick(1, 4), cc.kw = pick(1, 4);
        cc.strideH = pick(1, 3), cc.strideW = pick(1, 3), cc.padH = pick(0, 2), cc.padW = pick(0, 2);
        cc.dilH = pick(1, 2), cc.dilW = pick(1, 2), cc.bias = pick(0, 1) == 1;
        if (cc.h + 2 * cc.padH >= cc.dilH * (cc.kh - 1) + 1 && cc.w + 2 * cc.padW >= cc.dilW * (cc.kw - 1) + 1)
            cases.push_back(cc);
    }
    return cases;
}

QString describe(const ConvCase& cc)
{
    return QString("x[%1,%2,%3,%4] k=%5 kernel %6x%7 stride %8,%9 pad %10,%11 dil %12,%13 groups %14")
        .arg(cc.n).arg(cc.c).arg(cc.h).arg(cc.w).arg(cc.k).arg(cc.kh).arg(cc.kw).arg(cc.strideH).arg(cc.strideW)
        .arg(cc.padH).arg(cc.padW).arg(cc.dilH).arg(cc.dilW).arg(cc.groups);
}

}  // namespace

class TestOpsConvPool : public QObject {
    Q_OBJECT
private slots:
    // ---- known values ------------------------------------------------------------------------
    void convKnownValues()
    {
        // x = [[1,2,3],[4,5,6],[7,8,9]], w = [[1,2],[3,4]], bias -1, stride 1, no padding:
        //   y00 = 1*1 + 2*2 + 4*3 + 5*4 - 1 = 1+4+12+20-1 = 36
        //   y01 = 2*1 + 3*2 + 5*3 + 6*4 - 1 = 2+6+15+24-1 = 46
        //   y10 = 4*1 + 5*2 + 7*3 + 8*4 - 1 = 4+10+21+32-1 = 66
        //   y11 = 5*1 + 6*2 + 8*3 + 9*4 - 1 = 5+12+24+36-1 = 76
        const Tensor x = floats({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
        const Tensor w = floats({1, 1, 2, 2}, {1, 2, 3, 4});
        const Tensor b = floats({1}, {-1});
        const Tensor y = runForward("Conv2d", {{"out_channels", i64(1)}, {"kernel_size", i64(2)}}, {x}, {w, b});
        QCOMPARE(y.shape(), Shape({1, 1, 2, 2}));
        compareValues(y, {36, 46, 66, 76});
    }
    void convPaddedStridedKnownValues()
    {
        // Same x and w, padding 1, stride 2, no bias: the padded input is 5x5 and the windows
        // start at padded (0,0), (0,2), (2,0), (2,2), i.e. input (-1,-1), (-1,1), (1,-1), (1,1):
        //   y00 = x00*w11                         = 1*4                 = 4
        //   y01 = x01*w10 + x02*w11               = 2*3 + 3*4           = 18
        //   y10 = x10*w01 + x20*w11               = 4*2 + 7*4           = 36
        //   y11 = x11*w00 + x12*w01 + x21*w10 + x22*w11 = 5+12+24+36    = 77
        const Tensor x = floats({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
        const Tensor w = floats({1, 1, 2, 2}, {1, 2, 3, 4});
        const Attrs attrs{{"out_channels", i64(1)}, {"kernel_size", i64(2)}, {"stride", i64(2)}, {"padding", i64(1)}, {"bias", false}};
        const Tensor y = runForward("Conv2d", attrs, {x}, {w});
        QCOMPARE(y.shape(), Shape({1, 1, 2, 2}));
        compareValues(y, {4, 18, 36, 77});

        // Dilation 2: the 2x2 kernel reaches the corners, x00*1 + x02*2 + x20*3 + x22*4 = 1+6+21+36 = 64.
        const Tensor yd = runForward("Conv2d", {{"out_channels", i64(1)}, {"kernel_size", i64(2)}, {"dilation", i64(2)}, {"bias", false}},
                                     {x}, {w});
        QCOMPARE(yd.shape(), Shape({1, 1, 1, 1}));
        compareValues(yd, {64});
    }
    void convGroupedKnownValues()
    {
        // Two groups, two filters each; each filter sees only its group's channel.
        // channel 0 = [[1,2],[3,4]], channel 1 = [[5,6],[7,8]]; 2x2 kernels, so one output each:
        //   k0 (group 0) = [[1,0],[0,0]]  -> 1
        //   k1 (group 0) = [[0,0],[0,1]]  -> 4
        //   k2 (group 1) = [[1,1],[1,1]]  -> 5+6+7+8 = 26
        //   k3 (group 1) = [[1,-1],[0,0]] -> 5-6 = -1
        // plus bias [10, 20, 30, 40] -> 11, 24, 56, 39.
        const Tensor x = floats({1, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
        const Tensor w = floats({4, 1, 2, 2}, {1, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, -1, 0, 0});
        const Tensor b = floats({4}, {10, 20, 30, 40});
        const Tensor y = runForward("Conv2d", {{"out_channels", i64(4)}, {"kernel_size", i64(2)}, {"groups", i64(2)}}, {x}, {w, b});
        QCOMPARE(y.shape(), Shape({1, 4, 1, 1}));
        compareValues(y, {11, 24, 56, 39});
    }

    // x, 4x4, negative entries in two corners so that padding counted as 0 would show.
    static Tensor pool4x4()
    {
        return floats({1, 1, 4, 4}, {1, 5, 2, -2,  //
                                       3, 4, 8, 6,   //
                                       7, 2, 9, 1,   //
                                       -3, 6, 3, 5});
    }
    void maxPoolKnownValues()
    {
        // 2x2, stride 2: {1,5,3,4} -> 5 at 1; {2,-2,8,6} -> 8 at 6; {7,2,-3,6} -> 7 at 8; {9,1,3,5} -> 9 at 10.
        std::vector<Tensor> saved;
        Tensor y = runForward("MaxPool2d", {{"kernel_size", i64(2)}}, {pool4x4()}, {}, true, &saved);
        QCOMPARE(y.shape(), Shape({1, 1, 2, 2}));
        compareValues(y, {5, 8, 7, 9});
        QCOMPARE(saved.size(), std::size_t(1));
        QCOMPARE(saved[0].dtype(), DType::I32);
        const std::int32_t* arg = saved[0].data<std::int32_t>();
        QCOMPARE(std::vector<std::int32_t>(arg, arg + 4), (std::vector<std::int32_t>{1, 6, 8, 10}));

        // 2x2, stride 2, padding 1: windows cover rows {0}, {1,2}, {3} and the same columns.
        //   row {0}:    {1} -> 1,    {5,2} -> 5,          {-2} -> -2 (padding is -inf, not 0)
        //   rows {1,2}: {3,7} -> 7,  {4,8,2,9} -> 9,      {6,1} -> 6
        //   row {3}:    {-3} -> -3,  {6,3} -> 6,          {5} -> 5
        y = runForward("MaxPool2d", {{"kernel_size", i64(2)}, {"padding", i64(1)}}, {pool4x4()}, {}, true, &saved);
        QCOMPARE(y.shape(), Shape({1, 1, 3, 3}));
        compareValues(y, {1, 5, -2, 7, 9, 6, -3, 6, 5});
        arg = saved[0].data<std::int32_t>();
        QCOMPARE(std::vector<std::int32_t>(arg, arg + 9), (std::vector<std::int32_t>{0, 1, 3, 8, 10, 7, 12, 13, 15}));
    }
    void maxPoolTiesAndNaN()
    {
        // Ties go to the first maximum in row-major order; a NaN wins its window (divergence shows).
        const Tensor x = floats({1, 1, 2, 4}, {2, 2, 1, NAN,  //
                                                 0, 2, 3, 1});
        std::vector<Tensor> saved;
        const Tensor y = runForward("MaxPool2d", {{"kernel_size", i64(2)}}, {x}, {}, true, &saved);
        QCOMPARE(y.data<float>()[0], 2.0f);
        QVERIFY(std::isnan(y.data<float>()[1]));
        QCOMPARE(saved[0].data<std::int32_t>()[0], 0);
        QCOMPARE(saved[0].data<std::int32_t>()[1], 3);
    }
    void maxPool2x2MatchesTheRuleOnTiesNaNAndInfinities()
    {
        // The 2x2 stride-2 fast path against the rule written out here: the first maximum in
        // row-major order, the first NaN over anything. Values from a small set, so windows
        // tie often, hold NaNs, and +inf beside -inf (whose sum is NaN).
        // Then finite values only, with ties, on rows of 5 windows: the four-window
        // vector path (which rows holding a NaN leave) and the scalar one after it.
        const std::vector<float> withNaN = {0, 1, 1, 2, -1, NAN, INFINITY, -INFINITY}, finite = {0, 1, 1, 2, -1, -0.0f, 0.5f};
        for (const auto& [pool, w] : {std::pair{withNaN, i64(8)}, std::pair{finite, i64(10)}}) {
        std::mt19937_64 rng(7);
        const i64 n = 2, c = 3, h = 6;
        std::vector<float> values(static_cast<std::size_t>(n * c * h * w));
        for (float& v : values) v = pool[rng() % pool.size()];
        std::vector<Tensor> saved;
        const Tensor y = runForward("MaxPool2d", {{"kernel_size", i64(2)}}, {floats({n, c, h, w}, values)}, {}, true, &saved);
        const float* got = y.data<float>();
        const std::int32_t* arg = saved[0].data<std::int32_t>();
        for (i64 plane = 0; plane < n * c; ++plane)
            for (i64 oy = 0; oy < h / 2; ++oy)
                for (i64 ox = 0; ox < w / 2; ++ox) {
                    const float* x = values.data() + plane * h * w;
                    i64 best = 2 * oy * w + 2 * ox;
                    for (i64 dy = 0; dy < 2; ++dy)
                        for (i64 dx = 0; dx < 2; ++dx) {
                            const i64 at = (2 * oy + dy) * w + 2 * ox + dx;
                            if (x[at] > x[best] || (std::isnan(x[at]) && !std::isnan(x[best]))) best = at;
                        }
                    const i64 o = plane * (h / 2) * (w / 2) + oy * (w / 2) + ox;
                    QCOMPARE(arg[o], std::int32_t(best));
                    if (std::isnan(x[best])) QVERIFY(std::isnan(got[o]));
                    else QCOMPARE(got[o], x[best]);
                }
        }
    }
    void avgPoolKnownValues()
    {
        // 2x2, stride 2: (1+5+3+4)/4 = 3.25, (2-2+8+6)/4 = 3.5, (7+2-3+6)/4 = 3, (9+1+3+5)/4 = 4.5
        Tensor y = runForward("AvgPool2d", {{"kernel_size", i64(2)}}, {pool4x4()}, {});
        compareValues(y, {3.25f, 3.5f, 3, 4.5f});

        // 2x2, stride 2, padding 1 (windows as in maxPoolKnownValues), padding counted: all divide by 4.
        //   1/4, (5+2)/4, -2/4 | (3+7)/4, (4+8+2+9)/4, (6+1)/4 | -3/4, (6+3)/4, 5/4
        y = runForward("AvgPool2d", {{"kernel_size", i64(2)}, {"padding", i64(1)}}, {pool4x4()}, {});
        QCOMPARE(y.shape(), Shape({1, 1, 3, 3}));
        compareValues(y, {0.25f, 1.75f, -0.5f, 2.5f, 5.75f, 1.75f, -0.75f, 2.25f, 1.25f});

        // Padding not counted: divide by the real elements covered (1, 2, 1 | 2, 4, 2 | 1, 2, 1).
        //   1/1, 7/2, -2/1 | 10/2, 23/4, 7/2 | -3/1, 9/2, 5/1
        y = runForward("AvgPool2d", {{"kernel_size", i64(2)}, {"padding", i64(1)}, {"count_include_pad", false}}, {pool4x4()}, {});
        compareValues(y, {1, 3.5f, -2, 5, 5.75f, 3.5f, -3, 4.5f, 5});
    }
    void globalAvgPoolKnownValues()
    {
        // [1, 2, 2, 2]: channel means (1+2+3+4)/4 = 2.5 and (5+6+7+9)/4 = 6.75, shape [N, C].
        const Tensor x = floats({1, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 9});
        const Tensor y = runForward("GlobalAvgPool", {}, {x}, {});
        QCOMPARE(y.shape(), Shape({1, 2}));
        compareValues(y, {2.5f, 6.75f});
    }

    // ---- the GEMM convolution against direct loops --------------------------------------------
    void convForwardMatchesDirectLoops()
    {
        std::mt19937_64 rng(7);
        for (const ConvCase& cc : crossCheckCases()) {
            const Tensor x = randomTensor(cc.input(), rng);
            const Tensor w = randomTensor(Shape{cc.k, cc.c / cc.groups, cc.kh, cc.kw}, rng);
            const Tensor b = cc.bias ? randomTensor(Shape{cc.k}, rng) : Tensor();
            const Tensor y = runForward("Conv2d", cc.attrs(), {x}, cc.bias ? std::vector<Tensor>{w, b} : std::vector<Tensor>{w});
            QCOMPARE(y.shape(), Shape({cc.n, cc.k, cc.outH(), cc.outW()}));
            const QString bad = mismatch("y", y.data<float>(), directForward(cc, x, w, b));
            QVERIFY2(bad.isEmpty(), qPrintable(describe(cc) + ": " + bad));
        }
    }
    void convBackwardMatchesDirectLoops()
    {
        // Every element of dx, dW and db (gradCheck probes a sample), accumulated on top of
        // garbage as the contract demands; same 1e-4-of-|terms| tolerance as the forward.
        std::mt19937_64 rng(11);
        const Op* op = OpRegistry::builtin().find("Conv2d");
        for (const ConvCase& cc : crossCheckCases()) {
            Attrs attrs;
            QVERIFY(normaliseAttrs(op->attrSpecs(), cc.attrs(), attrs).empty());
            const std::vector<TensorSpec> in{{cc.input()}};
            const TensorSpec out = op->inferOutput(attrs, in);
            // Scratch holds garbage (0x7f bytes: floats near 3.4e38), as a reused arena does.
            std::vector<char> workspace(std::max<std::size_t>(1, op->workspaceBytes(cpuBackend(), attrs, in, out)), 0x7f);

            OpContext ctx{cpuBackend(), attrs};
            ctx.inputs = {randomTensor(cc.input(), rng)};
            ctx.params = {randomTensor(Shape{cc.k, cc.c / cc.groups, cc.kh, cc.kw}, rng)};
            if (cc.bias) ctx.params.push_back(randomTensor(Shape{cc.k}, rng));
            ctx.workspace = workspace.data();
            ctx.gradOutput = randomTensor(out.shape, rng);
            const Tensor gx = randomTensor(cc.input(), rng), gw = randomTensor(ctx.params[0].shape(), rng);
            const Tensor gb = cc.bias ? randomTensor(Shape{cc.k}, rng) : Tensor();
            ctx.gradInputs = {gx.clone()};
            ctx.gradParams = {gw.clone()};
            if (cc.bias) ctx.gradParams.push_back(gb.clone());
            op->backward(ctx);

            Reference dx{std::vector<double>(std::size_t(gx.numel())), std::vector<double>(std::size_t(gx.numel()))};
            Reference dw{std::vector<double>(std::size_t(gw.numel())), std::vector<double>(std::size_t(gw.numel()))};
            const float* dy = ctx.gradOutput.data<float>();
            forEachTap(cc, [&](i64 xi, i64 wi, i64 yi) {
                const double tx = double(dy[yi]) * ctx.params[0].data<float>()[wi];
                const double tw = double(dy[yi]) * ctx.inputs[0].data<float>()[xi];
                dx.value[std::size_t(xi)] += tx, dx.scale[std::size_t(xi)] += std::abs(tx);
                dw.value[std::size_t(wi)] += tw, dw.scale[std::size_t(wi)] += std::abs(tw);
            });
            QString bad = mismatch("dx", ctx.gradInputs[0].data<float>(), dx, gx.data<float>());
            if (bad.isEmpty()) bad = mismatch("dW", ctx.gradParams[0].data<float>(), dw, gw.data<float>());
            if (bad.isEmpty() && cc.bias) {
                Reference db{std::vector<double>(std::size_t(cc.k)), std::vector<double>(std::size_t(cc.k))};
                const i64 plane = cc.outH() * cc.outW();
                for (i64 i = 0; i < ctx.gradOutput.numel(); ++i) {
                    db.value[std::size_t((i / plane) % cc.k)] += dy[i];
                    db.scale[std::size_t((i / plane) % cc.k)] += std::abs(dy[i]);
                }
                bad = mismatch("db", ctx.gradParams[1].data<float>(), db, gb.data<float>());
            }
            QVERIFY2(bad.isEmpty(), qPrintable(describe(cc) + ": " + bad));
        }
    }

    void winogradTakesThreeByThreeStrideOneInF32()
    {
        // The cross-checks above test Winograd's path only if these shapes take it.
        auto& cpu = dynamic_cast<CpuBackend&>(cpuBackend());
        const ConvGeometry cnnConv2{.n = 128, .c = 32, .h = 14, .w = 14, .k = 64, .r = 3, .s = 3, .padH = 1, .padW = 1};
        QVERIFY(cpu.useWinograd(cnnConv2));
        ConvGeometry g = cnnConv2;
        g.strideH = 2;
        QVERIFY(!cpu.useWinograd(g));
        g = cnnConv2;
        g.c = 1;  // the CNN's first layer: too few channels for the small GEMMs
        QVERIFY(!cpu.useWinograd(g));
        cpu.setMathPrecision(MathPrecision::BF16);  // operands rounded as tensor cores round them
        QVERIFY(!cpu.useWinograd(cnnConv2));
        cpu.setMathPrecision(MathPrecision::F32);
    }

    void backendSkipsNullGradients()
    {
        // The contract: a null gradient pointer means "not wanted"; nothing is read or written.
        ConvGeometry g;
        g.n = 2, g.c = 2, g.h = 5, g.w = 5, g.k = 3, g.r = 3, g.s = 3;
        std::vector<float> w(std::size_t(g.k * g.c * g.r * g.s), 1.0f), dy(std::size_t(g.n * g.k * 9), 1.0f);
        std::vector<char> ws(cpuBackend().conv2dWorkspaceBytes(g) + 1);
        cpuBackend().conv2dBackwardData(g, w.data(), dy.data(), nullptr, ws.data());
        cpuBackend().conv2dBackwardFilter(g, w.data(), dy.data(), nullptr, ws.data());
        PoolGeometry pg;
        pg.kh = pg.kw = pg.strideH = pg.strideW = 1;
        cpuBackend().pool2dBackward(PoolKind::Avg, pg, dy.data(), nullptr, nullptr);
        cpuBackend().pool2dBackward(PoolKind::Max, pg, dy.data(), nullptr, nullptr);
    }

    // ---- parameters, cost and workspace --------------------------------------------------------
    void convParamsAndFlops()
    {
        const Op* op = OpRegistry::builtin().find("Conv2d");
        Attrs attrs;
        const ConvCase cc{.n = 2, .c = 6, .h = 10, .w = 8, .k = 9, .kh = 3, .kw = 2, .padH = 1, .groups = 3};
        QVERIFY(normaliseAttrs(op->attrSpecs(), cc.attrs(), attrs).empty());
        const std::vector<TensorSpec> in{{cc.input()}};
        const TensorSpec out = op->inferOutput(attrs, in);
        QCOMPARE(out.shape, Shape({2, 9, 10, 7}));  // H: (10 + 2 - 3) + 1, W: (8 - 2) + 1
        const auto params = op->params(attrs, in);
        QCOMPARE(params.size(), std::size_t(2));
        QCOMPARE(params[0].name, std::string("weight"));
        QCOMPARE(params[0].shape, Shape({9, 2, 3, 2}));
        QCOMPARE(params[0].init.fanIn, 2.0 * 3 * 2);        // C/groups * R * S
        QCOMPARE(params[0].init.fanOut, 9.0 * 3 * 2 / 3);   // K * R * S / groups
        QCOMPARE(params[1].shape, Shape({9}));
        QCOMPARE(int(params[1].init.kind), int(InitKind::Zeros));
        // 2 * N*K*outH*outW * (C/groups)*R*S = 2 * 2*9*10*7 * 2*3*2 = 30240
        QCOMPARE(op->flops(attrs, in, out), 30240.0);
    }
    void convWorkspaceIsBoundedButHoldsOneSample()
    {
        const std::size_t budget = std::size_t(64) << 20;
        ConvGeometry g;  // a batch whose column matrices would be 1.8 GiB all at once
        g.n = 64, g.c = 64, g.h = 112, g.w = 112, g.k = 64, g.r = 3, g.s = 3, g.padH = 1, g.padW = 1;
        const std::size_t oneSample = std::size_t(g.c * g.r * g.s * g.outH() * g.outW()) * sizeof(float);
        std::size_t bytes = cpuBackend().conv2dWorkspaceBytes(g);
        QVERIFY2(bytes >= oneSample && bytes <= budget, qPrintable(QString::number(bytes)));
        g.n = 2, g.c = 512, g.h = 128, g.w = 128;  // one sample alone is over the budget
        bytes = cpuBackend().conv2dWorkspaceBytes(g);
        QVERIFY(bytes >= std::size_t(g.c * g.r * g.s * g.outH() * g.outW()) * sizeof(float));
    }

    // ---- shape errors ----------------------------------------------------------------------
    void convInChannelsMismatch()
    {
        const auto r = inferOutput("Conv2d", {{"in_channels", i64(4)}, {"out_channels", i64(8)}, {"kernel_size", i64(3)}}, {1, 3, 8, 8});
        QVERIFY2(r.normaliseError.empty(), r.normaliseError.c_str());
        QVERIFY(r.threw);
        QCOMPARE(r.attrs, std::vector<std::string>{"in_channels"});
        QVERIFY2(r.message.find("3 channels") != std::string::npos, r.message.c_str());
    }
    void convGroupsMustDivideChannels()
    {
        auto r = inferOutput("Conv2d", {{"out_channels", i64(4)}, {"kernel_size", i64(3)}, {"groups", i64(2)}}, {1, 3, 8, 8});
        QVERIFY(r.threw);
        QCOMPARE(r.attrs, std::vector<std::string>{"groups"});
        QVERIFY2(r.message.find("3 channels") != std::string::npos, r.message.c_str());

        r = inferOutput("Conv2d", {{"out_channels", i64(6)}, {"kernel_size", i64(3)}, {"groups", i64(4)}}, {1, 4, 8, 8});
        QVERIFY(r.threw);
        QVERIFY(r.names("groups") && r.names("out_channels"));
    }
    void convKernelLargerThanPaddedInput()
    {
        auto r = inferOutput("Conv2d", {{"out_channels", i64(2)}, {"kernel_size", i64(5)}, {"padding", i64(0)}}, {1, 1, 3, 3});
        QVERIFY(r.threw);
        QVERIFY(r.names("kernel_size") && r.names("padding") && r.names("dilation"));
        QVERIFY2(r.message.find("3x3") != std::string::npos, r.message.c_str());
        // 4 + 2*0 < 5 with stride 2: (4 - 5) / 2 + 1 truncates to 1, yet there is no window.
        r = inferOutput("Conv2d", {{"out_channels", i64(2)}, {"kernel_size", i64(5)}, {"stride", i64(2)}}, {1, 1, 4, 4});
        QVERIFY(r.threw);
        QVERIFY(r.names("kernel_size"));
        // Dilation 2 makes a 3x3 kernel reach 5x5: too far for 4x4.
        r = inferOutput("Conv2d", {{"out_channels", i64(2)}, {"kernel_size", i64(3)}, {"dilation", i64(2)}}, {1, 1, 4, 4});
        QVERIFY(r.threw);
        QVERIFY(r.names("dilation"));
        // Padding 1 is just enough for a 5x5 kernel over 3x3.
        r = inferOutput("Conv2d", {{"out_channels", i64(2)}, {"kernel_size", i64(5)}, {"padding", i64(1)}}, {1, 1, 3, 3});
        QVERIFY2(!r.threw, r.message.c_str());
    }
    void convRejectsBadInputsAndAttributes()
    {
        auto r = inferOutput("Conv2d", {{"out_channels", i64(2)}, {"kernel_size", i64(3)}}, {3, 8, 8});
        QVERIFY(r.threw);
        QVERIFY2(r.message.find("rank 4") != std::string::npos, r.message.c_str());
        r = inferOutput("Conv2d", {{"out_channels", i64(2)}, {"kernel_size", i64(0)}}, {1, 1, 8, 8});
        QVERIFY2(r.normaliseError.find("kernel_size") != std::string::npos, r.normaliseError.c_str());
        r = inferOutput("Conv2d", {{"out_channels", i64(2)}, {"kernel_size", i64(3)}, {"stride", std::vector<i64>{1, 0}}}, {1, 1, 8, 8});
        QVERIFY2(r.normaliseError.find("stride") != std::string::npos, r.normaliseError.c_str());
        r = inferOutput("Conv2d", {{"kernel_size", i64(3)}}, {1, 1, 8, 8});
        QVERIFY2(r.normaliseError.find("out_channels") != std::string::npos, r.normaliseError.c_str());
    }
    void poolShapeErrors()
    {
        for (const char* type : {"MaxPool2d", "AvgPool2d"}) {
            auto r = inferOutput(type, {{"kernel_size", i64(3)}, {"padding", i64(2)}}, {1, 1, 8, 8});
            QVERIFY(r.threw);
            QCOMPARE(r.attrs, std::vector<std::string>{"padding"});
            r = inferOutput(type, {{"kernel_size", i64(5)}, {"stride", i64(2)}}, {1, 1, 4, 4});
            QVERIFY(r.threw);
            QVERIFY(r.names("kernel_size"));
            QVERIFY2(r.message.find("4x4") != std::string::npos, r.message.c_str());
            r = inferOutput(type, {{"kernel_size", i64(2)}}, {1, 8, 8});
            QVERIFY(r.threw);
            // stride 0 means "the kernel": 7x7 pooled 3x3 gives 2x2.
            r = inferOutput(type, {{"kernel_size", i64(3)}}, {1, 1, 7, 7});
            QVERIFY2(!r.threw, r.message.c_str());
        }
        QVERIFY(inferOutput("GlobalAvgPool", {}, {2, 3}).threw);
    }
};

QTEST_GUILESS_MAIN(TestOpsConvPool)
#include "tst_ops_conv_pool.moc"

// Self-test cases: convolution (forward, backward data, backward filter), pooling and upsampling.
#include "selftest/selftest_harness.h"

namespace ts::selftest {

namespace {

std::string convText(const ConvGeometry& g)
{
    return format("x=[%lld, %lld, %lld, %lld] w=[%lld, %lld, %lld, %lld] stride=%lldx%lld pad=%lldx%lld dil=%lldx%lld groups=%lld",
                  (long long)g.n, (long long)g.c, (long long)g.h, (long long)g.w, (long long)g.k,
                  (long long)(g.c / g.groups), (long long)g.r, (long long)g.s, (long long)g.strideH, (long long)g.strideW,
                  (long long)g.padH, (long long)g.padW, (long long)g.dilH, (long long)g.dilW, (long long)g.groups);
}

ConvGeometry conv(i64 n, i64 c, i64 hw, i64 k, i64 rs, i64 stride, i64 pad, i64 dil = 1, i64 groups = 1)
{
    ConvGeometry g;
    g.n = n, g.c = c, g.h = g.w = hw, g.k = k, g.r = g.s = rs;
    g.strideH = g.strideW = stride, g.padH = g.padW = pad, g.dilH = g.dilW = dil, g.groups = groups;
    return g;
}

void convCase(Harness& h, const ConvGeometry& g)
{
    const std::string shape = convText(g);
    const i64 xN = g.n * g.c * g.h * g.w, wN = g.k * (g.c / g.groups) * g.r * g.s, yN = g.n * g.k * g.outH() * g.outW();
    // Each backend runs with a workspace of the size it asked for.
    Tensor ws[2];
    for (int s = 0; s < 2; ++s) ws[s] = h.scratch(s, h.backend(s).conv2dWorkspaceBytes(g));
    auto wsOf = [&](int s) { return ws[s].defined() ? ws[s].raw() : nullptr; };

    auto x = h.uniform(xN), w = h.uniform(wN), y = h.uniform(yN);  // y's old values must be overwritten
    h.check(Primitive::conv2dForward, shape, h.matmulTolerance(),
            [&](Backend& be, int s) { be.conv2dForward(g, x[s], w[s], y[s], wsOf(s)); }, {h.out("y", y)});
    auto dy = h.uniform(yN), dw = h.uniform(wN);
    for (GradWrite write : kGradWrites) {
        auto dx = h.uniform(xN);  // old values: added to, or overwritten
        h.check(Primitive::conv2dBackwardData, shape + gradWriteText(write), h.matmulTolerance(),
                [&](Backend& be, int s) { be.conv2dBackwardData(g, w[s], dy[s], dx[s], wsOf(s), write); },
                {h.out("dx", dx)});
    }
    h.check(Primitive::conv2dBackwardFilter, shape, h.matmulTolerance(),
            [&](Backend& be, int s) { be.conv2dBackwardFilter(g, x[s], dy[s], dw[s], wsOf(s)); }, {h.out("dw", dw)});
    auto dx = h.uniform(xN), dw2 = h.uniform(wN);  // both at once (a backend may share work between them)
    h.check(Primitive::conv2dBackward, shape + " overwrite", h.matmulTolerance(),
            [&](Backend& be, int s) { be.conv2dBackward(g, x[s], w[s], dy[s], dx[s], dw2[s], wsOf(s), GradWrite::Overwrite); },
            {h.out("dx", dx), h.out("dw", dw2)});
}

PoolGeometry pool(std::initializer_list<i64> x, i64 kernel, i64 stride, i64 pad, bool countIncludePad = true)
{
    const i64* d = x.begin();
    PoolGeometry g;
    g.n = d[0], g.c = d[1], g.h = d[2], g.w = d[3];
    g.kh = g.kw = kernel, g.strideH = g.strideW = stride, g.padH = g.padW = pad;
    g.countIncludePad = countIncludePad;
    return g;
}

void poolCase(Harness& h, PoolKind kind, const PoolGeometry& g)
{
    const bool isMax = kind == PoolKind::Max;
    std::string shape = format("x=[%lld, %lld, %lld, %lld] kernel=%lldx%lld stride=%lld pad=%lld", (long long)g.n,
                               (long long)g.c, (long long)g.h, (long long)g.w, (long long)g.kh, (long long)g.kw,
                               (long long)g.strideH, (long long)g.padH);
    if (!isMax) shape += g.countIncludePad ? " countIncludePad" : " excludePad";
    const i64 xN = g.n * g.c * g.h * g.w, yN = g.n * g.c * g.outH() * g.outW();
    auto x = h.uniform(xN), y = h.uniform(yN);
    auto argmax = h.upload(std::vector<std::int32_t>(static_cast<std::size_t>(yN), -1));
    std::vector<Harness::Output> outputs{h.out("y", y)};
    if (isMax) outputs.push_back(h.out("argmax", argmax, true));
    h.check(Primitive::pool2dForward, (isMax ? "max " : "avg ") + shape, h.elementwiseTolerance(),
            [&](Backend& be, int s) { be.pool2dForward(kind, g, x[s], y[s], isMax ? argmax[s] : nullptr); }, outputs);

    h.mirrorReference(argmax);  // the backward is checked on the reference's argmax
    auto dy = h.uniform(yN);
    for (GradWrite write : kGradWrites) {
        auto dx = h.uniform(xN);  // old values: added to, or overwritten (inputs no window reads too)
        h.check(Primitive::pool2dBackward, (isMax ? "max " : "avg ") + shape + gradWriteText(write), h.elementwiseTolerance(),
                [&](Backend& be, int s) { be.pool2dBackward(kind, g, dy[s], isMax ? argmax[s] : nullptr, dx[s], write); },
                {h.out("dx", dx)});
    }
}

void upsampleCase(Harness& h, UpsampleMode mode, std::initializer_list<i64> x, i64 outH, i64 outW)
{
    const i64* d = x.begin();
    UpsampleGeometry g;
    g.n = d[0], g.c = d[1], g.h = d[2], g.w = d[3], g.outH = outH, g.outW = outW;
    const std::string shape = format("%s x=[%lld, %lld, %lld, %lld] out=%lldx%lld", mode == UpsampleMode::Nearest ? "nearest" : "bilinear",
                                     (long long)g.n, (long long)g.c, (long long)g.h, (long long)g.w, (long long)outH, (long long)outW);
    const i64 xN = g.n * g.c * g.h * g.w, yN = g.n * g.c * outH * outW;
    auto up = h.uniform(xN), y = h.uniform(yN);  // y's old values must be overwritten
    h.check(Primitive::upsample2dForward, shape, h.elementwiseTolerance(),
            [&](Backend& be, int s) { be.upsample2dForward(mode, g, up[s], y[s]); }, {h.out("y", y)});
    auto dy = h.uniform(yN), dx = h.uniform(xN);  // dx's old values are added to
    h.check(Primitive::upsample2dBackward, shape, h.elementwiseTolerance(),
            [&](Backend& be, int s) { be.upsample2dBackward(mode, g, dy[s], dx[s]); }, {h.out("dx", dx)});
}

}  // namespace

void convPoolCases(Harness& h)
{
    std::vector<ConvGeometry> convs{
        conv(3, 5, 7, 4, 3, 2, 1),             // odd sizes, stride 2
        conv(2, 8, 9, 8, 3, 1, 1, 1, 8),       // depthwise
        conv(3, 7, 5, 6, 1, 1, 0),             // pointwise (the CPU's no-im2col path)
        conv(2, 4, 7, 5, 1, 2, 0),             // 1x1 with stride
        conv(5, 3, 33, 17, 5, 1, 2),           // no multiple of any tile size
        conv(3, 8, 9, 10, 3, 1, 1),            // 3x3 stride 1, odd size (the CPU's Winograd path)
    };
    ConvGeometry mixed = conv(2, 6, 11, 4, 3, 1, 2, 2, 2);  // dilation, groups, unequal stride/pad/kernel
    mixed.w = 10, mixed.s = 2, mixed.strideW = 2, mixed.padW = 1, mixed.dilW = 1;
    convs.push_back(mixed);
    if (h.large()) {
        convs.push_back(conv(128, 1, 28, 32, 3, 1, 1));   // the Fashion-MNIST CNN's first layer
        convs.push_back(conv(128, 32, 28, 32, 3, 1, 1));  // [128, 32, 28, 28]
    }
    for (const ConvGeometry& g : convs) convCase(h, g);

    poolCase(h, PoolKind::Max, pool({3, 5, 7, 9}, 3, 2, 1));
    poolCase(h, PoolKind::Max, pool({2, 3, 6, 6}, 2, 2, 0));
    poolCase(h, PoolKind::Max, pool({5, 7, 33, 31}, 3, 2, 1));
    poolCase(h, PoolKind::Avg, pool({3, 5, 7, 9}, 3, 2, 1, true));
    poolCase(h, PoolKind::Avg, pool({3, 5, 7, 9}, 3, 2, 1, false));
    poolCase(h, PoolKind::Avg, pool({5, 7, 33, 31}, 3, 1, 1, false));
    if (h.large()) {
        poolCase(h, PoolKind::Max, pool({128, 32, 28, 28}, 2, 2, 0));
        poolCase(h, PoolKind::Avg, pool({128, 32, 28, 28}, 2, 2, 0));
    }

    for (UpsampleMode mode : {UpsampleMode::Nearest, UpsampleMode::Bilinear}) {
        upsampleCase(h, mode, {2, 3, 5, 7}, 10, 14);   // scale 2
        upsampleCase(h, mode, {3, 2, 7, 5}, 17, 11);   // no integer scale, unequal in h and w
        upsampleCase(h, mode, {2, 3, 9, 8}, 4, 3);     // downsampling: several inputs per output
        if (h.large()) upsampleCase(h, mode, {128, 32, 14, 14}, 28, 28);
    }
}

}  // namespace ts::selftest

// 2-D convolution on the CPU: im2col + GEMM (OpenBLAS through this->gemm).
//
// A chunk of samples is unfolded side by side into one column matrix [c*r*s, chunk*P]
// (P = outH*outW, column index = sample*P + pixel), so each group's GEMM is
// [k/groups, chunk*P] wide even when the feature maps are small. Group g owns the rows
// [g*cg*r*s, (g+1)*cg*r*s) of the column matrix and the rows [g*kg, (g+1)*kg) of the
// output, so groups are strided sub-matrices of the same buffers.
//
// GEMM output for a chunk is [k, chunk*P] while y is [chunk, k, P]: a staging buffer
// bridges the two layouts. With one sample per chunk the layouts coincide and y, dy are
// used in place.
//
// Threads: the batch's chunks are dealt to up to 8 lanes, fixed by the shape (never by the
// thread count); each lane has its own workspace and runs unfold, GEMM (one OpenBLAS call
// on its thread) and staging for its chunks, and the lanes go to the threads. So both cores
// also do the data movement, with one fork per primitive rather than one per GEMM (forking
// around each GEMM made the primitive 2-5x slower on the 2-core VM: OpenMP workers spin
// while the next GEMM's threads want the same cores). Backward-filter sums each lane's chunks
// into the lane's own partial dW and the partials in lane order, and col2im writes only its
// chunk's samples: results are the same with 1 thread or 8. A layer too big for several
// lanes' workspaces runs as one lane with the GEMM tiled over the threads instead.
#include <algorithm>
#include <utility>

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/cpu_winograd.h"
#include "backend/cpu/parallel.h"
#include "tensor/checked_size.h"

namespace ts {

namespace {

using i64 = std::int64_t;

constexpr i64 kTargetColumns = 1024;  // GEMM width past which batching samples gained nothing measurable
constexpr i64 kMaxLanes = 8;          // lanes a batch is dealt to; more cores than this share them
constexpr std::size_t kWorkspaceBudget = 64u << 20;  // bytes, all lanes; one sample of one lane even above it

struct ConvPlan {
    i64 outH = 0, outW = 0, pixels = 0;  // pixels = outH * outW
    i64 kg = 0;                          // output channels per group
    i64 groupRows = 0;                   // (c/groups) * r * s: the inner dimension of each group's GEMM
    i64 chunks = 1;                      // chunk c holds samples [n*c/chunks, n*(c+1)/chunks)
    i64 lanes = 1;                       // lane l holds chunks [chunks*l/lanes, chunks*(l+1)/lanes)
    i64 maxChunk = 1;                    // samples in the largest chunk
    bool pointwise = false;              // 1x1, stride 1, no padding: x is its own column matrix
    // Per lane:
    std::size_t colFloats = 0;    // column matrix [c*r*s, chunk*P]
    std::size_t stageFloats = 0;  // staging [k, chunk*P]; only when a chunk has several samples
    std::size_t dwFloats = 0;     // the lane's partial filter gradient; only with several lanes

    std::size_t laneFloats() const { return colFloats + stageFloats + dwFloats; }
    std::size_t bytes() const { return static_cast<std::size_t>(lanes) * laneFloats() * sizeof(float); }
};

ConvPlan makePlan(const ConvGeometry& g)
{
    ConvPlan p;
    p.outH = g.outH();
    p.outW = g.outW();
    p.pixels = p.outH * p.outW;
    p.kg = g.k / g.groups;
    p.groupRows = g.c / g.groups * g.r * g.s;
    p.pointwise = g.r == 1 && g.s == 1 && g.strideH == 1 && g.strideW == 1 && g.padH == 0 && g.padW == 0;

    const i64 colRows = g.c * g.r * g.s, n = std::max<i64>(g.n, 1);
    const std::size_t perSample = static_cast<std::size_t>((colRows + g.k) * p.pixels) * sizeof(float);
    const std::size_t weightBytes = static_cast<std::size_t>(g.k * p.groupRows) * sizeof(float);
    // A feature map of half the target width or more is one sample per chunk: then y and dy are
    // the GEMMs' own operands, with no staging copy of the layer's whole output each way.
    const i64 wanted = 2 * p.pixels >= kTargetColumns ? 1 : std::min(n, (kTargetColumns + p.pixels - 1) / std::max<i64>(p.pixels, 1));
    i64 chunk = std::max<i64>(1, wanted);
    p.chunks = (n + chunk - 1) / chunk;
    p.lanes = std::min(p.chunks, kMaxLanes);
    while (p.lanes > 1 && std::size_t(p.lanes) * (perSample * std::size_t(chunk) + weightBytes) > kWorkspaceBudget)
        --p.lanes;
    if (p.lanes == 1) {  // one lane: the whole budget for its chunk
        const i64 affordable = static_cast<i64>(kWorkspaceBudget / std::max<std::size_t>(perSample, 1));
        chunk = std::max<i64>(1, std::min(wanted, affordable));
        p.chunks = (n + chunk - 1) / chunk;
    } else {
        p.chunks = (p.chunks + p.lanes - 1) / p.lanes * p.lanes;  // every lane the same number of chunks
    }
    p.maxChunk = (n + p.chunks - 1) / p.chunks;

    const bool needCol = !(p.pointwise && p.maxChunk == 1);
    p.colFloats = needCol ? static_cast<std::size_t>(colRows * p.maxChunk * p.pixels) : 0;
    p.stageFloats = p.maxChunk > 1 ? static_cast<std::size_t>(g.k * p.maxChunk * p.pixels) : 0;
    p.dwFloats = p.lanes > 1 ? weightBytes / sizeof(float) : 0;
    return p;
}

// ceil(a / b) for b > 0 and any sign of a.
i64 ceilDiv(i64 a, i64 b) { return a >= 0 ? (a + b - 1) / b : -((-a) / b); }

// The output positions [lo, hi) whose input coordinate o*stride + offset lies in [0, inSize).
std::pair<i64, i64> validOutputs(i64 outSize, i64 stride, i64 offset, i64 inSize)
{
    const i64 lo = std::clamp<i64>(ceilDiv(-offset, stride), 0, outSize);
    const i64 hi = std::clamp<i64>(ceilDiv(inSize - offset, stride), lo, outSize);
    return {lo, hi};
}

// Visits, for one input channel, every kernel tap (kr, ks) and output row oy:
// fn(row, oy, iy, xLo, xHi, offW) with row the column-matrix row of the tap, iy the input
// row read (-1 in the padding), and output columns [xLo, xHi) reading input column
// ox*strideW + offW (the rest read padding).
template <class Fn> void forEachKernelRow(const ConvGeometry& g, const ConvPlan& p, i64 ci, Fn&& fn)
{
    for (i64 kr = 0; kr < g.r; ++kr) {
        const i64 offH = kr * g.dilH - g.padH;
        const auto [yLo, yHi] = validOutputs(p.outH, g.strideH, offH, g.h);
        for (i64 ks = 0; ks < g.s; ++ks) {
            const i64 offW = ks * g.dilW - g.padW;
            const auto [xLo, xHi] = validOutputs(p.outW, g.strideW, offW, g.w);
            const i64 row = (ci * g.r + kr) * g.s + ks;
            for (i64 oy = 0; oy < p.outH; ++oy) {
                const bool inside = oy >= yLo && oy < yHi;
                fn(row, oy, inside ? (oy * g.strideH + offH) : -1, xLo, xHi, offW);
            }
        }
    }
}

// col[row, b*P + pixel] = x[b, channel, iy, ix] (0 in the padding), for nb samples.
void im2col(const ConvGeometry& g, const ConvPlan& p, const float* x, i64 nb, float* col)
{
    const i64 ld = nb * p.pixels, plane = g.h * g.w;
    for (i64 u = 0; u < nb * g.c; ++u) {  // u = (sample, channel)
        const i64 b = u / g.c;
        const float* src = x + u * plane;
        forEachKernelRow(g, p, u % g.c, [&](i64 row, i64 oy, i64 iy, i64 xLo, i64 xHi, i64 offW) {
            float* d = col + row * ld + b * p.pixels + oy * p.outW;
            if (iy < 0) {
                std::fill_n(d, p.outW, 0.0f);
                return;
            }
            const float* s = src + iy * g.w;
            std::fill_n(d, xLo, 0.0f);
            for (i64 ox = xLo; ox < xHi; ++ox) d[ox] = s[ox * g.strideW + offW];
            std::fill_n(d + xHi, p.outW - xHi, 0.0f);
        });
    }
}

// dx[b, channel, iy, ix] += col[row, b*P + pixel]: the adjoint of im2col.
void col2imAccumulate(const ConvGeometry& g, const ConvPlan& p, const float* col, i64 nb, float* dx)
{
    const i64 ld = nb * p.pixels, plane = g.h * g.w;
    for (i64 u = 0; u < nb * g.c; ++u) {  // u = (sample, channel)
        const i64 b = u / g.c;
        float* dst = dx + u * plane;
        forEachKernelRow(g, p, u % g.c, [&](i64 row, i64 oy, i64 iy, i64 xLo, i64 xHi, i64 offW) {
            if (iy < 0) return;
            const float* s = col + row * ld + b * p.pixels + oy * p.outW;
            float* d = dst + iy * g.w;
            for (i64 ox = xLo; ox < xHi; ++ox) d[ox * g.strideW + offW] += s[ox];
        });
    }
}

// y's layout [nb, k, P] against the GEMM's [k, nb*P]: fn(sampleOffset, gemmOffset) for each
// of the nb*k rows of P floats.
template <class Fn> void forEachStagedRow(const ConvGeometry& g, const ConvPlan& p, i64 nb, Fn&& fn)
{
    const i64 ld = nb * p.pixels;
    for (i64 r = 0; r < nb * g.k; ++r) fn(r * p.pixels, (r % g.k) * ld + (r / g.k) * p.pixels);
}
void stageForGemm(const ConvGeometry& g, const ConvPlan& p, i64 nb, const float* samples, float* gemmLayout)
{
    forEachStagedRow(g, p, nb, [&](i64 a, i64 m) { std::copy_n(samples + a, p.pixels, gemmLayout + m); });
}
void unstageFromGemm(const ConvGeometry& g, const ConvPlan& p, i64 nb, const float* gemmLayout, float* samples)
{
    forEachStagedRow(g, p, nb, [&](i64 a, i64 m) { std::copy_n(gemmLayout + m, p.pixels, samples + a); });
}

// The chunk's column matrix: x itself for a pointwise single sample, else unfolded into col.
const float* columnsOf(const ConvGeometry& g, const ConvPlan& p, const float* xChunk, i64 nb, float* col)
{
    if (p.pointwise && nb == 1) return xChunk;
    im2col(g, p, xChunk, nb, col);
    return col;
}

// The chunk's dy in the GEMM's layout [k, nb*P]: dy itself for a single sample, else staged.
const float* gradOf(const ConvGeometry& g, const ConvPlan& p, const float* dyChunk, i64 nb, float* stage)
{
    if (nb == 1) return dyChunk;
    stageForGemm(g, p, nb, dyChunk, stage);
    return stage;
}

struct Workspace {
    float* col;
    float* stage;
    float* dw;
};

// Lane `lane`'s part of the workspace.
Workspace laneWorkspace(const ConvPlan& p, void* workspace, i64 lane)
{
    float* mine = static_cast<float*>(workspace) + static_cast<std::size_t>(lane) * p.laneFloats();
    return {mine, mine + p.colFloats, mine + p.colFloats + p.stageFloats};
}

// fn(lane's workspace, first sample, samples, first chunk of the lane) for every chunk; the
// lanes run on the threads, each lane's chunks in order.
template <class Fn> void forEachChunk(const ConvGeometry& g, const ConvPlan& p, void* workspace, Fn&& fn)
{
    cpu::forEachLaneChunk(g.n, p.chunks, p.lanes, [&](i64 lane, i64 b0, i64 nb, bool first) {
        fn(laneWorkspace(p, workspace, lane), b0, nb, first);
    });
}

}  // namespace

// 3x3 stride-1 layers take Winograd's algorithm (cpu_winograd.h) in f32. Reduced precisions
// keep im2col + GEMM: their operands must be rounded as tensor cores round the untransformed
// ones. The workspace fits either, since the precision may change after it is planned.
bool CpuBackend::useWinograd(const ConvGeometry& g) const
{
    return mathPrecision() == MathPrecision::F32 && winograd::applies(g);
}

std::size_t CpuBackend::conv2dWorkspaceBytes(const ConvGeometry& g)
{
    // The plans below multiply unchecked: make sure one sample's columns and the filters, with
    // room for 8 lanes, 16 Winograd positions and the float size, fit an int64 first. The
    // output and the weights fit already (checkGraph), but columns c*r*s x outH*outW need not.
    i64 colRows = 0, rows = 0, pixels = 0, perSample = 0, filters = 0;
    const bool fits = mulFits(g.c, g.r, colRows) && mulFits(colRows, g.s, colRows) && mulFits(g.outH(), g.outW(), pixels) &&
                      !__builtin_add_overflow(colRows, g.k, &rows) && mulFits(rows, pixels, perSample) && mulFits(perSample, i64{1} << 9, perSample) &&
                      mulFits(g.k, g.c, filters) && mulFits(filters, i64{1} << 9, filters);
    if (!fits)
        throw SizeOverflow("its im2col workspace (" + std::to_string(g.c) + "x" + std::to_string(g.r) + "x" +
                           std::to_string(g.s) + " rows by " + std::to_string(g.outH()) + "x" + std::to_string(g.outW()) +
                           " pixels) is more than 64-bit arithmetic counts");
    return std::max(makePlan(g).bytes(), winograd::applies(g) ? winograd::workspaceBytes(g) : 0);
}

void CpuBackend::conv2dForward(const ConvGeometry& g, const float* x, const float* w, float* y, void* workspace)
{
    if (useWinograd(g)) return winograd::forward(*this, g, x, w, y, workspace);
    const ConvPlan p = makePlan(g);
    const i64 xSample = g.c * g.h * g.w, ySample = g.k * p.pixels;
    forEachChunk(g, p, workspace, [&](const Workspace& ws, i64 b0, i64 nb, bool) {
        const i64 ld = nb * p.pixels;
        const float* col = columnsOf(g, p, x + b0 * xSample, nb, ws.col);
        float* out = nb == 1 ? y + b0 * ySample : ws.stage;
        for (i64 grp = 0; grp < g.groups; ++grp)
            gemmProduct(p.lanes == 1, false, false, p.kg, ld, p.groupRows, 1.0f, w + grp * p.kg * p.groupRows,
                        p.groupRows, col + grp * p.groupRows * ld, ld, 0.0f, out + grp * p.kg * ld, ld);
        if (nb > 1) unstageFromGemm(g, p, nb, ws.stage, y + b0 * ySample);
    });
}

void CpuBackend::conv2dBackwardData(const ConvGeometry& g, const float* w, const float* dy, float* dx,
                                    void* workspace, GradWrite write)
{
    if (!dx) return;  // no gradient wanted
    if (useWinograd(g)) return winograd::backward(*this, g, nullptr, w, dy, dx, nullptr, workspace, write);
    const ConvPlan p = makePlan(g);
    const i64 xSample = g.c * g.h * g.w, ySample = g.k * p.pixels;
    forEachChunk(g, p, workspace, [&](const Workspace& ws, i64 b0, i64 nb, bool) {
        const i64 ld = nb * p.pixels;
        const float* grad = gradOf(g, p, dy + b0 * ySample, nb, ws.stage);
        // Pointwise single sample: dx is itself the column matrix, so the GEMM accumulates into it.
        const bool direct = p.pointwise && nb == 1, overwrite = write == GradWrite::Overwrite;
        float* dcol = direct ? dx + b0 * xSample : ws.col;
        for (i64 grp = 0; grp < g.groups; ++grp)
            gemmProduct(p.lanes == 1, true, false, p.groupRows, ld, p.kg, 1.0f, w + grp * p.kg * p.groupRows,
                        p.groupRows, grad + grp * p.kg * ld, ld, direct && !overwrite ? 1.0f : 0.0f,
                        dcol + grp * p.groupRows * ld, ld);
        if (direct) return;
        // Taps overlap and padding skips inputs: the chunk's dx to overwrite is zeroed first, while
        // it is about to be in cache anyway.
        if (overwrite) std::fill_n(dx + b0 * xSample, nb * xSample, 0.0f);
        col2imAccumulate(g, p, ws.col, nb, dx + b0 * xSample);
    });
}

void CpuBackend::conv2dBackwardFilter(const ConvGeometry& g, const float* x, const float* dy, float* dw,
                                      void* workspace)
{
    if (!dw) return;  // no gradient wanted
    if (useWinograd(g)) return winograd::backward(*this, g, x, nullptr, dy, nullptr, dw, workspace, GradWrite::Accumulate);
    const ConvPlan p = makePlan(g);
    const i64 xSample = g.c * g.h * g.w, ySample = g.k * p.pixels;
    const bool partials = p.lanes > 1;
    forEachChunk(g, p, workspace, [&](const Workspace& ws, i64 b0, i64 nb, bool firstOfLane) {
        const i64 ld = nb * p.pixels;
        const float* col = columnsOf(g, p, x + b0 * xSample, nb, ws.col);
        const float* grad = gradOf(g, p, dy + b0 * ySample, nb, ws.stage);
        float* target = partials ? ws.dw : dw;
        const float beta = partials && firstOfLane ? 0.0f : 1.0f;  // dw itself accumulates
        // dW_g (+)= dY_g col_g^T, summed over the chunk's columns.
        for (i64 grp = 0; grp < g.groups; ++grp)
            gemmProduct(!partials, false, true, p.kg, p.groupRows, ld, 1.0f, grad + grp * p.kg * ld, ld,
                        col + grp * p.groupRows * ld, ld, beta, target + grp * p.kg * p.groupRows, p.groupRows);
    });
    if (!partials) return;
    // dw += the lanes' partials, in lane order.
    cpu::parallelFor(static_cast<i64>(p.dwFloats), 4096, [&](i64 i0, i64 i1) {
        for (i64 lane = 0; lane < p.lanes; ++lane) {
            const float* part = laneWorkspace(p, workspace, lane).dw;
            for (i64 i = i0; i < i1; ++i) dw[i] += part[i];
        }
    });
}

void CpuBackend::conv2dBackward(const ConvGeometry& g, const float* x, const float* w, const float* dy, float* dx,
                                float* dw, void* workspace, GradWrite write)
{
    if (useWinograd(g)) return winograd::backward(*this, g, x, w, dy, dx, dw, workspace, write);
    Backend::conv2dBackward(g, x, w, dy, dx, dw, workspace, write);
}

}  // namespace ts

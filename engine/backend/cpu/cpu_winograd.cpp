// Winograd F(2x2, 3x3) convolution on the CPU (cpu_winograd.h).
//
// With d a 4x4 input window, g a 3x3 filter and Y its 2x2 output tile,
//   Y = A^T [ (G g G^T) (.) (B^T d B) ] A                       (Lavin and Gray, eq. 8)
// and over channels the elementwise (.) becomes, for each of the 16 positions xi of the 4x4
// transformed tile, one GEMM:  M_xi[k, t] = sum_c U_xi[k, c] V_xi[c, t]  with U = G g G^T per
// filter and V = B^T d B per tile t. The backward passes are this map's adjoints:
//   data:   dd = B [ sum_k U_xi[k, c] E_xi[k, t] ] B^T,  E = A dY A^T (windows overlap: added)
//   filter: dg = G^T [ sum_t E_xi[k, t] V_xi[c, t] ] G
// Transformed data is laid out [16][rows][tiles], so each position's GEMM is one row-major
// product of contiguous matrices (K = channels, typically 32-64: OpenBLAS keeps its speed).
//
// Threads as in cpu_conv.cpp: the batch's chunks are dealt to lanes fixed by the shape, each
// lane with its own workspace running transforms and single-threaded GEMMs; backward filter
// sums the lanes' partial sums in lane order, so results are the same with 1 or 8 threads.
#include "backend/cpu/cpu_winograd.h"

#include <algorithm>

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/grad_write.h"
#include "backend/cpu/parallel.h"

namespace ts::winograd {

namespace {

using i64 = std::int64_t;

constexpr i64 kPositions = 16;     // a transformed tile is 4x4
constexpr i64 kMinChannels = 8;    // below this the GEMMs' inner dimension starves OpenBLAS
constexpr i64 kTargetTiles = 32;   // tiles per chunk, at least: small chunks keep a lane's data in L2 (measured best)
constexpr i64 kMaxLanes = 8;
constexpr std::size_t kWorkspaceBudget = 64u << 20;  // bytes; a layer that needs more takes im2col

struct Plan {
    i64 outH = 0, outW = 0, tilesH = 0, tilesW = 0, tilesPerSample = 0;
    i64 planeH = 0, planeW = 0;  // a zero-padded input plane that holds every tile's 4x4 window
    i64 chunks = 1, lanes = 1, maxTiles = 0;
    std::size_t filterFloats = 0;  // U [16][k][c], shared by the lanes
    std::size_t inFloats = 0;      // per lane: V, or the data gradient's D [16][c][tiles]
    std::size_t outFloats = 0;     // per lane: M, or E [16][k][tiles]
    std::size_t accFloats = 0;     // per lane: the filter gradient's partial sum [16][k][c]
    std::size_t planeFloats = 0;   // per lane

    std::size_t laneFloats() const { return inFloats + outFloats + accFloats + planeFloats; }
    std::size_t bytes() const { return (filterFloats + std::size_t(lanes) * laneFloats()) * sizeof(float); }
};

Plan makePlan(const ConvGeometry& g)
{
    Plan p;
    p.outH = g.outH(), p.outW = g.outW();
    p.tilesH = (p.outH + 1) / 2, p.tilesW = (p.outW + 1) / 2;
    p.tilesPerSample = p.tilesH * p.tilesW;
    // Tiles read padded rows [0, 2 * tilesH + 2): at least outH + 2 = h + 2 * padH, the whole input.
    p.planeH = 2 * p.tilesH + 2, p.planeW = 2 * p.tilesW + 2;
    p.filterFloats = p.accFloats = std::size_t(kPositions * g.k * g.c);
    p.planeFloats = std::size_t(p.planeH * p.planeW);
    const auto size = [&](i64 samplesPerChunk) {
        p.maxTiles = samplesPerChunk * p.tilesPerSample;
        p.inFloats = std::size_t(kPositions * g.c * p.maxTiles);
        p.outFloats = std::size_t(kPositions * g.k * p.maxTiles);
    };
    const i64 n = std::max<i64>(g.n, 1);
    i64 chunk = std::clamp<i64>((kTargetTiles + p.tilesPerSample - 1) / p.tilesPerSample, 1, n);
    size(chunk);
    p.lanes = std::min((n + chunk - 1) / chunk, kMaxLanes);
    while (p.lanes > 1 && p.bytes() > kWorkspaceBudget) --p.lanes;
    while (chunk > 1 && p.bytes() > kWorkspaceBudget) size(--chunk);
    p.chunks = ((n + chunk - 1) / chunk + p.lanes - 1) / p.lanes * p.lanes;  // every lane the same number of chunks
    size((n + p.chunks - 1) / p.chunks);
    return p;
}

struct Lane {
    float* in;
    float* out;
    float* acc;
    float* plane;
};

// The shared filter transform, then lane `lane`'s part of the workspace.
float* filterSpace(void* workspace) { return static_cast<float*>(workspace); }
Lane laneSpace(const Plan& p, void* workspace, i64 lane)
{
    float* mine = filterSpace(workspace) + p.filterFloats + std::size_t(lane) * p.laneFloats();
    return {mine, mine + p.inFloats, mine + p.inFloats + p.outFloats, mine + p.inFloats + p.outFloats + p.accFloats};
}

// A tile's 16 values live at base[xi * stride] (one matrix per position xi).
struct Scatter {
    float* base;
    i64 stride;
    float& operator[](i64 xi) const { return base[xi * stride]; }
};

// U = G g G^T for every filter: u[xi][k][c].
void transformFilters(const ConvGeometry& g, const float* w, float* u)
{
    const i64 filters = g.k * g.c, stride = filters;
    cpu::parallelFor(filters, 64, [&](i64 f0, i64 f1) {
        for (i64 f = f0; f < f1; ++f) {
            const float* k3 = w + f * 9;
            float h[4][3];  // G g
            for (int j = 0; j < 3; ++j) {
                h[0][j] = k3[j];
                h[1][j] = 0.5f * (k3[j] + k3[3 + j] + k3[6 + j]);
                h[2][j] = 0.5f * (k3[j] - k3[3 + j] + k3[6 + j]);
                h[3][j] = k3[6 + j];
            }
            const Scatter out{u + f, stride};
            for (int i = 0; i < 4; ++i) {
                out[4 * i + 0] = h[i][0];
                out[4 * i + 1] = 0.5f * (h[i][0] + h[i][1] + h[i][2]);
                out[4 * i + 2] = 0.5f * (h[i][0] - h[i][1] + h[i][2]);
                out[4 * i + 3] = h[i][2];
            }
        }
    });
}

// dw[k][c] += G^T P G, with p[xi][k][c] summed over every tile.
void addFilterGradient(const ConvGeometry& g, const float* p, float* dw)
{
    const i64 filters = g.k * g.c, stride = filters;
    cpu::parallelFor(filters, 64, [&](i64 f0, i64 f1) {
        for (i64 f = f0; f < f1; ++f) {
            float v[16];
            for (int xi = 0; xi < 16; ++xi) v[xi] = p[xi * stride + f];
            float r[3][4];  // G^T P
            for (int j = 0; j < 4; ++j) {
                r[0][j] = v[j] + 0.5f * (v[4 + j] + v[8 + j]);
                r[1][j] = 0.5f * (v[4 + j] - v[8 + j]);
                r[2][j] = 0.5f * (v[4 + j] + v[8 + j]) + v[12 + j];
            }
            float* k3 = dw + f * 9;
            for (int i = 0; i < 3; ++i) {
                k3[3 * i + 0] += r[i][0] + 0.5f * (r[i][1] + r[i][2]);
                k3[3 * i + 1] += 0.5f * (r[i][1] - r[i][2]);
                k3[3 * i + 2] += 0.5f * (r[i][1] + r[i][2]) + r[i][3];
            }
        }
    });
}

// One input plane [h, w] into the padded plane: input (iy, ix) at (iy + padH, ix + padW), zeros around.
void loadPlane(const ConvGeometry& g, const Plan& p, const float* x, float* plane)
{
    std::fill_n(plane, p.planeFloats, 0.0f);
    for (i64 iy = 0; iy < g.h; ++iy) std::copy_n(x + iy * g.w, g.w, plane + (iy + g.padH) * p.planeW + g.padW);
}

// V = B^T d B for every 4x4 window of a padded plane, tile t at v[xi][t].
void transformInput(const Plan& p, const float* plane, Scatter v)
{
    for (i64 ty = 0; ty < p.tilesH; ++ty)
        for (i64 tx = 0; tx < p.tilesW; ++tx) {
            const float* d = plane + 2 * ty * p.planeW + 2 * tx;
            float t[4][4];  // B^T d
            for (int j = 0; j < 4; ++j) {
                const float d0 = d[j], d1 = d[p.planeW + j], d2 = d[2 * p.planeW + j], d3 = d[3 * p.planeW + j];
                t[0][j] = d0 - d2, t[1][j] = d1 + d2, t[2][j] = d2 - d1, t[3][j] = d1 - d3;
            }
            float* at = v.base + ty * p.tilesW + tx;
            for (int i = 0; i < 4; ++i) {
                at[(4 * i + 0) * v.stride] = t[i][0] - t[i][2];
                at[(4 * i + 1) * v.stride] = t[i][1] + t[i][2];
                at[(4 * i + 2) * v.stride] = t[i][2] - t[i][1];
                at[(4 * i + 3) * v.stride] = t[i][1] - t[i][3];
            }
        }
}

// E = A e A^T for every 2x2 tile of an output-gradient plane [outH, outW] (zeros past its edge).
void transformGradient(const Plan& p, const float* dy, Scatter e)
{
    for (i64 ty = 0; ty < p.tilesH; ++ty)
        for (i64 tx = 0; tx < p.tilesW; ++tx) {
            const i64 oy = 2 * ty, ox = 2 * tx;
            const bool right = ox + 1 < p.outW, below = oy + 1 < p.outH;
            const float* row = dy + oy * p.outW + ox;
            const float e00 = row[0], e01 = right ? row[1] : 0.0f;
            const float e10 = below ? row[p.outW] : 0.0f, e11 = right && below ? row[p.outW + 1] : 0.0f;
            const float f[4][2] = {{e00, e01}, {e00 + e10, e01 + e11}, {e00 - e10, e01 - e11}, {-e10, -e11}};  // A e
            float* at = e.base + ty * p.tilesW + tx;
            for (int i = 0; i < 4; ++i) {
                at[(4 * i + 0) * e.stride] = f[i][0];
                at[(4 * i + 1) * e.stride] = f[i][0] + f[i][1];
                at[(4 * i + 2) * e.stride] = f[i][0] - f[i][1];
                at[(4 * i + 3) * e.stride] = -f[i][1];
            }
        }
}

// fn(ty, tx, v) for every tile, v its 16 transformed values gathered from `from`.
template <class Fn> void forEachGatheredTile(const Plan& p, Scatter from, Fn&& fn)
{
    for (i64 ty = 0; ty < p.tilesH; ++ty)
        for (i64 tx = 0; tx < p.tilesW; ++tx) {
            const float* at = from.base + ty * p.tilesW + tx;
            float v[16];
            for (int xi = 0; xi < 16; ++xi) v[xi] = at[xi * from.stride];
            fn(ty, tx, v);
        }
}

// Y = A^T M A for every tile into an output plane [outH, outW] (a tile's part past the edge dropped).
void transformOutput(const Plan& p, Scatter m, float* y)
{
    forEachGatheredTile(p, m, [&](i64 ty, i64 tx, const float* v) {
        float s[2][4];  // A^T M
        for (int j = 0; j < 4; ++j) {
            s[0][j] = v[j] + v[4 + j] + v[8 + j];
            s[1][j] = v[4 + j] - v[8 + j] - v[12 + j];
        }
        const i64 oy = 2 * ty, ox = 2 * tx;
        for (int i = 0; i < 2 && oy + i < p.outH; ++i) {
            float* out = y + (oy + i) * p.outW + ox;
            out[0] = s[i][0] + s[i][1] + s[i][2];
            if (ox + 1 < p.outW) out[1] = s[i][1] - s[i][2] - s[i][3];
        }
    });
}

// plane += B D B^T for every tile, at its window (windows overlap by two rows and columns).
void addInputGradient(const Plan& p, Scatter dd, float* plane)
{
    forEachGatheredTile(p, dd, [&](i64 ty, i64 tx, const float* v) {
        float r[4][4];  // B D
        for (int j = 0; j < 4; ++j) {
            r[0][j] = v[j];
            r[1][j] = v[4 + j] - v[8 + j] + v[12 + j];
            r[2][j] = v[4 + j] + v[8 + j] - v[j];
            r[3][j] = -v[12 + j];
        }
        float* d = plane + 2 * ty * p.planeW + 2 * tx;
        for (int i = 0; i < 4; ++i) {
            float* row = d + i * p.planeW;
            row[0] += r[i][0];
            row[1] += r[i][1] - r[i][2] + r[i][3];
            row[2] += r[i][1] + r[i][2] - r[i][0];
            row[3] -= r[i][3];
        }
    });
}

// The chunk's input [nb samples] transformed into lane.in: V[xi][c][t].
void transformChunkInput(const ConvGeometry& g, const Plan& p, const float* x, i64 nb, const Lane& lane)
{
    const i64 tiles = nb * p.tilesPerSample;
    for (i64 s = 0; s < nb; ++s)
        for (i64 c = 0; c < g.c; ++c) {
            loadPlane(g, p, x + (s * g.c + c) * g.h * g.w, lane.plane);
            transformInput(p, lane.plane, {lane.in + c * tiles + s * p.tilesPerSample, g.c * tiles});
        }
}

// The chunk's output gradient transformed into lane.out: E[xi][k][t].
void transformChunkGradient(const ConvGeometry& g, const Plan& p, const float* dy, i64 nb, const Lane& lane)
{
    const i64 tiles = nb * p.tilesPerSample;
    for (i64 s = 0; s < nb; ++s)
        for (i64 k = 0; k < g.k; ++k)
            transformGradient(p, dy + (s * g.k + k) * p.outH * p.outW,
                              {lane.out + k * tiles + s * p.tilesPerSample, g.k * tiles});
}

template <class Fn> void forEachChunk(const ConvGeometry& g, const Plan& p, void* workspace, Fn&& fn)
{
    cpu::forEachLaneChunk(g.n, p.chunks, p.lanes, [&](i64 lane, i64 b0, i64 nb, bool first) {
        fn(laneSpace(p, workspace, lane), b0, nb, first);
    });
}

}  // namespace

bool applies(const ConvGeometry& g)
{
    return g.r == 3 && g.s == 3 && g.strideH == 1 && g.strideW == 1 && g.dilH == 1 && g.dilW == 1 && g.groups == 1 &&
           g.c >= kMinChannels && g.k >= kMinChannels && g.outH() > 0 && g.outW() > 0 &&
           makePlan(g).bytes() <= kWorkspaceBudget;
}

std::size_t workspaceBytes(const ConvGeometry& g) { return makePlan(g).bytes(); }

void forward(CpuBackend& backend, const ConvGeometry& g, const float* x, const float* w, float* y, void* workspace)
{
    const Plan p = makePlan(g);
    const float* u = filterSpace(workspace);
    transformFilters(g, w, filterSpace(workspace));
    const i64 xSample = g.c * g.h * g.w, ySample = g.k * p.outH * p.outW;
    forEachChunk(g, p, workspace, [&](const Lane& lane, i64 b0, i64 nb, bool) {
        const i64 tiles = nb * p.tilesPerSample;
        transformChunkInput(g, p, x + b0 * xSample, nb, lane);
        for (i64 xi = 0; xi < kPositions; ++xi)  // M_xi = U_xi V_xi
            backend.gemmProduct(p.lanes == 1, false, false, g.k, tiles, g.c, 1.0f, u + xi * g.k * g.c, g.c,
                                lane.in + xi * g.c * tiles, tiles, 0.0f, lane.out + xi * g.k * tiles, tiles);
        for (i64 s = 0; s < nb; ++s)
            for (i64 k = 0; k < g.k; ++k)
                transformOutput(p, {lane.out + k * tiles + s * p.tilesPerSample, g.k * tiles},
                                y + (b0 + s) * ySample + k * p.outH * p.outW);
    });
}

void backward(CpuBackend& backend, const ConvGeometry& g, const float* x, const float* w, const float* dy, float* dx,
              float* dw, void* workspace, GradWrite write)
{
    if (!dx && !dw) return;
    const Plan p = makePlan(g);
    const float* u = filterSpace(workspace);
    if (dx) transformFilters(g, w, filterSpace(workspace));
    const i64 xSample = g.c * g.h * g.w, ySample = g.k * p.outH * p.outW;
    forEachChunk(g, p, workspace, [&](const Lane& lane, i64 b0, i64 nb, bool first) {
        const i64 tiles = nb * p.tilesPerSample;
        transformChunkGradient(g, p, dy + b0 * ySample, nb, lane);  // E, shared by both gradients
        if (dw) {
            transformChunkInput(g, p, x + b0 * xSample, nb, lane);
            for (i64 xi = 0; xi < kPositions; ++xi)  // P_xi (+)= E_xi V_xi^T, the lane's partial sum
                backend.gemmProduct(p.lanes == 1, false, true, g.k, g.c, tiles, 1.0f, lane.out + xi * g.k * tiles,
                                    tiles, lane.in + xi * g.c * tiles, tiles, first ? 0.0f : 1.0f,
                                    lane.acc + xi * g.k * g.c, g.c);
        }
        if (!dx) return;
        for (i64 xi = 0; xi < kPositions; ++xi)  // D_xi = U_xi^T E_xi, over V (no longer needed)
            backend.gemmProduct(p.lanes == 1, true, false, g.c, tiles, g.k, 1.0f, u + xi * g.k * g.c, g.c,
                                lane.out + xi * g.k * tiles, tiles, 0.0f, lane.in + xi * g.c * tiles, tiles);
        for (i64 s = 0; s < nb; ++s)
            for (i64 c = 0; c < g.c; ++c) {
                std::fill_n(lane.plane, p.planeFloats, 0.0f);
                addInputGradient(p, {lane.in + c * tiles + s * p.tilesPerSample, g.c * tiles}, lane.plane);
                float* out = dx + (b0 + s) * xSample + c * g.h * g.w;
                cpu::withGradWrite(write, [&](auto mode) {  // the plane holds the whole input (makePlan)
                    for (i64 iy = 0; iy < g.h; ++iy) {
                        const float* row = lane.plane + (iy + g.padH) * p.planeW + g.padW;
                        for (i64 ix = 0; ix < g.w; ++ix) cpu::putGrad(mode, out[iy * g.w + ix], row[ix]);
                    }
                });
            }
    });
    if (!dw) return;
    // Every lane holds at least one sample (lanes <= n), so every partial is written. Summed in
    // lane order into lane 0's.
    float* total = laneSpace(p, workspace, 0).acc;
    cpu::parallelFor(i64(p.accFloats), 4096, [&](i64 i0, i64 i1) {
        for (i64 lane = 1; lane < p.lanes; ++lane) {
            const float* part = laneSpace(p, workspace, lane).acc;
            for (i64 i = i0; i < i1; ++i) total[i] += part[i];
        }
    });
    addFilterGradient(g, total, dw);
}

}  // namespace ts::winograd

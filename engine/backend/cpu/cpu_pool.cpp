// 2-D max and average pooling on the CPU, one (sample, channel) plane per work item.
// A thread owns whole planes, so the backward's overlapping windows never race and the
// order of accumulation is fixed (deterministic).
#include <algorithm>
#include <cmath>
#include <limits>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/parallel.h"

namespace ts {

namespace {

using i64 = std::int64_t;

constexpr i64 kGrain = 1 << 14;  // window reads per thread worth the fork

// The part of output (oy, ox)'s window that lies inside the input.
struct Window {
    i64 y0, y1, x0, x1;
    i64 count() const { return (y1 - y0) * (x1 - x0); }
};
Window windowAt(const PoolGeometry& g, i64 oy, i64 ox)
{
    const i64 top = oy * g.strideH - g.padH, left = ox * g.strideW - g.padW;
    return {std::max<i64>(top, 0), std::min(top + g.kh, g.h), std::max<i64>(left, 0), std::min(left + g.kw, g.w)};
}

// Whether v replaces the window's best so far: larger, or a NaN over a number (a NaN wins, so
// a diverging network shows NaN instead of hiding it). Ties keep the first.
inline bool beats(float v, float best) { return v > best || (std::isnan(v) && !std::isnan(best)); }

// Each window's first maximum in row-major order. Padding counts as -inf (it never wins).
// argmax = -1 only for a window entirely in the padding, which the ops' shape rules exclude.
void maxPlane(const PoolGeometry& g, const float* x, float* y, std::int32_t* argmax)
{
    const i64 outW = g.outW();
    for (i64 oy = 0; oy < g.outH(); ++oy)
        for (i64 ox = 0; ox < outW; ++ox) {
            const Window win = windowAt(g, oy, ox);
            float best = -std::numeric_limits<float>::infinity();
            i64 where = -1;
            for (i64 iy = win.y0; iy < win.y1; ++iy)
                for (i64 ix = win.x0; ix < win.x1; ++ix) {
                    const float v = x[iy * g.w + ix];
                    if (where < 0 || beats(v, best)) {
                        best = v;
                        where = iy * g.w + ix;
                    }
                }
            y[oy * outW + ox] = best;
            if (argmax) argmax[oy * outW + ox] = static_cast<std::int32_t>(where);
        }
}

// maxPlane for the common 2x2 window, stride 2, no padding, with the same choices (first
// maximum in row-major order, the first NaN wins). Without NaNs the maximum is max
// instructions and its position is counted from equalities, no branch on the data: on real
// activations a branch per comparison mispredicts about half the time, which made max-pool
// the CNN's slowest forward part. A window whose sum is NaN (a NaN, or +inf beside -inf)
// takes the general rule.
bool isMax2x2(const PoolGeometry& g)
{
    return g.kh == 2 && g.kw == 2 && g.strideH == 2 && g.strideW == 2 && g.padH == 0 && g.padW == 0;
}

// One window of the row: its maximum and flat position; true when its sum is NaN.
inline bool maxWindow2x2(const float* top, const float* bottom, i64 oy, i64 ox, i64 w, float* out, std::int32_t* at)
{
    const float a = top[2 * ox], b = top[2 * ox + 1], c = bottom[2 * ox], d = bottom[2 * ox + 1];
    const float ab = a > b ? a : b, cd = c > d ? c : d, m = ab > cd ? ab : cd;
    const float sum = a + b + c + d;
    out[ox] = m;
    if (at) {
        const int notA = a != m, notB = notA & (b != m), notC = notB & (c != m);
        const int where = notA + notB + notC;  // first maximum in row-major order
        at[ox] = static_cast<std::int32_t>((2 * oy + (where >> 1)) * w + 2 * ox + (where & 1));
    }
    return sum != sum;
}

#ifdef __SSE2__
// Four windows of the row at once, the same choices as maxWindow2x2 (MAXPS(x, y) is x > y ? x : y,
// NaN included); true when a sum is NaN.
inline bool maxWindows2x2(const float* top, const float* bottom, i64 oy, i64 ox, i64 w, float* out, std::int32_t* at)
{
    const __m128 t0 = _mm_loadu_ps(top + 2 * ox), t1 = _mm_loadu_ps(top + 2 * ox + 4);
    const __m128 b0 = _mm_loadu_ps(bottom + 2 * ox), b1 = _mm_loadu_ps(bottom + 2 * ox + 4);
    const __m128 a = _mm_shuffle_ps(t0, t1, _MM_SHUFFLE(2, 0, 2, 0)), b = _mm_shuffle_ps(t0, t1, _MM_SHUFFLE(3, 1, 3, 1));
    const __m128 c = _mm_shuffle_ps(b0, b1, _MM_SHUFFLE(2, 0, 2, 0)), d = _mm_shuffle_ps(b0, b1, _MM_SHUFFLE(3, 1, 3, 1));
    const __m128 m = _mm_max_ps(_mm_max_ps(a, b), _mm_max_ps(c, d));
    const __m128 sum = _mm_add_ps(_mm_add_ps(_mm_add_ps(a, b), c), d);
    _mm_storeu_ps(out + ox, m);
    if (at) {
        const __m128i notA = _mm_castps_si128(_mm_cmpneq_ps(a, m));  // -1 where true
        const __m128i notB = _mm_and_si128(notA, _mm_castps_si128(_mm_cmpneq_ps(b, m)));
        const __m128i notC = _mm_and_si128(notB, _mm_castps_si128(_mm_cmpneq_ps(c, m)));
        const __m128i where = _mm_sub_epi32(_mm_setzero_si128(), _mm_add_epi32(_mm_add_epi32(notA, notB), notC));
        const auto o = static_cast<std::int32_t>(2 * ox), row = static_cast<std::int32_t>(2 * oy * w);
        const __m128i lower = _mm_and_si128(_mm_cmpgt_epi32(where, _mm_set1_epi32(1)), _mm_set1_epi32(std::int32_t(w)));
        const __m128i column = _mm_add_epi32(_mm_setr_epi32(o, o + 2, o + 4, o + 6), _mm_and_si128(where, _mm_set1_epi32(1)));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(at + ox),
                         _mm_add_epi32(_mm_set1_epi32(row), _mm_add_epi32(lower, column)));
    }
    return _mm_movemask_ps(_mm_cmpunord_ps(sum, sum)) != 0;
}
#endif

void maxPlane2x2(const PoolGeometry& g, const float* x, float* y, std::int32_t* argmax)
{
    const i64 outW = g.outW(), w = g.w;
    for (i64 oy = 0; oy < g.outH(); ++oy) {
        const float* top = x + 2 * oy * w;
        const float* bottom = top + w;
        float* out = y + oy * outW;
        std::int32_t* at = argmax ? argmax + oy * outW : nullptr;
        // The whole row without a branch on the data, then the rare row with a NaN window again.
        bool nan = false;
        i64 ox = 0;
#ifdef __SSE2__
        for (; ox + 4 <= outW; ox += 4) nan |= maxWindows2x2(top, bottom, oy, ox, w, out, at);
#endif
        for (; ox < outW; ++ox) nan |= maxWindow2x2(top, bottom, oy, ox, w, out, at);
        if (!nan) continue;
        for (ox = 0; ox < outW; ++ox) {  // the general rule: the first NaN wins
            const float v[4] = {top[2 * ox], top[2 * ox + 1], bottom[2 * ox], bottom[2 * ox + 1]};
            float m = v[0];
            int where = 0;
            for (int i = 1; i < 4; ++i)
                if (beats(v[i], m)) m = v[i], where = i;
            out[ox] = m;
            if (at) at[ox] = static_cast<std::int32_t>((2 * oy + (where >> 1)) * w + 2 * ox + (where & 1));
        }
    }
}

// The divisor of output (oy, ox): the whole kernel when padding counts (floor-mode windows
// never extend past the padded input), otherwise the input elements actually covered.
float divisor(const PoolGeometry& g, const Window& win)
{
    return static_cast<float>(g.countIncludePad ? g.kh * g.kw : win.count());
}

void avgPlane(const PoolGeometry& g, const float* x, float* y)
{
    const i64 outW = g.outW();
    for (i64 oy = 0; oy < g.outH(); ++oy)
        for (i64 ox = 0; ox < outW; ++ox) {
            const Window win = windowAt(g, oy, ox);
            double sum = 0;
            for (i64 iy = win.y0; iy < win.y1; ++iy)
                for (i64 ix = win.x0; ix < win.x1; ++ix) sum += x[iy * g.w + ix];
            const float d = divisor(g, win);
            y[oy * outW + ox] = d > 0 ? static_cast<float>(sum / d) : 0.0f;
        }
}

void avgPlaneBackward(const PoolGeometry& g, const float* dy, float* dx)
{
    const i64 outW = g.outW();
    for (i64 oy = 0; oy < g.outH(); ++oy)
        for (i64 ox = 0; ox < outW; ++ox) {
            const Window win = windowAt(g, oy, ox);
            const float d = divisor(g, win);
            if (d <= 0) continue;
            const float share = dy[oy * outW + ox] / d;
            for (i64 iy = win.y0; iy < win.y1; ++iy)
                for (i64 ix = win.x0; ix < win.x1; ++ix) dx[iy * g.w + ix] += share;
        }
}

// fn(inputOffset, outputOffset) for each (sample, channel) plane, planes split over threads.
template <class Fn> void forEachPlane(const PoolGeometry& g, Fn&& fn)
{
    const i64 work = std::max<i64>(1, g.outH() * g.outW() * g.kh * g.kw);
    cpu::parallelFor(g.n * g.c, std::max<i64>(1, kGrain / work), [&](i64 p0, i64 p1) {
        for (i64 p = p0; p < p1; ++p) fn(p * g.h * g.w, p * g.outH() * g.outW());
    });
}

}  // namespace

void CpuBackend::pool2dForward(PoolKind kind, const PoolGeometry& g, const float* x, float* y, std::int32_t* argmax)
{
    forEachPlane(g, [&](i64 in, i64 out) {
        if (kind == PoolKind::Max && isMax2x2(g)) maxPlane2x2(g, x + in, y + out, argmax ? argmax + out : nullptr);
        else if (kind == PoolKind::Max) maxPlane(g, x + in, y + out, argmax ? argmax + out : nullptr);
        else avgPlane(g, x + in, y + out);
    });
}

void CpuBackend::pool2dBackward(PoolKind kind, const PoolGeometry& g, const float* dy, const std::int32_t* argmax,
                                float* dx, GradWrite write)
{
    if (!dx) return;  // no gradient wanted
    const i64 outPlane = g.outH() * g.outW();
    forEachPlane(g, [&](i64 in, i64 out) {
        // Windows may overlap or miss inputs: a plane to overwrite is zeroed, while in cache.
        if (write == GradWrite::Overwrite) std::fill_n(dx + in, g.h * g.w, 0.0f);
        if (kind == PoolKind::Avg) {
            avgPlaneBackward(g, dy + out, dx + in);
            return;
        }
        for (i64 i = 0; i < outPlane; ++i)
            if (argmax[out + i] >= 0) dx[in + argmax[out + i]] += dy[out + i];
    });
}

}  // namespace ts

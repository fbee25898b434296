// 2-D upsampling (nearest, bilinear) on the CPU, one (sample, channel) plane per work item:
// a thread owns whole planes, so the backward's scattered sums never race.
#include <algorithm>

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/parallel.h"

namespace ts {

namespace {

using i64 = std::int64_t;

// Where output index o of `out` samples an input of `in`: the two neighbours and the weight of
// the second (half-pixel centres, clamped at the edges).
struct Tap {
    i64 lo, hi;
    float t;
};
Tap bilinearTap(i64 o, i64 in, i64 out)
{
    const float src = std::max((static_cast<float>(o) + 0.5f) * static_cast<float>(in) / static_cast<float>(out) - 0.5f, 0.0f);
    const i64 lo = std::min(static_cast<i64>(src), in - 1);
    return {lo, std::min(lo + 1, in - 1), src - static_cast<float>(lo)};
}
i64 nearestTap(i64 o, i64 in, i64 out) { return std::min(o * in / out, in - 1); }

// Calls fn(outIndex, inIndex, weight) for every (output, input) pair of a plane.
template <class Fn> void forEachTap(UpsampleMode mode, const UpsampleGeometry& g, Fn&& fn)
{
    for (i64 oy = 0; oy < g.outH; ++oy)
        for (i64 ox = 0; ox < g.outW; ++ox) {
            const i64 o = oy * g.outW + ox;
            if (mode == UpsampleMode::Nearest) {
                fn(o, nearestTap(oy, g.h, g.outH) * g.w + nearestTap(ox, g.w, g.outW), 1.0f);
                continue;
            }
            const Tap ty = bilinearTap(oy, g.h, g.outH), tx = bilinearTap(ox, g.w, g.outW);
            fn(o, ty.lo * g.w + tx.lo, (1 - ty.t) * (1 - tx.t));
            fn(o, ty.lo * g.w + tx.hi, (1 - ty.t) * tx.t);
            fn(o, ty.hi * g.w + tx.lo, ty.t * (1 - tx.t));
            fn(o, ty.hi * g.w + tx.hi, ty.t * tx.t);
        }
}

}  // namespace

void CpuBackend::upsample2dForward(UpsampleMode mode, const UpsampleGeometry& g, const float* x, float* y)
{
    const i64 inPlane = g.h * g.w, outPlane = g.outH * g.outW;
    cpu::parallelFor(g.n * g.c, std::max<i64>(1, (1 << 14) / std::max<i64>(outPlane, 1)), [&](i64 begin, i64 end) {
        for (i64 p = begin; p < end; ++p) {
            const float* xp = x + p * inPlane;
            float* yp = y + p * outPlane;
            std::fill(yp, yp + outPlane, 0.0f);
            forEachTap(mode, g, [&](i64 o, i64 i, float wgt) { yp[o] += wgt * xp[i]; });
        }
    });
}

void CpuBackend::upsample2dBackward(UpsampleMode mode, const UpsampleGeometry& g, const float* dy, float* dx)
{
    const i64 inPlane = g.h * g.w, outPlane = g.outH * g.outW;
    cpu::parallelFor(g.n * g.c, std::max<i64>(1, (1 << 14) / std::max<i64>(outPlane, 1)), [&](i64 begin, i64 end) {
        for (i64 p = begin; p < end; ++p) {
            const float* dyp = dy + p * outPlane;
            float* dxp = dx + p * inPlane;
            forEachTap(mode, g, [&](i64 o, i64 i, float wgt) { dxp[i] += wgt * dyp[o]; });
        }
    });
}

}  // namespace ts

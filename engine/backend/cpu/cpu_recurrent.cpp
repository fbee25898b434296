// One step of an LSTM or GRU cell on the CPU (RecurrentStep in backend.h), rows split over
// the threads: every row of a step is independent, the recurrence lives in the op's loop.
#include <cmath>

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/parallel.h"

namespace ts {

namespace {

using i64 = std::int64_t;
using act::sigmoid;

// Rows per thread chunk: a step's rows are short (4 * hidden floats), so keep a few together.
constexpr i64 kRowGrain = 4;

void lstmForward(const RecurrentStep& s, const float* gx, const float* gh, const float* cPrev, float* act, float* c,
                 float* h)
{
    const i64 H = s.hidden;
    cpu::parallelFor(s.batch, kRowGrain, [&](i64 b0, i64 b1) {
        for (i64 b = b0; b < b1; ++b) {
            const float* x = gx + b * s.gxStride;
            const float* r = gh + b * s.ghStride;
            float* a = act + b * s.actStride;
            const float* cp = cPrev ? cPrev + b * s.cStride : nullptr;
            float* cr = c + b * s.cStride;
            float* hr = h + b * s.hStride;
            for (i64 j = 0; j < H; ++j) {
                const float i = sigmoid(x[j] + r[j]), f = sigmoid(x[H + j] + r[H + j]);
                const float g = std::tanh(x[2 * H + j] + r[2 * H + j]), o = sigmoid(x[3 * H + j] + r[3 * H + j]);
                a[j] = i, a[H + j] = f, a[2 * H + j] = g, a[3 * H + j] = o;
                cr[j] = (cp ? f * cp[j] : 0.0f) + i * g;
                hr[j] = o * std::tanh(cr[j]);
            }
        }
    });
}

void gruForward(const RecurrentStep& s, const float* gx, const float* gh, const float* hPrev, float* act, float* h)
{
    const i64 H = s.hidden;
    cpu::parallelFor(s.batch, kRowGrain, [&](i64 b0, i64 b1) {
        for (i64 b = b0; b < b1; ++b) {
            const float* x = gx + b * s.gxStride;
            const float* r = gh + b * s.ghStride;
            float* a = act + b * s.actStride;
            const float* hp = hPrev ? hPrev + b * s.hStride : nullptr;
            float* hr = h + b * s.hStride;
            for (i64 j = 0; j < H; ++j) {
                const float rg = sigmoid(x[j] + r[j]), z = sigmoid(x[H + j] + r[H + j]);
                const float n = std::tanh(x[2 * H + j] + rg * r[2 * H + j]);
                a[j] = rg, a[H + j] = z, a[2 * H + j] = n, a[3 * H + j] = r[2 * H + j];
                hr[j] = (1.0f - z) * n + (hp ? z * hp[j] : 0.0f);
            }
        }
    });
}

void lstmBackward(const RecurrentStep& s, const float* act, const float* cPrev, const float* c, const float* dh,
                  float* dc, float* dgx, float* dgh)
{
    const i64 H = s.hidden;
    cpu::parallelFor(s.batch, kRowGrain, [&](i64 b0, i64 b1) {
        for (i64 b = b0; b < b1; ++b) {
            const float* a = act + b * s.actStride;
            const float* cp = cPrev ? cPrev + b * s.cStride : nullptr;
            const float* cr = c + b * s.cStride;
            const float* d = dh + b * s.hStride;
            float* dcr = dc + b * H;
            float* gx = dgx + b * s.gxStride;
            float* gh = dgh ? dgh + b * s.ghStride : nullptr;
            for (i64 j = 0; j < H; ++j) {
                const float i = a[j], f = a[H + j], g = a[2 * H + j], o = a[3 * H + j];
                const float t = std::tanh(cr[j]);
                const float dct = dcr[j] + d[j] * o * (1.0f - t * t);
                const float v[4] = {dct * g * i * (1.0f - i), cp ? dct * cp[j] * f * (1.0f - f) : 0.0f,
                                    dct * i * (1.0f - g * g), d[j] * t * o * (1.0f - o)};
                for (int k = 0; k < 4; ++k) {
                    gx[k * H + j] = v[k];
                    if (gh) gh[k * H + j] = v[k];
                }
                dcr[j] = dct * f;
            }
        }
    });
}

void gruBackward(const RecurrentStep& s, const float* act, const float* hPrev, const float* dh, float* dgx,
                 float* dgh, float* dhPrev)
{
    const i64 H = s.hidden;
    cpu::parallelFor(s.batch, kRowGrain, [&](i64 b0, i64 b1) {
        for (i64 b = b0; b < b1; ++b) {
            const float* a = act + b * s.actStride;
            const float* hp = hPrev ? hPrev + b * s.hStride : nullptr;
            const float* d = dh + b * s.hStride;
            float* gx = dgx + b * s.gxStride;
            float* gh = dgh + b * s.ghStride;
            float* dhp = dhPrev ? dhPrev + b * s.hStride : nullptr;
            for (i64 j = 0; j < H; ++j) {
                const float r = a[j], z = a[H + j], n = a[2 * H + j], ghn = a[3 * H + j];
                const float dnPre = d[j] * (1.0f - z) * (1.0f - n * n);
                const float dzPre = d[j] * ((hp ? hp[j] : 0.0f) - n) * z * (1.0f - z);
                const float drPre = dnPre * ghn * r * (1.0f - r);
                gx[j] = gh[j] = drPre;
                gx[H + j] = gh[H + j] = dzPre;
                gx[2 * H + j] = dnPre;
                gh[2 * H + j] = dnPre * r;
                if (dhp) dhp[j] += d[j] * z;
            }
        }
    });
}

}  // namespace

void CpuBackend::recurrentCellForward(const RecurrentStep& s, const float* gx, const float* gh, const float* hPrev,
                                      const float* cPrev, float* act, float* c, float* h)
{
    if (s.cell == RecurrentCell::LSTM) lstmForward(s, gx, gh, cPrev, act, c, h);
    else gruForward(s, gx, gh, hPrev, act, h);
}

void CpuBackend::recurrentCellBackward(const RecurrentStep& s, const float* act, const float* hPrev, const float* cPrev,
                                       const float* c, const float* dh, float* dc, float* dgx, float* dgh, float* dhPrev)
{
    if (s.cell == RecurrentCell::LSTM) lstmBackward(s, act, cPrev, c, dh, dc, dgx, dgh);
    else gruBackward(s, act, hPrev, dh, dgx, dgh, dhPrev);
}

}  // namespace ts

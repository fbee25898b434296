// Scaled dot-product attention on the CPU (backend.h, AttentionGeometry), FlashAttention's way
// (Dao et al. 2022): a block of queries meets the keys one block at a time with its softmax
// kept online (a running maximum m and sum l per row), so no queries x keys matrix is ever
// made; a thread's scratch is one block of scores and the block's output rows. Backward
// recomputes each block's weights from q, k and the forward's log-sum-exp.
//
// The block products are single-threaded OpenBLAS calls (gemmProduct, untiled) straight on the
// strided views; the threads take whole units, (sample, head, query block) forward and
// (sample, head) backward, so no two threads write one element and every element is summed in
// an order fixed by the shape: the same bits with 1 thread or 8. dout has o's layout.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/parallel.h"

namespace ts {

namespace {

using i64 = std::int64_t;

constexpr i64 kBlock = 64;  // queries and keys per block: 16 KiB of scores, OpenBLAS still fast
constexpr float kNegInf = -std::numeric_limits<float>::infinity();

using u32 = std::uint32_t;

// a where mask is all ones, b where it is zero. Written with bits, as ternaries on floats
// become branches that keep the loop from vectorising (GCC may not speculate float maths).
inline float pick(u32 mask, float a, float b)
{
    return std::bit_cast<float>((std::bit_cast<u32>(a) & mask) | (std::bit_cast<u32>(b) & ~mask));
}
inline u32 maskOf(bool c) { return 0u - static_cast<u32>(c); }

// exp(x) as Cephes' expf (2^n e^r with |r| <= ln2 / 2, a degree-6 polynomial; within 1.3 ulp
// of exp), written so GCC vectorises a loop of it: libm's expf is a call per element, and a
// softmax is mostly exps. Below -87 (and -inf) it gives 0, above 88 inf; NaN stays NaN.
inline float expApprox(float x)
{
    const u32 inRange = maskOf(x >= -87.0f) & maskOf(x <= 88.0f);
    const float c = pick(inRange, x, 0.0f);
    const float n = (c * 1.44269504088896341f + 12582912.0f) - 12582912.0f;  // round(c / ln 2): + 1.5 * 2^23
    float r = c - n * 0.693359375f;  // ln 2 in two parts, so r is exact
    r = r + n * 2.12194440e-4f;
    float p = 1.9875691500e-4f;
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    const float y = p * r * r + r + 1.0f;
    const float e = y * std::bit_cast<float>(static_cast<u32>(static_cast<std::int32_t>(n) + 127) << 23);
    const float outside = pick(maskOf(x < -87.0f), 0.0f, x + std::numeric_limits<float>::infinity());
    return pick(inRange, e, outside);
}

// The maximum of row[0, n) (n >= 1), in eight lanes so it vectorises. NaN is passed over
// here; the exp of it keeps it.
inline float rowMax(const float* row, i64 n)
{
    float m[8];
    for (int k = 0; k < 8; ++k) m[k] = kNegInf;
    i64 j = 0;
    for (; j + 8 <= n; j += 8)
        for (int k = 0; k < 8; ++k) m[k] = row[j + k] > m[k] ? row[j + k] : m[k];
    for (; j < n; ++j) m[0] = row[j] > m[0] ? row[j] : m[0];
    float best = m[0];
    for (int k = 1; k < 8; ++k) best = m[k] > best ? m[k] : best;
    return best;
}

// row[j] = exp(row[j] - shift); returns their sum. Masked scores (-inf) give 0, and so does
// every score of a row with shift -inf (no key allowed); NaN stays NaN.
inline double expRow(float* row, i64 n, float shift)
{
    if (shift == kNegInf) shift = 0.0f;
    float s[8] = {};
    i64 j = 0;
    for (; j + 8 <= n; j += 8)
        for (int k = 0; k < 8; ++k) {
            row[j + k] = expApprox(row[j + k] - shift);
            s[k] += row[j + k];
        }
    for (; j < n; ++j) {
        row[j] = expApprox(row[j] - shift);
        s[0] += row[j];
    }
    return cpu::pairwiseSum(s);
}

// a . b over n floats, in eight lanes so it vectorises.
inline float dot(const float* a, const float* b, i64 n)
{
    float s[8] = {};
    i64 c = 0;
    for (; c + 8 <= n; c += 8)
        for (int k = 0; k < 8; ++k) s[k] += a[c + k] * b[c + k];
    for (; c < n; ++c) s[0] += a[c] * b[c];
    return static_cast<float>(cpu::pairwiseSum(s));
}

// y's rows (stride ldy) += the packed rows x [rows, cols].
inline void addRows(const float* __restrict x, i64 rows, i64 cols, float* __restrict y, i64 ldy)
{
    for (i64 r = 0; r < rows; ++r)
        for (i64 c = 0; c < cols; ++c) y[r * ldy + c] += x[r * cols + c];
}

// One (sample, head): where its rows start in q, k, v and o, its key mask; bh indexes lse.
struct Head {
    const float *q, *k, *v, *o, *mask;
    i64 bh;  // b * heads + h
};

class Attention {
public:
    Attention(CpuBackend& be, const AttentionGeometry& g, const float* keyMask) : be_(be), g_(g), keyMask_(keyMask) {}

    i64 blocks(i64 n) const { return (n + kBlock - 1) / kBlock; }

    // Where head bh's first row starts in a tensor of that batch stride.
    i64 offset(i64 bh, i64 batchStride) const { return bh / g_.heads * batchStride + bh % g_.heads * g_.headDim; }
    Head head(i64 bh, const float* q, const float* k, const float* v, const float* o) const
    {
        return {q + offset(bh, g_.qBatchStride), k + offset(bh, g_.kBatchStride), v + offset(bh, g_.vBatchStride),
                o ? o + offset(bh, g_.oBatchStride) : nullptr, keyMask_ ? keyMask_ + bh / g_.heads * g_.keys : nullptr, bh};
    }
    // The keys [0, end) that query rows [i0, i0 + rows) may see at all (causal: up to the last row's diagonal).
    i64 keyEnd(i64 i0, i64 rows) const
    {
        return g_.causal ? std::clamp<i64>(i0 + rows + g_.keys - g_.queries, 0, g_.keys) : g_.keys;
    }
    // The first query row that key j0 is visible to.
    i64 firstQuery(i64 j0) const { return g_.causal ? std::clamp<i64>(j0 - (g_.keys - g_.queries), 0, g_.queries) : 0; }

    // s = scale q_i . k_j for rows [i0, i0 + rows) and keys [j0, j0 + cols), -inf where not allowed.
    void scores(const Head& hd, i64 i0, i64 rows, i64 j0, i64 cols, float* s) const
    {
        be_.gemmProduct(false, false, true, rows, cols, g_.headDim, g_.scale, hd.q + i0 * g_.qRowStride, g_.qRowStride,
                        hd.k + j0 * g_.kRowStride, g_.kRowStride, 0.0f, s, cols);
        if (hd.mask)
            for (i64 j = 0; j < cols; ++j)
                if (hd.mask[j0 + j] == 0.0f)
                    for (i64 i = 0; i < rows; ++i) s[i * cols + j] = kNegInf;
        if (g_.causal)
            for (i64 i = 0; i < rows; ++i) {
                const i64 firstHidden = std::max<i64>(i0 + i + g_.keys - g_.queries + 1 - j0, 0);
                std::fill(s + i * cols + std::min(firstHidden, cols), s + (i + 1) * cols, kNegInf);
            }
    }
    // The dropout multipliers of the block: 1 / (1 - p) where kept, 0 where dropped.
    void dropoutScale(const Head& hd, i64 i0, i64 rows, i64 j0, i64 cols, float* z) const
    {
        const float keepScale = g_.dropout < 1.0f ? 1.0f / (1.0f - g_.dropout) : 0.0f;
        for (i64 i = 0; i < rows; ++i) {
            const std::uint64_t base = static_cast<std::uint64_t>((hd.bh * g_.queries + i0 + i) * g_.keys + j0);
            for (i64 j = 0; j < cols; ++j)
                z[i * cols + j] = hashUniform(seed_, base + static_cast<std::uint64_t>(j)) >= g_.dropout ? keepScale : 0.0f;
        }
    }
    void setSeed(std::uint64_t seed) { seed_ = seed; }

    void forwardBlock(const Head& hd, i64 qb, float* o, float* lse, std::vector<float>& scratch) const;
    void backwardHead(const Head& hd, const float* lse, const float* dout, float* dq, float* dk, float* dv,
                      std::vector<float>& scratch) const;

private:
    CpuBackend& be_;
    const AttentionGeometry& g_;
    const float* keyMask_;
    std::uint64_t seed_ = 0;
};

// Query rows [qb * kBlock, + rows) of one head: o and lse.
void Attention::forwardBlock(const Head& hd, i64 qb, float* o, float* lse, std::vector<float>& scratch) const
{
    const i64 d = g_.headDim, i0 = qb * kBlock, rows = std::min(kBlock, g_.queries - i0);
    const bool drop = g_.dropout > 0.0f;
    scratch.resize(static_cast<std::size_t>(kBlock * kBlock * (drop ? 2 : 1) + rows * d));
    float *s = scratch.data(), *z = s + kBlock * kBlock, *acc = s + kBlock * kBlock * (drop ? 2 : 1);
    std::fill(acc, acc + rows * d, 0.0f);
    float m[kBlock];
    double l[kBlock];
    std::fill_n(m, rows, kNegInf);
    std::fill_n(l, rows, 0.0);
    const i64 end = keyEnd(i0, rows);
    for (i64 j0 = 0; j0 < end; j0 += kBlock) {
        const i64 cols = std::min(kBlock, end - j0);
        scores(hd, i0, rows, j0, cols, s);
        if (drop) dropoutScale(hd, i0, rows, j0, cols, z);
        for (i64 i = 0; i < rows; ++i) {
            float* p = s + i * cols;
            const float mNew = std::max(m[i], rowMax(p, cols));
            const double sum = expRow(p, cols, mNew);
            if (mNew != m[i]) {  // rescale what the earlier blocks summed (nothing while m was -inf)
                const float alpha = expApprox(m[i] - mNew);
                for (i64 c = 0; c < d; ++c) acc[i * d + c] *= alpha;
                l[i] *= alpha;
            }
            l[i] += sum;  // the weights' sum is taken before dropout
            m[i] = mNew;
            if (drop)
                for (i64 j = 0; j < cols; ++j) p[j] *= z[i * cols + j];
        }
        be_.gemmProduct(false, false, false, rows, d, cols, 1.0f, s, cols, hd.v + j0 * g_.vRowStride, g_.vRowStride,
                        1.0f, acc, d);
    }
    for (i64 i = 0; i < rows; ++i) {
        float* out = o + (i0 + i) * g_.oRowStride;
        const bool none = l[i] == 0;  // no key allowed: o = 0 (NaN from the inputs stays)
        const float inv = none ? 0.0f : static_cast<float>(1.0 / l[i]);
        for (i64 c = 0; c < d; ++c) out[c] = acc[i * d + c] * inv;
        lse[hd.bh * g_.queries + i0 + i] = none ? kNegInf : m[i] + static_cast<float>(std::log(l[i]));
    }
}

// One head's gradients, key block by key block: dv_j += P_ij^T dout_i, dP = dout_i v_j^T,
// dS = P * (dP - D_i) with D_i = dout_i . o_i, dk_j += scale dS^T q_i, dq_i += scale dS k_j.
// Dropout (z = kept / (1 - p)): o uses P z, so dv takes P z and dS = P * (dP z - D).
void Attention::backwardHead(const Head& hd, const float* lse, const float* dout, float* dq, float* dk, float* dv,
                             std::vector<float>& scratch) const
{
    const i64 d = g_.headDim, nq = g_.queries;
    const bool drop = g_.dropout > 0.0f;
    const i64 block = kBlock * kBlock;
    scratch.resize(static_cast<std::size_t>(block * (drop ? 4 : 2) + 2 * kBlock * d + nq * d + nq));
    float *s = scratch.data(), *dp = s + block, *z = dp + block, *pz = z + block;
    float* dkAcc = s + block * (drop ? 4 : 2);
    float *dvAcc = dkAcc + kBlock * d, *dqAcc = dvAcc + kBlock * d, *delta = dqAcc + nq * d;
    const float* rowLse = lse + hd.bh * nq;
    std::fill(dqAcc, dqAcc + nq * d, 0.0f);
    for (i64 i = 0; i < nq; ++i) delta[i] = dot(dout + i * g_.oRowStride, hd.o + i * g_.oRowStride, d);
    for (i64 j0 = 0; j0 < g_.keys; j0 += kBlock) {
        const i64 cols = std::min(kBlock, g_.keys - j0);
        std::fill(dkAcc, dkAcc + 2 * kBlock * d, 0.0f);
        for (i64 i0 = firstQuery(j0) / kBlock * kBlock; i0 < nq; i0 += kBlock) {
            const i64 rows = std::min(kBlock, nq - i0);
            scores(hd, i0, rows, j0, cols, s);
            for (i64 i = 0; i < rows; ++i) expRow(s + i * cols, cols, rowLse[i0 + i]);  // P, 0 where lse = -inf
            const float* pv = s;  // the weights o was made of
            if (drop) {
                dropoutScale(hd, i0, rows, j0, cols, z);
                for (i64 e = 0; e < rows * cols; ++e) pz[e] = s[e] * z[e];
                pv = pz;
            }
            const float* dO = dout + i0 * g_.oRowStride;
            if (dv)
                be_.gemmProduct(false, true, false, cols, d, rows, 1.0f, pv, cols, dO, g_.oRowStride, 1.0f, dvAcc, d);
            if (!dq && !dk) continue;
            be_.gemmProduct(false, false, true, rows, cols, d, 1.0f, dO, g_.oRowStride, hd.v + j0 * g_.vRowStride,
                            g_.vRowStride, 0.0f, dp, cols);
            for (i64 i = 0; i < rows; ++i) {
                float *pr = s + i * cols, *dpr = dp + i * cols;
                const float di = delta[i0 + i];
                if (drop)
                    for (i64 j = 0; j < cols; ++j) dpr[j] = pr[j] * (dpr[j] * z[i * cols + j] - di);
                else
                    for (i64 j = 0; j < cols; ++j) dpr[j] = pr[j] * (dpr[j] - di);
            }
            if (dk)
                be_.gemmProduct(false, true, false, cols, d, rows, g_.scale, dp, cols, hd.q + i0 * g_.qRowStride,
                                g_.qRowStride, 1.0f, dkAcc, d);
            if (dq)
                be_.gemmProduct(false, false, false, rows, d, cols, g_.scale, dp, cols, hd.k + j0 * g_.kRowStride,
                                g_.kRowStride, 1.0f, dqAcc + i0 * d, d);
        }
        if (dk) addRows(dkAcc, cols, d, dk + j0 * g_.kRowStride, g_.kRowStride);
        if (dv) addRows(dvAcc, cols, d, dv + j0 * g_.vRowStride, g_.vRowStride);
    }
    if (dq) addRows(dqAcc, nq, d, dq, g_.qRowStride);
}

}  // namespace

void CpuBackend::attentionForward(const AttentionGeometry& g, const float* q, const float* k, const float* v,
                                  const float* keyMask, float* o, float* lse, std::uint64_t seed)
{
    Attention a(*this, g, keyMask);
    a.setSeed(seed);
    const i64 qBlocks = a.blocks(g.queries);
    cpu::parallelFor(g.batch * g.heads * qBlocks, 1, [&](i64 u0, i64 u1) {
        std::vector<float> scratch;
        for (i64 u = u0; u < u1; ++u) {
            const i64 bh = u / qBlocks;
            a.forwardBlock(a.head(bh, q, k, v, nullptr), u % qBlocks, o + a.offset(bh, g.oBatchStride), lse, scratch);
        }
    });
}

void CpuBackend::attentionBackward(const AttentionGeometry& g, const float* q, const float* k, const float* v,
                                   const float* keyMask, const float* o, const float* lse, const float* dout, float* dq,
                                   float* dk, float* dv, std::uint64_t seed)
{
    if (!dq && !dk && !dv) return;
    Attention a(*this, g, keyMask);
    a.setSeed(seed);
    cpu::parallelFor(g.batch * g.heads, 1, [&](i64 u0, i64 u1) {
        std::vector<float> scratch;
        for (i64 u = u0; u < u1; ++u) {
            auto at = [&](float* base, i64 batchStride) { return base ? base + a.offset(u, batchStride) : nullptr; };
            a.backwardHead(a.head(u, q, k, v, o), lse, dout + a.offset(u, g.oBatchStride), at(dq, g.qBatchStride),
                           at(dk, g.kBatchStride), at(dv, g.vBatchStride), scratch);
        }
    });
}

}  // namespace ts

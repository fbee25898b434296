// Self-test cases: the fused attention (forward: o and the log-sum-exp; backward: dq, dk, dv
// added to what they held), on the layouts MultiHeadAttention gives it and on separate tensors.
#include <cmath>

#include "selftest/selftest_harness.h"

namespace ts::selftest {

namespace {

struct AttentionCase {
    i64 batch, heads, queries, keys, headDim;
    bool causal = false, masked = false, packed = false;  // packed: q, k, v side by side in one [B, T, 3C]
    float dropout = 0.0f;
};

void attentionCase(Harness& h, const AttentionCase& a)
{
    const i64 C = a.heads * a.headDim;
    std::string shape = format("batch=%lld heads=%lld queries=%lld keys=%lld headDim=%lld", (long long)a.batch, (long long)a.heads,
                               (long long)a.queries, (long long)a.keys, (long long)a.headDim);
    if (a.packed) shape += " packed qkv";
    if (a.causal) shape += " causal";
    if (a.masked) shape += " padding mask";
    if (a.dropout > 0) shape += format(" dropout=%g", double(a.dropout));
    AttentionGeometry g;
    g.batch = a.batch, g.heads = a.heads, g.queries = a.queries, g.keys = a.keys, g.headDim = a.headDim;
    g.qRowStride = g.kRowStride = g.vRowStride = a.packed ? 3 * C : C;
    g.qBatchStride = g.qRowStride * a.queries;
    g.kBatchStride = g.vBatchStride = g.kRowStride * a.keys;
    g.oRowStride = C, g.oBatchStride = C * a.queries;
    g.scale = 1.0f / std::sqrt(float(a.headDim));
    g.causal = a.causal, g.dropout = a.dropout;
    const std::uint64_t seed = h.nextSeed();

    // Packed: one buffer, q, k and v at column offsets 0, C and 2C (the op's layout).
    const i64 qN = a.batch * g.qBatchStride, kN = a.batch * g.kBatchStride, oN = a.batch * a.queries * C;
    auto qkv = h.uniform(a.packed ? qN : qN + 2 * kN, -2.0f, 2.0f);
    const i64 kAt = a.packed ? C : qN, vAt = a.packed ? 2 * C : qN + kN;
    std::vector<float> maskHost = h.uniformHost(a.batch * a.keys, 0.0f, 1.0f);
    for (float& m : maskHost) m = m < 0.3f ? 0.0f : 1.0f;
    auto mask = h.upload(maskHost);
    auto o = h.uniform(oN), lse = h.uniform(a.batch * a.heads * a.queries);  // old values must be overwritten
    const auto ptr = [](const Buffer<float>& b, int s, i64 at) { return b[s] + at; };
    h.check(Primitive::attentionForward, shape, h.matmulTolerance(),
            [&](Backend& be, int s) {
                be.attentionForward(g, qkv[s], ptr(qkv, s, kAt), ptr(qkv, s, vAt), a.masked ? mask[s] : nullptr, o[s], lse[s], seed);
            },
            {h.out("o", o), h.out("lse", lse)});

    h.mirrorReference(o), h.mirrorReference(lse);  // backward on the reference's forward
    auto dout = h.uniform(oN), dqkv = h.uniform(a.packed ? qN : qN + 2 * kN);  // added to
    h.check(Primitive::attentionBackward, shape, h.matmulTolerance(),
            [&](Backend& be, int s) {
                be.attentionBackward(g, qkv[s], ptr(qkv, s, kAt), ptr(qkv, s, vAt), a.masked ? mask[s] : nullptr, o[s], lse[s],
                                     dout[s], dqkv[s], ptr(dqkv, s, kAt), ptr(dqkv, s, vAt), seed);
            },
            {h.out("dq, dk, dv", dqkv)});
}

}  // namespace

void attentionCases(Harness& h)
{
    std::vector<AttentionCase> cases{
        {2, 2, 37, 37, 8},                                     // no multiple of a block
        {3, 4, 70, 70, 16, true, true, true},                  // the op's layout, causal, padding
        {2, 3, 20, 45, 8, true, false, false, 0.2f},           // fewer queries than keys, dropout
        {2, 1, 5, 5, 4, true, true},                           // tiny: rows whose visible keys are all padding
    };
    if (h.large()) cases.push_back({32, 4, 128, 128, 32, true, false, true});  // a char-GPT layer's batch
    for (const AttentionCase& a : cases) attentionCase(h, a);
}

}  // namespace ts::selftest

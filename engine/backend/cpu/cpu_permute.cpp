// Permute on the CPU. The output's dimensions are first simplified: size-1 dimensions go, and
// neighbours that stay neighbours in x are merged, so [B, T, C] -> [B, C, T] is a batch of
// T x C transposes and [B, T, H, D] -> [B, H, T, D] a batch of row copies. When x's innermost
// dimension stays innermost, rows are copied; otherwise the two dimensions are transposed in
// square tiles, so that both the reads and the writes stay within a few cache lines. Every
// output element is written by one work item: the result does not depend on the thread count.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/grad_write.h"
#include "backend/cpu/parallel.h"

namespace ts {

namespace {

using i64 = std::int64_t;
constexpr int kMaxRank = 8;
constexpr i64 kTile = 32;
constexpr i64 kGrainElements = 1 << 14;

// y's dimensions, each with its stride in x and in y, after simplification.
struct Layout {
    int rank = 0;
    i64 size[kMaxRank] = {}, xStride[kMaxRank] = {}, yStride[kMaxRank] = {};
};

Layout simplify(const PermuteGeometry& g)
{
    const int rank = static_cast<int>(g.shape.size());
    if (rank > kMaxRank || g.perm.size() != g.shape.size())
        throw std::invalid_argument("permute takes at most " + std::to_string(kMaxRank) +
                                    " dimensions and one permutation entry per dimension");
    i64 xStrides[kMaxRank];
    bool seen[kMaxRank] = {};
    i64 stride = 1;
    for (int d = rank - 1; d >= 0; --d) xStrides[d] = stride, stride *= g.shape[std::size_t(d)];
    Layout l;
    for (int d = 0; d < rank; ++d) {
        const int from = g.perm[std::size_t(d)];
        if (from < 0 || from >= rank || seen[from]) throw std::invalid_argument("permute: perm is not a permutation");
        seen[from] = true;
        const i64 size = g.shape[std::size_t(from)];
        if (size == 1) continue;
        if (l.rank > 0 && l.xStride[l.rank - 1] == xStrides[from] * size) {  // still x's neighbour: merge
            l.size[l.rank - 1] *= size;
            l.xStride[l.rank - 1] = xStrides[from];
            continue;
        }
        l.size[l.rank] = size, l.xStride[l.rank] = xStrides[from], ++l.rank;
    }
    if (l.rank == 0) l.size[0] = 1, l.xStride[0] = 1, l.rank = 1;  // one element
    stride = 1;
    for (int d = l.rank - 1; d >= 0; --d) l.yStride[d] = stride, stride *= l.size[d];
    return l;
}

// The offsets in x and y of the index `item` of the dimensions other than `skipA`, `skipB`.
void outerOffsets(const Layout& l, i64 item, int skipA, int skipB, i64& x, i64& y)
{
    x = 0, y = 0;
    for (int d = l.rank - 1; d >= 0; --d) {
        if (d == skipA || d == skipB) continue;
        const i64 i = item % l.size[d];
        item /= l.size[d];
        x += i * l.xStride[d], y += i * l.yStride[d];
    }
}

template <class Mode> void permuteWith(Mode mode, const Layout& l, const float* x, float* y)
{
    const int last = l.rank - 1;
    const i64 rowLength = l.size[last];
    if (l.xStride[last] == 1) {  // rows stay rows
        const i64 rows = [&] {
            i64 n = 1;
            for (int d = 0; d < last; ++d) n *= l.size[d];
            return n;
        }();
        cpu::parallelFor(rows, std::max<i64>(1, kGrainElements / rowLength), [&](i64 r0, i64 r1) {
            for (i64 r = r0; r < r1; ++r) {
                i64 xo, yo;
                outerOffsets(l, r, last, last, xo, yo);
                const float* xr = x + xo;
                float* yr = y + yo;
                for (i64 k = 0; k < rowLength; ++k) cpu::putGrad(mode, yr[k], xr[k]);
            }
        });
        return;
    }
    // Dimension j is x's innermost: transpose (j, last) in tiles; an item is kTile rows of j.
    int j = 0;
    while (l.xStride[j] != 1) ++j;
    const i64 rowsJ = l.size[j], blocksJ = (rowsJ + kTile - 1) / kTile;
    i64 outer = 1;
    for (int d = 0; d < last; ++d)
        if (d != j) outer *= l.size[d];
    const i64 xsLast = l.xStride[last], ysJ = l.yStride[j];
    cpu::parallelFor(outer * blocksJ, std::max<i64>(1, kGrainElements / (kTile * rowLength)), [&](i64 i0, i64 i1) {
        for (i64 item = i0; item < i1; ++item) {
            i64 xo, yo;
            outerOffsets(l, item / blocksJ, j, last, xo, yo);
            const i64 a0 = (item % blocksJ) * kTile, a1 = std::min(rowsJ, a0 + kTile);
            for (i64 b0 = 0; b0 < rowLength; b0 += kTile) {
                const i64 b1 = std::min(rowLength, b0 + kTile);
                for (i64 a = a0; a < a1; ++a) {
                    const float* xa = x + xo + a;
                    float* ya = y + yo + a * ysJ;
                    for (i64 b = b0; b < b1; ++b) cpu::putGrad(mode, ya[b], xa[b * xsLast]);
                }
            }
        }
    });
}

}  // namespace

void CpuBackend::permute(const PermuteGeometry& g, const float* x, float* y, GradWrite write)
{
    const Layout l = simplify(g);
    for (int d = 0; d < l.rank; ++d)
        if (l.size[d] == 0) return;  // nothing to move
    cpu::withGradWrite(write, [&](auto mode) { permuteWith(mode, l, x, y); });
}

}  // namespace ts

#include "data/perceptual_hash.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

namespace ts {
namespace {

constexpr int kSize = 32;   // the grey thumbnail's side
constexpr int kFreqs = 11;  // frequencies 0..10 per axis: u + v <= 10 holds 65 AC terms

// Area-averaging weights from n source pixels to kSize: row k covers [k n / kSize, (k+1) n / kSize)
// and weighs each source pixel by its overlap (so it both shrinks and enlarges).
std::vector<float> areaWeights(int n)
{
    std::vector<float> w(static_cast<std::size_t>(kSize) * n, 0.0f);
    const double scale = double(n) / kSize;
    for (int k = 0; k < kSize; ++k) {
        const double lo = k * scale, hi = (k + 1) * scale;
        for (int i = int(std::floor(lo)); i < n && i < hi; ++i) {
            const double overlap = std::min(hi, i + 1.0) - std::max(lo, double(i));
            if (overlap > 0) w[static_cast<std::size_t>(k) * n + i] = float(overlap / scale);
        }
    }
    return w;
}

// Orthonormal DCT-II basis, cos(pi (2x + 1) u / 2N) scaled by sqrt(1/N) (u = 0) or sqrt(2/N).
const std::array<float, kFreqs * kSize>& dctBasis()
{
    static const std::array<float, kFreqs * kSize> basis = [] {
        std::array<float, kFreqs * kSize> b{};
        const double pi = std::acos(-1.0);
        for (int u = 0; u < kFreqs; ++u)
            for (int x = 0; x < kSize; ++x)
                b[u * kSize + x] = float(std::sqrt((u == 0 ? 1.0 : 2.0) / kSize) *
                                         std::cos(pi * (2 * x + 1) * u / (2.0 * kSize)));
        return b;
    }();
    return basis;
}

}  // namespace

double thumbnailDifference(const std::uint8_t* a, const std::uint8_t* b)
{
    constexpr int n = kThumbnailSide * kThumbnailSide;
    int sa = 0, sb = 0;
    for (int i = 0; i < n; ++i) sa += a[i], sb += b[i];
    const double shift = double(sa - sb) / n;
    double sum = 0;
    for (int i = 0; i < n; ++i) sum += std::abs(double(a[i]) - double(b[i]) - shift);
    return sum / n;
}

std::uint64_t perceptualHash(const float* pixels, int channels, int height, int width, std::uint8_t* thumbnail)
{
    // Grey: the channels' mean.
    std::vector<float> grey(static_cast<std::size_t>(height) * width, 0.0f);
    const std::size_t plane = grey.size();
    for (int c = 0; c < channels; ++c)
        for (std::size_t i = 0; i < plane; ++i) grey[i] += pixels[c * plane + i];
    if (channels > 1)
        for (float& g : grey) g /= float(channels);

    // 32 x 32 by area averaging: rows first (height -> 32), then columns (width -> 32).
    const std::vector<float> wy = areaWeights(height), wx = areaWeights(width);
    std::vector<float> rows(static_cast<std::size_t>(kSize) * width, 0.0f);
    for (int k = 0; k < kSize; ++k)
        for (int y = 0; y < height; ++y) {
            const float w = wy[static_cast<std::size_t>(k) * height + y];
            if (w == 0) continue;
            const float* src = grey.data() + static_cast<std::size_t>(y) * width;
            float* dst = rows.data() + static_cast<std::size_t>(k) * width;
            for (int x = 0; x < width; ++x) dst[x] += w * src[x];
        }
    std::array<float, kSize * kSize> thumb{};
    for (int k = 0; k < kSize; ++k)
        for (int j = 0; j < kSize; ++j) {
            const float* wrow = wx.data() + static_cast<std::size_t>(j) * width;
            const float* src = rows.data() + static_cast<std::size_t>(k) * width;
            float s = 0;
            for (int x = 0; x < width; ++x) s += wrow[x] * src[x];
            thumb[k * kSize + j] = s;
        }

    if (thumbnail)  // 2 x 2 means of the 32 x 32
        for (int y = 0; y < kThumbnailSide; ++y)
            for (int x = 0; x < kThumbnailSide; ++x) {
                const float m = 0.25f * (thumb[(2 * y) * kSize + 2 * x] + thumb[(2 * y) * kSize + 2 * x + 1] +
                                         thumb[(2 * y + 1) * kSize + 2 * x] + thumb[(2 * y + 1) * kSize + 2 * x + 1]);
                thumbnail[y * kThumbnailSide + x] = std::uint8_t(std::lround(std::clamp(m * 255.0f, 0.0f, 255.0f)));
            }

    // The low frequencies only: along x for every row, then along y.
    const auto& basis = dctBasis();
    std::array<float, kSize * kFreqs> alongX{};  // [y][v]
    for (int y = 0; y < kSize; ++y)
        for (int v = 0; v < kFreqs; ++v) {
            float s = 0;
            for (int x = 0; x < kSize; ++x) s += basis[v * kSize + x] * thumb[y * kSize + x];
            alongX[y * kFreqs + v] = s;
        }
    std::array<float, 64> terms{};
    int n = 0;
    for (int sum = 1; sum < kFreqs && n < 64; ++sum)
        for (int u = 0; u <= sum && n < 64; ++u) {
            const int v = sum - u;
            float s = 0;
            for (int y = 0; y < kSize; ++y) s += basis[u * kSize + y] * alongX[y * kFreqs + v];
            terms[n++] = s;
        }

    std::array<float, 64> sorted = terms;
    std::nth_element(sorted.begin(), sorted.begin() + 32, sorted.end());
    const float upper = sorted[32];
    const float lower = *std::max_element(sorted.begin(), sorted.begin() + 32);
    const float median = 0.5f * (lower + upper);
    std::uint64_t hash = 0;
    for (int i = 0; i < 64; ++i)
        if (terms[i] > median) hash |= std::uint64_t(1) << i;
    return hash;
}

}  // namespace ts

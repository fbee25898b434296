#include "data/transforms.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "data/image_decode.h"
#include "data/rng.h"

namespace ts {

namespace {
constexpr std::uint64_t kAugmentStream = 0xA5;
constexpr std::uint64_t kResizedCropStream = 0xA6;  // its own stream: turning it on keeps the other draws

// torchvision's RandomResizedCrop.get_params with ratio (3/4, 4/3): up to ten tries at a part of
// area fraction in [minArea, 1] and log-uniform aspect ratio, else the centre part of the nearest ratio.
void drawPart(datarng::Counter& rng, std::int64_t height, std::int64_t width, double minArea, Augmentation& a)
{
    const double area = double(height) * double(width), lo = std::log(3.0 / 4.0), hi = std::log(4.0 / 3.0);
    for (int attempt = 0; attempt < 10; ++attempt) {
        const double target = area * (minArea + (1.0 - minArea) * datarng::unit(rng));
        const double ratio = std::exp(lo + (hi - lo) * datarng::unit(rng));
        const auto cols = std::int64_t(std::lround(std::sqrt(target * ratio)));
        const auto rows = std::int64_t(std::lround(std::sqrt(target / ratio)));
        if (cols > 0 && cols <= width && rows > 0 && rows <= height) {
            a.partTop = std::int64_t(datarng::below(rng, std::uint64_t(height - rows + 1)));
            a.partLeft = std::int64_t(datarng::below(rng, std::uint64_t(width - cols + 1)));
            a.partRows = rows;
            a.partCols = cols;
            return;
        }
    }
    const double ratio = double(width) / double(height);
    a.partRows = height;
    a.partCols = width;
    if (ratio < 3.0 / 4.0) a.partRows = std::min(height, std::int64_t(std::lround(width * 4.0 / 3.0)));
    if (ratio > 4.0 / 3.0) a.partCols = std::min(width, std::int64_t(std::lround(height * 4.0 / 3.0)));
    a.partTop = (height - a.partRows) / 2;
    a.partLeft = (width - a.partCols) / 2;
}
}  // namespace

Transforms::Transforms(const DatasetSpec& spec, const DatasetStatistics& stats, const Shape& shape, bool augment)
{
    if (shape.rank() < 1 || shape.numel() <= 0) throw std::invalid_argument("transforms need a non-empty sample shape");
    // Channels are the outermost dimension ([C, H, W]); a table's [F] has one "channel" per feature.
    channels_ = shape[0];
    plane_ = shape.numel() / channels_;
    if (augment && (spec.randomCropPadding > 0 || spec.horizontalFlip || spec.randomResizedCrop > 0)) {
        if (shape.rank() != 3)
            throw std::invalid_argument("random crops and flip need [C, H, W] samples, not " + shape.str());
        height_ = shape[1];
        width_ = shape[2];
        padding_ = spec.randomCropPadding;
        flip_ = spec.horizontalFlip;
        minArea_ = spec.randomResizedCrop;
    }
    if (spec.randomCropPadding < 0) throw std::invalid_argument("randomCropPadding must be >= 0");
    if (!(spec.randomResizedCrop >= 0 && spec.randomResizedCrop <= 1))
        throw std::invalid_argument("randomResizedCrop must be in [0, 1]");

    std::vector<double> mean = spec.normalizeMean, stddev = spec.normalizeStd;
    if (spec.normalizeFromStatistics) {
        mean = stats.mean;
        stddev = stats.stddev;
        if (mean.empty()) throw std::invalid_argument("normalizeFromStatistics but the statistics are empty");
    }
    if (mean.empty() && stddev.empty()) return;
    const auto c = static_cast<std::size_t>(channels_);
    // One value applies to every channel (e.g. mean 0.5 for RGB).
    if (mean.empty()) mean.assign(c, 0.0);
    if (mean.size() == 1) mean.assign(c, mean[0]);
    if (stddev.empty()) stddev.assign(c, 1.0);
    if (stddev.size() == 1) stddev.assign(c, stddev[0]);
    if (mean.size() != c || stddev.size() != c)
        throw std::invalid_argument("normalisation needs " + std::to_string(c) + " means and stds, got " +
                                    std::to_string(mean.size()) + " and " + std::to_string(stddev.size()));
    for (std::size_t i = 0; i < c; ++i) {
        // A constant feature has std 0: centre it but do not divide by zero.
        const double s = stddev[i] > 0 && std::isfinite(stddev[i]) ? stddev[i] : 1.0;
        shift_.push_back(static_cast<float>(mean[i]));
        scale_.push_back(static_cast<float>(1.0 / s));
    }
}

Augmentation Transforms::draw(std::uint64_t seed, std::int64_t epoch, std::int64_t position) const
{
    Augmentation a;
    if (resizedCropping()) {
        datarng::Counter part{datarng::key(seed, static_cast<std::uint64_t>(epoch), static_cast<std::uint64_t>(position),
                                           kResizedCropStream)};
        drawPart(part, height_, width_, minArea_, a);
    }
    if (!cropping() && !flipping()) return a;
    datarng::Counter rng{datarng::key(seed, static_cast<std::uint64_t>(epoch), static_cast<std::uint64_t>(position),
                                      kAugmentStream)};
    // Always draw all three so enabling flip does not change the crops of a seed.
    const auto span = static_cast<std::uint64_t>(2 * padding_ + 1);
    const std::uint64_t y = datarng::below(rng, span), x = datarng::below(rng, span);
    const bool f = (rng() >> 63) != 0;
    if (cropping()) {
        a.cropY = static_cast<std::int64_t>(y);
        a.cropX = static_cast<std::int64_t>(x);
    } else {
        a.cropY = a.cropX = padding_;  // the identity crop
    }
    a.flip = flipping() && f;
    return a;
}

void Transforms::apply(float* sample, const Augmentation& a, std::vector<float>& scratch) const
{
    if (a.partRows > 0 && a.partCols > 0)
        cropResizePlanar(sample, int(channels_), int(height_), int(width_), int(a.partTop), int(a.partLeft), int(a.partRows),
                         int(a.partCols));
    if (cropping()) crop(sample, a, scratch);
    if (flipping() && a.flip) flipRows(sample);
    if (normalizing()) {
        for (std::int64_t c = 0; c < channels_; ++c) {
            float* p = sample + c * plane_;
            const float m = shift_[static_cast<std::size_t>(c)], s = scale_[static_cast<std::size_t>(c)];
            for (std::int64_t i = 0; i < plane_; ++i) p[i] = (p[i] - m) * s;
        }
    }
}

// out[y][x] = in[y + cropY - P][x + cropX - P], zero outside the image: the same as padding
// by P and cropping H x W at (cropY, cropX), without building the padded image.
void Transforms::crop(float* sample, const Augmentation& a, std::vector<float>& scratch) const
{
    const std::int64_t dy = a.cropY - padding_, dx = a.cropX - padding_;
    if (dy == 0 && dx == 0) return;
    const std::int64_t n = channels_ * plane_;
    scratch.assign(sample, sample + n);
    std::fill(sample, sample + n, 0.0f);
    const std::int64_t x0 = std::max<std::int64_t>(0, -dx), x1 = std::min(width_, width_ - dx);
    if (x0 >= x1) return;
    for (std::int64_t c = 0; c < channels_; ++c)
        for (std::int64_t y = 0; y < height_; ++y) {
            const std::int64_t sy = y + dy;
            if (sy < 0 || sy >= height_) continue;
            const float* src = scratch.data() + (c * height_ + sy) * width_;
            std::copy(src + x0 + dx, src + x1 + dx, sample + (c * height_ + y) * width_ + x0);
        }
}

void Transforms::flipRows(float* sample) const
{
    for (std::int64_t r = 0; r < channels_ * height_; ++r) std::reverse(sample + r * width_, sample + (r + 1) * width_);
}

}  // namespace ts

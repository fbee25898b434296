#include "statistics_image_sizes.h"

#include "data/dataset.h"
#include "data/image_decode.h"

#include <algorithm>
#include <cstdio>
#include <memory>

namespace ts::ui {

std::pair<int, int> imageFileSize(const std::string& path)
{
    try {
        const ts::ImageSize size = ts::imageFileSize(path);
        if (size.width <= 0 || size.height <= 0) return {-1, -1};
        return {size.width, size.height};
    } catch (const ts::DataError&) {
        return {-1, -1};
    }
}

ImageSizeDistribution imageSizeDistribution(const std::vector<std::string>& files, std::int64_t limit)
{
    ImageSizeDistribution d;
    d.files = std::int64_t(files.size());
    if (files.empty() || limit <= 0) return d;
    const std::int64_t n = std::min<std::int64_t>(limit, d.files);
    bool first = true;
    for (std::int64_t k = 0; k < n; ++k) {
        const std::int64_t i = n == d.files ? k : k * d.files / n;  // evenly spread
        const auto [w, h] = imageFileSize(files[std::size_t(i)]);
        ++d.looked;
        if (w <= 0) {
            ++d.unreadable;
            continue;
        }
        ++d.counts[{w, h}];
        if (first) {
            d.minWidth = d.maxWidth = w;
            d.minHeight = d.maxHeight = h;
            first = false;
        }
        d.minWidth = std::min(d.minWidth, w);
        d.maxWidth = std::max(d.maxWidth, w);
        d.minHeight = std::min(d.minHeight, h);
        d.maxHeight = std::max(d.maxHeight, h);
    }
    return d;
}

}  // namespace ts::ui

// The original sizes of an image folder's files (before the reader resizes them to
// dataset.image_shape), from each file's header through the engine's decoders
// (data/image_decode.h imageFileSize), never decoded, so a 20,000 x 20,000 image costs a few
// bytes of reading.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ts::ui {

// (width, height) of an image file (PNG, JPEG, WebP, TIFF, BMP, GIF); (-1, -1) when it is none, or damaged.
// The engine's imageFileSize, its DataError turned into (-1, -1) for counting.
std::pair<int, int> imageFileSize(const std::string& path);

struct ImageSizeDistribution {
    std::map<std::pair<int, int>, std::int64_t> counts;  // (width, height) -> files
    std::int64_t looked = 0;     // files whose header was read
    std::int64_t unreadable = 0; // of those, no image or damaged
    std::int64_t files = 0;      // files in the folder
    int minWidth = 0, maxWidth = 0, minHeight = 0, maxHeight = 0;
};

// Looks at up to `limit` files, evenly spread over the list (every file when there are fewer).
ImageSizeDistribution imageSizeDistribution(const std::vector<std::string>& files, std::int64_t limit = 5000);

}  // namespace ts::ui

// Decoding PNG (libpng) and JPEG (libjpeg) files into 8-bit pixels, and resizing them into
// a [C, H, W] float sample in [0, 1]. Thread-safe: no shared state.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace ts {

struct DecodedImage {
    int width = 0, height = 0, channels = 0;  // channels 1 (gray) or 3 (RGB)
    std::vector<std::uint8_t> pixels;         // height x width x channels, interleaved
};

// Decodes the file as PNG or JPEG (by its first bytes, not its name) into `channels`
// (1 or 3) channels; alpha is dropped. Throws DataError naming the file when it is neither
// or is damaged.
DecodedImage decodeImageFile(const std::string& path, int channels);

// The width and height a PNG or JPEG file declares, read by libpng / libjpeg from the header
// alone (no pixel is decoded, so a 20,000 x 20,000 image costs its first bytes). Throws
// DataError naming the file when it is neither, or its header is damaged.
struct ImageSize {
    int width = 0, height = 0;
};
ImageSize imageFileSize(const std::string& path);

enum class ResizeMode { Nearest, Bilinear };

// Resizes to height x width and writes [channels, height, width] floats in [0, 1].
void resizeToPlanar(const DecodedImage& image, int height, int width, ResizeMode mode, float* out);

}  // namespace ts

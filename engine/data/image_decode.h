// Image files through libvips: PNG, JPEG, WebP, TIFF, BMP and GIF decoded into 8-bit pixels,
// and resized (antialiased, vips' Lanczos) into a [C, H, W] float sample in [0, 1].
// Thread-safe: libvips is started once, its operation cache off.
//
// Colour modes, converted to the channels asked for: grey and RGB as they are (grey to RGB
// repeats the value; RGB to grey uses the ITU-R 601 luma weights on the encoded values, as
// PIL's "L" and libjpeg do); alpha is composited on black (a transparent pixel is black);
// 16-bit images are scaled to the 8-bit range (v / 257); a palette is expanded.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ts {

struct DecodedImage {
    int width = 0, height = 0, channels = 0;  // channels 1 (gray) or 3 (RGB)
    std::vector<std::uint8_t> pixels;         // height x width x channels, interleaved
};

// The extensions the image folder reader and predict take: .png .jpg .jpeg .webp .tif .tiff
// .bmp .gif, in any case.
bool isImageFileName(const std::string& path);
// "PNG, JPEG, WebP, TIFF, BMP or GIF", for messages.
const char* imageFormatsText();

// `path` ends in one of those extensions (isImageFileName): vips reads a trailing "[...]" as options.
// Decodes the file (its kind told by its first bytes, not its name) into `channels` (1 or 3)
// channels. Throws DataError naming the file when it is no image of those formats, is damaged,
// or is too large (more than 8192 x 8192 pixels, checked from the header before decoding).
DecodedImage decodeImageFile(const std::string& path, int channels);

// The width and height a file declares, from its header alone (no pixel is decoded, so a
// 20,000 x 20,000 image costs its first bytes); `colour` when it holds colour channels.
// Throws DataError naming the file when it is no image or its header is damaged.
struct ImageSize {
    int width = 0, height = 0;
    bool colour = false;
};
ImageSize imageFileSize(const std::string& path);

// How an image of another size becomes height x width (dataset.resize):
//   Crop    resize keeping the aspect ratio so the short side fits, then centre-crop (torchvision's
//           Resize + CenterCrop);
//   Pad     resize keeping the aspect ratio to fit inside, then pad with black around it;
//   Stretch resize each side on its own (the aspect ratio changes).
enum class ResizeMode { Crop, Pad, Stretch };
const char* resizeModeName(ResizeMode mode);  // "crop", "pad", "stretch"
std::optional<ResizeMode> resizeModeFromName(const std::string& name);

// Resizes to height x width as `mode` says and writes [channels, height, width] floats in [0, 1].
void resizeToPlanar(const DecodedImage& image, int height, int width, ResizeMode mode, float* out);

// A [channels, height, width] float sample's rectangle (top, left, rows, cols) resized to the
// whole height x width (antialiased where it shrinks), in place: random-resized crop's step.
void cropResizePlanar(float* sample, int channels, int height, int width, int top, int left, int rows, int cols);

}  // namespace ts

#include "data/image_decode.h"

#include <vips/vips.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <memory>
#include <stdexcept>

#include "data/data_files.h"
#include "data/dataset.h"

namespace ts {
namespace {

// libvips starts once (VIPS_INIT is not reentrant: a function-local static is). Its operation
// cache would keep every file of a folder open, so it is off; the loader's workers are the
// parallelism, so vips runs each pipeline on one thread; its warnings (a JPEG's stray bytes) are
// not printed: what matters comes back as an error.
void startVips()
{
    static const bool started = [] {
        if (VIPS_INIT("trainstudio")) throw std::runtime_error("libvips could not start");
        vips_cache_set_max(0);
        vips_concurrency_set(1);
        g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING, [](const gchar*, GLogLevelFlags, const gchar*, gpointer) {}, nullptr);
        return true;
    }();
    (void)started;
}

struct Unref {
    void operator()(VipsImage* image) const { g_object_unref(image); }
};
using Image = std::unique_ptr<VipsImage, Unref>;

// vips' error text, its first line without the "VipsJpeg: " domain, and the buffer cleared.
std::string takeVipsError()
{
    char* buffer = vips_error_buffer_copy();
    std::string text = buffer ? buffer : "";
    g_free(buffer);
    text = text.substr(0, text.find('\n'));
    if (const auto colon = text.find(": "); text.rfind("Vips", 0) == 0 && colon != std::string::npos) text.erase(0, colon + 2);
    if (const auto colon = text.find(": "); text.rfind("vips", 0) == 0 && colon != std::string::npos) text.erase(0, colon + 2);
    return text.empty() ? "unreadable" : text;
}

// A decompression bomb (a few hundred KB of PNG that inflate to 20,000 x 20,000 pixels) is refused
// from its header, before any pixel memory is allocated.
constexpr std::uint64_t kMaxImagePixels = std::uint64_t(1) << 26;  // 8192 x 8192: 192 MiB as RGB

DataError tooLargeError(const std::string& path, std::uint64_t width, std::uint64_t height)
{
    return DataError(path, -1, path + ": the image is " + std::to_string(width) + " x " + std::to_string(height) +
                                   " pixels, too large to decode (at most " + std::to_string(kMaxImagePixels) +
                                   " pixels, e.g. 8192 x 8192); shrink it or leave it out of the dataset");
}

DataError notAnImage(const std::string& path)
{
    return DataError(path, 0, path + ": byte 0: not an image TrainStudio reads (" + imageFormatsText() + ")");
}

// The format a vips loader reads, by its class name; empty for loaders this reader does not use
// (PDF, SVG, HEIF, ...: a folder of images holds none, and each is more attack surface).
// BMP has no loader of its own in vips 8.14: ImageMagick's reads it, and only it is let through.
std::string formatOf(const char* loader, const std::string& path)
{
    std::string name = loader ? loader : "";
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    if (name.find("png") != std::string::npos) return "PNG";
    if (name.find("jpeg") != std::string::npos) return "JPEG";
    if (name.find("webp") != std::string::npos) return "WebP";
    if (name.find("tiff") != std::string::npos) return "TIFF";
    if (name.find("gif") != std::string::npos) return "GIF";
    if (name.find("magick") != std::string::npos) {
        const std::vector<std::uint8_t> head = readFileBytes(path, 2);
        if (head.size() == 2 && head[0] == 'B' && head[1] == 'M') return "BMP";
    }
    return {};
}

struct Opened {
    Image image;
    std::string format;  // "PNG"
};

// The file's header, read by its loader (nothing decoded yet: vips is lazy). A JPEG's corrupt
// data, which libjpeg would fill with grey, counts as damage (fail on warnings).
Opened openImage(const std::string& path)
{
    // A folder or a FIFO is named as such (and a FIFO never blocks the open).
    if (const std::string why = whyNotAFile(path); !why.empty()) throw DataError(path, -1, path + ": " + why);
    startVips();
    const char* loader = vips_foreign_find_load(path.c_str());
    if (!loader) {
        vips_error_clear();
        if (readFileBytes(path, 1).empty()) throw DataError(path, 0, path + ": the file is empty, not an image");
        throw notAnImage(path);
    }
    Opened o;
    o.format = formatOf(loader, path);
    if (o.format.empty()) throw notAnImage(path);
    // vips would read a trailing "[...]" as load options ("a.png[page=2]"): the readers pass only
    // names that end in an image extension (isImageFileName), so none has one.
    VipsImage* image =
        vips_image_new_from_file(path.c_str(), "fail_on", VIPS_FAIL_ON_WARNING, "access", VIPS_ACCESS_SEQUENTIAL, nullptr);
    if (!image) throw DataError(path, -1, path + ": damaged " + o.format + " image (" + takeVipsError() + ")");
    o.image.reset(image);
    return o;
}

bool isCmyk(VipsImage* image) { return vips_image_guess_interpretation(image) == VIPS_INTERPRETATION_CMYK; }

// Runs one vips operation on `in` (its output replaces it); false, vips' error pending, when it fails.
template <class Op> bool tryStep(Image& in, Op op)
{
    VipsImage* out = nullptr;
    if (op(in.get(), &out)) return false;
    in.reset(out);
    return true;
}

// A step on pixels already in memory, which fails only when vips does.
template <class Op> void step(Image& in, Op op)
{
    if (!tryStep(in, op)) throw std::runtime_error("libvips could not resize an image: " + takeVipsError());
}

// Grey <-> RGB on the encoded values, with ITU-R 601 luma weights as libjpeg and PIL use
// (vips' own conversion works in linear light and would make red twice as bright).
void convertChannels(DecodedImage& image, int channels)
{
    if (image.channels == channels) return;
    const std::size_t n = static_cast<std::size_t>(image.width) * image.height;
    std::vector<std::uint8_t> out(n * channels);
    for (std::size_t i = 0; i < n; ++i) {
        if (channels == 3) {
            out[3 * i] = out[3 * i + 1] = out[3 * i + 2] = image.pixels[i];
        } else {
            const std::uint8_t* p = &image.pixels[3 * i];
            out[i] = static_cast<std::uint8_t>(std::lround(0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2]));
        }
    }
    image.pixels = std::move(out);
    image.channels = channels;
}

// The image's pixels, written out (decoded) into memory; empty when vips fails (its error pending).
std::vector<std::uint8_t> pixelsOf(VipsImage* image, std::size_t expected)
{
    std::size_t size = 0;
    void* data = vips_image_write_to_memory(image, &size);
    if (!data) return {};
    std::vector<std::uint8_t> out(static_cast<std::uint8_t*>(data), static_cast<std::uint8_t*>(data) + std::min(size, expected));
    g_free(data);
    return out;
}

std::vector<std::uint8_t> resizedPixels(VipsImage* image, std::size_t expected)
{
    std::vector<std::uint8_t> out = pixelsOf(image, expected);
    if (out.size() != expected) throw std::runtime_error("libvips could not resize an image: " + takeVipsError());
    return out;
}

// A [rows, cols] plane of `in` (interleaved, `bands` per pixel) in memory, as a vips image.
Image memoryImage(const void* data, int width, int height, int bands, VipsBandFormat format)
{
    const std::size_t bytes = std::size_t(width) * height * bands * vips_format_sizeof(format);
    VipsImage* image = vips_image_new_from_memory(data, bytes, width, height, bands, format);
    if (!image) throw std::runtime_error("libvips: " + takeVipsError());
    return Image(image);
}

// Scales by (sx, sy) with vips' antialiased resize and makes it exactly width x height around
// its centre: cropping what is larger, padding with black what is smaller.
void resizeAndFit(Image& image, double sx, double sy, int width, int height)
{
    if (sx != 1.0 || sy != 1.0)
        step(image, [&](VipsImage* in, VipsImage** out) { return vips_resize(in, out, sx, "vscale", sy, nullptr); });
    if (image->Xsize != width || image->Ysize != height)
        step(image, [&](VipsImage* in, VipsImage** out) {
            return vips_gravity(in, out, VIPS_COMPASS_DIRECTION_CENTRE, width, height, "extend", VIPS_EXTEND_BLACK, nullptr);
        });
}

}  // namespace

bool isImageFileName(const std::string& path)
{
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    for (const char* e : {".png", ".jpg", ".jpeg", ".webp", ".tif", ".tiff", ".bmp", ".gif"})
        if (ext == e) return true;
    return false;
}

const char* imageFormatsText() { return "PNG, JPEG, WebP, TIFF, BMP or GIF"; }

ImageSize imageFileSize(const std::string& path)
{
    const Opened o = openImage(path);
    const int bands = vips_image_get_bands(o.image.get()) - (vips_image_hasalpha(o.image.get()) ? 1 : 0);
    return {vips_image_get_width(o.image.get()), vips_image_get_height(o.image.get()), bands >= 3};
}

DecodedImage decodeImageFile(const std::string& path, int channels)
{
    Opened o = openImage(path);
    Image& image = o.image;
    const auto width = std::uint64_t(image->Xsize), height = std::uint64_t(image->Ysize);
    if (width * height > kMaxImagePixels) throw tooLargeError(path, width, height);
    if (isCmyk(image.get()))
        throw DataError(path, -1, path + ": a CMYK " + o.format + " image (print colours), which TrainStudio does not decode: "
                                         "it reads greyscale and RGB images; save it as RGB");
    const auto damaged = [&](const std::string& why) {
        return DataError(path, -1, path + ": damaged " + o.format + " image (" + why + ")");
    };
    const auto run = [&](auto op) {
        if (!tryStep(image, op)) throw damaged(takeVipsError());
    };
    if (vips_image_hasalpha(image.get()))  // composited on black: max alpha 255, or 65535 for 16 bits
        run([](VipsImage* in, VipsImage** out) { return vips_flatten(in, out, nullptr); });
    if (image->BandFmt == VIPS_FORMAT_USHORT)  // 16 bits to the 8-bit range
        run([](VipsImage* in, VipsImage** out) { return vips_linear1(in, out, 1.0 / 257.0, 0.0, "uchar", TRUE, nullptr); });
    else if (image->BandFmt != VIPS_FORMAT_UCHAR)
        run([](VipsImage* in, VipsImage** out) { return vips_cast_uchar(in, out, nullptr); });
    const int bands = image->Bands >= 3 ? 3 : 1;  // grey (+ a band vips did not call alpha) or colour
    if (image->Bands != bands)
        run([bands](VipsImage* in, VipsImage** out) { return vips_extract_band(in, out, 0, "n", bands, nullptr); });

    DecodedImage out;
    out.width = image->Xsize;
    out.height = image->Ysize;
    out.channels = bands;
    out.pixels = pixelsOf(image.get(), std::size_t(out.width) * out.height * bands);
    if (out.pixels.size() != std::size_t(out.width) * out.height * bands) throw damaged(takeVipsError());
    convertChannels(out, channels);
    return out;
}

const char* resizeModeName(ResizeMode mode)
{
    switch (mode) {
    case ResizeMode::Crop: return "crop";
    case ResizeMode::Pad: return "pad";
    case ResizeMode::Stretch: return "stretch";
    }
    return "crop";
}

std::optional<ResizeMode> resizeModeFromName(const std::string& name)
{
    for (ResizeMode m : {ResizeMode::Crop, ResizeMode::Pad, ResizeMode::Stretch})
        if (name == resizeModeName(m)) return m;
    return std::nullopt;
}

void resizeToPlanar(const DecodedImage& image, int height, int width, ResizeMode mode, float* out)
{
    const int c = image.channels;
    const float* unit = byteToUnitTable();
    const std::uint8_t* pixels = image.pixels.data();
    std::vector<std::uint8_t> resized;
    if (image.width != width || image.height != height) {
        startVips();
        Image v = memoryImage(image.pixels.data(), image.width, image.height, c, VIPS_FORMAT_UCHAR);
        double sx = double(width) / image.width, sy = double(height) / image.height;
        if (mode == ResizeMode::Crop) sx = sy = std::max(sx, sy);  // the short side fits, the long one is cropped
        if (mode == ResizeMode::Pad) sx = sy = std::min(sx, sy);   // the long side fits, the short one is padded
        resizeAndFit(v, sx, sy, width, height);
        resized = resizedPixels(v.get(), std::size_t(width) * height * c);
        pixels = resized.data();
    }
    const std::size_t plane = std::size_t(width) * height;
    for (int ch = 0; ch < c; ++ch)
        for (std::size_t i = 0; i < plane; ++i) out[ch * plane + i] = unit[pixels[i * c + ch]];
}

void cropResizePlanar(float* sample, int channels, int height, int width, int top, int left, int rows, int cols)
{
    if (top == 0 && left == 0 && rows == height && cols == width) return;
    startVips();
    const std::size_t plane = std::size_t(width) * height;
    for (int ch = 0; ch < channels; ++ch) {
        float* p = sample + ch * plane;
        Image v = memoryImage(p, width, height, 1, VIPS_FORMAT_FLOAT);
        step(v, [&](VipsImage* in, VipsImage** out) { return vips_crop(in, out, left, top, cols, rows, nullptr); });
        resizeAndFit(v, double(width) / cols, double(height) / rows, width, height);
        const std::vector<std::uint8_t> bytes = resizedPixels(v.get(), plane * sizeof(float));
        std::memcpy(p, bytes.data(), bytes.size());
    }
}

}  // namespace ts

#include "data/image_decode.h"

#include <png.h>
// jpeglib.h needs FILE and size_t declared first.
#include <cstdio>
#include <jpeglib.h>
#include <jerror.h>

#include <algorithm>
#include <cmath>
#include <csetjmp>
#include <cerrno>
#include <cstring>

#include "data/data_files.h"

namespace ts {
namespace {

// Grey <-> RGB on the encoded values, with ITU-R 601 luma weights as libjpeg and PIL use
// (libpng's own conversion works in linear light and would make red twice as bright).
void convertChannels(DecodedImage& image, int channels)
{
    if (image.channels == channels)
        return;
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

// A decompression bomb (a few hundred KB of PNG that inflate to 20,000 x 20,000 pixels) is refused
// from its header, before any pixel memory is allocated.
constexpr std::uint64_t kMaxImagePixels = std::uint64_t(1) << 26;  // 8192 x 8192: 192 MiB as RGB

bool tooLarge(std::uint64_t width, std::uint64_t height) { return width * height > kMaxImagePixels; }

DataError tooLargeError(const std::string& path, std::uint64_t width, std::uint64_t height)
{
    return DataError(path, -1, path + ": the image is " + std::to_string(width) + " x " + std::to_string(height) +
                                   " pixels, too large to decode (at most " + std::to_string(kMaxImagePixels) +
                                   " pixels, e.g. 8192 x 8192); shrink it or leave it out of the dataset");
}

DecodedImage decodePng(const std::vector<std::uint8_t>& bytes, const std::string& path)
{
    png_image image;
    std::memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&image, bytes.data(), bytes.size()))
        throw DataError(path, -1, path + ": damaged PNG image (" + image.message + ")");
    if (tooLarge(image.width, image.height)) {
        png_image_free(&image);
        throw tooLargeError(path, image.width, image.height);
    }
    // The file's own colour kind; alpha is dropped (composited onto black by libpng).
    const bool color = (image.format & PNG_FORMAT_FLAG_COLOR) != 0;
    image.format = color ? PNG_FORMAT_RGB : PNG_FORMAT_GRAY;
    DecodedImage out;
    out.width = static_cast<int>(image.width);
    out.height = static_cast<int>(image.height);
    out.channels = color ? 3 : 1;
    out.pixels.resize(PNG_IMAGE_SIZE(image));
    if (!png_image_finish_read(&image, nullptr, out.pixels.data(), 0, nullptr)) {
        const std::string message = image.message;
        png_image_free(&image);
        throw DataError(path, -1, path + ": damaged PNG image (" + message + ")");
    }
    return out;
}

// libjpeg reports fatal errors through error_exit, which must not return: jump back out.
struct JpegErrorManager {
    jpeg_error_mgr pub;
    std::jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
    int damage;  // the first corrupt-data warning's code; 0: none
};

void jpegErrorExit(j_common_ptr cinfo)
{
    auto* err = reinterpret_cast<JpegErrorManager*>(cinfo->err);
    (*cinfo->err->format_message)(cinfo, err->message);
    std::longjmp(err->jump, 1);
}

// Warnings are not printed. Corrupt data, which libjpeg decodes as grey filler or garbage
// (a premature end, a bad Huffman code, a lost marker), is remembered as damage; stray bytes
// between markers (JWRN_EXTRANEOUS_DATA) leave the pixels intact and are let through.
void jpegWarning(j_common_ptr cinfo, int level)
{
    auto* err = reinterpret_cast<JpegErrorManager*>(cinfo->err);
    if (level < 0 && cinfo->err->msg_code != JWRN_EXTRANEOUS_DATA && !err->damage) {
        err->damage = cinfo->err->msg_code;
        (*cinfo->err->format_message)(cinfo, err->message);
    }
}

// libjpeg cannot convert CMYK (or YCCK, Adobe's print JPEGs) to RGB or grey: said as such, not
// as damage (dataset_health.cpp's causeOf reads "CMYK").
constexpr const char* kCmykMessage =
    "a CMYK JPEG image (print colours), which TrainStudio does not decode: it reads greyscale and RGB JPEGs; save it as RGB";

DataError jpegError(const std::string& path, const char* message)
{
    if (std::strcmp(message, kCmykMessage) == 0) return DataError(path, -1, path + ": " + message);
    return DataError(path, -1, path + ": damaged JPEG image (" + message + ")");
}

// No C++ objects with destructors live between setjmp and a longjmp here.
// False with `message` set when the file is damaged; false with an empty message and out's size
// set when the image is too large to decode. headerOnly: out's size from the header, no pixels.
bool decodeJpegRaw(const std::vector<std::uint8_t>& bytes, int channels, DecodedImage& out, char* message,
                   bool headerOnly = false)
{
    jpeg_decompress_struct cinfo;
    JpegErrorManager err;
    cinfo.err = jpeg_std_error(&err.pub);
    err.pub.error_exit = jpegErrorExit;
    err.pub.emit_message = jpegWarning;
    err.message[0] = 0;
    err.damage = 0;
    if (setjmp(err.jump)) {
        jpeg_destroy_decompress(&cinfo);
        std::strncpy(message, err.message, JMSG_LENGTH_MAX);
        return false;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, bytes.data(), static_cast<unsigned long>(bytes.size()));
    jpeg_read_header(&cinfo, TRUE);
    if (headerOnly || tooLarge(cinfo.image_width, cinfo.image_height)) {
        out.width = static_cast<int>(cinfo.image_width);
        out.height = static_cast<int>(cinfo.image_height);
        jpeg_destroy_decompress(&cinfo);
        message[0] = 0;
        return headerOnly;
    }
    if (cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK) {
        jpeg_destroy_decompress(&cinfo);
        std::strncpy(message, kCmykMessage, JMSG_LENGTH_MAX - 1);
        return false;
    }
    cinfo.out_color_space = channels == 1 ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_start_decompress(&cinfo);
    out.width = static_cast<int>(cinfo.output_width);
    out.height = static_cast<int>(cinfo.output_height);
    out.channels = channels;
    out.pixels.resize(static_cast<std::size_t>(out.width) * out.height * channels);
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW row = out.pixels.data() + static_cast<std::size_t>(cinfo.output_scanline) * out.width * channels;
        jpeg_read_scanlines(&cinfo, &row, 1);
    }
    const int damage = err.damage;
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    if (damage == JWRN_JPEG_EOF)
        std::strncpy(message, "the file ends before the image data does", JMSG_LENGTH_MAX);
    else if (damage)
        std::strncpy(message, err.message, JMSG_LENGTH_MAX);
    return !damage;
}

// The first `limit` bytes of a file (all of it when shorter); DataError when it cannot be read.
std::vector<std::uint8_t> fileHead(const std::string& path, std::size_t limit)
{
    // A folder or a FIFO is named as such (and a FIFO never blocks the open).
    if (const std::string why = whyNotAFile(path); !why.empty()) throw DataError(path, -1, path + ": " + why);
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) throw DataError(path, -1, path + ": cannot open the file: " + std::strerror(errno));
    std::vector<std::uint8_t> bytes(limit);
    bytes.resize(std::fread(bytes.data(), 1, limit, f));
    std::fclose(f);
    return bytes;
}

}  // namespace

ImageSize imageFileSize(const std::string& path)
{
    // Headers sit at the start; 256 KiB covers a JPEG's EXIF thumbnail and a PNG's ancillary
    // chunks before its image data.
    const std::vector<std::uint8_t> bytes = fileHead(path, 256 * 1024);
    static const std::uint8_t pngMagic[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (bytes.size() >= 8 && std::memcmp(bytes.data(), pngMagic, 8) == 0) {
        png_image image;
        std::memset(&image, 0, sizeof image);
        image.version = PNG_IMAGE_VERSION;
        if (!png_image_begin_read_from_memory(&image, bytes.data(), bytes.size()))
            throw DataError(path, -1, path + ": damaged PNG image (" + image.message + ")");
        const ImageSize size{static_cast<int>(image.width), static_cast<int>(image.height)};
        png_image_free(&image);
        return size;
    }
    if (bytes.size() >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF) {
        DecodedImage header;
        char message[JMSG_LENGTH_MAX] = {};
        if (!decodeJpegRaw(bytes, 1, header, message, true))
            throw DataError(path, -1, path + ": damaged JPEG image (" + message + ")");
        return {header.width, header.height};
    }
    throw DataError(path, 0, path + ": byte 0: neither a PNG nor a JPEG image");
}

DecodedImage decodeImageFile(const std::string& path, int channels)
{
    const std::vector<std::uint8_t> bytes = readFileBytes(path);
    static const std::uint8_t pngMagic[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (bytes.size() >= 8 && std::memcmp(bytes.data(), pngMagic, 8) == 0) {
        DecodedImage out = decodePng(bytes, path);
        convertChannels(out, channels);
        return out;
    }
    if (bytes.size() >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF) {
        DecodedImage out;
        char message[JMSG_LENGTH_MAX] = {};
        if (!decodeJpegRaw(bytes, channels, out, message)) {
            if (!message[0]) throw tooLargeError(path, out.width, out.height);
            throw jpegError(path, message);
        }
        return out;
    }
    throw DataError(path, 0, path + ": byte 0: neither a PNG nor a JPEG image");
}

void resizeToPlanar(const DecodedImage& image, int height, int width, ResizeMode mode, float* out)
{
    const int c = image.channels, w = image.width, h = image.height;
    const float* unit = byteToUnitTable();
    auto at = [&](int y, int x, int ch) { return unit[image.pixels[(static_cast<std::size_t>(y) * w + x) * c + ch]]; };
    const float sy = static_cast<float>(h) / height, sx = static_cast<float>(w) / width;
    for (int ch = 0; ch < c; ++ch)
        for (int y = 0; y < height; ++y)
            for (int x = 0; x < width; ++x) {
                float v;
                if (mode == ResizeMode::Nearest || (h == height && w == width)) {
                    v = at(std::min(h - 1, static_cast<int>(y * sy)), std::min(w - 1, static_cast<int>(x * sx)), ch);
                } else {
                    // Pixel centres aligned (align_corners = false), edges clamped.
                    const float fy = std::clamp((y + 0.5f) * sy - 0.5f, 0.0f, static_cast<float>(h - 1));
                    const float fx = std::clamp((x + 0.5f) * sx - 0.5f, 0.0f, static_cast<float>(w - 1));
                    const int y0 = static_cast<int>(fy), x0 = static_cast<int>(fx);
                    const int y1 = std::min(y0 + 1, h - 1), x1 = std::min(x0 + 1, w - 1);
                    const float dy = fy - y0, dx = fx - x0;
                    v = (at(y0, x0, ch) * (1 - dx) + at(y0, x1, ch) * dx) * (1 - dy) +
                        (at(y1, x0, ch) * (1 - dx) + at(y1, x1, ch) * dx) * dy;
                }
                out[(static_cast<std::size_t>(ch) * height + y) * width + x] = v;
            }
}

}  // namespace ts

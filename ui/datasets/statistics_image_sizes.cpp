#include "statistics_image_sizes.h"

#include <algorithm>
#include <cstdio>
#include <memory>

namespace ts::ui {

namespace {

struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
};

std::uint32_t bigEndian(const unsigned char* p, int bytes)
{
    std::uint32_t v = 0;
    for (int i = 0; i < bytes; ++i) v = (v << 8) | p[i];
    return v;
}

// JPEG: walk the marker segments (each FF xx + a 2-byte length) to the first start of frame
// (SOF0..SOF15 but DHT C4, JPG C8, DAC CC), which holds the height and width.
std::pair<int, int> jpegSize(std::FILE* f)
{
    for (int segments = 0; segments < 4096; ++segments) {
        int c = std::fgetc(f);
        if (c != 0xFF) return {-1, -1};
        while (c == 0xFF) c = std::fgetc(f);  // fill bytes
        if (c == EOF) return {-1, -1};
        const int marker = c;
        if (marker == 0xD8 || (marker >= 0xD0 && marker <= 0xD7) || marker == 0x01) continue;  // no length
        unsigned char len[2];
        if (std::fread(len, 1, 2, f) != 2) return {-1, -1};
        const long length = long(bigEndian(len, 2));
        if (length < 2) return {-1, -1};
        if (marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC) {
            unsigned char sof[5];  // precision, height (2), width (2)
            if (std::fread(sof, 1, 5, f) != 5) return {-1, -1};
            return {int(bigEndian(sof + 3, 2)), int(bigEndian(sof + 1, 2))};
        }
        if (std::fseek(f, length - 2, SEEK_CUR) != 0) return {-1, -1};
    }
    return {-1, -1};
}

}  // namespace

std::pair<int, int> imageFileSize(const std::string& path)
{
    std::unique_ptr<std::FILE, FileCloser> f(std::fopen(path.c_str(), "rb"));
    if (!f) return {-1, -1};
    unsigned char head[24];
    const std::size_t got = std::fread(head, 1, sizeof head, f.get());
    static const unsigned char kPng[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    if (got >= 24 && std::equal(kPng, kPng + 8, head) && std::equal(head + 12, head + 16, "IHDR")) {
        const auto w = bigEndian(head + 16, 4), h = bigEndian(head + 20, 4);
        if (w == 0 || h == 0 || w > 0x7FFFFFFF || h > 0x7FFFFFFF) return {-1, -1};
        return {int(w), int(h)};
    }
    if (got >= 2 && head[0] == 0xFF && head[1] == 0xD8) {
        std::fseek(f.get(), 2, SEEK_SET);
        const auto size = jpegSize(f.get());
        if (size.first <= 0 || size.second <= 0) return {-1, -1};
        return size;
    }
    return {-1, -1};
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

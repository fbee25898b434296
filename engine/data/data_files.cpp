#include "data/data_files.h"

#include <zlib.h>

#include <array>
#include <chrono>
#include <filesystem>

namespace fs = std::filesystem;

namespace ts {

DataError byteError(const std::string& file, std::int64_t offset, const std::string& what)
{
    return DataError(file, offset, file + ": byte " + std::to_string(offset) + ": " + what);
}

DataError lineError(const std::string& file, std::int64_t line, const std::string& what)
{
    return DataError(file, line, file + ":" + std::to_string(line) + ": " + what);
}

std::vector<std::uint8_t> readFileBytes(const std::string& path, std::size_t limit)
{
    std::error_code ec;
    if (!fs::is_regular_file(path, ec))
        throw DataError(path, -1, path + ": no such file");
    gzFile f = gzopen(path.c_str(), "rb");
    if (!f)
        throw DataError(path, -1, path + ": cannot open");
    gzbuffer(f, 1 << 17);
    // Reserve the on-disk size: right for plain files, a first step for gzip ones.
    std::vector<std::uint8_t> data;
    data.reserve(std::min<std::size_t>(limit, static_cast<std::size_t>(fs::file_size(path, ec))));
    std::size_t used = 0;
    while (used < limit) {
        if (data.size() - used < (1u << 20))
            data.resize(std::min(limit, used + std::max<std::size_t>(1u << 20, used / 2)));
        const int n = gzread(f, data.data() + used, static_cast<unsigned>(std::min<std::size_t>(data.size() - used, 1u << 30)));
        if (n < 0) {
            int code = 0;
            const std::string msg = gzerror(f, &code);
            gzclose(f);
            throw byteError(path, static_cast<std::int64_t>(used), "corrupt gzip stream (" + msg + ")");
        }
        if (n == 0)
            break;
        used += static_cast<std::size_t>(n);
    }
    // A gzip stream cut short ends "successfully" in some zlib versions; the error is still set.
    int code = Z_OK;
    const std::string msg = gzerror(f, &code);
    gzclose(f);
    if (code != Z_OK && code != Z_STREAM_END)
        throw byteError(path, static_cast<std::int64_t>(used), "corrupt gzip stream (" + msg + ")");
    data.resize(used);
    data.shrink_to_fit();
    return data;
}

std::string findDataFile(const std::string& dir, const std::string& name)
{
    std::error_code ec;
    for (const std::string& candidate : {joinPath(dir, name), joinPath(dir, name + ".gz")})
        if (fs::is_regular_file(candidate, ec))
            return candidate;
    return {};
}

std::string fileFingerprint(const std::string& path)
{
    std::error_code ec;
    const auto size = fs::file_size(path, ec);
    const auto mtime = fs::last_write_time(path, ec);
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(mtime.time_since_epoch()).count();
    return path + " " + std::to_string(ec ? 0 : size) + " " + std::to_string(ec ? 0 : ns);
}

const float* byteToUnitTable()
{
    static const auto table = [] {
        std::array<float, 256> t{};
        for (int i = 0; i < 256; ++i)
            t[static_cast<std::size_t>(i)] = static_cast<float>(i) / 255.0f;
        return t;
    }();
    return table.data();
}

std::string joinPath(const std::string& dir, const std::string& name)
{
    return (fs::path(dir) / name).string();
}

}  // namespace ts

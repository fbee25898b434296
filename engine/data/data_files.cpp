#include "data/data_files.h"

#include <zlib.h>

#include <sys/stat.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

#include "tensor/quote_text.h"

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

namespace {

// What is at `path` when it is not what was wanted ("is a folder"), from stat(2); `wantFolder`
// picks the wanted kind. "" when it is that kind.
std::string whyNot(const std::string& path, bool wantFolder)
{
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        const int error = errno;
        struct stat link {};
        if (error == ENOENT && ::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
            std::error_code ec;
            return "is a link to " + quoteText(fs::read_symlink(path, ec).string()) + ", which does not exist";
        }
        if (error == ENOENT) return wantFolder ? "no such folder" : "no such file";
        if (error == ENOTDIR) return "no such " + std::string(wantFolder ? "folder" : "file") + " (a part of the path is a file, not a folder)";
        return std::string("cannot be reached: ") + std::strerror(error);
    }
    if (wantFolder) return S_ISDIR(st.st_mode) ? "" : S_ISREG(st.st_mode) ? "is a file, not a folder" : "is not a folder";
    if (S_ISREG(st.st_mode)) return "";
    if (S_ISDIR(st.st_mode)) return "is a folder, not a file";
    if (S_ISFIFO(st.st_mode)) return "is a named pipe (FIFO), not a regular file";
    if (S_ISSOCK(st.st_mode)) return "is a socket, not a regular file";
    if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) return "is a device, not a regular file";
    return "is not a regular file";
}

// The gzip members of an open file, inflated into `data` (at most `limit` bytes). Errors name
// the byte of the compressed file where inflating stopped.
std::size_t inflateGzip(std::FILE* f, const std::string& path, std::size_t limit, std::vector<std::uint8_t>& data)
{
    z_stream z{};
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)  // 16: gzip wrapper only
        throw DataError(path, -1, path + ": cannot start decompressing (out of memory)");
    std::unique_ptr<z_stream, int (*)(z_stream*)> end(&z, &inflateEnd);
    std::vector<unsigned char> in(1 << 17);
    std::uint64_t inStart = 0;  // the file offset of in[0]
    std::size_t used = 0;
    bool inMember = true, atEof = false;
    const auto offset = [&] { return static_cast<std::int64_t>(inStart + static_cast<std::uint64_t>(z.next_in - in.data())); };
    const auto fail = [&](const std::string& why) -> DataError {
        return byteError(path, offset(), "corrupt gzip stream (" + why + "); the byte is in the compressed file, after " +
                                             groupDigits(used) + " bytes of decompressed data");
    };
    while (used < limit) {
        if (z.avail_in == 0 && !atEof) {
            inStart += static_cast<std::uint64_t>(z.next_in ? z.next_in - in.data() : 0);
            const std::size_t n = std::fread(in.data(), 1, in.size(), f);
            if (n == 0 && std::ferror(f))
                throw DataError(path, -1, path + ": cannot read: " + std::strerror(errno));
            atEof = n < in.size();
            z.next_in = in.data();
            z.avail_in = static_cast<uInt>(n);
        }
        if (!inMember) {
            // After a member: another one follows (concatenated gzip) or the rest is ignored,
            // as gzip(1) and zlib's gzread do with trailing bytes.
            if (z.avail_in == 0 || z.next_in[0] != 0x1F || (z.avail_in > 1 && z.next_in[1] != 0x8B)) break;
            inflateReset(&z);
            inMember = true;
        }
        if (z.avail_in == 0)
            throw fail("the file ends inside the stream: truncated");
        if (data.size() - used < (1u << 20))
            data.resize(std::min(limit, used + std::max<std::size_t>(1u << 20, used / 2)));
        z.next_out = data.data() + used;
        z.avail_out = static_cast<uInt>(std::min<std::size_t>(data.size() - used, UINT_MAX));
        const uInt before = z.avail_out;
        const int rc = inflate(&z, Z_NO_FLUSH);
        used += before - z.avail_out;
        if (rc == Z_STREAM_END) inMember = false;
        else if (rc == Z_NEED_DICT || rc == Z_DATA_ERROR || rc == Z_STREAM_ERROR || rc == Z_MEM_ERROR)
            throw fail(z.msg ? z.msg : "invalid data");
        // Z_BUF_ERROR: no progress without more input, which the next round reads.
        else if (rc == Z_BUF_ERROR && z.avail_in != 0 && z.avail_out != 0)
            throw fail(z.msg ? z.msg : "no progress");
    }
    return used;
}

}  // namespace

std::string whyNotAFile(const std::string& path) { return whyNot(path, false); }
std::string whyNotAFolder(const std::string& path) { return whyNot(path, true); }

std::vector<std::uint8_t> readFileBytes(const std::string& path, std::size_t limit)
{
    if (const std::string why = whyNotAFile(path); !why.empty())
        throw DataError(path, -1, path + ": " + why);
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
    if (!f)
        throw DataError(path, -1, path + ": cannot open: " + std::strerror(errno));
    std::error_code ec;
    const auto fileSize = static_cast<std::size_t>(fs::file_size(path, ec));
    unsigned char magic[2] = {};
    const std::size_t got = std::fread(magic, 1, 2, f.get());
    std::rewind(f.get());
    std::vector<std::uint8_t> data;
    std::size_t used = 0;
    if (got == 2 && magic[0] == 0x1F && magic[1] == 0x8B) {
        // Reserve the on-disk size: a first step for the inflated data.
        data.reserve(std::min<std::size_t>(limit, ec ? 0 : fileSize));
        used = inflateGzip(f.get(), path, limit, data);
    } else {
        data.resize(std::min<std::size_t>(limit, ec ? 0 : fileSize));
        while (used < limit) {
            if (used == data.size()) {  // at the size stat gave: grow only if there is more
                const int c = std::fgetc(f.get());
                if (c == EOF)
                    break;
                data.resize(std::min(limit, used + std::max<std::size_t>(1u << 20, used / 2)));
                data[used++] = static_cast<std::uint8_t>(c);
                continue;
            }
            const std::size_t n = std::fread(data.data() + used, 1, data.size() - used, f.get());
            used += n;
            if (n == 0)
                break;
        }
        if (std::ferror(f.get()))
            throw DataError(path, -1, path + ": cannot read: " + std::strerror(errno));
    }
    data.resize(used);
    data.shrink_to_fit();
    return data;
}

std::string findDataFile(const std::string& dir, const std::string& name)
{
    std::error_code ec;
    if (fs::exists(dir, ec))
        if (const std::string why = whyNotAFolder(dir); !why.empty())
            throw DataError(dir, -1, dir + ": " + why + " (this dataset format reads a folder of files)");
    const std::string plain = joinPath(dir, name), gz = joinPath(dir, name + ".gz");
    for (const std::string& candidate : {plain, gz})
        if (fs::is_regular_file(candidate, ec))
            return candidate;
    for (const std::string& candidate : {plain, gz})
        if (fs::exists(fs::symlink_status(candidate, ec)))
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

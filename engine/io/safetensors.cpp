// Reading and writing safetensors files: the header JSON, validation, checksums and the
// atomic write (temporary file, fsync, rename, fsync of the directory).
#include "io/safetensors.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <set>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/safetensors_json.h"
#include "io/sha256.h"

namespace ts {

namespace {

constexpr const char* kDataHashKey = "ts_data_sha256";
constexpr const char* kHeaderHashKey = "ts_header_sha256";
// The Python library refuses headers over 100 MB; so do we, before allocating one.
constexpr std::uint64_t kMaxHeaderBytes = 100'000'000;

[[noreturn]] void fail(const std::string& path, const std::string& what) { throw CheckpointError(path + ": " + what); }

std::string systemReason() { return std::strerror(errno); }

// 1204 -> "1,204": file sizes in messages are read by people.
std::string grouped(std::uint64_t n)
{
    std::string digits = std::to_string(n), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

const char* stName(DType t)
{
    switch (t) {
    case DType::F32: return "F32";
    case DType::F16: return "F16";
    case DType::BF16: return "BF16";
    case DType::I32: return "I32";
    case DType::I64: return "I64";
    case DType::U8: return "U8";
    }
    return "?";
}

std::optional<DType> stDType(const std::string& name)
{
    for (DType t : {DType::F32, DType::F16, DType::BF16, DType::I32, DType::I64, DType::U8})
        if (name == stName(t)) return t;
    return std::nullopt;
}

std::string shapeText(const std::vector<std::int64_t>& dims)
{
    std::string s = "[";
    for (std::size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
    return s + "]";
}

// ---- writing --------------------------------------------------------------------------

// The temporary file beside the target. Until commit() it is removed on destruction, so an
// exception anywhere leaves the target as it was and no litter behind.
class AtomicFile {
public:
    explicit AtomicFile(std::string path) : path_(std::move(path)), temp_(path_ + ".tmp")
    {
        fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd_ < 0) fail(path_, "cannot write: " + systemReason());
    }
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;
    ~AtomicFile()
    {
        if (fd_ >= 0) ::close(fd_);
        if (!committed_) ::unlink(temp_.c_str());
    }

    void write(const void* data, std::size_t bytes)
    {
        hash_.update(data, bytes);
        written_ += bytes;
        const char* p = static_cast<const char*>(data);
        while (bytes > 0) {  // write() may take less than asked (signals, huge requests)
            const ssize_t n = ::write(fd_, p, std::min<std::size_t>(bytes, 1 << 30));
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) fail(path_, "cannot write: " + (n < 0 ? systemReason() : std::string("no progress")));
            p += n, bytes -= static_cast<std::size_t>(n);
        }
    }

    void commit()
    {
        // The data must be on disk before the rename makes it the file: otherwise a crash can
        // leave a renamed but empty file where the previous checkpoint was.
        if (::fsync(fd_) != 0) fail(path_, "cannot write: " + systemReason());
        const int fd = fd_;
        fd_ = -1;
        if (::close(fd) != 0) fail(path_, "cannot write: " + systemReason());  // NFS reports late errors here
        if (std::rename(temp_.c_str(), path_.c_str()) != 0) fail(path_, "cannot replace the file: " + systemReason());
        committed_ = true;
        // Makes the rename itself durable. The new file is already in place, so a failure here
        // (some file systems refuse to sync a directory) is not a failed write.
        const std::string dir = std::filesystem::path(path_).parent_path().string();
        const int dfd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd >= 0) {
            ::fsync(dfd);
            ::close(dfd);
        }
    }

    std::size_t written() const { return written_; }
    std::string hashHex() { return hash_.finishHex(); }

private:
    std::string path_, temp_;
    int fd_ = -1;
    bool committed_ = false;
    std::size_t written_ = 0;
    Sha256 hash_;
};

void checkForWriting(const std::string& path, const NamedTensors& tensors, const std::map<std::string, std::string>& metadata)
{
    std::set<std::string> names;
    for (const auto& [name, t] : tensors) {
        if (!t.defined()) fail(path, "tensor '" + name + "' has no data");
        if (t.device().kind != DeviceKind::CPU) fail(path, "tensor '" + name + "' is not in host memory");
        if (name == "__metadata__") fail(path, "'__metadata__' cannot name a tensor");
        if (!stjson::validUtf8(name)) fail(path, "tensor name '" + name + "' is not valid UTF-8");
        if (!names.insert(name).second) fail(path, "two tensors are named '" + name + "'");
    }
    for (const auto& [key, value] : metadata)
        if (!stjson::validUtf8(key) || !stjson::validUtf8(value)) fail(path, "metadata '" + key + "' is not valid UTF-8");
}

// ---- reading --------------------------------------------------------------------------

struct Entry {
    std::string name;
    DType dtype;
    std::vector<std::int64_t> dims;
    std::uint64_t begin = 0, end = 0;
};

// Validates the parsed header; every message says where in the file the problem is.
class HeaderReader {
public:
    HeaderReader(const std::string& path, std::size_t headerAt) : path_(path), at_(headerAt) {}

    [[noreturn]] void failAt(const stjson::Value& v, const std::string& what) const
    {
        fail(path_, "header: " + what + " at byte " + std::to_string(at_ + v.begin));
    }

    std::uint64_t wholeNumber(const stjson::Value& v, const std::string& what) const
    {
        const bool digitsOnly = v.kind == stjson::Value::Kind::Number && !v.text.empty() &&
                                std::all_of(v.text.begin(), v.text.end(), [](char c) { return c >= '0' && c <= '9'; });
        if (!digitsOnly) failAt(v, what + ": expected a whole number >= 0, got " + (v.kind == stjson::Value::Kind::Number ? v.text : stjson::describe(v.kind)));
        std::uint64_t n = 0;
        for (char c : v.text)
            if (__builtin_mul_overflow(n, 10u, &n) || __builtin_add_overflow(n, std::uint64_t(c - '0'), &n) || n > INT64_MAX)
                failAt(v, what + ": " + v.text + " is too large");
        return n;
    }

    const stjson::Value& field(const stjson::Value& obj, const std::string& key, stjson::Value::Kind kind,
                               const std::string& owner) const
    {
        for (const auto& [k, v] : obj.fields)
            if (k == key) {
                if (v.kind != kind) failAt(v, owner + ": " + key + ": expected " + stjson::describe(kind) + ", got " + stjson::describe(v.kind));
                return v;
            }
        failAt(obj, owner + ": no \"" + key + "\"");
    }

    Entry tensor(const std::string& name, const stjson::Value& v) const
    {
        const std::string owner = "tensor '" + name + "'";
        if (v.kind != stjson::Value::Kind::Object) failAt(v, owner + ": expected an object, got " + stjson::describe(v.kind));
        Entry e;
        e.name = name;
        const stjson::Value& dt = field(v, "dtype", stjson::Value::Kind::String, owner);
        const std::optional<DType> dtype = stDType(dt.text);
        if (!dtype) failAt(dt, owner + ": dtype '" + dt.text + "' is not supported (TrainStudio reads F32, F16, BF16, I32, I64, U8)");
        e.dtype = *dtype;
        for (const stjson::Value& d : field(v, "shape", stjson::Value::Kind::Array, owner).items)
            e.dims.push_back(static_cast<std::int64_t>(wholeNumber(d, owner + ": shape")));
        const stjson::Value& off = field(v, "data_offsets", stjson::Value::Kind::Array, owner);
        if (off.items.size() != 2) failAt(off, owner + ": data_offsets must be [begin, end]");
        e.begin = wholeNumber(off.items[0], owner + ": data_offsets");
        e.end = wholeNumber(off.items[1], owner + ": data_offsets");
        if (e.end < e.begin) failAt(off, owner + ": data_offsets " + offsets(e) + " end before they begin");
        // The byte count the shape needs, refusing overflow rather than wrapping to a match.
        std::uint64_t need = dtypeSize(e.dtype);
        for (std::int64_t d : e.dims)
            if (__builtin_mul_overflow(need, std::uint64_t(d), &need)) failAt(v, owner + ": shape " + shapeText(e.dims) + " is too large");
        if (need != e.end - e.begin)
            failAt(off, owner + ": " + stName(e.dtype) + " " + shapeText(e.dims) + " is " + grouped(need) + " bytes, its data_offsets " +
                            offsets(e) + " hold " + grouped(e.end - e.begin));
        return e;
    }

    std::map<std::string, std::string> metadata(const stjson::Value& v) const
    {
        if (v.kind != stjson::Value::Kind::Object) failAt(v, std::string("__metadata__: expected an object, got ") + stjson::describe(v.kind));
        std::map<std::string, std::string> out;
        for (const auto& [k, value] : v.fields) {
            if (value.kind != stjson::Value::Kind::String)
                failAt(value, "__metadata__: '" + k + "': expected a string, got " + stjson::describe(value.kind));
            out[k] = value.text;
        }
        return out;
    }

    static std::string offsets(const Entry& e)
    {
        std::string s = "[";  // appended piecewise: GCC 12 warns falsely about "[" + std::string
        s += std::to_string(e.begin);
        s += ", ";
        s += std::to_string(e.end);
        return s += ']';
    }

private:
    const std::string& path_;
    std::size_t at_;
};

// ts_header_sha256: the hash of the header bytes with its own value replaced by zeros.
void checkHeaderHash(const std::string& path, std::string header, const stjson::Value& value)
{
    const bool wellFormed = value.end - value.begin == 66 && value.text.size() == 64 &&
                            std::all_of(value.text.begin(), value.text.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
    if (!wellFormed) fail(path, std::string("header checksum mismatch: ") + kHeaderHashKey + " is not a SHA-256");
    header.replace(value.begin + 1, 64, 64, '0');
    if (sha256Hex(header.data(), header.size()) != value.text)
        fail(path, std::string("header checksum mismatch (") + kHeaderHashKey + "): the header was changed or damaged");
}

}  // namespace

std::size_t writeSafetensors(const std::string& path, const NamedTensors& tensors,
                             const std::map<std::string, std::string>& metadata, std::string* fileSha256)
{
    checkForWriting(path, tensors, metadata);
    Sha256 data;
    for (const auto& [name, t] : tensors) data.update(t.raw(), t.bytes());

    std::map<std::string, std::string> meta = metadata;
    meta[kDataHashKey] = data.finishHex();
    meta[kHeaderHashKey] = std::string(64, '0');  // a placeholder: the hash covers the header itself
    std::string header = "{\"__metadata__\":{";
    std::size_t hashAt = 0;
    for (const auto& [key, value] : meta) {
        if (header.back() != '{') header += ',';
        header += stjson::quote(key) + ':';
        if (key == kHeaderHashKey) hashAt = header.size() + 1;
        header += stjson::quote(value);
    }
    header += '}';
    std::uint64_t offset = 0;
    for (const auto& [name, t] : tensors) {
        header += ',';
        header += stjson::quote(name);
        header += ":{\"dtype\":\"";
        header += stName(t.dtype());
        header += "\",\"shape\":[";
        for (int d = 0; d < t.shape().rank(); ++d) header.append(d ? "," : "").append(std::to_string(t.shape()[d]));
        header.append("],\"data_offsets\":[").append(std::to_string(offset)).append(",");
        header.append(std::to_string(offset + t.bytes())).append("]}");
        offset += t.bytes();
    }
    header += '}';
    // Spaces up to a multiple of 8, so the data section starts aligned (as the format asks).
    header.append((8 - header.size() % 8) % 8, ' ');
    const std::string headerHash = sha256Hex(header.data(), header.size());
    header.replace(hashAt, 64, headerHash);

    unsigned char length[8];
    for (int i = 0; i < 8; ++i) length[i] = static_cast<unsigned char>(std::uint64_t(header.size()) >> (8 * i));
    AtomicFile file(path);
    file.write(length, 8);
    file.write(header.data(), header.size());
    for (const auto& [name, t] : tensors) file.write(t.raw(), t.bytes());
    file.commit();
    if (fileSha256) *fileSha256 = file.hashHex();
    return file.written();
}

SafetensorsFile readSafetensors(const std::string& path, std::string* fileSha256)
{
    std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
    if (!f) fail(path, "cannot open: " + systemReason());
    struct stat st {};
    if (::fstat(fileno(f.get()), &st) != 0) fail(path, "cannot read: " + systemReason());
    if (!S_ISREG(st.st_mode)) fail(path, "not a regular file");
    const auto size = static_cast<std::uint64_t>(st.st_size);
    Sha256 whole;
    auto readExact = [&](void* dst, std::size_t bytes) {
        if (bytes == 0) return;
        if (std::fread(dst, 1, bytes, f.get()) != bytes) {
            if (std::ferror(f.get())) fail(path, "cannot read: " + systemReason());
            fail(path, "truncated: the file ended while reading it (was it changed meanwhile?)");
        }
        whole.update(dst, bytes);
    };

    if (size < 8) fail(path, "truncated: " + grouped(size) + " bytes, too short for the 8-byte header length");
    unsigned char length[8];
    readExact(length, 8);
    std::uint64_t headerBytes = 0;
    for (int i = 0; i < 8; ++i) headerBytes |= std::uint64_t(length[i]) << (8 * i);
    if (headerBytes > size - 8)
        fail(path, "truncated: " + grouped(size) + " bytes, the header length says " + grouped(headerBytes) + " bytes of header alone");
    if (headerBytes > kMaxHeaderBytes) fail(path, "header: its length " + grouped(headerBytes) + " is over the 100 MB limit");
    std::string header(headerBytes, '\0');
    readExact(header.data(), header.size());

    stjson::Value root;
    try {
        root = stjson::parse(header);
    } catch (const stjson::SyntaxError& e) {
        fail(path, std::string("header: ") + e.what() + " at byte " + std::to_string(8 + e.offset()));
    }
    const HeaderReader h(path, 8);
    if (root.kind != stjson::Value::Kind::Object) h.failAt(root, std::string("expected an object, got ") + stjson::describe(root.kind));

    SafetensorsFile out;
    std::vector<Entry> entries;
    for (const auto& [key, v] : root.fields) {
        if (key != "__metadata__") {
            entries.push_back(h.tensor(key, v));
            continue;
        }
        out.metadata = h.metadata(v);
        for (const auto& [k, value] : v.fields)  // before anything else: it explains a damaged header best
            if (k == kHeaderHashKey) checkHeaderHash(path, header, value);
    }

    // Layout: the tensors tile the data section exactly, with no gap, overlap or tail.
    const std::uint64_t dataBytes = size - 8 - headerBytes;
    std::uint64_t maxEnd = 0;
    for (const Entry& e : entries) maxEnd = std::max(maxEnd, e.end);
    if (maxEnd > dataBytes)
        fail(path, "truncated: " + grouped(size) + " bytes, the header says " + grouped(8 + headerBytes + maxEnd));
    std::stable_sort(entries.begin(), entries.end(),
                     [](const Entry& a, const Entry& b) { return a.begin != b.begin ? a.begin < b.begin : a.end < b.end; });
    std::uint64_t covered = 0;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const Entry& e = entries[i];
        if (e.begin < covered)
            fail(path, "header: tensors '" + entries[i - 1].name + "' " + HeaderReader::offsets(entries[i - 1]) + " and '" + e.name +
                           "' " + HeaderReader::offsets(e) + " overlap");
        if (e.begin > covered)
            fail(path, "header: bytes " + std::to_string(covered) + " to " + std::to_string(e.begin) + " of the data belong to no tensor (before '" +
                           e.name + "')");
        covered = e.end;
    }
    if (covered < dataBytes)
        fail(path, "size: " + grouped(dataBytes - covered) + " bytes after the last tensor belong to no tensor (" + grouped(size) +
                       " bytes, the header says " + grouped(8 + headerBytes + covered) + ")");

    Sha256 data;
    for (const Entry& e : entries) {
        Tensor t = Tensor::empty(Shape(e.dims), e.dtype);
        readExact(t.raw(), t.bytes());
        data.update(t.raw(), t.bytes());
        out.tensors.emplace_back(e.name, std::move(t));
    }
    if (auto it = out.metadata.find(kDataHashKey); it != out.metadata.end() && data.finishHex() != it->second)
        fail(path, std::string("checksum mismatch in the tensor data (") + kDataHashKey + "): the file is damaged");
    if (fileSha256) *fileSha256 = whole.finishHex();
    return out;
}

}  // namespace ts

// Reading and writing safetensors files: the header JSON (nlohmann::ordered_json, which keeps
// the keys in file order), validation, checksums, and the atomic write (io/output_file.h).
#include "io/checkpoint/safetensors.h"

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

#include <nlohmann/json.hpp>

#include "data/data_files.h"
#include "io/output_file.h"
#include "io/checkpoint/sha256.h"
#include "tensor/quote_text.h"

namespace ts {

namespace {

using Json = nlohmann::ordered_json;

constexpr const char* kDataHashKey = "ts_data_sha256";
constexpr const char* kHeaderHashKey = "ts_header_sha256";
// The Python library refuses headers over 100 MB; so do we, before allocating one.
constexpr std::uint64_t kMaxHeaderBytes = 100'000'000;
// Deep enough for any header (three levels); shallow enough that garbage such as "[[[[..."
// is refused before it becomes millions of nested values.
constexpr std::size_t kMaxDepth = 32;

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

// What a JSON value was, for error messages.
const char* describe(Json::value_t type)
{
    switch (type) {
    case Json::value_t::boolean: return "a boolean";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float: return "a number";
    case Json::value_t::string: return "a string";
    case Json::value_t::array: return "a list";
    case Json::value_t::object: return "an object";
    default: return "null";
    }
}

// JSON text must be UTF-8. nlohmann's serializer checks it strictly (no overlong forms,
// surrogates or code points above U+10FFFF), so its verdict is the writer's.
bool validUtf8(const std::string& s)
{
    try {
        (void)Json(s).dump();
        return true;
    } catch (const Json::type_error&) {
        return false;
    }
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

void checkForWriting(const std::string& path, const NamedTensors& tensors, const std::map<std::string, std::string>& metadata)
{
    std::set<std::string> names;
    for (const auto& [name, t] : tensors) {
        if (!t.defined()) fail(path, "tensor '" + name + "' has no data");
        if (t.device().kind != DeviceKind::CPU) fail(path, "tensor '" + name + "' is not in host memory");
        if (name == "__metadata__") fail(path, "'__metadata__' cannot name a tensor");
        if (!validUtf8(name)) fail(path, "tensor name '" + name + "' is not valid UTF-8");
        if (!names.insert(name).second) fail(path, "two tensors are named '" + name + "'");
    }
    for (const auto& [key, value] : metadata)
        if (!validUtf8(key) || !validUtf8(value)) fail(path, "metadata '" + key + "' is not valid UTF-8");
}

// ---- reading --------------------------------------------------------------------------

struct Entry {
    std::string name;
    DType dtype;
    std::vector<std::int64_t> dims;
    std::uint64_t begin = 0, end = 0;
};

// A first pass over the header text, before nlohmann builds its values: it refuses what
// nlohmann's parser would let through, a key twice in one object (the last would win
// silently) and nesting deeper than kMaxDepth. nlohmann hands it a syntax error's last token
// apart from the message, so the message can leave out the file's bytes (they may not be UTF-8).
class StrictJson : public nlohmann::json_sax<Json> {
public:
    std::string error;        // what is wrong, once parsing stopped
    bool syntax = false;      // a syntax error, at byte errorAt of the header
    std::size_t errorAt = 0;

    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t&) override { return true; }
    bool string(string_t&) override { return true; }
    bool binary(binary_t&) override { return true; }
    bool start_object(std::size_t) override { return open(true); }
    bool start_array(std::size_t) override { return open(false); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }

    bool key(string_t& k) override
    {
        Level& level = levels_.back();
        if (!level.keys.insert(k).second) return refuse("duplicate key \"" + clipText(k) + "\"" + (level.name.empty() ? "" : " in " + level.name));
        level.lastKey = k;
        return true;
    }

    bool parse_error(std::size_t position, const std::string& lastToken, const Json::exception& e) override
    {
        // "[json.exception.parse_error.101] parse error at line 1, column 7: syntax error while
        // parsing object - invalid literal; last read: '1#'; expected '}'": the part after the
        // first ": ", without the last read token. position counts the offending byte from 1.
        std::string what = e.what();
        what.erase(0, what.find(": ") + 2);
        const std::string read = "; last read: '" + lastToken + "'";
        if (const std::size_t at = what.find(read); at != std::string::npos) what.erase(at, read.size());
        syntax = true;
        errorAt = position > 0 ? position - 1 : 0;
        return refuse(what);
    }

private:
    struct Level {
        bool object;
        std::set<std::string> keys;
        std::string lastKey;
        std::string name;  // for messages: "\"w\"" inside the tensor w's object, "" at the top
    };

    bool open(bool object)
    {
        if (levels_.size() >= kMaxDepth) return refuse("nested too deeply");
        std::string name;
        if (!levels_.empty()) name = levels_.back().object ? "\"" + clipText(levels_.back().lastKey) + "\"" : levels_.back().name;
        levels_.push_back(Level{object, {}, {}, std::move(name)});
        return true;
    }
    bool close()
    {
        levels_.pop_back();
        return true;
    }
    bool refuse(std::string what)
    {
        error = std::move(what);
        return false;
    }

    std::vector<Level> levels_;
};

// Validates the parsed header; every message names the tensor or metadata key and the field.
class HeaderReader {
public:
    explicit HeaderReader(const std::string& path) : path_(path) {}

    [[noreturn]] void failHeader(const std::string& what) const { fail(path_, "header: " + what); }

    std::uint64_t wholeNumber(const Json& v, const std::string& what) const
    {
        // nlohmann reads plain digits as unsigned, a leading '-' as signed (-0 too), and a
        // fraction, an exponent or more digits than 64 bits hold as a double.
        if (v.is_number_unsigned()) {
            const auto n = v.get<std::uint64_t>();
            if (n > std::uint64_t(INT64_MAX)) failHeader(what + ": " + v.dump() + " is too large");
            return n;
        }
        if (v.is_number_float() && v.get<double>() >= 0x1p63) failHeader(what + ": " + v.dump() + " is too large");
        const bool minusZero = v.type() == Json::value_t::number_integer && v.get<std::int64_t>() == 0;  // dumps as "0"
        const std::string got = minusZero ? "-0" : v.is_number() ? v.dump() : describe(v.type());
        failHeader(what + ": expected a whole number >= 0, got " + got);
    }

    const Json& field(const Json& obj, const std::string& key, Json::value_t kind, const std::string& owner) const
    {
        const auto it = obj.find(key);
        if (it == obj.end()) failHeader(owner + ": no \"" + key + "\"");
        if (it->type() != kind) failHeader(owner + ": " + key + ": expected " + describe(kind) + ", got " + describe(it->type()));
        return *it;
    }

    Entry tensor(const std::string& name, const Json& v) const
    {
        const std::string owner = "tensor " + quoteText(name);
        if (!v.is_object()) failHeader(owner + ": expected an object, got " + describe(v.type()));
        Entry e;
        e.name = name;
        const auto& dt = field(v, "dtype", Json::value_t::string, owner).get_ref<const std::string&>();
        const std::optional<DType> dtype = stDType(dt);
        if (!dtype) failHeader(owner + ": dtype " + quoteText(dt) + " is not supported (TrainStudio reads F32, F16, BF16, I32, I64, U8)");
        e.dtype = *dtype;
        for (const Json& d : field(v, "shape", Json::value_t::array, owner))
            e.dims.push_back(static_cast<std::int64_t>(wholeNumber(d, owner + ": shape")));
        const Json& off = field(v, "data_offsets", Json::value_t::array, owner);
        if (off.size() != 2) failHeader(owner + ": data_offsets must be [begin, end]");
        e.begin = wholeNumber(off[0], owner + ": data_offsets");
        e.end = wholeNumber(off[1], owner + ": data_offsets");
        if (e.end < e.begin) failHeader(owner + ": data_offsets " + offsets(e) + " end before they begin");
        // The byte count the shape needs, refusing overflow rather than wrapping to a match.
        std::uint64_t need = dtypeSize(e.dtype);
        for (std::int64_t d : e.dims)
            if (__builtin_mul_overflow(need, std::uint64_t(d), &need)) failHeader(owner + ": shape " + shapeText(e.dims) + " is too large");
        if (need != e.end - e.begin)
            failHeader(owner + ": " + stName(e.dtype) + " " + shapeText(e.dims) + " is " + grouped(need) + " bytes, its data_offsets " +
                       offsets(e) + " hold " + grouped(e.end - e.begin));
        return e;
    }

    std::map<std::string, std::string> metadata(const Json& v) const
    {
        if (!v.is_object()) failHeader(std::string("__metadata__: expected an object, got ") + describe(v.type()));
        std::map<std::string, std::string> out;
        for (const auto& [k, value] : v.items()) {
            if (!value.is_string()) failHeader("__metadata__: " + quoteText(k) + ": expected a string, got " + describe(value.type()));
            out[k] = value.get<std::string>();
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
};

// ts_header_sha256: the hash of the header's bytes with its own value written as 64 '0's. The
// bytes are those in the file, not nlohmann's rewriting of them, so the check does not depend
// on how a writer escaped strings (the hand-written one before nlohmann wrote \b and \f as
// \u0008 and \u000c) or on a later nlohmann's output. The writer puts the key in exactly this
// form, once; a match before it would need a metadata key ending in "ts_header_sha256 whose
// value is the hash of the very header that holds it.
void checkHeaderHash(const std::string& path, std::string header, const Json& value)
{
    const std::string* hex = value.get_ptr<const std::string*>();
    const bool wellFormed = hex && hex->size() == 64 &&
                            std::all_of(hex->begin(), hex->end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
    if (!wellFormed) fail(path, std::string("header checksum mismatch: ") + kHeaderHashKey + " is not a SHA-256");
    const std::string written = std::string("\"") + kHeaderHashKey + "\":\"";
    const std::size_t at = header.find(written + *hex + '"');
    if (at == std::string::npos)
        fail(path, std::string("header checksum mismatch (") + kHeaderHashKey + "): it is not written as TrainStudio writes it");
    header.replace(at + written.size(), 64, 64, '0');
    if (sha256Hex(header.data(), header.size()) != *hex)
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
    // __metadata__ first, its keys sorted (std::map), then the tensors in the order given.
    Json json = Json::object();
    json["__metadata__"] = meta;
    std::uint64_t offset = 0;
    for (const auto& [name, t] : tensors) {
        Json shape = Json::array();
        for (int d = 0; d < t.shape().rank(); ++d) shape.push_back(t.shape()[d]);
        json[name] = {{"dtype", stName(t.dtype())}, {"shape", std::move(shape)}, {"data_offsets", {offset, offset + t.bytes()}}};
        offset += t.bytes();
    }
    // Compact JSON and spaces up to a multiple of 8, so the data section starts aligned (as the
    // format asks). The real hash has as many digits as the placeholder: the text keeps its length.
    const auto text = [&json] {
        std::string s = json.dump();
        return s.append((8 - s.size() % 8) % 8, ' ');
    };
    std::string header = text();
    json["__metadata__"][kHeaderHashKey] = sha256Hex(header.data(), header.size());
    header = text();

    unsigned char length[8];
    for (int i = 0; i < 8; ++i) length[i] = static_cast<unsigned char>(std::uint64_t(header.size()) >> (8 * i));
    Sha256 hash;
    try {
        AtomicFile file(path, 8 + header.size() + offset);
        const auto write = [&](const void* data, std::size_t bytes) {
            hash.update(data, bytes);
            file.write(data, bytes);
        };
        write(length, 8);
        write(header.data(), header.size());
        for (const auto& [name, t] : tensors) write(t.raw(), t.bytes());
        file.commit();
        if (fileSha256) *fileSha256 = hash.finishHex();
        return std::size_t(file.written());
    } catch (const OutputFileError& e) {  // a full disk, a read-only folder: the old file is kept
        throw CheckpointError(e.what());
    }
}

SafetensorsFile readSafetensors(const std::string& path, std::string* fileSha256)
{
    // A folder or a FIFO is named as such before the open (which would wait on a FIFO forever).
    if (struct stat kind {}; ::stat(path.c_str(), &kind) == 0 && !S_ISREG(kind.st_mode)) fail(path, whyNotAFile(path));
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
    // The length is followed by the JSON header, which starts with '{'. Another kind of file (a
    // link to the wrong file, an ONNX model, a zip) fails that, and its first bytes read as a
    // length are nonsense: it is named as not a safetensors file, not as truncated.
    if (size > 8) {
        const int first = std::fgetc(f.get());
        if (first == EOF || std::ungetc(first, f.get()) == EOF) fail(path, "cannot read: " + systemReason());
        // Other JSON (whitespace first, a list) is a header too when its length fits: its own
        // checks then say what is wrong with it.
        const bool json = first == ' ' || first == '\t' || first == '\n' || first == '\r' || first == '[';
        if (first != '{' && !(json && headerBytes <= size - 8)) {
            std::error_code ec;
            const std::string link = std::filesystem::is_symlink(path, ec)
                                         ? "; the path is a link to " + quoteText(std::filesystem::read_symlink(path, ec).string())
                                         : std::string();
            fail(path, "not a safetensors file (one starts with the 8-byte length of its header, then the header's '{'; this one "
                       "starts " + quoteText(std::string(reinterpret_cast<const char*>(length), 8) + char(first)) + ")" + link);
        }
    }
    if (headerBytes > size - 8)
        fail(path, "truncated: " + grouped(size) + " bytes, the header length says " + grouped(headerBytes) + " bytes of header alone");
    if (headerBytes > kMaxHeaderBytes) fail(path, "header: its length " + grouped(headerBytes) + " is over the 100 MB limit");
    std::string header(headerBytes, '\0');
    readExact(header.data(), header.size());

    // nlohmann's lexer takes a zero byte for the end of the text (as in a C string) and would
    // ignore what follows; JSON allows none anywhere (in a string it must be escaped).
    if (const std::size_t zero = header.find('\0'); zero != std::string::npos)
        fail(path, "header: a zero byte, which JSON does not allow, at byte " + std::to_string(8 + zero));
    StrictJson strict;
    if (!Json::sax_parse(header, &strict))
        fail(path, "header: " + strict.error + (strict.syntax ? " at byte " + std::to_string(8 + strict.errorAt) : std::string()));
    const Json root = Json::parse(header);  // cannot fail now: the same parser accepted the same text
    const HeaderReader h(path);
    if (!root.is_object()) h.failHeader(std::string("expected an object, got ") + describe(root.type()));

    SafetensorsFile out;
    std::vector<Entry> entries;
    for (const auto& [key, v] : root.items()) {
        if (key != "__metadata__") {
            entries.push_back(h.tensor(key, v));
            continue;
        }
        out.metadata = h.metadata(v);
        if (const auto hash = v.find(kHeaderHashKey); hash != v.end())  // now: it explains a damaged header best
            checkHeaderHash(path, header, *hash);
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
            fail(path, "header: tensors " + quoteText(entries[i - 1].name) + " " + HeaderReader::offsets(entries[i - 1]) + " and " +
                           quoteText(e.name) + " " + HeaderReader::offsets(e) + " overlap");
        if (e.begin > covered)
            fail(path, "header: bytes " + std::to_string(covered) + " to " + std::to_string(e.begin) + " of the data belong to no tensor (before " +
                           quoteText(e.name) + ")");
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

// Internal to engine/io: the little JSON that a safetensors header needs. A strict parser
// (RFC 8259: no comments, no trailing commas, valid UTF-8) that remembers where every value
// sits, so errors can say "at byte 57" and the header checksum can find its own value; and
// string quoting for the writer. Numbers are kept as written: the caller decides what fits.
#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ts::stjson {

struct Value {
    enum class Kind { Null, Bool, Number, String, Array, Object } kind = Kind::Null;
    std::string text;  // String: decoded; Number: as written; Bool: "true" or "false"
    struct Field;                  // {first: key, second: value}; not std::pair, which clang cannot
                                   // instantiate for an incomplete Value under C++20 (libstdc++ 12)
    std::vector<Value> items;      // Array
    std::vector<Field> fields;     // Object, in text order, keys unique
    std::size_t begin = 0, end = 0;  // byte range in the parsed text
};

struct Value::Field {
    std::string first;
    Value second;
};

// A syntax error `offset` bytes into the text.
class SyntaxError : public std::runtime_error {
public:
    SyntaxError(const std::string& what, std::size_t offset) : std::runtime_error(what), offset_(offset) {}
    std::size_t offset() const { return offset_; }

private:
    std::size_t offset_;
};

// One value, then nothing but whitespace. Throws SyntaxError.
Value parse(std::string_view text);

// JSON text must be UTF-8: the writer refuses names and metadata that are not.
bool validUtf8(std::string_view s);

// `s` as a JSON string literal, quotes included (UTF-8 is passed through).
std::string quote(std::string_view s);

// "a string", "a number", ...: what a value was, for error messages.
const char* describe(Value::Kind kind);

}  // namespace ts::stjson

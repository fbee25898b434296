// A recursive-descent JSON parser and string quoting for safetensors headers.
#include "io/safetensors_json.h"

#include <cstdint>

namespace ts::stjson {

namespace {

// Deep enough for any header (three levels); shallow enough that garbage such as
// "[[[[[[..." cannot exhaust the stack.
constexpr int kMaxDepth = 32;

// Length of the valid UTF-8 sequence at s[pos] (a lead byte >= 0x80), or 0 when invalid.
std::size_t utf8Length(std::string_view s, std::size_t pos)
{
    const auto b = [&](std::size_t i) { return pos + i < s.size() ? std::uint8_t(s[pos + i]) : 0; };
    const auto cont = [&](std::size_t i) { return (b(i) & 0xC0) == 0x80; };
    const std::uint8_t c = b(0);
    if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
    if (c >= 0xE0 && c <= 0xEF) {
        if (!cont(1) || !cont(2)) return 0;
        if (c == 0xE0 && b(1) < 0xA0) return 0;   // overlong
        if (c == 0xED && b(1) >= 0xA0) return 0;  // a UTF-16 surrogate
        return 3;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        if (!cont(1) || !cont(2) || !cont(3)) return 0;
        if (c == 0xF0 && b(1) < 0x90) return 0;   // overlong
        if (c == 0xF4 && b(1) >= 0x90) return 0;  // above U+10FFFF
        return 4;
    }
    return 0;
}

class Parser {
public:
    explicit Parser(std::string_view text) : s_(text) {}

    Value document()
    {
        Value v = value(0);
        skipSpace();
        if (pos_ != s_.size()) fail("unexpected text after the end of the JSON value");
        return v;
    }

private:
    [[noreturn]] void fail(const std::string& what) const { throw SyntaxError(what, pos_); }
    bool atEnd() const { return pos_ >= s_.size(); }
    char peek() const { return atEnd() ? '\0' : s_[pos_]; }

    void skipSpace()
    {
        while (!atEnd() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r')) ++pos_;
    }
    void expect(char c, const char* what)
    {
        skipSpace();
        if (peek() != c) fail(std::string("expected ") + what + (atEnd() ? ", found the end" : ""));
        ++pos_;
    }

    Value value(int depth)
    {
        skipSpace();
        if (atEnd()) fail("expected a value, found the end");
        if (depth > kMaxDepth) fail("nested too deeply");
        Value v;
        v.begin = pos_;
        switch (peek()) {
        case '{': object(v, depth); break;
        case '[': array(v, depth); break;
        case '"': v.kind = Value::Kind::String, v.text = string(); break;
        case 't': literal("true"), v.kind = Value::Kind::Bool, v.text = "true"; break;
        case 'f': literal("false"), v.kind = Value::Kind::Bool, v.text = "false"; break;
        case 'n': literal("null"); break;
        default:
            if (peek() == '-' || (peek() >= '0' && peek() <= '9')) {
                v.kind = Value::Kind::Number, v.text = number();
                break;
            }
            fail("expected a value");
        }
        v.end = pos_;
        return v;
    }

    void literal(std::string_view word)
    {
        if (s_.substr(pos_, word.size()) != word) fail("expected a value");
        pos_ += word.size();
    }

    void object(Value& v, int depth)
    {
        v.kind = Value::Kind::Object;
        ++pos_;  // '{'
        skipSpace();
        if (peek() == '}') return void(++pos_);
        for (;;) {
            skipSpace();
            if (peek() != '"') fail("expected '\"' (a key)");
            const std::size_t keyAt = pos_;
            std::string key = string();
            for (const auto& f : v.fields)
                if (f.first == key) throw SyntaxError("duplicate key \"" + key + "\"", keyAt);
            expect(':', "':'");
            v.fields.push_back(Value::Field{std::move(key), value(depth + 1)});
            skipSpace();
            if (peek() == ',') {
                ++pos_;
                continue;
            }
            if (peek() == '}') return void(++pos_);
            fail(atEnd() ? "expected ',' or '}', found the end" : "expected ',' or '}'");
        }
    }

    void array(Value& v, int depth)
    {
        v.kind = Value::Kind::Array;
        ++pos_;  // '['
        skipSpace();
        if (peek() == ']') return void(++pos_);
        for (;;) {
            v.items.push_back(value(depth + 1));
            skipSpace();
            if (peek() == ',') {
                ++pos_;
                continue;
            }
            if (peek() == ']') return void(++pos_);
            fail(atEnd() ? "expected ',' or ']', found the end" : "expected ',' or ']'");
        }
    }

    std::string number()
    {
        const std::size_t start = pos_;
        auto digits = [&] {
            const std::size_t from = pos_;
            while (!atEnd() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_;
            return pos_ - from;
        };
        if (peek() == '-') ++pos_;
        if (peek() == '0') ++pos_;  // no leading zeros
        else if (digits() == 0) fail("invalid number");
        if (peek() == '.') {
            ++pos_;
            if (digits() == 0) fail("invalid number");
        }
        if (peek() == 'e' || peek() == 'E') {
            ++pos_;
            if (peek() == '+' || peek() == '-') ++pos_;
            if (digits() == 0) fail("invalid number");
        }
        return std::string(s_.substr(start, pos_ - start));
    }

    unsigned hex4()
    {
        unsigned v = 0;
        for (int i = 0; i < 4; ++i, ++pos_) {
            const char c = peek();
            v <<= 4;
            if (c >= '0' && c <= '9') v |= unsigned(c - '0');
            else if (c >= 'a' && c <= 'f') v |= unsigned(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F') v |= unsigned(c - 'A' + 10);
            else fail("invalid \\u escape");
        }
        return v;
    }

    static void appendUtf8(std::string& out, unsigned cp)
    {
        if (cp < 0x80) {
            out += char(cp);
        } else if (cp < 0x800) {
            out += char(0xC0 | (cp >> 6)), out += char(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out += char(0xE0 | (cp >> 12)), out += char(0x80 | ((cp >> 6) & 0x3F)), out += char(0x80 | (cp & 0x3F));
        } else {
            out += char(0xF0 | (cp >> 18)), out += char(0x80 | ((cp >> 12) & 0x3F));
            out += char(0x80 | ((cp >> 6) & 0x3F)), out += char(0x80 | (cp & 0x3F));
        }
    }

    std::string string()
    {
        ++pos_;  // '"'
        std::string out;
        for (;;) {
            if (atEnd()) fail("unterminated string");
            const auto c = std::uint8_t(s_[pos_]);
            if (c == '"') {
                ++pos_;
                return out;
            }
            if (c < 0x20) fail("control character in a string");
            if (c >= 0x80) {
                const std::size_t n = utf8Length(s_, pos_);
                if (n == 0) fail("invalid UTF-8 in a string");
                out.append(s_.substr(pos_, n));
                pos_ += n;
                continue;
            }
            if (c != '\\') {
                out += char(c), ++pos_;
                continue;
            }
            ++pos_;
            switch (peek()) {
            case '"': out += '"'; break;
            case '\\': out += '\\'; break;
            case '/': out += '/'; break;
            case 'b': out += '\b'; break;
            case 'f': out += '\f'; break;
            case 'n': out += '\n'; break;
            case 'r': out += '\r'; break;
            case 't': out += '\t'; break;
            case 'u': {
                ++pos_;
                unsigned cp = hex4();
                if (cp >= 0xD800 && cp <= 0xDBFF) {  // a surrogate pair: two escapes, one code point
                    if (s_.substr(pos_, 2) != "\\u") fail("unpaired surrogate in \\u escape");
                    pos_ += 2;
                    const unsigned low = hex4();
                    if (low < 0xDC00 || low > 0xDFFF) fail("unpaired surrogate in \\u escape");
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                    fail("unpaired surrogate in \\u escape");
                }
                appendUtf8(out, cp);
                continue;  // hex4 moved past the digits
            }
            default: fail("invalid escape in a string");
            }
            ++pos_;
        }
    }

    std::string_view s_;
    std::size_t pos_ = 0;
};

}  // namespace

Value parse(std::string_view text) { return Parser(text).document(); }

bool validUtf8(std::string_view s)
{
    for (std::size_t i = 0; i < s.size();) {
        if (std::uint8_t(s[i]) < 0x80) {
            ++i;
            continue;
        }
        const std::size_t n = utf8Length(s, i);
        if (n == 0) return false;
        i += n;
    }
    return true;
}

std::string quote(std::string_view s)
{
    static const char* hex = "0123456789abcdef";
    std::string out = "\"";
    for (const char ch : s) {
        const auto c = std::uint8_t(ch);
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (c < 0x20) out += "\\u00", out += hex[c >> 4], out += hex[c & 15];
            else out += ch;
        }
    }
    return out + "\"";
}

const char* describe(Value::Kind kind)
{
    switch (kind) {
    case Value::Kind::Null: return "null";
    case Value::Kind::Bool: return "a boolean";
    case Value::Kind::Number: return "a number";
    case Value::Kind::String: return "a string";
    case Value::Kind::Array: return "a list";
    case Value::Kind::Object: return "an object";
    }
    return "?";
}

}  // namespace ts::stjson

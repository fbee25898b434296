#include "io/yaml/yaml_write.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

#include "io/yaml/yaml_read.h"

namespace ts::yamlio {

namespace {
constexpr std::size_t kWidth = 120;  // a flow collection longer than this goes to block form

bool looksSpecial(const std::string& s)
{
    static const char* words[] = {"true", "false", "null", "yes", "no", "on", "off", "y", "n", "~"};
    std::string lower;
    for (char c : s) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (const char* w : words)
        if (lower == w) return true;
    return parseNumber(s).has_value() || parseInteger(s).has_value();
}
}  // namespace

std::string yamlString(const std::string& s)
{
    // Plain only for a conservative alphabet that is safe in flow and block context alike.
    bool plain = !s.empty() && !looksSpecial(s) && s.front() != ' ' && s.back() != ' ' &&
                 (std::isalnum(static_cast<unsigned char>(s.front())) || s.front() == '_' || s.front() == '/' || s.front() == '.');
    for (char c : s)
        plain = plain && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' || c == '/' || c == ' ');
    if (plain) return s;
    std::string q = "\"";
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') q += '\\', q += static_cast<char>(c);
        else if (c == '\n') q += "\\n";
        else if (c == '\t') q += "\\t";
        else if (c < 0x20) {
            const char* hex = "0123456789abcdef";
            q += "\\x", q += hex[c >> 4], q += hex[c & 15];
        } else q += static_cast<char>(c);
    }
    return q + "\"";
}

std::string yamlText(const std::string& s)
{
    // Block context allows commas, brackets and most punctuation in plain scalars; what is
    // left ambiguous (a leading indicator, ": ", " #", edges of space) still gets quotes.
    const std::string indicators = "-?:,[]{}#&*!|>'\"%@`";
    bool plain = !s.empty() && !looksSpecial(s) && indicators.find(s.front()) == std::string::npos && s.front() != ' ' &&
                 s.back() != ' ' && s.back() != ':' && s.find(": ") == std::string::npos && s.find(" #") == std::string::npos;
    for (unsigned char c : s) plain = plain && c >= 0x20 && c != 0x7f;
    return plain ? s : yamlString(s);
}

std::string yamlNumber(double x)
{
    if (std::isnan(x)) return ".nan";
    if (std::isinf(x)) return x > 0 ? ".inf" : "-.inf";
    char buf[64];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, x);
    std::string s(buf, end);
    // "1e-05" -> "1e-5": the exponent without padding reads better and parses the same.
    if (auto e = s.find('e'); e != std::string::npos) {
        std::string mant = s.substr(0, e), exp = s.substr(e + 1);
        std::string sign;
        if (!exp.empty() && (exp[0] == '-' || exp[0] == '+')) sign = exp[0] == '-' ? "-" : "", exp.erase(0, 1);
        exp.erase(0, std::min(exp.find_first_not_of('0'), exp.size() - 1));
        return mant + "e" + sign + exp;
    }
    if (s.find('.') == std::string::npos) s += ".0";  // else it would read back as an integer
    return s;
}

std::string yamlInt(std::int64_t x) { return std::to_string(x); }
std::string yamlBool(bool b) { return b ? "true" : "false"; }

namespace {

std::string flow(const Out& o)
{
    if (o.kind == Out::Kind::Scalar) return o.text;
    std::string s = o.kind == Out::Kind::List ? "[" : "{";
    bool first = true;
    if (o.kind == Out::Kind::List)
        for (const auto& i : o.items) s += (first ? "" : ", ") + flow(i), first = false;
    else
        for (const auto& [k, v] : o.fields) s += (first ? "" : ", ") + k + ": " + flow(v), first = false;
    return s + (o.kind == Out::Kind::List ? "]" : "}");
}

bool anyBlock(const Out& o)
{
    if (o.block) return true;
    for (const auto& i : o.items)
        if (anyBlock(i)) return true;
    for (const auto& f : o.fields)
        if (anyBlock(f.second)) return true;
    return false;
}

void block(const Out& o, std::size_t indent, std::string& s);

// `prefix` ("key:" or "-") then the value: on the same line when it fits, else below it.
void entry(const std::string& prefix, const Out& v, std::size_t indent, std::string& s)
{
    const std::string pad(indent, ' ');
    if (v.kind == Out::Kind::Scalar || (!anyBlock(v) && indent + prefix.size() + 1 + flow(v).size() <= kWidth) || v.empty()) {
        s += pad + prefix + " " + flow(v) + "\n";
        return;
    }
    if (prefix == "-" && v.kind == Out::Kind::Map) {
        // "- key: value" with the following keys aligned under the first.
        std::string inner;
        block(v, indent + 2, inner);
        s += pad + "- " + inner.substr(indent + 2);
        return;
    }
    s += pad + prefix + "\n";
    block(v, indent + (v.kind == Out::Kind::List && prefix != "-" ? 2 : 2), s);
}

void block(const Out& o, std::size_t indent, std::string& s)
{
    if (o.kind == Out::Kind::List)
        for (const auto& i : o.items) entry("-", i, indent, s);
    else
        for (const auto& [k, v] : o.fields) entry(k + ":", v, indent, s);
}

}  // namespace

std::string renderFlow(const Out& value) { return flow(value); }

std::string render(const Out& root)
{
    // Top-level sections that span lines stand apart by a blank line, as people write them.
    std::string s;
    bool lastMultiline = false;
    for (const auto& [k, v] : root.fields) {
        std::string one;
        entry(k + ":", v, 0, one);
        const bool multiline = std::count(one.begin(), one.end(), '\n') > 1;
        if (!s.empty() && (multiline || lastMultiline)) s += "\n";
        s += one;
        lastMultiline = multiline;
    }
    return s;
}

}  // namespace ts::yamlio

#include "types/attrs.h"
#include "tensor/quote_text.h"

#include <sstream>
#include <stdexcept>

namespace ts {

std::string attrTypeName(AttrType t)
{
    switch (t) {
    case AttrType::Int: return "an integer";
    case AttrType::Float: return "a number";
    case AttrType::Bool: return "a boolean";
    case AttrType::String: return "a string";
    case AttrType::Ints: return "a list of integers";
    case AttrType::Floats: return "a list of numbers";
    }
    return "?";
}

std::string attrValueString(const AttrValue& v)
{
    // For messages: a string quoted, a list on one line, both bounded (tensor/quote_text.h).
    if (const auto* text = std::get_if<std::string>(&v)) return quoteText(*text);
    std::ostringstream s;
    std::visit(
        [&](const auto& x) {
            using T = std::decay_t<decltype(x)>;
            if constexpr (std::is_same_v<T, bool>) s << (x ? "true" : "false");
            else if constexpr (std::is_same_v<T, std::string>) s << '\'' << x << '\'';
            else if constexpr (std::is_same_v<T, std::int64_t> || std::is_same_v<T, double>) s << x;
            else {
                s << '[';
                for (std::size_t i = 0; i < x.size(); ++i) s << (i ? ", " : "") << x[i];
                s << ']';
            }
        },
        v);
    return clipText(s.str());
}

const AttrValue& Attrs::get(const std::string& name) const
{
    auto it = values_.find(name);
    if (it == values_.end()) throw std::logic_error("attribute " + quoteText(name) + " is not set");
    return it->second;
}

namespace {
template <class T> const T& typed(const Attrs& a, const std::string& name)
{
    const auto* p = std::get_if<T>(&a.get(name));
    if (!p) throw std::logic_error("attribute " + quoteText(name) + " read with the wrong type");
    return *p;
}
}  // namespace

std::int64_t Attrs::getInt(const std::string& n) const { return typed<std::int64_t>(*this, n); }
double Attrs::getFloat(const std::string& n) const { return typed<double>(*this, n); }
bool Attrs::getBool(const std::string& n) const { return typed<bool>(*this, n); }
const std::string& Attrs::getString(const std::string& n) const { return typed<std::string>(*this, n); }
const std::vector<std::int64_t>& Attrs::getInts(const std::string& n) const
{
    return typed<std::vector<std::int64_t>>(*this, n);
}

namespace {

// Coerces v to `spec.type`; returns false when it cannot.
bool coerce(const AttrSpec& spec, AttrValue& v)
{
    switch (spec.type) {
    case AttrType::Int: return std::holds_alternative<std::int64_t>(v);
    case AttrType::Bool: return std::holds_alternative<bool>(v);
    case AttrType::String: return std::holds_alternative<std::string>(v);
    case AttrType::Float:
        if (auto* i = std::get_if<std::int64_t>(&v)) v = static_cast<double>(*i);
        return std::holds_alternative<double>(v);
    case AttrType::Ints:
        if (auto* i = std::get_if<std::int64_t>(&v))
            v = std::vector<std::int64_t>(static_cast<std::size_t>(spec.listLength > 0 ? spec.listLength : 1), *i);
        return std::holds_alternative<std::vector<std::int64_t>>(v);
    case AttrType::Floats:
        if (auto* i = std::get_if<std::int64_t>(&v)) v = static_cast<double>(*i);
        if (auto* d = std::get_if<double>(&v))
            v = std::vector<double>(static_cast<std::size_t>(spec.listLength > 0 ? spec.listLength : 1), *d);
        if (auto* is = std::get_if<std::vector<std::int64_t>>(&v)) v = std::vector<double>(is->begin(), is->end());
        return std::holds_alternative<std::vector<double>>(v);
    }
    return false;
}

std::size_t listSize(const AttrValue& v)
{
    if (auto* is = std::get_if<std::vector<std::int64_t>>(&v)) return is->size();
    if (auto* ds = std::get_if<std::vector<double>>(&v)) return ds->size();
    return 0;
}

}  // namespace

std::string normaliseAttrs(const std::vector<AttrSpec>& specs, const Attrs& given, Attrs& out)
{
    out = Attrs();
    for (const auto& [name, value] : given.values()) {
        bool known = false;
        for (const auto& s : specs) known = known || s.name == name;
        if (!known) {
            std::string names;
            for (const auto& s : specs) names += (names.empty() ? "" : ", ") + s.name;
            return "unknown attribute " + quoteText(name) + (names.empty() ? " (this op takes none)" : " (expected one of: " + names + ")");
        }
    }
    for (const auto& spec : specs) {
        AttrValue v;
        if (given.has(spec.name)) v = given.get(spec.name);
        else if (spec.defaultValue) v = *spec.defaultValue;
        else return "missing required attribute " + quoteText(spec.name);
        if (!coerce(spec, v))
            return "attribute " + quoteText(spec.name) + " must be " + attrTypeName(spec.type) + ", got " + attrValueString(v);
        if (spec.listLength > 0 && (spec.type == AttrType::Ints || spec.type == AttrType::Floats) &&
            listSize(v) != static_cast<std::size_t>(spec.listLength))
            return "attribute " + quoteText(spec.name) + " must have " + std::to_string(spec.listLength) + " values, got " +
                   attrValueString(v);
        if (!spec.choices.empty()) {
            const auto& str = std::get<std::string>(v);
            bool ok = false;
            std::string list;
            for (const auto& c : spec.choices) {
                ok = ok || c == str;
                list += (list.empty() ? "'" : ", '") + c + "'";
            }
            if (!ok) return "attribute " + quoteText(spec.name) + " is " + quoteText(str) + ", expected one of " + list;
        }
        if (spec.check) {
            std::string err = spec.check(v);
            if (!err.empty()) return "attribute " + quoteText(spec.name) + " " + err + ", got " + attrValueString(v);
        }
        out.set(spec.name, std::move(v));
    }
    return {};
}

namespace {
// Every number in v (a scalar or a list).
std::vector<double> numbers(const AttrValue& v)
{
    if (auto* i = std::get_if<std::int64_t>(&v)) return {static_cast<double>(*i)};
    if (auto* d = std::get_if<double>(&v)) return {*d};
    if (auto* is = std::get_if<std::vector<std::int64_t>>(&v)) return {is->begin(), is->end()};
    if (auto* ds = std::get_if<std::vector<double>>(&v)) return *ds;
    return {};
}
std::string fmt(double x)
{
    std::ostringstream s;
    s << x;
    return s.str();
}
}  // namespace

std::function<std::string(const AttrValue&)> atLeast(double minimum)
{
    return [minimum](const AttrValue& v) -> std::string {
        for (double x : numbers(v))
            if (!(x >= minimum)) return "must be >= " + fmt(minimum);
        return {};
    };
}

std::function<std::string(const AttrValue&)> inRange(double lo, double hi, bool hiInclusive)
{
    return [=](const AttrValue& v) -> std::string {
        for (double x : numbers(v))
            if (!(x >= lo && (hiInclusive ? x <= hi : x < hi)))
                return "must be in [" + fmt(lo) + ", " + fmt(hi) + (hiInclusive ? "]" : ")");
        return {};
    };
}

}  // namespace ts

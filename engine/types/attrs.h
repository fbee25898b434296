// Node attributes: a small typed map, and the schema an op declares for it.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace ts {

using AttrValue = std::variant<std::int64_t, double, bool, std::string, std::vector<std::int64_t>, std::vector<double>>;

enum class AttrType : std::uint8_t { Int, Float, Bool, String, Ints, Floats };
std::string attrTypeName(AttrType t);
// "512", "0.1", "true", "'relu'", "[3, 3]"
std::string attrValueString(const AttrValue& v);

class Attrs {
public:
    Attrs() = default;
    Attrs(std::initializer_list<std::pair<const std::string, AttrValue>> init) : values_(init) {}

    bool has(const std::string& name) const { return values_.count(name) != 0; }
    void set(const std::string& name, AttrValue v) { values_[name] = std::move(v); }
    const AttrValue& get(const std::string& name) const;
    // Typed reads of a normalised attribute (after AttrSpec::normalise). Throw std::logic_error
    // when the attribute is missing or has another type: that is a bug, not user input.
    std::int64_t getInt(const std::string& name) const;
    double getFloat(const std::string& name) const;
    bool getBool(const std::string& name) const;
    const std::string& getString(const std::string& name) const;
    const std::vector<std::int64_t>& getInts(const std::string& name) const;
    const std::map<std::string, AttrValue>& values() const { return values_; }
    bool operator==(const Attrs&) const = default;

private:
    std::map<std::string, AttrValue> values_;
};

// One attribute an op accepts. `check` returns an error text (empty when fine) for a value
// already coerced to `type`.
struct AttrSpec {
    std::string name;
    AttrType type = AttrType::Int;
    std::optional<AttrValue> defaultValue;  // nullopt: required
    std::function<std::string(const AttrValue&)> check;
    int listLength = 0;  // Ints/Floats: required length; a single number is repeated to it
    std::vector<std::string> choices;  // String: allowed values
    // What it does and how to set it, in English, marked for translation where it is written
    // (ops/op_text.h); the studio's tooltips and `trainstudio-cli ops` show it.
    std::string help;

    AttrSpec withHelp(std::string text) const
    {
        AttrSpec s = *this;
        s.help = std::move(text);
        return s;
    }
};

// Checks `given` against `specs`: fills defaults, coerces int->float and n->[n, n], rejects
// unknown names, wrong types and failed checks. Returns the error text ("" when fine) and
// the normalised attributes through `out`.
std::string normaliseAttrs(const std::vector<AttrSpec>& specs, const Attrs& given, Attrs& out);

// Common checks.
std::function<std::string(const AttrValue&)> atLeast(double minimum);
std::function<std::string(const AttrValue&)> inRange(double lo, double hi, bool hiInclusive = false);

}  // namespace ts

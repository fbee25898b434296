// Internal to engine/io: a small YAML document tree and its renderer. yaml-cpp's emitter
// cannot choose per collection between one-line {flow} and block form by width, nor write
// numbers in their shortest form; this does both, so saved files stay short and diff-friendly.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ts::yamlio {

struct Out {
    enum class Kind { Scalar, List, Map } kind = Kind::Map;
    struct Field;                // {first: key, second: value}; not std::pair, which clang cannot
                                 // instantiate for an incomplete Out under C++20 (libstdc++ 12)
    std::string text;            // Scalar: already rendered
    std::vector<Out> items;      // List
    std::vector<Field> fields;   // Map, in order
    bool block = false;  // always block form (else one line when it fits)

    static Out scalar(std::string rendered);
    static Out list();
    static Out map(bool block = false);
    Out& add(std::string key, Out value);
    Out& push(Out value);
    bool empty() const;
};

struct Out::Field {
    std::string first;
    Out second;
};

inline Out Out::scalar(std::string rendered) { return Out{Kind::Scalar, std::move(rendered), {}, {}, false}; }
inline Out Out::list() { return Out{Kind::List, {}, {}, {}, false}; }
inline Out Out::map(bool block) { return Out{Kind::Map, {}, {}, {}, block}; }
inline Out& Out::add(std::string key, Out value)
{
    fields.push_back(Field{std::move(key), std::move(value)});
    return fields.back().second;
}
inline Out& Out::push(Out value)
{
    items.push_back(std::move(value));
    return items.back();
}
inline bool Out::empty() const { return kind == Kind::Map ? fields.empty() : kind == Kind::List ? items.empty() : false; }

// Scalars, rendered so they read back as the same type and value.
std::string yamlString(const std::string& s);  // plain when unambiguous, else double-quoted
std::string yamlText(const std::string& s);    // the same for a value only ever in block context
std::string yamlNumber(double x);               // shortest round-trip form, always with '.' or 'e'
std::string yamlInt(std::int64_t x);
std::string yamlBool(bool b);
template <class T, class F> Out yamlList(const std::vector<T>& values, F render)
{
    Out o = Out::list();
    for (const auto& v : values) o.push(Out::scalar(render(v)));
    return o;
}

// The document for a top-level map (root.kind == Map).
std::string render(const Out& root);
// One value on one line, in flow form whatever its width and `block` flags.
std::string renderFlow(const Out& value);

}  // namespace ts::yamlio

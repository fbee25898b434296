// Internal to engine/io: typed, validated reads from yaml-cpp nodes, each failure an
// ExperimentIssue at the offending value's line:column. The Reader collects them, so one
// pass reports every independent problem of a file; finish() throws them all.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <type_traits>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "graph/suggest.h"
#include "io/yaml/experiment_options.h"
#include "io/yaml/experiment_yaml.h"

namespace ts::yamlio {

struct Pos {
    int line = 0, column = 0;  // 1-based; 0: unknown
    int fromSet = -1;          // the Reader's override the value came from; -1: the file
};
Pos positionOf(const YAML::Node& node);

using ts::didYouMean;  // graph/suggest.h: one "did you mean" rule for graphs and files
std::string joinList(const std::vector<std::string>& items);  // "a, b, c"

// Plain (unquoted) scalars only are numbers and booleans: `seed: "7"` stays a string.
bool isPlainScalar(const YAML::Node& node);
std::optional<std::int64_t> parseInteger(const std::string& text);
std::optional<double> parseNumber(const std::string& text);
// "'ten'", "a list", "a mapping", "nothing": what a value was, for error messages.
std::string describe(const YAML::Node& node);

// A value found under a key: the key's name and both positions (a null value has none of its own).
struct Field {
    std::string key;
    YAML::Node value;
    Pos pos;     // the value's, or the key's when the value is empty
    Pos keyPos;
};

// A mapping whose keys were all checked against the allowed ones.
struct MapView {
    YAML::Node node;
    Pos pos;
    std::vector<Field> fields;  // file order
    const Field* find(const std::string& key) const;
};

// A `--set key=value` grafted onto the tree: the nodes it brought in, and the place in the
// file of what it replaced (or of the section it was added to). Problems with those nodes
// are reported there, naming the argument.
struct Override {
    std::string argument;  // "optimizer.lr=abc"
    Pos filePos;
    std::vector<YAML::Node> nodes;
};

class Reader {
public:
    explicit Reader(std::string source) : source_(std::move(source)) {}
    const std::string& source() const { return source_; }

    // Stops the part being read: the problem is collected by the enclosing attempt().
    [[noreturn]] void fail(Pos at, const std::string& message) const;
    // Collects a problem; reading goes on.
    void report(Pos at, const std::string& message);
    // Runs `part`; a fail() inside it is collected and makes it return false.
    bool attempt(const std::function<void()>& part);
    std::size_t issueCount() const { return issues_.size(); }
    // Throws every collected problem, in file order, as one ExperimentError; returns if none.
    void finish() const;

    void addOverride(Override o) { overrides_.push_back(std::move(o)); }
    // positionOf(node), or for a node an override brought in, that override's place in the file.
    Pos at(const YAML::Node& node) const;

    // `node` must be a mapping (an empty value counts as an empty one) with unique keys, each in
    // `allowed`; `what` names it in messages ("training"), `at` places errors about the whole.
    // Keys that are not allowed are reported and left out; a value that is not a mapping is
    // reported and reads as an empty one.
    MapView map(const YAML::Node& node, const std::string& what, const std::vector<std::string>& allowed, Pos at);

    // Conversions of one field; failures read `key: expected an integer, got 'ten'`.
    std::int64_t integer(const Field& f) const;
    std::uint64_t unsignedInteger(const Field& f) const;
    double number(const Field& f) const;
    bool boolean(const Field& f) const;
    std::string text(const Field& f) const;
    std::vector<std::int64_t> integers(const Field& f) const;
    std::vector<double> numbers(const Field& f) const;
    std::vector<std::string> texts(const Field& f) const;

    // Reads `key` into `out` when present and valid (else reports it and leaves `out`);
    // `check` returns an error text ("" when fine).
    template <class T>
    bool read(const MapView& m, const std::string& key, T& out,
              std::type_identity_t<std::function<std::string(const T&)>> check = {})
    {
        const Field* f = m.find(key);
        if (!f) return false;
        return attempt([&] {
            T v = convert(*f, static_cast<T*>(nullptr));
            if (check)
                if (std::string err = check(v); !err.empty()) fail(f->pos, key + ": " + err + ", got " + describe(f->value));
            out = std::move(v);
        });
    }
    // A string from a fixed set; "optimizer: unknown type 'adamm' (did you mean 'adam'?); valid: ...".
    bool choice(const MapView& m, const std::string& key, std::string& out, const std::vector<std::string>& valid,
                const std::string& noun);

private:
    std::int64_t convert(const Field& f, std::int64_t*) const { return integer(f); }
    std::uint64_t convert(const Field& f, std::uint64_t*) const { return unsignedInteger(f); }
    double convert(const Field& f, double*) const { return number(f); }
    bool convert(const Field& f, bool*) const { return boolean(f); }
    std::string convert(const Field& f, std::string*) const { return text(f); }
    std::vector<std::int64_t> convert(const Field& f, std::vector<std::int64_t>*) const { return integers(f); }
    std::vector<double> convert(const Field& f, std::vector<double>*) const { return numbers(f); }
    std::vector<std::string> convert(const Field& f, std::vector<std::string>*) const { return texts(f); }

    std::string source_;
    std::vector<Override> overrides_;
    std::vector<ExperimentIssue> issues_;
};

// Checks for Reader::read: every number (or every element of a list) must pass.
std::function<std::string(const double&)> greaterThan(double lo);
std::function<std::string(const double&)> between(double lo, double hi, bool hiInclusive);  // [lo, hi) or [lo, hi]
std::function<std::string(const double&)> notNegative();
std::function<std::string(const std::int64_t&)> atLeastInt(std::int64_t lo);

// The table's check (io/experiment_options.h) of list option `o` already read from section `m`,
// reported at the list: `class_weights: every weight must be >= 0`.
template <class T> void checkOptionList(Reader& r, const MapView& m, const ExperimentOption& o, const std::vector<T>& values)
{
    if (const Field* f = m.find(o.name()))
        if (std::string p = optionProblem(o, std::vector<double>(values.begin(), values.end())); !p.empty())
            r.report(f->pos, o.name() + ": " + p);
}

// Reads the table option `o` from its section `m` into `out` when present, checked as the table
// says: range, choices (with a "did you mean"), rule; a list's elements as checkOptionList.
template <class T> bool readOption(Reader& r, const MapView& m, const ExperimentOption& o, T& out)
{
    const std::string key = o.name();
    if constexpr (std::is_same_v<T, bool>) {
        return r.read(m, key, out);
    } else if constexpr (std::is_same_v<T, std::string>) {
        if (o.kind == OptionKind::Choice && !o.noun.empty()) return r.choice(m, key, out, o.choices, o.noun);
        return r.read<std::string>(m, key, out, [&o](const std::string& v) { return optionProblem(o, v); });
    } else if constexpr (std::is_arithmetic_v<T>) {
        return r.read<T>(m, key, out, [&o](const T& v) { return optionProblem(o, static_cast<double>(v)); });
    } else {
        if (!r.read(m, key, out)) return false;
        checkOptionList(r, m, o, out);
        return true;
    }
}

}  // namespace ts::yamlio

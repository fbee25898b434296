// Reads and writes the `sweep:` section (io/sweep_reader.h). The section's own rules (ranges,
// budgets, conditions, halving) are checked here; whether a value suits its option is left to
// the experiment reader itself, by reading the experiment again with the value as a --set.
#include "io/yaml/sweep_reader.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <set>

#include <yaml-cpp/yaml.h>

#include "io/yaml/experiment_yaml.h"
#include "io/yaml/yaml_read.h"
#include "io/yaml/yaml_write.h"
#include "types/run_records.h"
#include "tensor/quote_text.h"

namespace ts {

namespace {
// Numbers and booleans go into a --set plain (so they read as numbers); other text is quoted
// where YAML would read it otherwise.
bool plainValue(const std::string& v) { return yamlio::parseNumber(v).has_value() || v == "true" || v == "false"; }
}  // namespace

std::string sweepOverride(const std::string& key, const std::string& value)
{
    return key + "=" + (plainValue(value) ? value : yamlio::yamlString(value));
}

std::string sweepPoint(double v, bool integer)
{
    if (integer) return std::to_string(std::llround(v));
    char buf[32];
    const auto end = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, 4).ptr;
    return std::string(buf, end);
}

bool sweepValuesEqual(const std::string& a, const std::string& b)
{
    if (a == b) return true;
    const auto x = yamlio::parseNumber(a), y = yamlio::parseNumber(b);
    return x && y && *x == *y;
}

std::string sweepRangePoint(const SweepParameter& p, std::int64_t i)
{
    const bool log = p.distribution == "log_uniform";
    const double a = log ? std::log10(p.low) : p.low, b = log ? std::log10(p.high) : p.high;
    const double t = p.count > 1 ? static_cast<double>(i) / static_cast<double>(p.count - 1) : 0.0;
    const double x = a + t * (b - a);
    double v = log ? std::pow(10.0, x) : x;
    if (p.integer) v = std::clamp(std::round(v), std::ceil(p.low), std::floor(p.high));
    return sweepPoint(v, p.integer);
}

std::int64_t sweepAxisSize(const SweepParameter& p)
{
    if (!p.values.empty()) return static_cast<std::int64_t>(p.values.size());
    if (p.count <= 0) return 0;
    if (p.count > kMaxSweepTrials) return p.count;  // too many to build whatever repeats among them
    std::set<std::string> distinct;  // points may coincide: integers, 4 significant digits
    for (std::int64_t i = 0; i < p.count; ++i) distinct.insert(sweepRangePoint(p, i));
    return static_cast<std::int64_t>(distinct.size());
}

std::optional<std::int64_t> sweepGridSize(const SweepSpec& sweep)
{
    std::int64_t n = 1;
    for (const SweepParameter& p : sweep.parameters)
        if (__builtin_mul_overflow(n, sweepAxisSize(p), &n)) return std::nullopt;
    return sweep.parameters.empty() ? 0 : n;
}

std::string sweepGridTooLarge(const SweepSpec& sweep)
{
    const std::optional<std::int64_t> size = sweepGridSize(sweep);
    if (size && *size <= kMaxSweepTrials) return {};
    std::string axes;
    for (const SweepParameter& p : sweep.parameters)
        axes.append(axes.empty() ? "" : " x ").append(p.key + " " + std::to_string(sweepAxisSize(p)));
    return "the grid has " + (size ? std::to_string(*size) : std::string("more than 9.2e18")) + " points (" + axes +
           "), more than the " + std::to_string(kMaxSweepTrials) +
           " trials a sweep may run: sample it with method: random and budget: N (N trials drawn one at a time from "
           "the same values), or give fewer values or a smaller count";
}

}  // namespace ts

namespace ts::yamlio {

namespace {

const std::vector<std::string> kSweepKeys = {"method", "budget", "seed", "metric", "parameters", "halving"};
const std::vector<std::string> kParameterKeys = {"values", "choices", "uniform", "log_uniform", "count", "integer", "when"};
const std::vector<std::string> kSources = {"values", "choices", "uniform", "log_uniform"};

// Where a parameter's parts are in the file, for the checks that need every parameter read.
struct Marks {
    Pos key;
    std::vector<std::pair<std::string, Pos>> points;  // the values to check as --set, with their place
    std::vector<Pos> when;                             // each condition's key
    bool ok = true;                                    // read without a problem
};

std::string parameterName(const std::string& key) { return "sweep parameter " + key; }


// A mapping whose keys are names of our choosing (option keys): each entry with its places.
std::vector<Field> entries(Reader& r, const YAML::Node& node, const std::string& what, Pos at)
{
    std::vector<Field> out;
    if (!node.IsDefined() || node.IsNull()) return out;
    if (!node.IsMap()) {
        r.report(at, what + ": expected a mapping (key: value lines or {key: value}), got " + describe(node));
        return out;
    }
    std::set<std::string> seen;
    for (auto it = node.begin(); it != node.end(); ++it) {
        const Pos keyPos = r.at(it->first);
        if (!it->first.IsScalar()) {
            r.report(keyPos, what + ": keys must be names");
            continue;
        }
        const std::string key = it->first.Scalar();
        if (!seen.insert(key).second) {
            r.report(keyPos, what + ": key " + quoteText(key) + " is given twice");
            continue;
        }
        const bool empty = !it->second.IsDefined() || it->second.IsNull();
        out.push_back(Field{key, it->second, empty ? keyPos : r.at(it->second), keyPos});
    }
    return out;
}

// A list of plain values (numbers or names), each with its place.
std::vector<std::pair<std::string, Pos>> scalars(const Reader& r, const Field& f, bool allowOne)
{
    std::vector<std::pair<std::string, Pos>> out;
    if (allowOne && f.value.IsScalar()) return {{f.value.Scalar(), f.pos}};
    if (!f.value.IsSequence()) r.fail(f.pos, f.key + ": expected a list of values, got " + describe(f.value));
    if (f.value.size() == 0) r.fail(f.pos, f.key + ": the list is empty: give at least one value");
    for (std::size_t i = 0; i < f.value.size(); ++i) {
        const YAML::Node v = f.value[i];
        const Pos p = r.at(v).line ? r.at(v) : f.pos;
        if (!v.IsScalar()) r.fail(p, f.key + ": expected plain values (numbers or names), got " + describe(v));
        for (const auto& [seen, at] : out)
            if (sweepValuesEqual(seen, v.Scalar())) r.fail(p, f.key + ": " + v.Scalar() + " is given twice");
        out.emplace_back(v.Scalar(), p);
    }
    return out;
}

void readRange(const Reader& r, const Field& f, SweepParameter& p)
{
    const std::vector<double> ends = r.numbers(f);
    if (ends.size() != 2) r.fail(f.pos, f.key + ": expected [min, max], got " + std::to_string(ends.size()) + " numbers");
    const double lo = ends[0], hi = ends[1];
    std::string range = "[";  // piecewise: GCC 12 warns falsely (-Wrestrict) about "literal" + std::string
    range.append(yamlNumber(lo)).append(", ").append(yamlNumber(hi)).append("]");
    if (!std::isfinite(lo) || !std::isfinite(hi)) r.fail(f.pos, f.key + ": the ends must be finite numbers, got " + range);
    if (lo > hi)
        r.fail(f.pos, f.key + ": min " + yamlNumber(lo) + " is greater than max " + yamlNumber(hi) + " (write [" +
                          yamlNumber(hi) + ", " + yamlNumber(lo) + "])");
    if (f.key == "log_uniform" && lo <= 0)
        r.fail(f.pos, "log_uniform: a log range must lie above 0, got " + range +
                          ": start it at a small positive value such as 1e-6, or use uniform");
    p.distribution = f.key;
    p.low = lo;
    p.high = hi;
}

SweepParameter readParameter(Reader& r, const Field& f, Marks& marks)
{
    SweepParameter p;
    p.key = f.key;
    marks.key = f.keyPos;
    const std::size_t before = r.issueCount();
    if (f.value.IsSequence()) {  // the short form: a plain list of values
        r.attempt([&] {
            for (auto& [v, at] : scalars(r, Field{"values", f.value, f.pos, f.keyPos}, false)) {
                p.values.push_back(v);
                marks.points.emplace_back(v, at);
            }
        });
        marks.ok = r.issueCount() == before;
        return p;
    }
    const MapView m = r.map(f.value, parameterName(f.key), kParameterKeys, f.pos);
    std::vector<const Field*> sources;
    for (const std::string& k : kSources)
        if (const Field* s = m.find(k)) sources.push_back(s);
    if (sources.size() != 1) {
        r.report(sources.empty() ? f.keyPos : sources[1]->keyPos,
                 parameterName(f.key) + ": give " + (sources.empty() ? "one" : "only one") +
                     " of values, choices, uniform or log_uniform");
    } else if (sources[0]->key == "values" || sources[0]->key == "choices") {
        r.attempt([&] {
            for (auto& [v, at] : scalars(r, *sources[0], false)) {
                p.values.push_back(v);
                marks.points.emplace_back(v, at);
            }
        });
    } else {
        r.attempt([&] { readRange(r, *sources[0], p); });
    }
    const bool range = !p.distribution.empty();
    for (const char* k : {"count", "integer"})
        if (const Field* x = m.find(k); x && !range && sources.size() == 1 && p.values.size())
            r.report(x->keyPos, std::string(k) + ": applies to a range (uniform or log_uniform); listed values are points already");
    r.read<std::int64_t>(m, "count", p.count, atLeastInt(2));
    r.read(m, "integer", p.integer);
    if (range && p.integer && std::ceil(p.low) > std::floor(p.high))
        r.report(m.find("integer")->pos, "integer: no integer lies in [" + yamlNumber(p.low) + ", " + yamlNumber(p.high) + "]");
    if (range) {
        const double lo = p.integer ? std::ceil(p.low) : p.low, hi = p.integer ? std::floor(p.high) : p.high;
        const Pos at = sources[0]->pos;
        marks.points = {{sweepPoint(lo, p.integer), at}, {sweepPoint(hi, p.integer), at}};
    }
    if (const Field* w = m.find("when"))
        for (const Field& c : entries(r, w->value, "when", w->pos)) {
            r.attempt([&] {
                std::vector<std::string> accepted;
                for (auto& [v, at] : scalars(r, c, true)) accepted.push_back(v);
                p.when.emplace_back(c.key, std::move(accepted));
                marks.when.push_back(c.keyPos);
            });
        }
    marks.ok = r.issueCount() == before;
    return p;
}

// Conditions name other parameters, with values those take, and never loop.
void checkConditions(Reader& r, const std::vector<SweepParameter>& params, const std::vector<Marks>& marks)
{
    std::vector<std::string> keys;
    for (const SweepParameter& p : params) keys.push_back(p.key);
    auto find = [&](const std::string& key) -> const SweepParameter* {
        for (const SweepParameter& p : params)
            if (p.key == key) return &p;
        return nullptr;
    };
    for (std::size_t i = 0; i < params.size(); ++i)
        for (std::size_t c = 0; c < params[i].when.size(); ++c) {
            const auto& [key, accepted] = params[i].when[c];
            const Pos at = marks[i].when[c];
            const SweepParameter* q = find(key);
            if (key == params[i].key) {
                r.report(at, "when: " + key + " cannot depend on itself");
            } else if (!q) {
                const std::string hint = didYouMean(key, keys);
                r.report(at, "when: " + quoteText(key) + " is not a parameter of this sweep" +
                                 (hint.empty() ? " (its parameters: " + joinList(keys) + ")" : hint));
            } else if (q->values.empty()) {
                r.report(at, "when: " + key + " is a range; a condition needs a parameter with values or choices");
            } else {
                for (const std::string& v : accepted)
                    if (std::none_of(q->values.begin(), q->values.end(), [&](const std::string& x) { return sweepValuesEqual(x, v); }))
                        r.report(at, "when: " + key + " never takes " + quoteText(v) + didYouMean(v, q->values) +
                                         "; its values: " + joinList(q->values));
            }
        }
    // A loop of conditions (a when b, b when a) can never be resolved.
    std::vector<int> state(params.size(), 0);  // 0 unvisited, 1 on the path, 2 done
    std::function<bool(std::size_t)> loops = [&](std::size_t i) {
        if (state[i] == 1) return true;
        if (state[i] == 2) return false;
        state[i] = 1;
        for (const auto& cond : params[i].when)
            for (std::size_t j = 0; j < params.size(); ++j)
                if (j != i && params[j].key == cond.first && loops(j)) return true;
        state[i] = 2;
        return false;
    };
    for (std::size_t i = 0; i < params.size(); ++i)
        if (state[i] == 0 && loops(i)) {
            r.report(marks[i].when.empty() ? marks[i].key : marks[i].when.front(),
                     "when: the conditions of " + params[i].key + " depend on themselves in a loop");
            return;
        }
}

// The --set arguments that make a conditional parameter apply: its conditions' first accepted
// values, and theirs in turn (nesterov: true is checked with momentum: 0.9 and type: sgd).
void addContext(const std::vector<SweepParameter>& params, const SweepParameter& p, std::vector<std::string>& out,
                std::set<std::string>& seen)
{
    for (const auto& condition : p.when) {
        // Named references, not a structured binding: clang cannot capture one under -fopenmp.
        const auto& key = condition.first;
        const auto& accepted = condition.second;
        const auto q = std::find_if(params.begin(), params.end(), [&](const SweepParameter& x) { return x.key == key; });
        // A condition that names no parameter, or a value it never takes, is reported on its own.
        if (q == params.end() || accepted.empty() || !seen.insert(key).second ||
            std::none_of(q->values.begin(), q->values.end(), [&](const std::string& v) { return sweepValuesEqual(v, accepted.front()); }))
            continue;
        addContext(params, *q, out, seen);
        out.push_back(sweepOverride(key, accepted.front()));
    }
}

// Every value a trial can take, read as a --set of the experiment (with the values its
// conditions need): checked exactly as the file's own values. Skipped when the experiment
// itself does not read (its reader says why).
void checkAsOverrides(Reader& r, const YAML::Node& root, const std::vector<SweepParameter>& params,
                      const std::vector<Marks>& marks)
{
    YAML::Node base = YAML::Clone(root);
    base.remove("sweep");
    const std::string text = YAML::Dump(base);
    try {
        parseExperiment(text, r.source());
    } catch (const std::exception&) {
        return;
    }
    for (std::size_t i = 0; i < params.size(); ++i) {
        if (!marks[i].ok) continue;
        std::vector<std::string> context;
        std::set<std::string> seen{params[i].key};
        addContext(params, params[i], context, seen);
        for (const auto& [value, at] : marks[i].points) {
            const std::string argument = sweepOverride(params[i].key, value);
            std::vector<std::string> arguments = context;
            arguments.push_back(argument);
            std::vector<std::string> problems;
            bool aboutKey = false;
            try {
                parseExperimentWithOverrides(text, r.source(), arguments);
            } catch (const ExperimentError& e) {
                const std::string suffix = " (from --set " + clipText(argument) + ")";  // as yaml_read.cpp words it
                for (const ExperimentIssue& issue : e.issues()) {
                    std::string m = issue.message;
                    if (m.ends_with(suffix)) m.erase(m.size() - suffix.size());
                    aboutKey = aboutKey || m.starts_with("unknown key");
                    problems.push_back(m);
                }
            } catch (const std::invalid_argument& e) {
                problems.push_back(e.what());
                aboutKey = true;
            }
            if (problems.empty()) continue;
            for (const std::string& m : problems)
                r.report(aboutKey ? marks[i].key : at,
                         parameterName(params[i].key) + (aboutKey ? "" : ", value " + value) + ": " + m);
            break;  // the same problem would follow for its other values
        }
    }
}

// Whether a key of `map` is `key` misspelt (its "unknown key" report already says what is missing).
bool misspells(const YAML::Node& map, const std::string& key)
{
    if (!map.IsMap()) return false;
    for (auto it = map.begin(); it != map.end(); ++it)
        if (it->first.IsScalar() && it->first.Scalar() != key && !didYouMean(it->first.Scalar(), {key}).empty()) return true;
    return false;
}

}  // namespace

SweepSpec readSweep(Reader& r, const Field& f, const YAML::Node& root, const ExperimentSpec& spec)
{
    SweepSpec s;
    const MapView m = r.map(f.value, "sweep", kSweepKeys, f.pos);
    r.choice(m, "method", s.method, {"grid", "random"}, "sweep method");
    r.read<std::int64_t>(m, "budget", s.budget, [](const std::int64_t& v) {
        return v < 1                 ? std::string("must be >= 1")
               : v > kMaxSweepTrials ? "out of range: at most " + std::to_string(kMaxSweepTrials) + " trials (a sweep's limit)"
                                     : std::string();
    });
    r.read(m, "seed", s.seed);
    if (const Field* mf = m.find("metric"))
        r.attempt([&] {
            const std::string metric = r.text(*mf);
            if (metricGoal(metric) == MetricGoal::None)
                r.fail(mf->pos, "metric: " + quoteText(metric) + " is neither minimised nor maximised (losses are minimised, "
                                                       "accuracies maximised): rank by val_acc or val_loss");
            if (metric.starts_with("val_") && spec.dataset.validationFraction == 0)
                r.fail(mf->pos, "metric: " + metric + " needs a validation split, and dataset.validation_fraction is 0: "
                                                      "hold out data (validation_fraction: 0.1) or rank by test_" +
                                    metric.substr(4));
            s.metric = metric;
        });
    else if (spec.dataset.validationFraction == 0)
        r.report(m.pos, "sweep: trials are ranked by val_acc, and dataset.validation_fraction is 0: hold out data "
                        "(validation_fraction: 0.1) or set metric: test_acc");
    if (s.method == "random" && !m.find("budget") && m.find("method"))
        r.report(m.find("method")->pos, "sweep: random search needs budget: N, the number of trials to draw");

    std::vector<Marks> marks;
    if (const Field* pf = m.find("parameters")) {
        const std::vector<Field> fields = entries(r, pf->value, "parameters", pf->pos);
        if (fields.empty() && (!pf->value.IsDefined() || pf->value.IsNull() || pf->value.IsMap()))
            r.report(pf->pos, "sweep: parameters is empty: name at least one option to sweep, e.g. "
                              "optimizer.lr: {values: [1e-4, 1e-3]}");
        for (const Field& pfield : fields) {
            marks.emplace_back();
            s.parameters.push_back(readParameter(r, pfield, marks.back()));
        }
    } else if (!misspells(f.value, "parameters")) {
        r.report(m.pos, "sweep: missing key 'parameters' (the options to sweep, e.g. optimizer.lr: {values: [1e-4, 1e-3]})");
    }
    if (s.method == "grid")
        for (std::size_t i = 0; i < s.parameters.size(); ++i)
            if (!s.parameters[i].distribution.empty() && s.parameters[i].count == 0)
                r.report(marks[i].key, parameterName(s.parameters[i].key) + ": a grid takes points: add count: N (N " +
                                           (s.parameters[i].distribution == "log_uniform" ? "log-spaced" : "evenly spaced") +
                                           " points of the range) or list values");
    checkConditions(r, s.parameters, marks);
    // Counted, never built, before anything can generate it.
    if (s.method == "grid")
        if (const std::string tooLarge = sweepGridTooLarge(s); !tooLarge.empty())
            r.report(m.find("parameters") ? m.find("parameters")->keyPos : m.pos, "sweep: " + tooLarge);

    if (const Field* hf = m.find("halving")) {
        HalvingSpec h;
        const MapView hm = r.map(hf->value, "halving", {"min_epochs", "eta"}, hf->pos);
        const bool minRead = r.read<std::int64_t>(hm, "min_epochs", h.minEpochs, atLeastInt(1));
        r.read<std::int64_t>(hm, "eta", h.eta, atLeastInt(2));
        if (h.minEpochs >= spec.training.epochs)
            r.report(minRead ? hm.find("min_epochs")->pos : hm.pos,
                     "halving: min_epochs " + std::to_string(h.minEpochs) + " leaves no rung before training.epochs " +
                         std::to_string(spec.training.epochs) + ": lower min_epochs or raise training.epochs");
        s.halving = h;
    }
    checkAsOverrides(r, root, s.parameters, marks);
    return s;
}

Out sweepOut(const SweepSpec& s)
{
    const SweepSpec def;
    auto valueText = [](const std::string& v) { return plainValue(v) ? v : yamlString(v); };
    auto valueList = [&](const std::vector<std::string>& values) {
        Out list = Out::list();
        for (const std::string& v : values) list.push(Out::scalar(valueText(v)));
        return list;
    };
    Out m = Out::map(true);
    m.add("method", Out::scalar(yamlString(s.method)));
    if (s.budget != def.budget) m.add("budget", Out::scalar(yamlInt(s.budget)));
    if (s.seed != def.seed) m.add("seed", Out::scalar(std::to_string(s.seed)));
    if (s.metric != def.metric) m.add("metric", Out::scalar(yamlString(s.metric)));
    Out params = Out::map(true);
    for (const SweepParameter& p : s.parameters) {
        Out o = Out::map();
        if (!p.values.empty()) {
            const bool names = std::any_of(p.values.begin(), p.values.end(), [](const std::string& v) { return !plainValue(v); });
            o.add(names ? "choices" : "values", valueList(p.values));
        } else if (!p.distribution.empty()) {
            o.add(p.distribution, yamlList(std::vector<double>{p.low, p.high}, yamlNumber));
            if (p.count) o.add("count", Out::scalar(yamlInt(p.count)));
            if (p.integer) o.add("integer", Out::scalar(yamlBool(true)));
        }
        if (!p.when.empty()) {
            Out when = Out::map();
            for (const auto& [key, accepted] : p.when)
                when.add(yamlString(key), accepted.size() == 1 ? Out::scalar(valueText(accepted[0])) : valueList(accepted));
            o.add("when", std::move(when));
        }
        params.add(yamlString(p.key), std::move(o));
    }
    m.add("parameters", std::move(params));
    if (s.halving) {
        Out h = Out::map();
        h.add("min_epochs", Out::scalar(yamlInt(s.halving->minEpochs)));
        h.add("eta", Out::scalar(yamlInt(s.halving->eta)));
        m.add("halving", std::move(h));
    }
    return m;
}

}  // namespace ts::yamlio

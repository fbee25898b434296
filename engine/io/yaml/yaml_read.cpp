#include "io/yaml/yaml_read.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <climits>
#include <cmath>
#include <set>
#include <sstream>

#include "io/yaml/experiment_yaml.h"
#include "tensor/quote_text.h"

namespace ts::yamlio {

Pos positionOf(const YAML::Node& node)
{
    if (!node.IsDefined()) return {};
    const YAML::Mark m = node.Mark();
    if (m.line < 0 || m.column < 0) return {};
    return {m.line + 1, m.column + 1};
}

std::string joinList(const std::vector<std::string>& items)
{
    std::string s;
    for (const auto& i : items) s += (s.empty() ? "" : ", ") + i;
    return s;
}

bool isPlainScalar(const YAML::Node& node) { return node.IsScalar() && node.Tag() == "?"; }

std::optional<std::int64_t> parseInteger(const std::string& text)
{
    const char* b = text.data();
    const char* e = b + text.size();
    if (b != e && *b == '+') ++b;
    std::int64_t v = 0;
    auto [ptr, ec] = std::from_chars(b, e, v);
    if (ec != std::errc() || ptr != e || b == e) return std::nullopt;
    return v;
}

std::optional<double> parseNumber(const std::string& text)
{
    if (text == ".inf" || text == "+.inf") return HUGE_VAL;
    if (text == "-.inf") return -HUGE_VAL;
    if (text == ".nan") return std::nan("");
    const char* b = text.data();
    const char* e = b + text.size();
    if (b != e && *b == '+') ++b;
    // Words such as "inf" or "nan" are strings in YAML; a number starts with a digit or a point.
    const char* first = (b != e && *b == '-') ? b + 1 : b;
    if (first == e || !(std::isdigit(static_cast<unsigned char>(*first)) || *first == '.')) return std::nullopt;
    double v = 0;
    auto [ptr, ec] = std::from_chars(b, e, v);
    if (ec != std::errc() || ptr != e) return std::nullopt;
    return v;
}

std::string describe(const YAML::Node& node)
{
    if (!node.IsDefined() || node.IsNull()) return "nothing";
    if ((node.IsSequence() || node.IsMap()) && node.size() == 0) return node.IsSequence() ? "an empty list" : "an empty mapping";
    if (node.IsSequence() || node.IsMap()) {
        // What was written, on one line and bounded: "a list [1, -2]".
        YAML::Emitter flow;
        flow.SetSeqFormat(YAML::Flow);
        flow.SetMapFormat(YAML::Flow);
        flow << node;
        return std::string(node.IsSequence() ? "a list " : "a mapping ") + clipText(flow.good() ? flow.c_str() : "");
    }
    return quoteText(node.Scalar());
}

const Field* MapView::find(const std::string& key) const
{
    for (const auto& f : fields)
        if (f.key == key) return &f;
    return nullptr;
}

namespace {
ExperimentIssue issueAt(Pos at, const std::string& message, const std::vector<Override>& overrides)
{
    const bool fromSet = at.fromSet >= 0 && at.fromSet < static_cast<int>(overrides.size());
    return {at.line, at.column, fromSet ? message + " (from --set " + clipText(overrides[at.fromSet].argument) + ")" : message};
}
}  // namespace

void Reader::fail(Pos at, const std::string& message) const
{
    const ExperimentIssue i = issueAt(at, message, overrides_);
    throw ExperimentError(source_, i.line, i.column, i.message);
}

void Reader::report(Pos at, const std::string& message) { issues_.push_back(issueAt(at, message, overrides_)); }

bool Reader::attempt(const std::function<void()>& part)
{
    try {
        part();
        return true;
    } catch (const ExperimentError& e) {
        issues_.insert(issues_.end(), e.issues().begin(), e.issues().end());
        return false;
    }
}

void Reader::finish() const
{
    if (issues_.empty()) return;
    // File order; problems without a place in the file (a --set addition) after those with one.
    std::vector<ExperimentIssue> sorted = issues_;
    const auto key = [](const ExperimentIssue& i) { return std::pair(i.line > 0 ? i.line : INT_MAX, i.column); };
    std::stable_sort(sorted.begin(), sorted.end(), [&](const auto& a, const auto& b) { return key(a) < key(b); });
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    throw ExperimentError(source_, std::move(sorted));
}

Pos Reader::at(const YAML::Node& node) const
{
    if (!node.IsDefined()) return {};
    for (std::size_t i = 0; i < overrides_.size(); ++i)
        for (const YAML::Node& n : overrides_[i].nodes)
            if (n.is(node)) return Pos{overrides_[i].filePos.line, overrides_[i].filePos.column, static_cast<int>(i)};
    return positionOf(node);
}

MapView Reader::map(const YAML::Node& node, const std::string& what, const std::vector<std::string>& allowed, Pos at)
{
    MapView view;
    view.node = node;
    const Pos own = this->at(node);
    view.pos = own.line ? own : at;
    if (!node.IsDefined() || node.IsNull()) return view;
    if (!node.IsMap()) {
        report(at, what + ": expected a mapping (key: value lines or {key: value}), got " + describe(node));
        return view;
    }
    std::set<std::string> seen;
    for (auto it = node.begin(); it != node.end(); ++it) {
        const Pos keyPos = this->at(it->first);
        if (!it->first.IsScalar()) {
            report(keyPos, what + ": keys must be names");
            continue;
        }
        const std::string key = it->first.Scalar();
        if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
            const std::string hint = didYouMean(key, allowed);
            report(keyPos, "unknown key " + quoteText(key) + " in " + what +
                               (hint.empty() ? " (valid keys: " + joinList(allowed) + ")" : hint));
            continue;
        }
        if (!seen.insert(key).second) {
            report(keyPos, what + ": key " + quoteText(key) + " is given twice");
            continue;
        }
        const bool empty = !it->second.IsDefined() || it->second.IsNull();
        const Pos valuePos = this->at(it->second);
        view.fields.push_back(Field{key, it->second, empty && valuePos.fromSet < 0 ? keyPos : valuePos, keyPos});
    }
    return view;
}

namespace {
std::string expected(const Field& f, const std::string& kind) { return f.key + ": expected " + kind + ", got " + describe(f.value); }
}  // namespace

std::int64_t Reader::integer(const Field& f) const
{
    if (isPlainScalar(f.value))
        if (auto v = parseInteger(f.value.Scalar())) return *v;
    fail(f.pos, expected(f, "an integer"));
}

std::uint64_t Reader::unsignedInteger(const Field& f) const
{
    if (isPlainScalar(f.value)) {
        const std::string& s = f.value.Scalar();
        std::uint64_t v = 0;
        auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
        if (ec == std::errc() && ptr == s.data() + s.size() && !s.empty()) return v;
    }
    fail(f.pos, expected(f, "a non-negative integer"));
}

double Reader::number(const Field& f) const
{
    if (isPlainScalar(f.value))
        if (auto v = parseNumber(f.value.Scalar())) return *v;
    fail(f.pos, expected(f, "a number"));
}

bool Reader::boolean(const Field& f) const
{
    if (isPlainScalar(f.value)) {
        if (f.value.Scalar() == "true") return true;
        if (f.value.Scalar() == "false") return false;
    }
    fail(f.pos, expected(f, "true or false"));
}

std::string Reader::text(const Field& f) const
{
    if (f.value.IsScalar()) return f.value.Scalar();
    fail(f.pos, expected(f, "a string"));
}

namespace {
// The elements of a list, each as a field of its own (so errors point at the element).
std::vector<Field> elements(const Reader& r, const Field& f, const std::string& kind)
{
    if (!f.value.IsSequence()) r.fail(f.pos, expected(f, "a list of " + kind));
    std::vector<Field> out;
    for (std::size_t i = 0; i < f.value.size(); ++i) {
        const YAML::Node e = f.value[i];
        const Pos p = r.at(e);
        out.push_back(Field{f.key + "[" + std::to_string(i) + "]", e, p.line ? p : f.pos, f.keyPos});
    }
    return out;
}
}  // namespace

std::vector<std::int64_t> Reader::integers(const Field& f) const
{
    std::vector<std::int64_t> v;
    for (const auto& e : elements(*this, f, "integers")) v.push_back(integer(e));
    return v;
}

std::vector<double> Reader::numbers(const Field& f) const
{
    std::vector<double> v;
    for (const auto& e : elements(*this, f, "numbers")) v.push_back(number(e));
    return v;
}

std::vector<std::string> Reader::texts(const Field& f) const
{
    std::vector<std::string> v;
    for (const auto& e : elements(*this, f, "strings")) v.push_back(text(e));
    return v;
}

bool Reader::choice(const MapView& m, const std::string& key, std::string& out, const std::vector<std::string>& valid,
                    const std::string& noun)
{
    const Field* f = m.find(key);
    if (!f) return false;
    return attempt([&] {
        std::string v = text(*f);
        if (std::find(valid.begin(), valid.end(), v) == valid.end())
            fail(f->pos, key + ": unknown " + noun + " " + quoteText(v) + didYouMean(v, valid) + "; valid: " + joinList(valid));
        out = std::move(v);
    });
}

namespace {
std::string num(double x)
{
    std::ostringstream s;
    s << x;
    return s.str();
}
}  // namespace

std::function<std::string(const double&)> greaterThan(double lo)
{
    return [lo](const double& v) { return v > lo ? std::string() : "must be > " + num(lo); };
}

std::function<std::string(const double&)> between(double lo, double hi, bool hiInclusive)
{
    return [=](const double& v) {
        const bool ok = v >= lo && (hiInclusive ? v <= hi : v < hi);
        return ok ? std::string() : "must be in [" + num(lo) + ", " + num(hi) + (hiInclusive ? "]" : ")");
    };
}

std::function<std::string(const double&)> notNegative()
{
    return [](const double& v) { return v >= 0 ? std::string() : std::string("must be >= 0"); };
}

std::function<std::string(const std::int64_t&)> atLeastInt(std::int64_t lo)
{
    return [lo](const std::int64_t& v) { return v >= lo ? std::string() : "must be >= " + std::to_string(lo); };
}

}  // namespace ts::yamlio

// Key-level edits of a section (io/section_text.h): the writer's renderings of the spec before
// and after the edit say what changed; the file's tree and spans say where it is written.
#include "io/yaml/section_text.h"

namespace ts::yamlio {

namespace {

using Edits = std::vector<TextEdit>;

const Out kNothing = Out::map();  // what the writer renders of a value it leaves out

bool same(const Out& a, const Out& b)
{
    if (a.kind != b.kind || a.text != b.text || a.items.size() != b.items.size() || a.fields.size() != b.fields.size()) return false;
    for (std::size_t i = 0; i < a.items.size(); ++i)
        if (!same(a.items[i], b.items[i])) return false;
    for (std::size_t i = 0; i < a.fields.size(); ++i)
        if (a.fields[i].first != b.fields[i].first || !same(a.fields[i].second, b.fields[i].second)) return false;
    return true;
}

const Out* fieldOf(const Out& map, const std::string& key)
{
    for (const auto& f : map.fields)
        if (f.first == key) return &f.second;
    return nullptr;
}

void append(Edits& to, const Edits& more) { to.insert(to.end(), more.begin(), more.end()); }

// `key: value` as the writer writes it, its lines after the first indented by `indent`, with
// no final line break.
std::string entryText(const Out::Field& f, std::size_t indent)
{
    Out one = Out::map(true);
    one.add(f.first, f.second);
    std::string text = render(one);
    text.pop_back();
    for (std::size_t at = text.find('\n'); at != std::string::npos; at = text.find('\n', at + 1 + indent))
        text.insert(at + 1, indent, ' ');
    return text;
}

std::size_t columnOf(const SourceText& src, std::size_t pos) { return pos - src.lineStart(pos); }

// A scalar or a flow collection replaced where it stands, on one line.
std::optional<Edits> replacedInPlace(const SourceText& src, const YAML::Node& value, const Out& after)
{
    if (!value.IsScalar() && value.Style() != YAML::EmitterStyle::Flow) return std::nullopt;
    const auto span = src.span(value);
    if (!span) return std::nullopt;
    return Edits{{span->begin, span->end, renderFlow(after)}};
}

std::optional<Edits> edits(const SourceText& src, const YAML::Node& value, const Out& before, const Out& after);

std::optional<Edits> mapEdits(const SourceText& src, const YAML::Node& map, const Out& before, const Out& after)
{
    const auto entries = entriesOf(src, map);
    if (!entries || entries->empty()) return std::nullopt;
    const bool flow = map.Style() == YAML::EmitterStyle::Flow;
    auto find = [&](const std::string& key) -> std::optional<std::size_t> {
        for (std::size_t i = 0; i < entries->size(); ++i)
            if ((*entries)[i].key == key) return i;
        return std::nullopt;
    };
    Edits out;
    std::vector<const Out::Field*> added;
    for (const Out::Field& f : after.fields) {
        const Out* was = fieldOf(before, f.first);
        if (was && same(*was, f.second)) continue;
        const auto i = find(f.first);
        if (!i) {
            added.push_back(&f);
            continue;
        }
        const MapEntry& e = (*entries)[*i];
        auto changed = edits(src, e.value, was ? *was : kNothing, f.second);
        if (!changed && !flow)  // a block value, or none: the entry anew from its key on
            changed = Edits{{e.keySpan.begin, e.end(), entryText(f, columnOf(src, e.keySpan.begin))}};
        if (!changed) return std::nullopt;
        append(out, *changed);
    }
    std::vector<bool> removed(entries->size(), false);
    for (const Out::Field& f : before.fields)
        if (!fieldOf(after, f.first))
            if (const auto i = find(f.first)) removed[*i] = true;

    const MapEntry& last = entries->back();
    if (flow) {
        // `key: value, ` of the leading removed entries, `, key: value` of the others.
        std::size_t kept = 0;
        while (kept < entries->size() && removed[kept]) ++kept;
        if (kept == entries->size()) return replacedInPlace(src, map, after);
        if (kept > 0) out.push_back({entries->front().keySpan.begin, (*entries)[kept].keySpan.begin, ""});
        for (std::size_t i = kept + 1; i < entries->size(); ++i)
            if (removed[i]) out.push_back({(*entries)[i - 1].end(), (*entries)[i].end(), ""});
        std::string text;
        for (const Out::Field* f : added) text += ", " + f->first + ": " + renderFlow(f->second);
        if (!text.empty()) out.push_back({last.end(), last.end(), text});
        return out;
    }
    for (std::size_t i = 0; i < entries->size(); ++i) {
        const MapEntry& e = (*entries)[i];
        if (!removed[i]) continue;
        if (!src.onlyIndentBefore(e.keySpan.begin) || !src.onlyCommentAfter(e.end())) return std::nullopt;
        out.push_back({src.lineStart(e.keySpan.begin), src.nextLine(e.end()), ""});
    }
    if (!added.empty()) {
        const std::size_t at = src.nextLine(last.end()), indent = columnOf(src, last.keySpan.begin);
        std::string text = at == src.text().size() && !src.text().ends_with('\n') ? "\n" : "";
        for (const Out::Field* f : added) text += std::string(indent, ' ') + entryText(*f, indent) + "\n";
        out.push_back({at, at, text});
    }
    return out;
}

std::optional<Edits> edits(const SourceText& src, const YAML::Node& value, const Out& before, const Out& after)
{
    if (same(before, after)) return Edits{};
    if (after.kind == Out::Kind::Map && value.IsMap())
        if (auto m = mapEdits(src, value, before.kind == Out::Kind::Map ? before : kNothing, after)) return m;
    if (after.kind == Out::Kind::List && before.kind == Out::Kind::List && value.IsSequence() &&
        value.size() == before.items.size() && before.items.size() == after.items.size()) {
        Edits out;
        bool each = true;
        for (std::size_t i = 0; i < after.items.size() && each; ++i) {
            const auto item = edits(src, value[i], before.items[i], after.items[i]);
            if (item) append(out, *item);
            each = item.has_value();
        }
        if (each) return out;
    }
    return replacedInPlace(src, value, after);
}

}  // namespace

std::optional<std::vector<TextEdit>> valueEdits(const SourceText& source, const YAML::Node& value, const Out* before,
                                                const Out& after)
{
    return edits(source, value, before ? *before : kNothing, after);
}

}  // namespace ts::yamlio

// The lossless saver of experiment_text.h. The file's top-level sections are found by their
// keys' lines; a section whose part of the spec did not change keeps its bytes, the model's
// attribute changes are made in place (model_text.cpp), the layout is merged entry by entry,
// and any other changed section is edited key by key (section_text.cpp). The result is read
// back: should it not give the edited spec, the changed sections are rewritten whole as
// experimentToYaml renders them, then the model section as well, and failing that the file.
#include <algorithm>
#include <numeric>

#include "io/yaml/experiment_sections.h"
#include "io/yaml/experiment_text.h"
#include "io/yaml/model_text.h"
#include "io/yaml/section_text.h"
#include "io/yaml/yaml_spans.h"

namespace ts {

namespace {

using namespace yamlio;

// The writer's order of the sections: where a section the file lacks is put.
const std::vector<std::string> kSectionOrder = {"name",     "description", "dataset", "model", "optimizer",
                                                "schedule", "training",    "sweep",   "layout"};

struct Section {
    std::string key;
    YAML::Node value;
    Span lines;  // from the key's line to the end of its last line
};

bool blankOrMarginComment(const std::string& line)
{
    const auto first = line.find_first_not_of(" \t\r\n");
    return first == std::string::npos || line[0] == '#';
}

// The top-level sections in file order. A section runs from its key's line to its last line
// that is not blank or a comment at the margin: such lines before the next key are about it.
std::optional<std::vector<Section>> sectionsOf(const SourceText& src, const YAML::Node& root)
{
    if (!root.IsMap() || root.Style() == YAML::EmitterStyle::Flow || root.size() == 0) return std::nullopt;
    std::vector<Section> found;
    for (auto it = root.begin(); it != root.end(); ++it) {
        const YAML::Mark m = it->first.Mark();
        if (!it->first.IsScalar() || m.column != 0 || m.pos < 0) return std::nullopt;
        found.push_back(Section{it->first.Scalar(), it->second, Span{static_cast<std::size_t>(m.pos), 0}});
    }
    // Sorted by index and copied, never assigned: assigning a YAML::Node rebinds the node it
    // refers to in the tree (a sort's moves once turned `name:`'s value into another section's).
    std::vector<std::size_t> order(found.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return found[a].lines.begin < found[b].lines.begin; });
    std::vector<Section> out;
    for (std::size_t i : order) out.push_back(found[i]);
    const std::string& text = src.text();
    for (std::size_t i = 0; i < out.size(); ++i) {
        const std::size_t limit = i + 1 < out.size() ? out[i + 1].lines.begin : text.size();
        std::size_t end = src.nextLine(out[i].lines.begin);
        for (std::size_t p = end; p < limit; p = src.nextLine(p))
            if (!blankOrMarginComment(text.substr(p, src.nextLine(p) - p))) end = src.nextLine(p);
        out[i].lines.end = std::min(end, limit);
    }
    return out;
}

bool sameExceptModel(const std::string& key, const ExperimentSpec& a, const ExperimentSpec& b)
{
    if (key == "name") return a.name == b.name;
    if (key == "description") return a.description == b.description;
    if (key == "dataset") return a.dataset == b.dataset;
    if (key == "optimizer") return a.optimizer == b.optimizer;
    if (key == "schedule") return a.schedule == b.schedule;
    if (key == "training") return a.training == b.training;
    if (key == "sweep") return a.sweep == b.sweep;
    if (key == "layout") return a.layout == b.layout;
    return true;
}

bool sameUpToSpelling(const ExperimentSpec& a, const ExperimentSpec& b)
{
    for (const std::string& key : kSectionOrder)
        if (!sameExceptModel(key, a, b)) return false;
    return sameModelUpToSpelling(a.model, b.model);
}

const Out* sectionOut(const Out& root, const std::string& key)
{
    for (const auto& [k, v] : root.fields)
        if (k == key) return &v;
    return nullptr;
}

std::optional<std::string> renderedSection(const Out& root, const std::string& key)
{
    const Out* value = sectionOut(root, key);
    if (!value) return std::nullopt;
    Out one = Out::map(true);
    one.add(key, *value);
    return render(one);
}

bool multiline(const std::string& text) { return std::count(text.begin(), text.end(), '\n') > 1; }

// The lines of a mapping entry or a list item ([line start, end of its last line)), when it
// has its lines to itself.
std::optional<Span> ownLines(const SourceText& src, const YAML::Node& first, const YAML::Node& last)
{
    const auto a = src.span(first), b = src.span(last);
    if (!a || !b || !src.onlySpaceBefore(a->begin) || !src.onlyCommentAfter(b->end)) return std::nullopt;
    return Span{src.lineStart(a->begin), src.nextLine(b->end)};
}

// The layout section for `after` as the writer renders it (`fresh`), with the lines of the
// entries whose values did not change taken from the file as they are there.
std::string mergedLayout(const SourceText& src, const YAML::Node& old, const ModelLayout& before, const ModelLayout& after,
                         const std::string& fresh)
{
    if (!old.IsMap()) return fresh;
    const SourceText freshSrc(fresh);
    const YAML::Node freshTree = valueOf(YAML::Load(fresh), "layout");
    std::vector<TextEdit> edits;
    auto keep = [&](const std::optional<Span>& from, const std::optional<Span>& to) {
        if (from && to) edits.push_back({to->begin, to->end, src.slice(*from)});
    };
    const YAML::Node oldPositions = valueOf(old, "positions"), newPositions = valueOf(freshTree, "positions");
    if (oldPositions.IsMap() && newPositions.IsMap())
        for (auto n = newPositions.begin(); n != newPositions.end(); ++n) {
            const std::string name = n->first.Scalar();
            const auto b = before.positions.find(name), a = after.positions.find(name);
            if (b == before.positions.end() || a == after.positions.end() || !(b->second == a->second)) continue;
            for (auto o = oldPositions.begin(); o != oldPositions.end(); ++o)
                if (o->first.IsScalar() && o->first.Scalar() == name) {
                    keep(ownLines(src, o->first, o->second), ownLines(freshSrc, n->first, n->second));
                    break;
                }
        }
    const YAML::Node oldBlocks = valueOf(old, "blocks"), newBlocks = valueOf(freshTree, "blocks");
    if (oldBlocks.IsSequence() && newBlocks.IsSequence())
        for (std::size_t j = 0; j < newBlocks.size() && j < after.blocks.size(); ++j) {
            const ModelBlock& a = after.blocks[j];
            const auto b = std::find_if(before.blocks.begin(), before.blocks.end(), [&](const ModelBlock& x) { return x.name == a.name; });
            if (b == before.blocks.end() || !(*b == a)) continue;
            for (std::size_t k = 0; k < oldBlocks.size(); ++k) {
                const YAML::Node item = oldBlocks[k], name = item.IsMap() ? valueOf(item, "name") : YAML::Node();
                if (name.IsScalar() && name.Scalar() == a.name) {
                    keep(ownLines(src, item, item), ownLines(freshSrc, newBlocks[j], newBlocks[j]));
                    break;
                }
            }
        }
    return applyEdits(fresh, edits).value_or(fresh);
}

// How much of a changed section the saver rewrites: as little as it can, each changed section
// (but the model) whole, or the model section too.
enum class Rewrite { Keys, Sections, Model };

// The file for `edited`; nullopt when its sections cannot be told apart.
std::optional<std::string> updated(const SourceText& src, const YAML::Node& root, const ExperimentSpec& before,
                                   const ExperimentSpec& edited, Rewrite rewrite)
{
    const auto sections = sectionsOf(src, root);
    if (!sections) return std::nullopt;
    const std::string& text = src.text();
    const Out out = experimentOut(edited), was = experimentOut(before);
    const bool rewriteModel = rewrite == Rewrite::Model;
    std::vector<TextEdit> edits;

    auto replace = [&](const Section& s, std::string fresh) {
        // A one-line section that stays one line keeps its comment: `optimizer: {...}   # note`.
        const auto value = src.span(s.value);
        if (value && src.nextLine(s.lines.begin) == s.lines.end && !multiline(fresh) && fresh.find('\n') != std::string::npos)
            fresh.insert(fresh.size() - 1, src.commentAfter(value->end));
        edits.push_back({s.lines.begin, s.lines.end, fresh});
    };
    auto remove = [&](const Section& s) {
        std::size_t begin = s.lines.begin, end = s.lines.end;
        const bool blankBefore = begin >= 2 && text[begin - 1] == '\n' && text[begin - 2] == '\n';
        if (blankBefore && end < text.size() && text[end] == '\n') ++end;  // one blank line between its neighbours
        else if (blankBefore && end == text.size()) --begin;
        edits.push_back({begin, end, ""});
    };

    std::size_t insertAt = sections->front().lines.begin;  // before the first section (after the file's header comment)
    bool afterSection = false, lastMultiline = false;
    for (const std::string& key : kSectionOrder) {
        const auto s = std::find_if(sections->begin(), sections->end(), [&](const Section& x) { return x.key == key; });
        const auto fresh = renderedSection(out, key);
        const bool same = key == "model" ? !rewriteModel && sameModelUpToSpelling(before.model, edited.model)
                                         : sameExceptModel(key, before, edited);
        if (s == sections->end()) {
            if (same || !fresh) continue;
            std::string t = *fresh;
            if (afterSection) {  // a blank line around sections that span lines, as the writer puts them
                const bool unterminated = insertAt > 0 && text[insertAt - 1] != '\n';
                t = std::string(unterminated ? "\n" : "") + (multiline(t) || lastMultiline ? "\n" : "") + t;
            }
            else if (multiline(t) || multiline(src.slice(sections->front().lines))) t += "\n";
            edits.push_back({insertAt, insertAt, t});
            continue;
        }
        insertAt = s->lines.end;
        afterSection = true;
        lastMultiline = multiline(src.slice(s->lines));
        if (same) continue;
        if (key == "model" && !rewriteModel)
            if (auto inPlace = modelAttributeEdits(src, s->value, before.model, edited.model)) {
                edits.insert(edits.end(), inPlace->begin(), inPlace->end());
                continue;
            }
        if (!fresh) {
            remove(*s);
        } else if (key == "layout") {
            edits.push_back({s->lines.begin, s->lines.end, mergedLayout(src, s->value, before.layout, edited.layout, *fresh)});
        } else if (key == "model" || rewrite != Rewrite::Keys) {
            replace(*s, *fresh);
        } else if (const auto inPlace = valueEdits(src, s->value, sectionOut(was, key), *sectionOut(out, key))) {
            edits.insert(edits.end(), inPlace->begin(), inPlace->end());
        } else {
            replace(*s, *fresh);  // a value whose text cannot be edited in place (section_text.h)
        }
    }
    return applyEdits(text, edits);
}

}  // namespace

std::string updateExperimentText(const std::string& originalText, const ExperimentSpec& edited)
{
    const std::string whole = experimentToYaml(edited);
    if (originalText.find_first_not_of(" \t\r\n") == std::string::npos) return whole;
    const std::string& source = edited.sourceFile;
    const ExperimentDraft before = parseExperimentDraft(originalText, source);
    if (!before.usable) return whole;
    const YAML::Node root = YAML::Load(originalText);  // usable: it parses
    const SourceText src(originalText);
    for (Rewrite rewrite : {Rewrite::Keys, Rewrite::Sections, Rewrite::Model}) {
        try {
            if (const auto text = updated(src, root, before.spec, edited, rewrite))
                if (sameUpToSpelling(parseExperimentDraft(*text, source).spec, edited)) return *text;
        } catch (const YAML::Exception&) {
            // a tree this saver did not expect: the next way, and at last the writer's file
        }
    }
    return whole;
}

}  // namespace ts

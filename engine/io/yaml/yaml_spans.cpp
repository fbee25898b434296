#include "io/yaml/yaml_spans.h"

#include <algorithm>

namespace ts::yamlio {

namespace {
bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r'; }
}  // namespace

std::optional<Span> SourceText::span(const YAML::Node& node) const
{
    if (!node.IsDefined() || node.IsNull()) return std::nullopt;
    const YAML::Mark mark = node.Mark();
    if (mark.pos < 0 || static_cast<std::size_t>(mark.pos) >= text_.size()) return std::nullopt;
    const std::size_t begin = static_cast<std::size_t>(mark.pos);
    const char first = text_[begin];

    if (node.IsScalar()) {
        if (first == '"' || first == '\'') {
            for (std::size_t i = begin + 1; i < text_.size(); ++i) {
                if (first == '"' && text_[i] == '\\') ++i;  // an escape: skip the escaped character
                else if (text_[i] == first && first == '\'' && i + 1 < text_.size() && text_[i + 1] == '\'') ++i;  // '' in '...'
                else if (text_[i] == first) return Span{begin, i + 1};
            }
            return std::nullopt;
        }
        // A plain scalar on one line is exactly its value (plain scalars have no escapes).
        const std::string& value = node.Scalar();
        if (value.empty() || text_.compare(begin, value.size(), value) != 0) return std::nullopt;
        return Span{begin, begin + value.size()};
    }

    if (node.Style() == YAML::EmitterStyle::Flow) {
        if (first != '[' && first != '{') return std::nullopt;
        int depth = 0;
        for (std::size_t i = begin; i < text_.size(); ++i) {
            const char c = text_[i];
            if (c == '"' || c == '\'') {  // skip quoted text, which may hold brackets
                std::size_t j = i + 1;
                for (; j < text_.size() && text_[j] != c; ++j)
                    if (c == '"' && text_[j] == '\\') ++j;
                i = j;
            } else if (c == '#' && i > 0 && isSpace(text_[i - 1])) {
                i = text_.find('\n', i);
                if (i == std::string::npos) return std::nullopt;
            } else if (c == '[' || c == '{') {
                ++depth;
            } else if ((c == ']' || c == '}') && --depth == 0) {
                return Span{begin, i + 1};
            }
        }
        return std::nullopt;
    }

    // A block collection ends with its last entry.
    if (node.size() == 0) return std::nullopt;
    std::optional<Span> last;
    if (node.IsSequence()) {
        last = span(node[node.size() - 1]);
    } else {
        YAML::const_iterator it = node.begin();
        for (std::size_t i = 1; i < node.size(); ++i) ++it;
        if (it->second.IsNull()) {
            const auto key = span(it->first);
            const auto colon = key ? afterColon(key->end) : std::nullopt;
            if (colon) last = Span{key->begin, *colon};
        } else {
            last = span(it->second);
        }
    }
    if (!last) return std::nullopt;
    return Span{begin, last->end};
}

std::optional<std::size_t> SourceText::afterColon(std::size_t keyEnd) const
{
    std::size_t i = keyEnd;
    while (i < text_.size() && isSpace(text_[i])) ++i;
    if (i < text_.size() && text_[i] == ':') return i + 1;
    return std::nullopt;
}

std::size_t SourceText::lineStart(std::size_t pos) const
{
    const std::size_t nl = pos == 0 ? std::string::npos : text_.rfind('\n', pos - 1);
    return nl == std::string::npos ? 0 : nl + 1;
}

std::size_t SourceText::nextLine(std::size_t pos) const
{
    const std::size_t nl = text_.find('\n', pos);
    return nl == std::string::npos ? text_.size() : nl + 1;
}

bool SourceText::onlySpaceBefore(std::size_t pos) const
{
    bool dash = false;
    for (std::size_t i = lineStart(pos); i < pos; ++i) {
        if (text_[i] == '-' && !dash) dash = true;
        else if (!isSpace(text_[i])) return false;
    }
    return true;
}

bool SourceText::onlyCommentAfter(std::size_t pos) const
{
    for (std::size_t i = pos; i < text_.size() && text_[i] != '\n'; ++i) {
        if (text_[i] == '#') return i == pos || isSpace(text_[i - 1]);
        if (!isSpace(text_[i])) return false;
    }
    return true;
}

bool SourceText::onlyIndentBefore(std::size_t pos) const
{
    for (std::size_t i = lineStart(pos); i < pos; ++i)
        if (text_[i] != ' ') return false;
    return true;
}

std::string SourceText::commentAfter(std::size_t pos) const
{
    if (!onlyCommentAfter(pos)) return {};
    const std::size_t end = text_.find('\n', pos);
    std::string rest = text_.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    while (!rest.empty() && isSpace(rest.back())) rest.pop_back();
    return rest.find('#') == std::string::npos ? std::string() : rest;
}

std::optional<std::vector<MapEntry>> entriesOf(const SourceText& src, const YAML::Node& map)
{
    std::vector<MapEntry> out;
    for (auto it = map.begin(); it != map.end(); ++it) {
        if (!it->first.IsScalar()) return std::nullopt;
        const auto key = src.span(it->first);
        const auto colon = key ? src.afterColon(key->end) : std::nullopt;
        if (!colon) return std::nullopt;
        MapEntry e{it->first.Scalar(), it->second, *key, *colon, std::nullopt, false};
        if (!it->second.IsNull()) {
            e.valueSpan = src.span(it->second);
            if (!e.valueSpan) return std::nullopt;
            e.blockValue = !it->second.IsScalar() && it->second.Style() != YAML::EmitterStyle::Flow;
        }
        out.push_back(std::move(e));
    }
    return out;
}

YAML::Node valueOf(const YAML::Node& map, const std::string& key)
{
    if (map.IsMap())
        for (auto it = map.begin(); it != map.end(); ++it)
            if (it->first.IsScalar() && it->first.Scalar() == key) return it->second;
    return YAML::Node(YAML::NodeType::Undefined);
}

std::optional<std::string> applyEdits(const std::string& text, std::vector<TextEdit> edits)
{
    std::stable_sort(edits.begin(), edits.end(), [](const TextEdit& a, const TextEdit& b) { return a.begin < b.begin; });
    std::string out;
    std::size_t at = 0;
    for (const TextEdit& e : edits) {
        if (e.begin < at || e.end < e.begin || e.end > text.size()) return std::nullopt;
        out.append(text, at, e.begin - at).append(e.text);
        at = e.end;
    }
    return out.append(text, at, std::string::npos);
}

}  // namespace ts::yamlio

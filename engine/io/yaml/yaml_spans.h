// Internal to engine/io: where a yaml-cpp node's text lies in the file it was read from, and
// edits of that text. yaml-cpp marks where a node starts (a byte offset); this finds where it
// ends, so the lossless saver (experiment_text.cpp) can replace one value and keep the rest.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

namespace ts::yamlio {

struct Span {
    std::size_t begin = 0, end = 0;  // [begin, end) in bytes
};

class SourceText {
public:
    explicit SourceText(const std::string& text) : text_(text) {}
    const std::string& text() const { return text_; }
    std::string slice(Span s) const { return text_.substr(s.begin, s.end - s.begin); }

    // The node's own text: a scalar with its quotes, a flow collection with its brackets, a
    // block collection up to the end of its last entry. nullopt where that cannot be told
    // for sure (a null value, a plain scalar over several lines, a literal block, an anchor).
    std::optional<Span> span(const YAML::Node& node) const;
    // After the ':' that follows a mapping key ending at `keyEnd`; nullopt when there is none.
    std::optional<std::size_t> afterColon(std::size_t keyEnd) const;

    std::size_t lineStart(std::size_t pos) const;
    std::size_t nextLine(std::size_t pos) const;  // after the '\n' ending pos's line (or the text's end)
    bool onlySpaceBefore(std::size_t pos) const;  // nothing but spaces (and a "- ") from its line's start
    bool onlyIndentBefore(std::size_t pos) const;  // nothing but spaces from its line's start
    // Nothing but spaces and a comment from pos to the line's end.
    bool onlyCommentAfter(std::size_t pos) const;
    // The spaces and comment after pos on its line ("   # note"), or "" when there is none.
    std::string commentAfter(std::size_t pos) const;

private:
    const std::string& text_;
};

// One `key: value` of a mapping, by place in the text.
struct MapEntry {
    std::string key;
    YAML::Node value;
    Span keySpan;
    std::size_t colon = 0;          // just after the ':'
    std::optional<Span> valueSpan;  // none: an empty value
    bool blockValue = false;        // a block collection below the key
    std::size_t end() const { return valueSpan ? valueSpan->end : colon; }
};
// The entries of a mapping in file order; nullopt when a key is not a scalar or where one
// ends cannot be told (SourceText::span).
std::optional<std::vector<MapEntry>> entriesOf(const SourceText& source, const YAML::Node& map);

// The value of `key` in a mapping; an undefined node when it has none or is no mapping
// (yaml-cpp's operator[] gives a node that throws when asked anything).
YAML::Node valueOf(const YAML::Node& map, const std::string& key);

struct TextEdit {
    std::size_t begin = 0, end = 0;  // replaced range; begin == end inserts
    std::string text;
};

// The text with the edits made; nullopt when two of them overlap. Insertions at the same
// place keep the order they were given in.
std::optional<std::string> applyEdits(const std::string& text, std::vector<TextEdit> edits);

}  // namespace ts::yamlio

// Internal to engine/io: the lossless saver's part (experiment_text.cpp) for the sections other
// than the model and the layout: a changed section is edited key by key, so what the edit did
// not touch keeps its bytes (comments, key order, `0.2860` where the writer says `0.286`).
#pragma once
#include <optional>
#include <vector>

#include "io/yaml/yaml_spans.h"
#include "io/yaml/yaml_write.h"

namespace ts::yamlio {

// The edits that turn `value` (a value of the file, which the writer renders as `*before`;
// nullptr: the writer leaves it out, all defaults) into one that reads as `after` (the
// writer's rendering of the edited spec). The two renderings are compared, never the file's
// spellings, so only what the edit changed is touched:
// - a mapping: a changed key's value is edited in turn; an added key goes after the last one
//   (a line of its own, indented as its siblings, in a block mapping; `, key: value` in a flow
//   one); a key gone back to its default loses its line(s) (its `key: value` in a flow
//   mapping); keys the writer leaves out but the file states (a default spelt out) stay;
// - a list as long as before: item by item;
// - anything else: the value alone is replaced where it stands (one line, in flow form, for a
//   scalar or flow collection; a block value below its key as the writer writes it).
// nullopt when the text cannot be edited so (a value whose end is unknown: an anchor, a
// literal block, a plain scalar over several lines; a removed block entry sharing its line):
// the caller then rewrites the whole section.
std::optional<std::vector<TextEdit>> valueEdits(const SourceText& source, const YAML::Node& value, const Out* before,
                                                const Out& after);

}  // namespace ts::yamlio

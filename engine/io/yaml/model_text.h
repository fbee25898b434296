// Internal to engine/io: the model section's part of the lossless saver (experiment_text.cpp):
// attribute and checkpoint changes made in place, and model comparison up to spelling.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "io/yaml/yaml_spans.h"
#include "types/model_graph.h"

namespace ts::yamlio {

// Whether two values of attribute `key` of `op` are the same once the op normalises them
// (kernel_size 3 and [3, 3]); for an unknown op or attribute, whether they are equal.
bool sameAttributeValue(const std::string& op, const std::string& key, const AttrValue& a, const AttrValue& b);
// The graphs are equal but for such spellings.
bool sameModelUpToSpelling(const Graph& a, const Graph& b);

// The edits that turn the model section `model` (a node of the file read into `before`) into
// one that reads as `after`, when the two differ only in nodes' attributes and checkpoint
// flags: a changed value replaces that value's text, an added or removed one touches only its
// node's line(s). nullopt when the change needs the section rewritten.
std::optional<std::vector<TextEdit>> modelAttributeEdits(const SourceText& source, const YAML::Node& model, const Graph& before,
                                                         const Graph& after);

}  // namespace ts::yamlio

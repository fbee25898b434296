// YAML text from outside (experiment files) to a node tree, with aliases bounded. yaml-cpp
// shares an aliased node rather than copying it, so loading an "alias bomb" (nine levels of
// ten aliases each: a billion nodes from a kilobyte) is cheap, but every walk over the tree
// (the readers, the Model page's diff, the flattened parameters) would visit each alias's
// node again. This counts the nodes a full walk would visit and refuses the text first.
#pragma once
#include <cstdint>
#include <string>

#include <yaml-cpp/yaml.h>

namespace ts::yamlio {

// Aliases may add at most this many nodes to those written out in the text.
constexpr std::uint64_t kMaxAliasedNodes = 1'000'000;

// YAML::Load(text), or YAML::ParserException at the alias that goes past the bound, or at
// an alias inside the node it names (a cycle no walk would leave).
YAML::Node loadBounded(const std::string& text);

}  // namespace ts::yamlio

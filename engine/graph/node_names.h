// Names for nodes nobody named: the op in lower case without a "2d"-like suffix, then a
// number (conv1, batchnorm2, linear3). The YAML reader names unnamed layers this way and the
// model builder names the nodes it adds, so both spell them alike.
#pragma once
#include <string>

#include "types/model_graph.h"

namespace ts {

std::string nodeNameBase(const std::string& op);  // Conv2d -> conv, BatchNorm1d -> batchnorm
// `base` followed by the smallest number above every number already used after it.
std::string freshNodeName(const Graph& graph, const std::string& base);

}  // namespace ts

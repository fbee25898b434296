#include "graph/node_names.h"

#include <algorithm>
#include <cctype>

namespace ts {

std::string nodeNameBase(const std::string& op)
{
    std::string base;
    for (char c : op) base += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    // Conv2d -> conv, BatchNorm1d -> batchnorm: the suffix only adds noise to a name.
    if (base.size() > 2 && base.back() == 'd' && std::isdigit(static_cast<unsigned char>(base[base.size() - 2]))) {
        std::size_t end = base.size() - 1;
        while (end > 0 && std::isdigit(static_cast<unsigned char>(base[end - 1]))) --end;
        if (end > 0) base.erase(end);
    }
    return base;
}

std::string freshNodeName(const Graph& graph, const std::string& base)
{
    long highest = 0;
    auto consider = [&](const std::string& name) {
        if (name.size() <= base.size() || name.compare(0, base.size(), base) != 0) return;
        const std::string tail = name.substr(base.size());
        if (tail.size() > 9 || !std::all_of(tail.begin(), tail.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
            return;
        highest = std::max(highest, std::stol(tail));
    };
    for (const auto& n : graph.nodes) consider(n.name);
    for (const auto& in : graph.inputs) consider(in.name);
    return base + std::to_string(highest + 1);
}

}  // namespace ts

// How the Model page draws a model: where each node sits on the canvas and which nodes it
// groups into blocks. Drawing only: training, the cost model and export ignore it. Stored in
// the experiment file's `layout:` section (engine/io/layout_yaml.cpp). Plain data.
#pragma once
#include <map>
#include <string>
#include <vector>

namespace ts {

struct NodePosition {
    double x = 0, y = 0;
    bool operator==(const NodePosition&) const = default;
};

// A named group of nodes drawn as one (the Model page's blocks).
struct ModelBlock {
    std::string name;
    std::vector<std::string> nodes;
    bool collapsed = false;
    bool operator==(const ModelBlock&) const = default;
};

// Names that the model does not have are kept, not refused: the page uses them to place a
// node again when a rename is undone.
struct ModelLayout {
    std::map<std::string, NodePosition> positions;  // node (or graph input) name -> top-left on the canvas
    std::vector<ModelBlock> blocks;
    bool empty() const { return positions.empty() && blocks.empty(); }
    bool operator==(const ModelLayout&) const = default;
};

}  // namespace ts

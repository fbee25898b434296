// Internal to the ONNX export: one function per engine op type that writes its inference form
// as standard ONNX nodes (opset 17). The export (onnx_export.cpp) walks the graph and calls them.
#pragma once
#if TS_WITH_ONNX
#include <functional>
#include <string>
#include <vector>

#include "graph/graph.h"
#include "io/onnx/onnx_builder.h"

namespace ts::onnx_io {

// What one engine node's mapping sees.
struct NodeExport {
    OnnxBuilder& b;
    const CheckedNode& node;
    std::vector<std::string> in;      // ONNX value names of the node's inputs
    std::vector<TensorSpec> inSpecs;  // their specs (batch 1)
    TensorSpec outSpec;
    std::string out;                  // the value name the node's output should get
    bool quantize = false;
    int quantized = 0;                // weights this node stored as int8
    // The node's parameter `local` ("weight") from the checkpoint, checked against the op's
    // declared shape; throws OnnxExportError naming the node when missing or mis-shaped.
    std::function<const Tensor&(const std::string& local)> param;

    // A fresh value name for an intermediate step of this node: "<node>/<what>".
    std::string step(const std::string& what) { return b.fresh(node.name + "/" + what); }
    // The parameter as a float initializer named as in the checkpoint ("fc1.weight").
    std::string floatParam(const std::string& local);
};

// Writes the node; returns the value name that holds its output (normally `out`; Dropout,
// removed at inference, returns its input's).
using OpMapping = std::function<std::string(NodeExport&)>;
// Null for an op type without a mapping.
const OpMapping* findOpMapping(const std::string& opType);

}  // namespace ts::onnx_io
#endif

// The ONNX export as an op sees it (Op::exportOnnx): nodes, attributes and initialisers by
// name, no protobuf. io/onnx/ writes the protobuf behind this interface, so each op keeps its
// ONNX form beside its maths and a build without protobuf loses only the export.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "ops/op.h"

namespace ts {

using OnnxAttrValue = std::variant<std::int64_t, float, std::vector<std::int64_t>, std::string>;
using OnnxAttrs = std::vector<std::pair<std::string, OnnxAttrValue>>;

class OnnxGraphWriter {
public:
    virtual ~OnnxGraphWriter() = default;
    // `name`, or name_2, name_3, ... when taken.
    virtual std::string fresh(const std::string& name) = 0;
    virtual void node(const std::string& opType, const std::vector<std::string>& inputs,
                      const std::vector<std::string>& outputs, const std::string& name, const OnnxAttrs& attrs = {}) = 0;
    // Initialisers; each returns the name it got.
    virtual std::string floats(const std::string& name, const std::vector<std::int64_t>& dims, const float* data) = 0;
    virtual std::string int64s(const std::string& name, const std::vector<std::int64_t>& dims,
                               const std::vector<std::int64_t>& data) = 0;
    virtual std::string int8s(const std::string& name, const std::vector<std::int64_t>& dims,
                              const std::vector<std::int8_t>& data) = 0;

    std::string floats(const std::string& name, const std::vector<std::int64_t>& dims, const std::vector<float>& data)
    {
        return floats(name, dims, data.data());
    }
    std::string scalar(const std::string& name, float value) { return floats(name, {}, &value); }
};

// What one node's export sees.
struct OnnxNodeExport {
    OnnxGraphWriter& b;
    std::string name;  // the node's name
    const Attrs& attrs;
    std::vector<std::string> in;      // ONNX value names of the node's inputs
    std::vector<TensorSpec> inSpecs;  // their specs (batch 1)
    TensorSpec outSpec;
    std::string out;  // the value name the node's output should get
    bool quantize = false;
    int quantized = 0;  // weights this node stored as int8
    // The node's parameter `local` ("weight") from the checkpoint, checked against the op's
    // declared shape; throws naming the node when missing or mis-shaped.
    std::function<const Tensor&(const std::string& local)> param;

    // A fresh value name for an intermediate step of this node: "<node>/<what>".
    std::string step(const std::string& what) { return b.fresh(name + "/" + what); }
    // The parameter as a float initialiser named as in the checkpoint ("fc1.weight").
    std::string floatParam(const std::string& local);
    // A Linear or Conv weight ([out, ...]): floats, or with `quantize` int8 with one symmetric
    // scale per output channel and a DequantizeLinear giving the floats back.
    std::string weightInput(const std::string& local);
};

}  // namespace ts

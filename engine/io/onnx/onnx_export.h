// ONNX export: the inference part of a Graph (rule 2: walked from the Graph itself, no second
// model description) with a checkpoint's weights, as an ONNX model (IR version 8, opset 17)
// that any runtime can load. The batch dimension stays dynamic: every input and output has
// dim_param "batch" on dimension 0, and no node carries a constant that would fix it
// (Flatten with axis 1, Reshape with 0 for the batch).
//
// Each op writes its own form (Op::exportOnnx, ops/onnx_writer.h); losses are dropped with the
// label input only they read, Dropout is removed (the identity at inference).
// Any other op is refused with an OnnxExportError naming the node.
//
// Quantised export (quantizeInt8): Linear and Conv2d weights are stored as int8 with one
// symmetric scale per output channel and turned back into floats by a DequantizeLinear node
// (axis 0), the simplest standard form; activations stay float.
#pragma once
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "io/checkpoint/safetensors.h"
#include "types/message.h"
#include "types/model_graph.h"

namespace ts {

struct OnnxExportOptions {
    bool probabilities = false;  // a second output "probabilities": Softmax of the logits
    bool quantizeInt8 = false;
    // metadata_props of the model, in order ("class_names", "normalize_mean", ...).
    std::vector<std::pair<std::string, std::string>> metadata;
};

struct OnnxExportInfo {
    std::string path;        // the file written (exportOnnx)
    std::int64_t bytes = 0;  // its size
    std::vector<std::string> inputs;   // the model's input names ("image")
    std::vector<std::string> outputs;  // "logits", and "probabilities" when asked
    std::vector<std::string> dropped;  // engine nodes left out: losses, dropout, nodes the output does not use
    int nodes = 0;                     // ONNX nodes written
    int quantizedWeights = 0;          // weights stored as int8
    std::optional<Message> note;       // for the user: a symbolic link followed (io/output_file.h)
};

// A graph or weights that cannot be exported. node() names the engine node at fault (empty
// when none is); what() says what is wrong and what to do.
class OnnxExportError : public std::runtime_error {
public:
    OnnxExportError(std::string node, const std::string& message) : std::runtime_error(message), node_(std::move(node)) {}
    const std::string& node() const { return node_; }

private:
    std::string node_;
};

// False when the engine was built without protobuf (every export then throws saying so).
bool onnxExportAvailable();
// Throws the OnnxExportError that says so, when it is not available.
void requireOnnxExport();

// How an op type is exported: mapped to ONNX nodes, dropped (losses: they need labels and
// have no inference meaning), or refused (an export of a graph using it fails naming the node).
enum class OnnxOpSupport { Mapped, Dropped, Refused };
OnnxOpSupport onnxOpSupport(const std::string& opType);

// The serialized ModelProto. `weights` holds every parameter and buffer by graph name, as a
// checkpoint does ("fc1.weight", "bn1.running_mean"). Throws OnnxExportError.
std::string onnxModelBytes(const Graph& graph, const NamedTensors& weights, const OnnxExportOptions& options,
                           OnnxExportInfo* info = nullptr);

// Writes the model to `path` through a temporary file beside it, renamed into place, so a
// failure leaves no partial file. Throws OnnxExportError (the file and the reason).
OnnxExportInfo exportOnnx(const Graph& graph, const NamedTensors& weights, const OnnxExportOptions& options,
                          const std::string& path);

}  // namespace ts

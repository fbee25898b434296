// The ONNX export's walk: the Graph checked once (shapes at batch 1), the nodes the output
// needs in execution order, each written by its op (Op::exportOnnx) through ProtoWriter, the model's
// inputs and outputs with a dynamic batch, its metadata, then the file, atomically.
#include "io/onnx/onnx_export.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <variant>

#include "graph/graph.h"
#include "ops/onnx_writer.h"
#include "ops/registry.h"
#if TS_WITH_ONNX
#include "io/onnx/onnx_builder.h"
#endif
#include "io/output_file.h"

namespace ts {

bool onnxExportAvailable()
{
#if TS_WITH_ONNX
    return true;
#else
    return false;
#endif
}

void requireOnnxExport()
{
    if (!onnxExportAvailable())
        throw OnnxExportError("", "this TrainStudio was built without ONNX export (protobuf was not found); install "
                                  "libprotobuf-dev, protobuf-compiler and libonnx-dev and build it again");
}

// Every registered op but a loss has an ONNX form (tst_op_registry holds each op to it).
OnnxOpSupport onnxOpSupport(const std::string& opType)
{
    const Op* op = OpRegistry::builtin().find(opType);
    if (!op) return OnnxOpSupport::Refused;
    return op->isLoss() ? OnnxOpSupport::Dropped : OnnxOpSupport::Mapped;
}

#if TS_WITH_ONNX
namespace {

constexpr std::int64_t kIrVersion = 8, kOpset = 17;

std::string nodeText(const CheckedNode& n) { return "node '" + n.name + "' (" + n.op->type() + ")"; }

// The ops' view of the export (ops/onnx_writer.h) written into the protobuf graph.
class ProtoWriter final : public OnnxGraphWriter {
public:
    explicit ProtoWriter(onnx_io::OnnxBuilder& b) : b_(b) {}
    std::string fresh(const std::string& name) override { return b_.fresh(name); }
    void node(const std::string& opType, const std::vector<std::string>& inputs, const std::vector<std::string>& outputs,
              const std::string& name, const OnnxAttrs& attrs) override
    {
        onnx::NodeProto& n = b_.node(opType, inputs, outputs, name);
        // Not a structured binding: clang with OpenMP (the sanitizer build) cannot capture one.
        for (const auto& a : attrs) std::visit([&](const auto& v) { onnx_io::OnnxBuilder::attr(n, a.first, v); }, a.second);
    }
    std::string floats(const std::string& name, const std::vector<std::int64_t>& dims, const float* data) override
    {
        return b_.floats(name, dims, data);
    }
    std::string int64s(const std::string& name, const std::vector<std::int64_t>& dims,
                       const std::vector<std::int64_t>& data) override
    {
        return b_.int64s(name, dims, data);
    }
    std::string int8s(const std::string& name, const std::vector<std::int64_t>& dims,
                      const std::vector<std::int8_t>& data) override
    {
        return b_.int8s(name, dims, data);
    }

private:
    onnx_io::OnnxBuilder& b_;
};

onnx::TensorProto::DataType onnxType(DType t, const std::string& what)
{
    switch (t) {
    case DType::F32: return onnx::TensorProto::FLOAT;
    case DType::I64: return onnx::TensorProto::INT64;
    case DType::I32: return onnx::TensorProto::INT32;
    case DType::U8: return onnx::TensorProto::UINT8;
    default: throw OnnxExportError("", what + " is " + std::string(dtypeName(t)) + ", which the export does not write");
    }
}

// [batch, d1, d2, ...]: dimension 0 is the symbol "batch", the rest the graph's own sizes; with
// `sequence` (a language model's: see sequenceLength), dimension 1 is the symbol "sequence".
void describe(onnx::ValueInfoProto& v, const std::string& name, const TensorSpec& spec, bool sequence = false)
{
    v.set_name(name);
    onnx::TypeProto_Tensor& t = *v.mutable_type()->mutable_tensor_type();
    t.set_elem_type(onnxType(spec.dtype, "'" + name + "'"));
    onnx::TensorShapeProto& shape = *t.mutable_shape();
    shape.add_dim()->set_dim_param("batch");
    for (int d = 1; d < spec.shape.rank(); ++d)
        if (d == 1 && sequence) shape.add_dim()->set_dim_param("sequence");
        else shape.add_dim()->set_dim_value(spec.shape[d]);
}

// A model of token ids [batch, T] whose every step keeps T as dimension 1 (a language model's
// logits [batch, T, vocabulary]) or pools it away (drops dimension 1: a text classifier's mean
// over the tokens) takes any length in ONNX, since each sequence op's form reads T from the
// data: T is left symbolic. Any other model (one that flattens T into features, say) keeps the
// sizes it was checked at.
bool sequenceModel(const CheckedGraph& g, const std::vector<bool>& usedInput, const std::vector<bool>& needed)
{
    int tokens = -1;
    for (std::size_t v = 0; v < g.values.size() && tokens < 0; ++v)
        if (usedInput[v] && g.values[v].spec.dtype == DType::I64 && g.values[v].spec.shape.rank() == 2) tokens = int(v);
    if (tokens < 0) return false;
    const std::int64_t length = g.values[std::size_t(tokens)].spec.shape[1];
    std::vector<bool> carries(g.values.size(), false);  // has T as dimension 1
    carries[std::size_t(tokens)] = true;
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        const CheckedNode& node = g.nodes[i];
        const auto carrying = std::find_if(node.inputs.begin(), node.inputs.end(), [&](int v) { return carries[std::size_t(v)]; });
        if (!needed[i] || carrying == node.inputs.end()) continue;
        const Shape& in = g.values[std::size_t(*carrying)].spec.shape;
        const Shape& out = g.values[std::size_t(node.output)].spec.shape;
        if (out.rank() >= 2 && out[1] == length) {
            carries[std::size_t(node.output)] = true;
            continue;
        }
        std::vector<std::int64_t> pooled = in.dims();
        pooled.erase(pooled.begin() + 1);
        if (out.dims() != pooled) return false;
    }
    return true;
}

// Which nodes the output depends on.
std::vector<bool> neededNodes(const CheckedGraph& g)
{
    std::vector<bool> needed(g.nodes.size(), false);
    std::vector<int> stack{g.outputValue};
    while (!stack.empty()) {
        const int v = stack.back();
        stack.pop_back();
        const int producer = g.values[std::size_t(v)].producer;
        if (producer < 0 || needed[std::size_t(producer)]) continue;
        needed[std::size_t(producer)] = true;
        for (int in : g.nodes[std::size_t(producer)].inputs) stack.push_back(in);
    }
    return needed;
}

}  // namespace
#endif

std::string onnxModelBytes(const Graph& graph, const NamedTensors& weights, const OnnxExportOptions& options,
                           OnnxExportInfo* info)
{
#if !TS_WITH_ONNX
    (void)graph, (void)weights, (void)options, (void)info;
    requireOnnxExport();
    return {};
#else
    CheckedGraph g;
    try {
        g = checkGraph(graph, 1);
    } catch (const GraphError& e) {
        throw OnnxExportError(e.node(), std::string("the model does not check, so it cannot be exported: ") + e.what());
    }
    if (g.outputValue < 0) throw OnnxExportError("", "the model has no output to export");
    std::map<std::string, const Tensor*> byName;
    for (const auto& [name, t] : weights) byName[name] = &t;

    onnx::ModelProto model;
    model.set_ir_version(kIrVersion);
    model.set_producer_name("TrainStudio");
    model.set_producer_version(TS_VERSION);
    onnx::OperatorSetIdProto& opset = *model.add_opset_import();
    opset.set_domain("");
    opset.set_version(kOpset);
    onnx::GraphProto& out = *model.mutable_graph();
    out.set_name("trainstudio_model");
    onnx_io::OnnxBuilder b(out);
    ProtoWriter writer(b);
    OnnxExportInfo result;

    const std::vector<bool> needed = neededNodes(g);
    std::vector<std::string> valueNames(g.values.size());
    b.reserve("logits");
    if (options.probabilities) b.reserve("probabilities");
    std::vector<bool> usedInput(g.values.size(), false);
    for (std::size_t v = 0; v < g.values.size(); ++v) {
        if (g.values[v].producer >= 0) continue;
        bool used = std::size_t(g.outputValue) == v;
        for (int c : g.values[v].consumers) used = used || needed[std::size_t(c)];
        usedInput[v] = used;  // not the labels: only the losses read them
    }
    const bool sequence = sequenceModel(g, usedInput, needed);
    for (std::size_t v = 0; v < g.values.size(); ++v) {
        if (!usedInput[v]) continue;
        valueNames[v] = b.fresh(g.values[v].name);
        describe(*out.add_input(), valueNames[v], g.values[v].spec, sequence);
        result.inputs.push_back(valueNames[v]);
    }

    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        const CheckedNode& node = g.nodes[i];
        if (!needed[i]) {
            result.dropped.push_back(node.name);
            continue;
        }
        const bool isOutput = node.output == g.outputValue;
        OnnxNodeExport e{writer, node.name, node.attrs, {}, {}, g.values[std::size_t(node.output)].spec,
                         isOutput ? std::string("logits") : b.fresh(node.name), options.quantizeInt8};
        for (int in : node.inputs) {
            e.in.push_back(valueNames[std::size_t(in)]);
            e.inSpecs.push_back(g.values[std::size_t(in)].spec);
        }
        e.param = [&](const std::string& local) -> const Tensor& {
            std::string name = node.name + "." + local;
            for (const ParamSpec& p : node.params)
                if (p.name == name && p.tied()) name = p.tiedTo;  // the owner's table (weight tying)
            const auto it = byName.find(name);
            if (it == byName.end())
                throw OnnxExportError(node.name, nodeText(node) + ": the weights have no '" + name +
                                                     "'; export a checkpoint of this model");
            const Tensor& t = *it->second;
            for (const ParamSpec& p : node.params)
                if ((p.name == name || p.tiedTo == name) && (t.shape() != p.shape || t.dtype() != DType::F32))
                    throw OnnxExportError(node.name, nodeText(node) + ": weight '" + name + "' is " + t.shape().str() +
                                                         " " + std::string(dtypeName(t.dtype())) + ", the model needs " +
                                                         p.shape.str() + " f32");
            return t;
        };
        std::string produced = node.op->exportOnnx(e);
        if (produced.empty())
            throw OnnxExportError(node.name, nodeText(node) + " has no ONNX form in this exporter" +
                                                 (node.op->isLoss() ? " (a loss cannot be the model's output)" : "") +
                                                 "; export a model without it, or set the graph's output before it");
        if (produced != e.out) result.dropped.push_back(node.name);  // removed at inference (dropout)
        if (isOutput && produced != "logits") b.node("Identity", {produced}, {"logits"}, node.name + "/output");
        valueNames[std::size_t(node.output)] = isOutput ? std::string("logits") : produced;
        result.quantizedWeights += e.quantized;
    }

    const TensorSpec& logits = g.values[std::size_t(g.outputValue)].spec;
    describe(*out.add_output(), "logits", logits, sequence);
    result.outputs.push_back("logits");
    if (options.probabilities) {
        if (logits.dtype != DType::F32) throw OnnxExportError("", "probabilities need a float output");
        onnx_io::OnnxBuilder::attr(b.node("Softmax", {"logits"}, {"probabilities"}, "probabilities"), "axis",
                          std::int64_t{logits.shape.rank() - 1});
        describe(*out.add_output(), "probabilities", logits, sequence);
        result.outputs.push_back("probabilities");
    }
    for (const auto& [key, value] : options.metadata) {
        onnx::StringStringEntryProto& entry = *model.add_metadata_props();
        entry.set_key(key);
        entry.set_value(value);
    }
    result.nodes = b.nodeCount();
    std::string bytes;
    if (!model.SerializeToString(&bytes))
        throw OnnxExportError("", "the model could not be serialized (over protobuf's 2 GiB limit?)");
    if (info) *info = result;
    return bytes;
#endif
}

OnnxExportInfo exportOnnx(const Graph& graph, const NamedTensors& weights, const OnnxExportOptions& options,
                          const std::string& path)
{
    OnnxExportInfo info;
    const std::string bytes = onnxModelBytes(graph, weights, options, &info);
    const OutputPlan plan = writeOutputFile(path, bytes);
    info.path = path;
    info.note = plan.note;
    info.bytes = std::int64_t(bytes.size());
    return info;
}

}  // namespace ts

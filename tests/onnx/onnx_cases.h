// What both ONNX suites do with a graph: random weights and inputs, our CPU inference (the
// numerical reference), and the OrtCase that asks ONNX Runtime for the same outputs.
#pragma once
#include <cmath>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "exec/executor.h"
#include "graph/graph.h"
#include "io/checkpoint/checkpoint.h"
#include "ops/op_case.h"
#include "ort_runner.h"

namespace ts::test {

// Every parameter drawn uniformly from [-0.5, 0.5], running variances from [0.5, 2], so
// batch norm's inference form is exercised with statistics that are not the defaults.
inline NamedTensors randomWeights(const Graph& graph, std::uint64_t seed)
{
    Executor ex(checkGraph(graph, 1), cpuBackend(), false);
    std::mt19937_64 rng(seed);
    for (Parameter& p : ex.parameters()) {
        const bool variance = p.name.size() > 11 && p.name.ends_with("running_var");
        std::uniform_real_distribution<float> d(variance ? 0.5f : -0.5f, variance ? 2.0f : 0.5f);
        float* v = p.value.data<float>();
        for (std::int64_t i = 0; i < p.value.numel(); ++i) v[i] = d(rng);
    }
    return captureWeights(ex);
}

// Random values for a graph input, drawn as its op case says where that bounds them
// (InputFill::integers for indices, uniform for an op with a restricted domain, 0s and 1s for a
// mask); any other float input uniformly in [-3, 3] (the other fills only keep finite
// differences off kinks).
inline void drawInput(Tensor& t, const InputFill& fill, std::mt19937_64& rng)
{
    if (t.dtype() == DType::I64) {
        if (fill.kind != InputFill::Kind::Integers) throw std::logic_error("an i64 input needs InputFill::integers");
        std::uniform_int_distribution<std::int64_t> d(std::int64_t(fill.a), std::int64_t(fill.b) - 1);
        for (std::int64_t i = 0; i < t.numel(); ++i) t.data<std::int64_t>()[i] = d(rng);
        return;
    }
    if (fill.kind == InputFill::Kind::Mask) {
        std::bernoulli_distribution real(fill.a);
        for (std::int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = real(rng) ? 1.0f : 0.0f;
        return;
    }
    const bool bounded = fill.kind == InputFill::Kind::Uniform;
    std::uniform_real_distribution<float> d(bounded ? float(fill.a) : -3.0f, bounded ? float(fill.b) : 3.0f);
    for (std::int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = d(rng);
}

// The graph at `batch` on the CPU backend in inference mode: random inputs (drawInput, by
// `fills` per graph input; floats in [-3, 3] where none is given), and the output. Returns
// the OrtCase for `model`.
inline OrtCase cpuReference(const QString& name, const QString& model, const Graph& graph, const NamedTensors& weights,
                            std::int64_t batch, std::uint64_t seed, const std::vector<InputFill>& fills = {})
{
    const CheckedGraph cg = checkGraph(graph, batch);
    Executor ex(cg, cpuBackend(), false);
    restoreWeights(ex, weights, "random weights");
    OrtCase c{name, model, {}, {}};
    std::mt19937_64 rng(seed);
    for (std::size_t k = 0; k < graph.inputs.size(); ++k) {
        const GraphInput& in = graph.inputs[k];
        std::vector<std::int64_t> dims{batch};
        for (auto d : in.shape.dims()) dims.push_back(d);
        Tensor t = Tensor::empty(Shape(dims), in.dtype);
        drawInput(t, k < fills.size() ? fills[k] : InputFill::normal(), rng);
        ex.setInput(in.name, t);
        c.inputs.push_back({QString::fromStdString(in.name), in.dtype == DType::I64 ? "int64" : "float32", dims,
                            QByteArray(static_cast<const char*>(t.raw()), qsizetype(t.bytes()))});
    }
    ex.forward();
    const ValueInfo& out = cg.values[std::size_t(cg.outputValue)];
    const Tensor y = ex.value(out.name);
    const float* p = y.data<float>();
    c.expected.push_back({"logits", y.shape().dims(), std::vector<float>(p, p + y.numel())});
    return c;
}

}  // namespace ts::test

namespace ts::test {

// The weights as an int8 export defines them: each Linear/Conv2d weight rounded per output
// channel to multiples of scale = max |w| / 127 (zero point 0). Written here from the
// definition, independently of the exporter.
inline NamedTensors int8RoundedWeights(const Graph& graph, const NamedTensors& weights)
{
    std::set<std::string> quantized;
    for (const Node& n : graph.nodes)
        if (n.op == "Linear" || n.op == "Conv2d") quantized.insert(n.name + ".weight");
    NamedTensors out;
    for (const auto& [name, t] : weights) {
        Tensor r = t.clone();
        if (quantized.count(name)) {
            const std::int64_t rows = t.shape()[0], cols = t.numel() / rows;
            for (std::int64_t row = 0; row < rows; ++row) {
                float* w = r.data<float>() + row * cols;
                float top = 0;
                for (std::int64_t k = 0; k < cols; ++k) top = std::max(top, std::fabs(w[k]));
                const float scale = top > 0 ? top / 127.0f : 1.0f;
                for (std::int64_t k = 0; k < cols; ++k) w[k] = std::nearbyint(w[k] / scale) * scale;
            }
        }
        out.emplace_back(name, r);
    }
    return out;
}

}  // namespace ts::test

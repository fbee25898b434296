#include "io/onnx/onnx_builder.h"
#if TS_WITH_ONNX
#include <cstring>

namespace ts::onnx_io {

std::string OnnxBuilder::fresh(const std::string& name)
{
    std::string candidate = name;
    for (int k = 2; taken_.count(candidate); ++k) candidate = name + "_" + std::to_string(k);
    taken_.insert(candidate);
    return candidate;
}

onnx::NodeProto& OnnxBuilder::node(const std::string& opType, const std::vector<std::string>& inputs,
                                   const std::vector<std::string>& outputs, const std::string& name)
{
    onnx::NodeProto& n = *graph_.add_node();
    n.set_op_type(opType);
    n.set_name(name);
    for (const std::string& in : inputs) n.add_input(in);
    for (const std::string& out : outputs) n.add_output(out);
    return n;
}

void OnnxBuilder::attr(onnx::NodeProto& n, const std::string& name, std::int64_t value)
{
    onnx::AttributeProto& a = *n.add_attribute();
    a.set_name(name);
    a.set_type(onnx::AttributeProto::INT);
    a.set_i(value);
}

void OnnxBuilder::attr(onnx::NodeProto& n, const std::string& name, float value)
{
    onnx::AttributeProto& a = *n.add_attribute();
    a.set_name(name);
    a.set_type(onnx::AttributeProto::FLOAT);
    a.set_f(value);
}

void OnnxBuilder::attr(onnx::NodeProto& n, const std::string& name, const std::vector<std::int64_t>& values)
{
    onnx::AttributeProto& a = *n.add_attribute();
    a.set_name(name);
    a.set_type(onnx::AttributeProto::INTS);
    for (std::int64_t v : values) a.add_ints(v);
}

void OnnxBuilder::attr(onnx::NodeProto& n, const std::string& name, const std::string& value)
{
    onnx::AttributeProto& a = *n.add_attribute();
    a.set_name(name);
    a.set_type(onnx::AttributeProto::STRING);
    a.set_s(value);
}

namespace {

onnx::TensorProto& initializer(onnx::GraphProto& g, const std::string& name, const std::vector<std::int64_t>& dims,
                               onnx::TensorProto::DataType type)
{
    onnx::TensorProto& t = *g.add_initializer();
    t.set_name(name);
    t.set_data_type(type);
    for (std::int64_t d : dims) t.add_dims(d);
    return t;
}

std::int64_t count(const std::vector<std::int64_t>& dims)
{
    std::int64_t n = 1;
    for (std::int64_t d : dims) n *= d;
    return n;
}

}  // namespace

// raw_data is little-endian by the format's definition, as is every machine the engine runs on.
std::string OnnxBuilder::floats(const std::string& name, const std::vector<std::int64_t>& dims, const float* data)
{
    const std::string n = fresh(name);
    initializer(graph_, n, dims, onnx::TensorProto::FLOAT)
        .set_raw_data(data, static_cast<std::size_t>(count(dims)) * sizeof(float));
    return n;
}

std::string OnnxBuilder::int64s(const std::string& name, const std::vector<std::int64_t>& dims,
                                const std::vector<std::int64_t>& data)
{
    const std::string n = fresh(name);
    initializer(graph_, n, dims, onnx::TensorProto::INT64).set_raw_data(data.data(), data.size() * sizeof(std::int64_t));
    return n;
}

std::string OnnxBuilder::int8s(const std::string& name, const std::vector<std::int64_t>& dims,
                               const std::vector<std::int8_t>& data)
{
    const std::string n = fresh(name);
    initializer(graph_, n, dims, onnx::TensorProto::INT8).set_raw_data(data.data(), data.size());
    return n;
}

}  // namespace ts::onnx_io
#endif

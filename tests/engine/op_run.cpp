#include "op_run.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "backend/backend.h"
#include "ops/registry.h"

namespace ts::test {

Tensor seq(const Shape& shape, double a, double b, double scale)
{
    Tensor t = Tensor::empty(shape);
    for (std::int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = static_cast<float>(scale * std::sin(a * double(i) + b));
    return t;
}

Tensor dyFor(const Tensor& y) { return seq(y.shape(), 0.7, 0.3); }

OpRun::OpRun(const std::string& type, const Attrs& given, std::vector<Tensor> inputs, std::vector<Tensor> params,
             bool training, std::uint64_t seed)
    : op_(OpRegistry::builtin().find(type)), inputs_(std::move(inputs)), params_(std::move(params)), training_(training),
      seed_(seed)
{
    if (!op_) qFatal("op %s is not registered", type.c_str());
    if (const std::string err = normaliseAttrs(op_->attrSpecs(), given, attrs_); !err.empty())
        qFatal("%s: %s", type.c_str(), err.c_str());
    std::vector<TensorSpec> specs;
    for (const Tensor& t : inputs_) specs.push_back({t.shape(), t.dtype()});
    out_ = op_->inferOutput(attrs_, specs);
    paramSpecs_ = op_->params(attrs_, specs);
    if (paramSpecs_.size() != params_.size()) qFatal("%s: wrong number of parameters", type.c_str());
    for (const TensorSpec& s : op_->saved(attrs_, specs, out_)) saved_.push_back(Tensor::zeros(s.shape, s.dtype));
    workspace_.resize(std::max<std::size_t>(1, op_->workspaceBytes(cpuBackend(), attrs_, specs, out_)));
}

OpContext OpRun::context()
{
    OpContext c{cpuBackend(), attrs_};
    c.inputs = inputs_;
    c.output = y_;
    c.params = params_;
    c.saved = saved_;
    c.workspace = workspace_.data();
    c.training = training_;
    c.seed = seed_;
    return c;
}

Tensor OpRun::forward()
{
    y_ = Tensor::zeros(out_.shape);
    OpContext c = context();
    op_->forward(c);
    return y_;
}

std::vector<Tensor> OpRun::backward(const Tensor& dy, GradWrite write)
{
    OpContext c = context();
    c.gradOutput = dy;
    std::vector<Tensor> grads;
    for (std::size_t i = 0; i < inputs_.size(); ++i) {
        Tensor dx;  // none for an index or a mask
        if (inputs_[i].dtype() == DType::F32 && op_->inputDifferentiable(int(i))) {
            dx = Tensor::zeros(inputs_[i].shape());
            if (write == GradWrite::Overwrite) std::fill_n(dx.data<float>(), dx.numel(), std::numeric_limits<float>::quiet_NaN());
            grads.push_back(dx);
        }
        c.gradInputs.push_back(dx);
        c.gradInputWrite.push_back(write);
    }
    for (std::size_t i = 0; i < params_.size(); ++i) {
        Tensor dp;
        if (paramSpecs_[i].trainable) grads.push_back(dp = Tensor::zeros(params_[i].shape()));
        c.gradParams.push_back(dp);
    }
    op_->backward(c);
    return grads;
}

void expectClose(const Tensor& got, const std::vector<float>& want, const QString& what)
{
    QVERIFY2(got.numel() == std::int64_t(want.size()),
             qPrintable(what + QString(": %1 values, PyTorch has %2").arg(got.numel()).arg(want.size())));
    for (std::size_t i = 0; i < want.size(); ++i) {
        const float g = got.data<float>()[i];
        QVERIFY2(std::abs(g - want[i]) <= 1e-5f + 1e-5f * std::abs(want[i]),
                 qPrintable(what + QString("[%1]: %2, PyTorch %3").arg(i).arg(double(g), 0, 'g', 9).arg(double(want[i]), 0, 'g', 9)));
    }
}

void expectReference(const std::string& type, const Attrs& attrs, const std::vector<Tensor>& inputs,
                     const std::vector<Tensor>& params, const Reference& ref)
{
    OpRun run(type, attrs, inputs, params);
    const Tensor y = run.forward();
    QCOMPARE(y.shape(), ref.shape);
    expectClose(y, ref.y, "y");
    std::vector<GradWrite> writes{GradWrite::Accumulate};
    if (run.op().overwritesFreshGradients()) writes.push_back(GradWrite::Overwrite);
    for (GradWrite write : writes) {
        const std::vector<Tensor> grads = run.backward(dyFor(y), write);
        QCOMPARE(grads.size(), ref.grads.size());
        const QString how = write == GradWrite::Overwrite ? " (overwrite)" : "";
        for (std::size_t i = 0; i < grads.size(); ++i) expectClose(grads[i], ref.grads[i], QString("grad %1").arg(i) + how);
    }
}

bool Refusal::names(const std::string& a) const { return std::find(attrs.begin(), attrs.end(), a) != attrs.end(); }

Refusal refusal(const std::string& type, const Attrs& given, const std::vector<TensorSpec>& inputs)
{
    const Op* op = OpRegistry::builtin().find(type);
    if (!op) qFatal("op %s is not registered", type.c_str());
    Attrs attrs;
    if (const std::string err = normaliseAttrs(op->attrSpecs(), given, attrs); !err.empty()) return {QString::fromStdString(err), {}};
    try {
        op->inferOutput(attrs, inputs);
    } catch (const OpError& e) {
        return {QString::fromUtf8(e.what()), e.attrs()};
    }
    return {};
}

}  // namespace ts::test

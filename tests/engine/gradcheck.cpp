#include "gradcheck.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

#include "backend/backend.h"
#include "ops/registry.h"

namespace ts::test {

namespace {

struct Instance {
    const Op* op = nullptr;
    Attrs attrs;
    std::vector<Tensor> inputs, params, saved;
    std::vector<ParamSpec> paramSpecs;
    TensorSpec out;
    std::vector<char> workspace;
};

Instance instantiate(const std::string& type, const Attrs& given, const std::vector<TensorSpec>& inputSpecs)
{
    Instance in;
    in.op = OpRegistry::builtin().find(type);
    if (!in.op) throw std::invalid_argument("unknown op " + type);
    const std::string err = normaliseAttrs(in.op->attrSpecs(), given, in.attrs);
    if (!err.empty()) throw std::invalid_argument(type + ": " + err);
    in.out = in.op->inferOutput(in.attrs, inputSpecs);
    in.paramSpecs = in.op->params(in.attrs, inputSpecs);
    for (const auto& s : in.op->saved(in.attrs, inputSpecs, in.out)) in.saved.push_back(Tensor::zeros(s.shape, s.dtype));
    in.workspace.resize(std::max<std::size_t>(1, in.op->workspaceBytes(cpuBackend(), in.attrs, inputSpecs, in.out)));
    return in;
}

OpContext context(Instance& in, Tensor output, bool training, std::uint64_t seed)
{
    OpContext ctx{cpuBackend(), in.attrs};
    ctx.inputs = in.inputs;
    ctx.output = std::move(output);
    ctx.params = in.params;
    ctx.saved = in.saved;
    ctx.workspace = in.workspace.data();
    ctx.training = training;
    ctx.seed = seed;
    return ctx;
}

double objective(Instance& in, const Tensor& r, bool training, std::uint64_t seed)
{
    Tensor out = Tensor::zeros(in.out.shape, in.out.dtype);
    OpContext ctx = context(in, out, training, seed);
    in.op->forward(ctx);
    double j = 0;
    const float* o = out.data<float>();
    const float* w = r.data<float>();
    for (std::int64_t i = 0; i < out.numel(); ++i) j += double(o[i]) * w[i];
    return j;
}

Tensor garbageLike(const Tensor& t, std::mt19937_64& rng)
{
    Tensor g = Tensor::empty(t.shape());
    std::uniform_real_distribution<float> d(-5.f, 5.f);
    for (std::int64_t i = 0; i < g.numel(); ++i) g.data<float>()[i] = d(rng);
    return g;
}

}  // namespace

// The engine's own drawing (ops/op_case.h), so the gradient check and the self-test agree.
static Fill fillFrom(InputFill fill)
{
    return [fill](Tensor& t, std::mt19937_64& rng) { fillInput(fill, t, rng); };
}

Fill normalFill(double stddev) { return fillFrom(InputFill::normal(stddev)); }
Fill uniformFill(double lo, double hi) { return fillFrom(InputFill::uniform(lo, hi)); }
Fill awayFromZero(double margin) { return fillFrom(InputFill::awayFromZero(margin)); }
Fill distinctValues(double spacing) { return fillFrom(InputFill::distinct(spacing)); }
Fill integerFill(std::int64_t lo, std::int64_t hi) { return fillFrom(InputFill::integers(lo, hi)); }

std::string gradCheck(const GradCase& c)
{
    std::mt19937_64 rng(c.seed);
    Instance in = instantiate(c.op, c.attrs, c.inputs);
    for (std::size_t i = 0; i < c.inputs.size(); ++i) {
        Tensor t = Tensor::zeros(c.inputs[i].shape, c.inputs[i].dtype);
        if (i < c.fills.size() && c.fills[i]) c.fills[i](t, rng);
        else if (t.dtype() == DType::F32) normalFill()(t, rng);
        in.inputs.push_back(t);
    }
    for (const auto& p : in.paramSpecs) {  // random, not the usual init: zero biases would hide bugs
        Tensor t = Tensor::empty(p.shape);
        p.trainable ? normalFill(0.5)(t, rng) : uniformFill(0.5, 1.5)(t, rng);
        in.params.push_back(t);
    }
    Tensor r = Tensor::empty(in.out.shape);
    normalFill()(r, rng);
    const std::uint64_t seed = rng();

    // Analytic gradients on top of garbage.
    Tensor out = Tensor::zeros(in.out.shape, in.out.dtype);
    OpContext ctx = context(in, out, c.training, seed);
    in.op->forward(ctx);
    ctx.gradOutput = r;
    std::vector<Tensor> garbage;
    std::vector<std::pair<std::string, Tensor*>> probes;  // name, the tensor perturbed
    for (std::size_t i = 0; i < in.inputs.size(); ++i) {
        if (in.inputs[i].dtype() == DType::F32 && in.op->inputDifferentiable(static_cast<int>(i))) {
            garbage.push_back(garbageLike(in.inputs[i], rng));
            ctx.gradInputs.push_back(garbage.back().clone());
            probes.emplace_back("input " + std::to_string(i), &in.inputs[i]);
        } else {
            ctx.gradInputs.emplace_back();
        }
    }
    for (std::size_t i = 0; i < in.params.size(); ++i) {
        if (in.paramSpecs[i].trainable) {
            garbage.push_back(garbageLike(in.params[i], rng));
            ctx.gradParams.push_back(garbage.back().clone());
            probes.emplace_back("parameter '" + in.paramSpecs[i].name + "'", &in.params[i]);
        } else {
            ctx.gradParams.emplace_back();
        }
    }
    in.op->backward(ctx);
    std::vector<Tensor> analytic;
    for (auto& t : ctx.gradInputs)
        if (t.defined()) analytic.push_back(t);
    for (auto& t : ctx.gradParams)
        if (t.defined()) analytic.push_back(t);

    std::ostringstream report;
    int failures = 0;
    for (std::size_t k = 0; k < probes.size(); ++k) {
        Tensor& x = *probes[k].second;
        const float* a = analytic[k].data<float>();
        const float* g = garbage[k].data<float>();
        std::vector<std::int64_t> points(static_cast<std::size_t>(x.numel()));
        std::iota(points.begin(), points.end(), 0);
        if (static_cast<int>(points.size()) > c.maxPointsPerTensor) {
            std::shuffle(points.begin(), points.end(), rng);
            points.resize(static_cast<std::size_t>(c.maxPointsPerTensor));
        }
        for (std::int64_t i : points) {
            float* xi = x.data<float>() + i;
            const float saved = *xi;
            *xi = static_cast<float>(saved + c.eps);
            const double plus = objective(in, r, c.training, seed);
            *xi = static_cast<float>(saved - c.eps);
            const double minus = objective(in, r, c.training, seed);
            *xi = saved;
            const double numeric = (plus - minus) / (2 * c.eps);
            const double got = double(a[i]) - double(g[i]);
            const double tol = c.atol + c.rtol * std::max(std::abs(got), std::abs(numeric));
            if (!(std::abs(got - numeric) <= tol) && failures++ < 5)
                report << c.op << ": d/d " << probes[k].first << "[" << i << "] analytic " << got << " vs numeric "
                       << numeric << "\n";
        }
    }
    if (failures) report << c.op << ": " << failures << " mismatching gradient entries";
    return report.str();
}

namespace {
template <class T> Tensor filled(const Shape& shape, DType dtype, const std::vector<T>& values)
{
    Tensor t = Tensor::empty(shape, dtype);
    if (static_cast<std::int64_t>(values.size()) != t.numel())
        throw std::invalid_argument(std::to_string(values.size()) + " values for a tensor of shape " + shape.str());
    std::copy(values.begin(), values.end(), t.data<T>());
    return t;
}
}  // namespace

Tensor floats(const Shape& shape, const std::vector<float>& values) { return filled(shape, DType::F32, values); }
Tensor indices(const Shape& shape, const std::vector<std::int64_t>& values) { return filled(shape, DType::I64, values); }

Tensor runForward(const std::string& op, const Attrs& attrs, const std::vector<Tensor>& inputs,
                  const std::vector<Tensor>& params, bool training, std::vector<Tensor>* savedOut,
                  std::uint64_t seed)
{
    std::vector<TensorSpec> specs;
    for (const auto& t : inputs) specs.push_back({t.shape(), t.dtype()});
    Instance in = instantiate(op, attrs, specs);
    in.inputs = inputs;
    in.params = params;
    if (params.size() != in.paramSpecs.size()) throw std::invalid_argument(op + ": wrong number of parameters");
    Tensor out = Tensor::zeros(in.out.shape, in.out.dtype);
    OpContext ctx = context(in, out, training, seed);
    in.op->forward(ctx);
    if (savedOut) *savedOut = in.saved;
    return out;
}

}  // namespace ts::test

// The convolution family a builder needs beside Conv2d (ConvTranspose2d, Upsample, Conv1d,
// MaxPool1d, AvgPool1d) and Conv2d's groups (depthwise and grouped) against PyTorch: the forward
// and every gradient of sum(y * dy) on fixed inputs, and the shape errors, which name the
// attribute at fault. Finite-difference checks of each op's cases: tst_op_registry.
//
// The references were computed by PyTorch 1.13 (Debian's python3-torch) on the CPU in float32:
//   seq = lambda shape, a, b, scale=1.0: torch.tensor([scale * math.sin(a * i + b) for i in
//             range(math.prod(shape))], dtype=torch.float32).reshape(shape).requires_grad_()
//   x = seq(x_shape, 0.37, 0.1); y = <the PyTorch call above each reference>
//   (y * seq(y.shape, 0.7, 0.3)).sum().backward()   # dy; then x.grad, w.grad, b.grad
// printed with 7 significant digits. Parameters are seq(shape, a, b, 0.5) as each test says.
// Tolerance 1e-5 (+ 1e-5 relative): float32 sums of a few dozen terms of order one in another
// order, and the printed digits, differ by ~1e-6; a wrong tap or weight moves a value by ~0.1.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>

#include "backend/backend.h"
#include "gradcheck.h"
#include "ops/registry.h"

using namespace ts;
using namespace ts::test;

namespace {

using i64 = std::int64_t;
using Ints = std::vector<i64>;

// seq(shape, a, b, scale)[i] = scale * sin(a * i + b), in double, then rounded to float.
Tensor seq(const Shape& shape, double a, double b, double scale = 1.0)
{
    Tensor t = Tensor::empty(shape);
    for (i64 i = 0; i < t.numel(); ++i) t.data<float>()[i] = static_cast<float>(scale * std::sin(a * double(i) + b));
    return t;
}
Tensor dyFor(const Tensor& y) { return seq(y.shape(), 0.7, 0.3); }

// PyTorch's output shape and values, and its gradients: the input's, then each parameter's.
struct Reference {
    Shape shape;
    std::vector<float> y;
    std::vector<std::vector<float>> grads;
};

// One op on the CPU backend: forward, then backward from a given output gradient.
class OpRun {
public:
    OpRun(const std::string& type, const Attrs& given, std::vector<Tensor> inputs, std::vector<Tensor> params)
        : op_(OpRegistry::builtin().find(type)), inputs_(std::move(inputs)), params_(std::move(params))
    {
        if (!op_) qFatal("op %s is not registered", type.c_str());
        const std::string err = normaliseAttrs(op_->attrSpecs(), given, attrs_);
        if (!err.empty()) qFatal("%s: %s", type.c_str(), err.c_str());
        std::vector<TensorSpec> specs;
        for (const Tensor& t : inputs_) specs.push_back({t.shape(), t.dtype()});
        out_ = op_->inferOutput(attrs_, specs);
        if (op_->params(attrs_, specs).size() != params_.size()) qFatal("%s: wrong number of parameters", type.c_str());
        for (const TensorSpec& s : op_->saved(attrs_, specs, out_)) saved_.push_back(Tensor::zeros(s.shape, s.dtype));
        workspace_.resize(std::max<std::size_t>(1, op_->workspaceBytes(cpuBackend(), attrs_, specs, out_)));
    }
    Tensor forward()
    {
        y_ = Tensor::zeros(out_.shape);
        OpContext c = context();
        op_->forward(c);
        return y_;
    }
    // The input gradient, then the parameters'. Accumulate: into zeros; Overwrite: into NaNs.
    std::vector<Tensor> backward(const Tensor& dy, GradWrite write = GradWrite::Accumulate)
    {
        OpContext c = context();
        c.gradOutput = dy;
        Tensor dx = Tensor::zeros(inputs_[0].shape());
        if (write == GradWrite::Overwrite) std::fill_n(dx.data<float>(), dx.numel(), std::numeric_limits<float>::quiet_NaN());
        c.gradInputs = {dx};
        c.gradInputWrite = {write};
        std::vector<Tensor> grads{dx};
        for (const Tensor& p : params_) grads.push_back(Tensor::zeros(p.shape()));
        c.gradParams.assign(grads.begin() + 1, grads.end());
        op_->backward(c);
        return grads;
    }

private:
    OpContext context()
    {
        OpContext c{cpuBackend(), attrs_};
        c.inputs = inputs_;
        c.output = y_;
        c.params = params_;
        c.saved = saved_;
        c.workspace = workspace_.data();
        return c;
    }

    const Op* op_;
    Attrs attrs_;
    std::vector<Tensor> inputs_, params_, saved_;
    TensorSpec out_;
    Tensor y_;
    std::vector<char> workspace_;
};

void expectClose(const Tensor& got, const std::vector<float>& want, const QString& what)
{
    QVERIFY2(got.numel() == i64(want.size()), qPrintable(what + QString(": %1 values, PyTorch has %2").arg(got.numel()).arg(want.size())));
    for (std::size_t i = 0; i < want.size(); ++i) {
        const float g = got.data<float>()[i];
        QVERIFY2(std::abs(g - want[i]) <= 1e-5f + 1e-5f * std::abs(want[i]),
                 qPrintable(what + QString("[%1]: %2, PyTorch %3").arg(i).arg(double(g), 0, 'g', 9).arg(double(want[i]), 0, 'g', 9)));
    }
}

// The op's forward and backward (from dy = seq(y.shape, 0.7, 0.3)) against PyTorch's.
void expectReference(const std::string& type, const Attrs& attrs, const Tensor& x, const std::vector<Tensor>& params,
                     const Reference& ref)
{
    OpRun run(type, attrs, {x}, params);
    const Tensor y = run.forward();
    QCOMPARE(y.shape(), ref.shape);
    expectClose(y, ref.y, "y");
    const std::vector<Tensor> grads = run.backward(dyFor(y));
    QCOMPARE(grads.size(), ref.grads.size());
    for (std::size_t i = 0; i < grads.size(); ++i) expectClose(grads[i], ref.grads[i], i == 0 ? "dx" : QString("d param %1").arg(i));
}

// A backward told to overwrite a fresh (here NaN-filled) input gradient writes every element,
// and what accumulating into zeros writes.
void expectOverwriteWritesAll(const std::string& type, const Attrs& attrs, const Tensor& x, const std::vector<Tensor>& params)
{
    OpRun run(type, attrs, {x}, params);
    const Tensor dy = dyFor(run.forward());
    const Tensor accumulated = run.backward(dy, GradWrite::Accumulate)[0];
    const Tensor overwritten = run.backward(dy, GradWrite::Overwrite)[0];
    for (i64 i = 0; i < x.numel(); ++i)
        QVERIFY2(std::abs(overwritten.data<float>()[i] - accumulated.data<float>()[i]) <= 1e-6f,
                 qPrintable(QString("dx[%1]: %2 overwriting, %3 accumulating").arg(i).arg(overwritten.data<float>()[i]).arg(accumulated.data<float>()[i])));
}

// The error an op's attributes or shape rule gives for an input of `shape`, and the attributes it names.
struct Refusal {
    QString message;
    std::vector<std::string> attrs;
    bool names(const std::string& a) const { return std::find(attrs.begin(), attrs.end(), a) != attrs.end(); }
};
Refusal refusal(const std::string& type, const Attrs& given, const Shape& shape)
{
    const Op* op = OpRegistry::builtin().find(type);
    Attrs attrs;
    if (const std::string err = normaliseAttrs(op->attrSpecs(), given, attrs); !err.empty()) return {QString::fromStdString(err), {}};
    const std::vector<TensorSpec> in{{shape}};
    try {
        op->inferOutput(attrs, in);
    } catch (const OpError& e) {
        return {QString::fromUtf8(e.what()), e.attrs()};
    }
    return {};
}
#define EXPECT_REFUSED(r, attr, words)                                                                             \
    do {                                                                                                           \
        const Refusal refused = (r);                                                                               \
        QVERIFY2(refused.names(attr), qPrintable("does not name " attr ": " + refused.message));                  \
        QVERIFY2(refused.message.contains(words), qPrintable(refused.message));                                    \
    } while (false)

// ---- ConvTranspose2d: x seq([1, 4, 2, 2]), w seq([4, 1, 3, 2], 0.9, 0.2, 0.5), b seq([2], 1.3, 0.4, 0.5)
// F.conv_transpose2d(x, w, b, stride=(2, 1), padding=(1, 0), output_padding=(1, 0), groups=2, dilation=(1, 2))
const Reference kConvTranspose{
    Shape{1, 2, 4, 4},
    {0.6894333f, 0.8180451f, 0.6577185f, 0.6679262f, 0.1184597f, 0.114883f, 0.2428487f, 0.1418037f,
     0.8622913f, 0.8161834f, 0.6140862f, 0.5034854f, 0.04850478f, -0.04288839f, -0.406432f, -0.409453f,
     0.8032006f, 0.7594396f, 0.4106707f, 0.2454885f, 0.6575372f, 0.5380163f, 0.6778471f, 0.5920255f,
     0.6800007f, 0.5756354f, 0.1141892f, 0.0345436f, -0.1628022f, -0.157454f, 0.05864787f, 0.1449425f},
    {
     {0.7289922f, 1.092254f, -0.3900201f, 0.2883951f, 0.8902659f, 0.8907326f, 0.3665908f, 0.9937146f,
      0.4893001f, 0.5727758f, -0.310905f, 0.3664907f, 0.7592975f, 0.2285873f, 0.6151475f, 0.8615038f},
     {-0.5415013f, -1.554485f, 0.4236719f, 1.96384f, 0.2439048f, -1.880929f, -0.2365675f, -1.101317f,
      0.9393924f, 2.673573f, -0.03055355f, -2.683959f, -1.160721f, 0.541652f, 1.375386f, -0.30217f,
      -1.478104f, -0.2002881f, -1.216819f, 0.3708632f, 2.556622f, -1.079431f, -2.923558f, 0.08561349f},
     {1.232054f, 1.589561f},
    }};

}  // namespace

Q_DECLARE_METATYPE(const Reference*)
Q_DECLARE_METATYPE(ts::Shape)
Q_DECLARE_METATYPE(ts::Attrs)

class TestOpsConvFamily : public QObject {
    Q_OBJECT
private slots:
    // ---- ConvTranspose2d
    // Kernel 2, stride 2: each input pixel pastes the kernel, scaled by it, into its own 2x2 block.
    void convTransposePastesTheKernel()
    {
        const Tensor x = floats(Shape{1, 1, 2, 2}, {1, 2, 3, 4}), w = floats(Shape{1, 1, 2, 2}, {1, 10, 100, 1000});
        const Tensor y = runForward("ConvTranspose2d", {{"out_channels", i64{1}}, {"kernel_size", i64{2}}, {"stride", i64{2}}, {"bias", false}},
                                    {x}, {w});
        QCOMPARE(y.shape(), Shape({1, 1, 4, 4}));
        const std::vector<float> want{1, 10, 2, 20, 100, 1000, 200, 2000, 3, 30, 4, 40, 300, 3000, 400, 4000};
        QCOMPARE(std::vector<float>(y.data<float>(), y.data<float>() + 16), want);
    }
    void convTransposeMatchesPyTorch()
    {
        const Attrs attrs{{"out_channels", i64{2}}, {"kernel_size", Ints{3, 2}}, {"stride", Ints{2, 1}}, {"padding", Ints{1, 0}},
                          {"output_padding", Ints{1, 0}}, {"dilation", Ints{1, 2}}, {"groups", i64{2}}};
        const Tensor x = seq(Shape{1, 4, 2, 2}, 0.37, 0.1);
        const std::vector<Tensor> params{seq(Shape{4, 1, 3, 2}, 0.9, 0.2, 0.5), seq(Shape{2}, 1.3, 0.4, 0.5)};
        // PyTorch's weight layout [in, out / groups, kh, kw].
        Attrs normal;
        QVERIFY(normaliseAttrs(OpRegistry::builtin().find("ConvTranspose2d")->attrSpecs(), attrs, normal).empty());
        const std::vector<TensorSpec> in{{x.shape()}};
        const std::vector<ParamSpec> specs = OpRegistry::builtin().find("ConvTranspose2d")->params(normal, in);
        QCOMPARE(specs.at(0).shape, Shape({4, 1, 3, 2}));
        QCOMPARE(specs.at(1).shape, Shape({2}));
        expectReference("ConvTranspose2d", attrs, x, params, kConvTranspose);
        expectOverwriteWritesAll("ConvTranspose2d", attrs, x, params);
    }
    void convTransposeRefusalsNameTheAttribute()
    {
        const Attrs up{{"out_channels", i64{4}}, {"kernel_size", i64{3}}, {"stride", i64{2}}, {"padding", i64{1}}};
        const auto with = [&](const char* name, AttrValue v) { Attrs a = up; a.set(name, std::move(v)); return a; };
        EXPECT_REFUSED(refusal("ConvTranspose2d", with("output_padding", i64{2}), Shape{1, 4, 5, 5}), "output_padding",
                       "output_padding 2x2 must be smaller than the stride 2x2");
        EXPECT_REFUSED(refusal("ConvTranspose2d", with("groups", i64{3}), Shape{1, 4, 5, 5}), "groups",
                       "groups = 3 does not divide the input's 4 channels");
        EXPECT_REFUSED(refusal("ConvTranspose2d", with("in_channels", i64{8}), Shape{1, 4, 5, 5}), "in_channels",
                       "input has 4 channels");
        EXPECT_REFUSED(refusal("ConvTranspose2d", with("padding", i64{3}), Shape{1, 4, 1, 1}), "padding", "crops the whole output");
        QVERIFY(refusal("ConvTranspose2d", up, Shape{1, 4, 5}).message.contains("rank 4 ([N, C, H, W])"));
    }

};

QTEST_GUILESS_MAIN(TestOpsConvFamily)
#include "tst_ops_conv_family.moc"

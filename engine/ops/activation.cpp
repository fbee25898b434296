// The pointwise activations (one op per functor of backend/activation_math.h, named as it
// is), Softmax over the last dimension, and inverted Dropout. All keep the input's shape.
#include <optional>

#include "ops/common.h"
#include "ops/onnx_writer.h"
#include "ops/op_text.h"
#include "ops/registry.h"

namespace ts {

namespace {

TensorSpec sameAsFloatInput(std::span<const TensorSpec> in)
{
    requireFloat(in[0], "input");
    return {in[0].shape, DType::F32};
}

// ---- the pointwise activations ------------------------------------------------------------

// What an activation op adds to its functor: its text, its one attribute (passed to the
// functor as alpha), its cases and its ONNX form. The op's type is the functor's name.
struct ActivationDef {
    Activation act;
    const char* help;
    double flopsPerElement;        // a rough operation count, for the cost model
    std::optional<AttrSpec> param;  // LeakyReLU's negative_slope, ELU's alpha, Softplus's beta
    std::vector<OpCase> cases;
    std::string (*onnx)(OnnxNodeExport&);
};

class PointwiseActivation final : public Op {
public:
    explicit PointwiseActivation(ActivationDef def) : def_(std::move(def)) {}
    std::string type() const override { return activationName(def_.act); }
    OpCategory category() const override { return OpCategory::Activation; }
    std::string help() const override { return def_.help; }
    std::vector<AttrSpec> attrSpecs() const override
    {
        if (def_.param) return {*def_.param};
        return {};
    }
    std::vector<OpCase> cases() const override { return def_.cases; }
    std::string exportOnnx(OnnxNodeExport& e) const override { return def_.onnx(e); }
    TensorSpec inferOutput(const Attrs&, std::span<const TensorSpec> in) const override
    {
        return sameAsFloatInput(in);
    }
    double flops(const Attrs&, std::span<const TensorSpec>, const TensorSpec& out) const override
    {
        return def_.flopsPerElement * double(out.shape.numel());
    }
    void forward(OpContext& c) const override
    {
        c.backend.activationForward(def_.act, alpha(c.attrs), f32(c.inputs[0]), f32(c.output), c.output.numel());
    }
    void backward(OpContext& c) const override
    {
        if (!c.gradInputs[0].defined()) return;
        c.backend.activationBackward(def_.act, alpha(c.attrs), f32(c.inputs[0]), f32(c.output), f32(c.gradOutput),
                                     f32(c.gradInputs[0]), c.output.numel(), c.gradWrite(0));
    }
    bool overwritesFreshGradients() const override { return true; }

private:
    float alpha(const Attrs& a) const { return def_.param ? static_cast<float>(a.getFloat(def_.param->name)) : 0.0f; }
    ActivationDef def_;
};

// The gradient-check shapes every activation runs in; `fill` keeps kinks out of the finite
// differences' reach (eps 0.01) or reaches the saturating tails.
std::vector<OpCase> activationCases(InputFill fill, Attrs attrs = {})
{
    return {{"[3,7]", attrs, {{Shape{3, 7}, DType::F32, fill}}},
            {"[2,3,5,5]", attrs, {{Shape{2, 3, 5, 5}, DType::F32, fill}}},
            {"[1,1]", attrs, {{Shape{1, 1}, DType::F32, fill}}}};
}
// ReLU-like kinks at 0: every |x| >= 0.05 > eps.
std::vector<OpCase> kinkedAtZeroCases(Attrs attrs = {})
{
    return activationCases(InputFill::awayFromZero(0.05), std::move(attrs));
}
// Smooth ones: normal with stddev 2 reaches the saturating tails too.
std::vector<OpCase> smoothCases() { return activationCases(InputFill::normal(2.0)); }

std::vector<OpCase> plus(std::vector<OpCase> cases, OpCase more)
{
    cases.push_back(std::move(more));
    return cases;
}

std::string onnxUnary(OnnxNodeExport& e, const char* onnxType)
{
    e.b.node(onnxType, {e.in[0]}, {e.out}, e.name);
    return e.out;
}

std::string reluOnnx(OnnxNodeExport& e) { return onnxUnary(e, "Relu"); }
std::string sigmoidOnnx(OnnxNodeExport& e) { return onnxUnary(e, "Sigmoid"); }
std::string tanhOnnx(OnnxNodeExport& e) { return onnxUnary(e, "Tanh"); }
std::string hardswishOnnx(OnnxNodeExport& e) { return onnxUnary(e, "HardSwish"); }  // opset 14

std::string leakyReluOnnx(OnnxNodeExport& e)
{
    e.b.node("LeakyRelu", {e.in[0]}, {e.out}, e.name, {{"alpha", static_cast<float>(e.attrs.getFloat("negative_slope"))}});
    return e.out;
}

std::string eluOnnx(OnnxNodeExport& e)
{
    e.b.node("Elu", {e.in[0]}, {e.out}, e.name, {{"alpha", static_cast<float>(e.attrs.getFloat("alpha"))}});
    return e.out;
}

// x * sigmoid(x)
std::string siluOnnx(OnnxNodeExport& e)
{
    const std::string s = e.step("sigmoid");
    e.b.node("Sigmoid", {e.in[0]}, {s}, e.name + "/sigmoid");
    e.b.node("Mul", {e.in[0], s}, {e.out}, e.name);
    return e.out;
}

// The exact GELU the engine computes, x * Phi(x) = 0.5 * x * (1 + erf(x / sqrt 2)).
std::string geluOnnx(OnnxNodeExport& e)
{
    const std::string& name = e.name;
    const std::string scaled = e.step("scaled"), erf = e.step("erf"), shifted = e.step("plus_one"), product = e.step("times_x");
    e.b.node("Mul", {e.in[0], e.b.scalar(name + "/inv_sqrt2", static_cast<float>(1.0 / std::sqrt(2.0)))}, {scaled},
             name + "/scale");
    e.b.node("Erf", {scaled}, {erf}, name + "/erf");
    e.b.node("Add", {erf, e.b.scalar(name + "/one", 1.0f)}, {shifted}, name + "/plus_one");
    e.b.node("Mul", {e.in[0], shifted}, {product}, name + "/times_x");
    e.b.node("Mul", {product, e.b.scalar(name + "/half", 0.5f)}, {e.out}, name);
    return e.out;
}

// ONNX's Softplus is log(1 + e^x); beta != 1 is Softplus(beta x) / beta. (Its lack of a
// threshold changes nothing: above beta x = 20 the two differ by less than float resolution.)
std::string softplusOnnx(OnnxNodeExport& e)
{
    const float beta = static_cast<float>(e.attrs.getFloat("beta"));
    if (beta == 1.0f) return onnxUnary(e, "Softplus");
    const std::string scaled = e.step("scaled"), soft = e.step("softplus");
    e.b.node("Mul", {e.in[0], e.b.scalar(e.name + "/beta", beta)}, {scaled}, e.name + "/scale");
    e.b.node("Softplus", {scaled}, {soft}, e.name + "/softplus");
    e.b.node("Div", {soft, e.b.scalar(e.name + "/beta_divisor", beta)}, {e.out}, e.name);
    return e.out;
}

// Mish is an ONNX op only from opset 18: x * tanh(softplus(x)).
std::string mishOnnx(OnnxNodeExport& e)
{
    const std::string soft = e.step("softplus"), t = e.step("tanh");
    e.b.node("Softplus", {e.in[0]}, {soft}, e.name + "/softplus");
    e.b.node("Tanh", {soft}, {t}, e.name + "/tanh");
    e.b.node("Mul", {e.in[0], t}, {e.out}, e.name);
    return e.out;
}

AttrSpec positiveFloatAttr(const char* name, double value)
{
    return {name, AttrType::Float, AttrValue(value),
            [](const AttrValue& v) -> std::string { return std::get<double>(v) > 0 ? "" : "must be > 0"; }};
}

std::vector<ActivationDef> activationDefs()
{
    using F = InputFill;
    return {
        {Activation::ReLU, QT_TRANSLATE_NOOP("AttrHelp", "max(0, x): the default activation, fast and well understood"), 1.0,
         std::nullopt, kinkedAtZeroCases(), reluOnnx},
        {Activation::LeakyReLU,
         QT_TRANSLATE_NOOP("AttrHelp", "x for x > 0, negative_slope · x otherwise: a ReLU whose units cannot die"), 2.0,
         AttrSpec{"negative_slope", AttrType::Float, AttrValue(0.01)}.withHelp(
             QT_TRANSLATE_NOOP("AttrHelp", "The slope for negative inputs; 0.01 is usual, 0.2 in GANs.")),
         kinkedAtZeroCases({{"negative_slope", 0.1}}), leakyReluOnnx},
        {Activation::GELU, QT_TRANSLATE_NOOP("AttrHelp", "x · Φ(x), a smooth ReLU: the usual choice in Transformers"), 8.0,
         std::nullopt, smoothCases(), geluOnnx},
        {Activation::SiLU, QT_TRANSLATE_NOOP("AttrHelp", "x · sigmoid(x) (Swish), a smooth ReLU used in modern CNNs"), 5.0,
         std::nullopt, smoothCases(), siluOnnx},
        {Activation::Sigmoid,
         QT_TRANSLATE_NOOP("AttrHelp", "1 / (1 + e⁻ˣ): squashes to (0, 1); saturates, so avoid it in deep hidden layers"), 4.0,
         std::nullopt, smoothCases(), sigmoidOnnx},
        {Activation::Tanh,
         QT_TRANSLATE_NOOP("AttrHelp", "tanh(x): squashes to (-1, 1), centred at zero; saturates like the sigmoid"), 4.0,
         std::nullopt, smoothCases(), tanhOnnx},
        // alpha 1 is smooth through 0 (both sides' slope is 1); any other alpha has a kink there.
        {Activation::ELU,
         QT_TRANSLATE_NOOP("AttrHelp", "x for x > 0, alpha · (eˣ − 1) otherwise: a smooth ReLU whose negative outputs pull the "
                                       "mean towards zero"),
         4.0,
         AttrSpec{"alpha", AttrType::Float, AttrValue(1.0), atLeast(0.0)}.withHelp(
             QT_TRANSLATE_NOOP("AttrHelp", "The value large negative inputs approach is −alpha; 1.0 is usual.")),
         plus(smoothCases(),
              OpCase{"alpha 0.5: a kink at 0", {{"alpha", 0.5}}, {{Shape{4, 6}, DType::F32, F::awayFromZero(0.05)}}}),
         eluOnnx},
        {Activation::Softplus,
         QT_TRANSLATE_NOOP("AttrHelp", "log(1 + e^(beta · x)) / beta: a smooth ReLU that is always positive, e.g. for an output "
                                       "that must stay above zero"),
         5.0,
         positiveFloatAttr("beta", 1.0).withHelp(QT_TRANSLATE_NOOP(
             "AttrHelp", "How sharply it bends: larger values come closer to a ReLU; 1 is usual. Where beta · x > 20 "
                         "the output is x itself, as in PyTorch.")),
         plus(smoothCases(), OpCase{"beta 2 across the threshold (beta · x = 20 at x = 10)", {{"beta", 2.0}},
                                    {{Shape{4, 8}, DType::F32, F::uniform(-12.0, 12.0)}}}),
         softplusOnnx},
        {Activation::Mish,
         QT_TRANSLATE_NOOP("AttrHelp", "x · tanh(softplus(x)): a smooth ReLU close to SiLU, used in YOLO-style detectors"), 10.0,
         std::nullopt, plus(smoothCases(), OpCase{"wide range", {}, {{Shape{4, 8}, DType::F32, F::uniform(-25.0, 25.0)}}}),
         mishOnnx},
        // Kinks at -3 and 3: the middle and the tails are checked apart, every |x ± 3| >= 0.05.
        {Activation::Hardswish,
         QT_TRANSLATE_NOOP("AttrHelp", "x · ReLU6(x + 3) / 6: a cheap piecewise stand-in for SiLU, made for mobile networks "
                                       "(MobileNetV3)"),
         5.0, std::nullopt,
         {{"the curved middle [3,7]", {}, {{Shape{3, 7}, DType::F32, F::uniform(-2.95, 2.95)}}},
          {"the curved middle [2,3,5,5]", {}, {{Shape{2, 3, 5, 5}, DType::F32, F::uniform(-2.95, 2.95)}}},
          {"the flat and the straight tails", {}, {{Shape{4, 6}, DType::F32, F::awayFromZero(3.05)}}}},
         hardswishOnnx},
    };
}

// ---- softmax and dropout ------------------------------------------------------------------

class Softmax final : public Op {
public:
    std::string type() const override { return "Softmax"; }
    OpCategory category() const override { return OpCategory::Activation; }
    std::string help() const override
    {
        return QT_TRANSLATE_NOOP("AttrHelp", "Turns scores into probabilities that sum to 1 over the last dimension (not before "
                                             "CrossEntropy, which applies it itself)");
    }
    std::vector<AttrSpec> attrSpecs() const override
    {
        return {AttrSpec{"dim", AttrType::Int, AttrValue(std::int64_t{-1})}.withHelp(
            QT_TRANSLATE_NOOP("AttrHelp", "The dimension that sums to 1. Only the last one is supported: -1."))};
    }
    std::vector<OpCase> cases() const override
    {
        return {{"[N,C] 4x5", {}, {{Shape{4, 5}}}},
                {"[N,C] 2x37", {}, {{Shape{2, 37}}}},
                {"[N,T,C] 2x3x7", {}, {{Shape{2, 3, 7}}}},
                {"dim 2 named explicitly", {{"dim", std::int64_t{2}}}, {{Shape{3, 2, 4}}}}};
    }
    // The axis is written out because Softmax-13 changed what the default means.
    std::string exportOnnx(OnnxNodeExport& e) const override
    {
        e.b.node("Softmax", {e.in[0]}, {e.out}, e.name, {{"axis", std::int64_t{e.inSpecs[0].shape.rank() - 1}}});
        return e.out;
    }
    TensorSpec inferOutput(const Attrs& a, std::span<const TensorSpec> in) const override
    {
        const TensorSpec out = sameAsFloatInput(in);
        const int rank = in[0].shape.rank();
        if (rank < 1) throw OpError("input must have rank >= 1, got shape " + in[0].shape.str());
        const std::int64_t dim = a.getInt("dim");
        if (dim != -1 && dim != rank - 1)
            throw OpError("softmax runs over the last dimension only: dim must be -1 or " + std::to_string(rank - 1) +
                              " for input shape " + in[0].shape.str() + ", got dim=" + std::to_string(dim),
                          {"dim"});
        return out;
    }
    double flops(const Attrs&, std::span<const TensorSpec>, const TensorSpec& out) const override
    {
        return 5.0 * double(out.shape.numel());  // max, subtract, exp, sum, scale
    }
    void forward(OpContext& c) const override
    {
        const auto [rows, cols] = dims(c);
        c.backend.softmaxForward(f32(c.inputs[0]), f32(c.output), rows, cols);
    }
    void backward(OpContext& c) const override
    {
        if (!c.gradInputs[0].defined()) return;
        const auto [rows, cols] = dims(c);
        c.backend.softmaxBackward(f32(c.output), f32(c.gradOutput), f32(c.gradInputs[0]), rows, cols);
    }

private:
    static std::pair<std::int64_t, std::int64_t> dims(const OpContext& c)
    {
        const std::int64_t cols = c.output.shape()[-1];
        return {cols > 0 ? c.output.numel() / cols : 0, cols};
    }
};

// Inverted dropout: training scales the kept values by 1/(1-p) so evaluation is the identity.
class Dropout final : public Op {
public:
    std::string type() const override { return "Dropout"; }
    OpCategory category() const override { return OpCategory::Layer; }
    std::string help() const override
    {
        return QT_TRANSLATE_NOOP("AttrHelp", "Zeroes a random share p of the values while training (and scales the rest by "
                                             "1/(1-p)); identity when evaluating");
    }
    std::vector<AttrSpec> attrSpecs() const override
    {
        return {AttrSpec{"p", AttrType::Float, AttrValue(0.5), inRange(0.0, 1.0)}.withHelp(QT_TRANSLATE_NOOP(
            "AttrHelp", "The share of values dropped while training: 0.1–0.5; after dense layers, not right before "
                        "batch norm (its statistics would differ between training and evaluation)."))};
    }
    // The gradient check passes one seed to every forward, so each probe sees the same mask.
    std::vector<OpCase> cases() const override
    {
        OpCase eval{"evaluation p=0.3", {{"p", 0.3}}, {{Shape{4, 3, 5}}}};
        eval.training = false;
        return {{"training p=0.3", {{"p", 0.3}}, {{Shape{4, 3, 5}}}}, eval, {"training p=0", {{"p", 0.0}}, {{Shape{4, 3, 5}}}}};
    }
    std::string exportOnnx(OnnxNodeExport& e) const override { return e.in[0]; }  // the identity at inference
    TensorSpec inferOutput(const Attrs&, std::span<const TensorSpec> in) const override
    {
        return sameAsFloatInput(in);
    }
    std::vector<TensorSpec> saved(const Attrs&, std::span<const TensorSpec> in, const TensorSpec&) const override
    {
        return {{in[0].shape, DType::U8}};  // the keep mask, 1 byte per element
    }
    void forward(OpContext& c) const override
    {
        if (!c.training) {
            c.backend.copyBytes(c.output.raw(), c.inputs[0].raw(), c.inputs[0].bytes());
            return;
        }
        c.backend.dropoutForward(f32(c.inputs[0]), f32(c.output), c.saved[0].data<std::uint8_t>(), c.output.numel(),
                                 p(c), c.seed);
    }
    void backward(OpContext& c) const override
    {
        if (!c.gradInputs[0].defined()) return;
        if (!c.training) {
            c.backend.axpy(c.output.numel(), 1.0f, f32(c.gradOutput), f32(c.gradInputs[0]));
            return;
        }
        c.backend.dropoutBackward(f32(c.gradOutput), c.saved[0].data<std::uint8_t>(), f32(c.gradInputs[0]),
                                  c.output.numel(), p(c));
    }

private:
    static float p(const OpContext& c) { return static_cast<float>(c.attrs.getFloat("p")); }
};

}  // namespace

TS_REGISTER_OPS(activation)
{
    for (ActivationDef& def : activationDefs()) r.add(std::make_unique<PointwiseActivation>(std::move(def)));
    r.add(std::make_unique<Softmax>());
    r.add(std::make_unique<Dropout>());
}

}  // namespace ts

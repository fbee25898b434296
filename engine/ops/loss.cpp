// Loss ops: each reduces to the batch mean, a rank-0 output that backward starts from. They
// have no ONNX form (Op::exportOnnx's default): the export drops them with their labels.
#include <string>

#include "ops/common.h"
#include "ops/op_text.h"
#include "ops/registry.h"

namespace ts {

namespace {

const TensorSpec kScalar{Shape{}, DType::F32};

// Losses run a handful of operations per input element; the scalar output says nothing.
double perElementFlops(std::span<const TensorSpec> in, double perElement)
{
    return perElement * double(in[0].shape.numel());
}

// MSE, L1, Huber and BCEWithLogits: two f32 tensors of one shape, both differentiable.
void requirePair(std::span<const TensorSpec> in, const std::string& first, const std::string& second)
{
    requireFloat(in[0], first);
    requireFloat(in[1], second);
    if (in[0].shape != in[1].shape)
        throw OpError(second + " has shape " + in[1].shape.str() + ", " + first + " has " + in[0].shape.str() +
                      "; they must match");
}

// Softmax cross-entropy of logits [N, C] against i64 class indices [N], or over positions: logits
// [N, ..., C] (a language model's [batch, tokens, vocab]) against targets [N, ...], the classes
// on the last axis, each position a row of the mean. Targets equal to ignore_index (padding)
// count for nothing. class_weights, when given, is kept as a non-trainable parameter so the
// backend reads it from its own memory.
class CrossEntropy final : public Op {
public:
    std::string type() const override { return "CrossEntropy"; }
    OpCategory category() const override { return OpCategory::Loss; }
    std::string help() const override
    {
        return QT_TRANSLATE_NOOP("AttrHelp", "Softmax cross-entropy of logits against class indices: the loss for classification. "
                                             "Logits [batch, tokens, vocabulary] with targets [batch, tokens] score every position "
                                             "(a language model)");
    }
    std::string inputName(int i) const override { return i == 0 ? "logits" : "target"; }
    std::vector<AttrSpec> attrSpecs() const override
    {
        return {AttrSpec{"label_smoothing", AttrType::Float, AttrValue(0.0), inRange(0, 1)}.withHelp(QT_TRANSLATE_NOOP(
                    "AttrHelp", "Moves this share of each target's probability onto the other classes, so the model is "
                                "less over-confident; 0.1 is a common start. It raises the loss's floor, so compare runs "
                                "with the same value.")),
                AttrSpec{"class_weights", AttrType::Floats, AttrValue(std::vector<double>{}), atLeast(0)}.withHelp(
                    QT_TRANSLATE_NOOP("AttrHelp", "One weight per class, e.g. \"1, 1, 5\", for imbalanced data: about the inverse class "
                                                  "frequency, scaled to a sensible range (too large a weight makes the model over-predict that "
                                                  "class). Empty: every class weighs 1.")),
                AttrSpec{"ignore_index", AttrType::Int, AttrValue(std::int64_t{-100})}.withHelp(QT_TRANSLATE_NOOP(
                    "AttrHelp", "Targets with this value (padding) add nothing to the loss and are not counted in its mean, "
                                "as PyTorch's ignore_index. The default -100 is PyTorch's."))};
    }
    // The gradient check draws the (non-trainable) class weights afresh in [0.5, 1.5]; the
    // attribute sets their count. The gradients are O(1/N), so the default atol 2e-3 could
    // hide an error of order s/C^2 in the smoothing term. Tighter is safe: the loss is smooth,
    // so the central difference is off by ~eps^2 = 1e-4 times a small third derivative, and
    // f32 rounding of J adds ~1e-7 * |J| / eps ~ 1e-5.
    std::vector<OpCase> cases() const override
    {
        const std::vector<double> weights{1, 2, 0.5, 1, 3};
        const auto ce = [](std::string label, double smoothing, std::vector<double> w) {
            return OpCase{std::move(label),
                          {{"label_smoothing", smoothing}, {"class_weights", std::move(w)}},
                          {{Shape{3, 5}, DType::F32, InputFill::normal(2.0)}, {Shape{3}, DType::I64, InputFill::integers(0, 5)}},
                          true,
                          1e-2,
                          2e-4,
                          1e-2};
        };
        // Over positions: [2, 3, 5] logits, targets [2, 3]; ignore_index a class id (a padding
        // token) or -1, drawn among the targets so that some rows are ignored.
        const auto positions = [](std::string label, std::int64_t ignore, std::int64_t lo, double smoothing,
                                  std::vector<double> w) {
            return OpCase{std::move(label),
                          {{"ignore_index", ignore}, {"label_smoothing", smoothing}, {"class_weights", std::move(w)}},
                          {{Shape{2, 3, 5}, DType::F32, InputFill::normal(2.0)}, {Shape{2, 3}, DType::I64, InputFill::integers(lo, 5)}},
                          true,
                          1e-2,
                          2e-4,
                          1e-2};
        };
        return {ce("plain", 0.0, {}), ce("label_smoothing 0.1", 0.1, {}), ce("label_smoothing 0.4", 0.4, {}),
                ce("class_weights", 0.0, weights), ce("both", 0.1, weights),
                positions("[2,3,5] ignore_index 4", 4, 0, 0.0, {}), positions("[2,3,5] ignore_index -1, both", -1, -1, 0.1, weights)};
    }
    int minInputs() const override { return 2; }
    int maxInputs() const override { return 2; }
    bool inputDifferentiable(int i) const override { return i == 0; }
    bool isLoss() const override { return true; }
    TensorSpec inferOutput(const Attrs& a, std::span<const TensorSpec> in) const override
    {
        requireFloat(in[0], "logits (input 0)");
        const Shape& logits = in[0].shape;
        if (logits.rank() < 2)
            throw OpError("logits (input 0) must be [batch, classes] or [batch, ..., classes], got shape " + logits.str());
        if (in[1].dtype != DType::I64)
            throw OpError("target (input 1) must be i64 class indices, got " + std::string(dtypeName(in[1].dtype)));
        const Shape positions(std::vector<std::int64_t>(logits.dims().begin(), logits.dims().end() - 1));
        if (in[1].shape != positions)
            throw OpError("target (input 1) has shape " + in[1].shape.str() + ", expected " + positions.str() +
                          " for logits " + logits.str() + " (one class index per row; the classes are the last axis)");
        const std::size_t weights = classWeights(a).size();
        if (weights != 0 && static_cast<std::int64_t>(weights) != logits[-1])
            throw OpError("class_weights has " + std::to_string(weights) + " values, logits have " +
                              std::to_string(logits[-1]) + " classes",
                          {"class_weights"});
        return kScalar;
    }
    std::vector<ParamSpec> params(const Attrs& a, std::span<const TensorSpec> in) const override
    {
        const std::vector<double>& w = classWeights(a);
        if (w.empty()) return {};
        InitSpec init{InitKind::Values, 1.0, 1.0, 1.0, std::vector<float>(w.begin(), w.end())};
        return {{"class_weights", Shape{in[0].shape[-1]}, init, false}};
    }
    std::vector<TensorSpec> saved(const Attrs&, std::span<const TensorSpec> in, const TensorSpec&) const override
    {
        return {{in[0].shape, DType::F32}};  // softmax probabilities
    }
    double flops(const Attrs&, std::span<const TensorSpec> in, const TensorSpec&) const override
    {
        return perElementFlops(in, 5);
    }
    void forward(OpContext& c) const override
    {
        const auto [rows, cols] = dims(c);
        c.backend.crossEntropyForward(f32(c.inputs[0]), c.inputs[1].data<std::int64_t>(), weights(c),
                                      f32(c.saved[0]), f32(c.output), rows, cols, smoothing(c), ignoreIndex(c));
    }
    void backward(OpContext& c) const override
    {
        if (!c.gradInputs[0].defined()) return;
        const auto [rows, cols] = dims(c);
        c.backend.crossEntropyBackward(f32(c.saved[0]), c.inputs[1].data<std::int64_t>(), weights(c),
                                       f32(c.gradOutput), f32(c.gradInputs[0]), rows, cols, smoothing(c),
                                       ignoreIndex(c));
    }

private:
    static const std::vector<double>& classWeights(const Attrs& a)
    {
        return std::get<std::vector<double>>(a.get("class_weights"));
    }
    // [rows, classes]: every position a row.
    static std::pair<std::int64_t, std::int64_t> dims(const OpContext& c)
    {
        const std::int64_t classes = c.inputs[0].shape()[-1];
        return {c.inputs[0].numel() / classes, classes};
    }
    static std::int64_t ignoreIndex(const OpContext& c) { return c.attrs.getInt("ignore_index"); }
    static const float* weights(const OpContext& c) { return c.params.empty() ? nullptr : f32(c.params[0]); }
    static float smoothing(const OpContext& c) { return static_cast<float>(c.attrs.getFloat("label_smoothing")); }
};

// mean((pred - target)^2)
// A regression loss: (prediction, target) of one shape, both f32, -> a scalar.
class RegressionLoss : public Op {
public:
    OpCategory category() const override { return OpCategory::Loss; }
    std::string inputName(int i) const override { return i == 0 ? "prediction" : "target"; }
    int minInputs() const override { return 2; }
    int maxInputs() const override { return 2; }
    bool isLoss() const override { return true; }
    TensorSpec inferOutput(const Attrs&, std::span<const TensorSpec> in) const override
    {
        requirePair(in, "prediction (input 0)", "target (input 1)");
        return kScalar;
    }
};

class Mse final : public RegressionLoss {
public:
    std::string type() const override { return "MSE"; }
    std::string help() const override
    {
        return QT_TRANSLATE_NOOP("AttrHelp", "Mean squared error between prediction and target: the loss for regression");
    }
    std::vector<OpCase> cases() const override { return {{"3x4", {}, {{Shape{3, 4}}, {Shape{3, 4}}}}}; }
    double flops(const Attrs&, std::span<const TensorSpec> in, const TensorSpec&) const override
    {
        return perElementFlops(in, 3);
    }
    void forward(OpContext& c) const override
    {
        c.backend.mseForward(f32(c.inputs[0]), f32(c.inputs[1]), f32(c.output), c.inputs[0].numel());
    }
    void backward(OpContext& c) const override
    {
        c.backend.mseBackward(f32(c.inputs[0]), f32(c.inputs[1]), f32(c.gradOutput), f32(c.gradInputs[0]),
                              f32(c.gradInputs[1]), c.inputs[0].numel());
    }
};

// mean(|pred - target|) (L1, delta 0) or mean(Huber_delta(pred - target)): regression losses that
// large errors pull only linearly, so a few outliers do not dominate the fit as they do MSE's.
// One class for both: the same primitive pair (backend/robust_loss_math.h), L1 is delta 0.
class RobustLoss final : public RegressionLoss {
public:
    explicit RobustLoss(bool huber) : huber_(huber) {}
    std::string type() const override { return huber_ ? "Huber" : "L1"; }
    std::string help() const override
    {
        return huber_ ? QT_TRANSLATE_NOOP("AttrHelp", "Huber loss between prediction and target: squared for errors within delta, "
                                                      "linear beyond, so outliers pull less than with MSE (PyTorch's HuberLoss)")
                      : QT_TRANSLATE_NOOP("AttrHelp", "Mean absolute error between prediction and target (L1): a regression loss that "
                                                      "outliers pull less than MSE; it fits the median rather than the mean");
    }
    std::vector<AttrSpec> attrSpecs() const override
    {
        if (!huber_) return {};
        return {AttrSpec{"delta", AttrType::Float, AttrValue(1.0), [](const AttrValue& v) {
                             return std::get<double>(v) > 0 ? std::string() : std::string("must be > 0 (delta 0 is the L1 loss)");
                         }}.withHelp(QT_TRANSLATE_NOOP("AttrHelp", "Where the loss turns from squared to linear, in the target's units: "
                                                                  "errors larger than this count as outliers. 1 is PyTorch's default"))};
    }
    // Errors kept away from L1's kink at 0, which a finite difference would straddle; Huber's
    // are spread across delta on both sides (its gradient is continuous there).
    std::vector<OpCase> cases() const override
    {
        if (!huber_)
            return {{"3x4", {}, {{Shape{3, 4}, DType::F32, InputFill::awayFromZero(0.5)}, {Shape{3, 4}, DType::F32, InputFill::uniform(-0.1, 0.1)}}}};
        return {{"3x4, delta 1", {{"delta", 1.0}}, {{Shape{3, 4}, DType::F32, InputFill::normal(2.0)}, {Shape{3, 4}}}},
                {"3x4, delta 0.3", {{"delta", 0.3}}, {{Shape{3, 4}, DType::F32, InputFill::normal(2.0)}, {Shape{3, 4}}}}};
    }
    double flops(const Attrs&, std::span<const TensorSpec> in, const TensorSpec&) const override
    {
        return perElementFlops(in, 4);
    }
    void forward(OpContext& c) const override
    {
        c.backend.robustLossForward(f32(c.inputs[0]), f32(c.inputs[1]), f32(c.output), c.inputs[0].numel(), delta(c));
    }
    void backward(OpContext& c) const override
    {
        c.backend.robustLossBackward(f32(c.inputs[0]), f32(c.inputs[1]), f32(c.gradOutput), f32(c.gradInputs[0]),
                                     f32(c.gradInputs[1]), c.inputs[0].numel(), delta(c));
    }

private:
    float delta(const OpContext& c) const { return huber_ ? static_cast<float>(c.attrs.getFloat("delta")) : 0.0f; }
    bool huber_;
};

// mean(max(x, 0) - x t + log(1 + exp(-|x|))): sigmoid + binary cross-entropy, stable for large |x|.
class BceWithLogits final : public Op {
public:
    std::string type() const override { return "BCEWithLogits"; }
    OpCategory category() const override { return OpCategory::Loss; }
    std::string help() const override
    {
        return QT_TRANSLATE_NOOP("AttrHelp", "Binary cross-entropy on logits, for yes/no and multi-label targets; more stable than Sigmoid followed by a BCE");
    }
    // Targets are probabilities in [0, 1].
    std::vector<OpCase> cases() const override
    {
        return {{"4x3", {}, {{Shape{4, 3}, DType::F32, InputFill::normal(2.0)}, {Shape{4, 3}, DType::F32, InputFill::uniform(0, 1)}}}};
    }
    std::string inputName(int i) const override { return i == 0 ? "logits" : "target"; }
    int minInputs() const override { return 2; }
    int maxInputs() const override { return 2; }
    bool isLoss() const override { return true; }
    TensorSpec inferOutput(const Attrs&, std::span<const TensorSpec> in) const override
    {
        requirePair(in, "logits (input 0)", "target (input 1)");
        return kScalar;
    }
    double flops(const Attrs&, std::span<const TensorSpec> in, const TensorSpec&) const override
    {
        return perElementFlops(in, 6);
    }
    void forward(OpContext& c) const override
    {
        c.backend.bceWithLogitsForward(f32(c.inputs[0]), f32(c.inputs[1]), f32(c.output), c.inputs[0].numel());
    }
    void backward(OpContext& c) const override
    {
        c.backend.bceWithLogitsBackward(f32(c.inputs[0]), f32(c.inputs[1]), f32(c.gradOutput),
                                        f32(c.gradInputs[0]), f32(c.gradInputs[1]), c.inputs[0].numel());
    }
};

}  // namespace

TS_REGISTER_OPS(loss)
{
    r.add(std::make_unique<CrossEntropy>());
    r.add(std::make_unique<Mse>());
    r.add(std::make_unique<RobustLoss>(/*huber=*/false));
    r.add(std::make_unique<RobustLoss>(/*huber=*/true));
    r.add(std::make_unique<BceWithLogits>());
}

}  // namespace ts

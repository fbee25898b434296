// LSTM and GRU over [batch, time, features], as torch.nn.LSTM / nn.GRU(batch_first=True): the
// same parameter names, shapes, gate order (LSTM i f g o, GRU r z n) and default init, so a
// checkpoint loads into PyTorch with strict=True. Each layer and direction projects the inputs
// of all time steps in one GEMM, then runs the recurrence step by step (a GEMM with W_hh and
// the cell primitive); backward goes through time the other way.
#include <cmath>

#include "ops/common.h"
#include "ops/init.h"
#include "ops/onnx_writer.h"
#include "ops/op_text.h"
#include "ops/registry.h"

namespace ts {

namespace {

using I = std::int64_t;

// The sizes of one call. act holds 4 H per step for both cells (RecurrentStep); GH is the
// projections' width (4 H for LSTM, 3 H for GRU).
struct Dims {
    I B, T, F, H, L, D, GH;
    I DH() const { return D * H; }
    I inputSize(I layer) const { return layer == 0 ? F : DH(); }
};

class Recurrent : public Op {
public:
    explicit Recurrent(RecurrentCell cell) : cell_(cell) {}
    std::string type() const override { return lstm() ? "LSTM" : "GRU"; }
    OpCategory category() const override { return OpCategory::Recurrent; }
    std::string help() const override
    {
        return lstm() ? QT_TRANSLATE_NOOP("AttrHelp", "Long short-term memory over a sequence [batch, time, features]: a cell "
                                                      "state carried from step to step, with gates that decide what to keep, "
                                                      "add and show; as torch.nn.LSTM (batch_first)")
                      : QT_TRANSLATE_NOOP("AttrHelp", "Gated recurrent unit over a sequence [batch, time, features]: a hidden "
                                                      "state updated at every step through reset and update gates; lighter "
                                                      "than an LSTM; as torch.nn.GRU (batch_first)");
    }
    std::vector<AttrSpec> attrSpecs() const override
    {
        return {AttrSpec{"input_size", AttrType::Int, AttrValue(I{0}), atLeast(0)}.withHelp(QT_TRANSLATE_NOOP(
                    "AttrHelp", "The input's features per time step. 0 takes them from the input; a number is checked against it.")),
                AttrSpec{"hidden_size", AttrType::Int, std::nullopt, atLeast(1)}.withHelp(QT_TRANSLATE_NOOP(
                    "AttrHelp", "The size of the hidden state: each direction's output features per time step (32–256 are usual).")),
                AttrSpec{"num_layers", AttrType::Int, AttrValue(I{1}), atLeast(1)}.withHelp(QT_TRANSLATE_NOOP(
                    "AttrHelp", "Recurrent layers stacked, each reading the sequence the one below outputs. 1–3 are usual.")),
                AttrSpec{"bidirectional", AttrType::Bool, AttrValue(false)}.withHelp(QT_TRANSLATE_NOOP(
                    "AttrHelp", "Also runs each layer backwards in time and puts both directions' features side by side "
                                "(twice hidden_size). Only where the whole sequence is known in advance, not for forecasting.")),
                AttrSpec{"dropout", AttrType::Float, AttrValue(0.0), inRange(0.0, 1.0)}.withHelp(QT_TRANSLATE_NOOP(
                    "AttrHelp", "The share of features dropped between stacked layers while training (not after the last "
                                "layer; no effect with one layer); 0 for none.")),
                AttrSpec{"return", AttrType::String, AttrValue(std::string("sequence")), {}, 0, {"sequence", "last"}}.withHelp(
                    QT_TRANSLATE_NOOP("AttrHelp", "sequence: the last layer's output at every time step [batch, time, "
                                                  "hidden]; last: its final state [batch, hidden] (a backward direction's "
                                                  "final state is at the first time step), for a classifier or a forecast."))};
    }
    std::vector<OpCase> cases() const override
    {
        const auto rnn = [](std::string label, Attrs attrs, Shape x) {
            return OpCase{std::move(label), std::move(attrs), {{x, DType::F32, InputFill::normal(1.0)}}};
        };
        OpCase evaluation = rnn("2 layers, dropout 0.5 unused in evaluation",
                                {{"hidden_size", I{3}}, {"num_layers", I{2}}, {"dropout", 0.5}}, Shape{2, 3, 2});
        evaluation.training = false;
        return {rnn("1 layer", {{"hidden_size", I{3}}}, Shape{2, 4, 2}),
                rnn("1 layer, last", {{"hidden_size", I{4}}, {"return", std::string("last")}}, Shape{3, 5, 2}),
                rnn("bidirectional", {{"hidden_size", I{3}}, {"bidirectional", true}}, Shape{2, 4, 3}),
                rnn("2 layers, bidirectional, last",
                    {{"hidden_size", I{2}}, {"num_layers", I{2}}, {"bidirectional", true}, {"return", std::string("last")}},
                    Shape{2, 3, 2}),
                rnn("2 layers, dropout 0.3 (a fixed seed)", {{"hidden_size", I{3}}, {"num_layers", I{2}}, {"dropout", 0.3}},
                    Shape{2, 3, 2}),
                evaluation};
    }
    std::string exportOnnx(OnnxNodeExport& e) const override;

    TensorSpec inferOutput(const Attrs& a, std::span<const TensorSpec> in) const override
    {
        requireFloat(in[0], "input");
        if (in[0].shape.rank() != 3)
            throw OpError("input must be a sequence [batch, time, features], got shape " + in[0].shape.str() +
                          ": Reshape it first (28 rows of an image as 28 time steps: Reshape to [28, 28]; one feature "
                          "per step: [time, 1])");
        const I features = in[0].shape[2], declared = a.getInt("input_size");
        if (declared > 0 && declared != features)
            throw OpError("input has " + std::to_string(features) + " features per time step", {"input_size"});
        const I width = a.getInt("hidden_size") * (a.getBool("bidirectional") ? 2 : 1);
        if (a.getString("return") == "last") return {Shape{in[0].shape[0], width}, DType::F32};
        return {Shape{in[0].shape[0], in[0].shape[1], width}, DType::F32};
    }
    // PyTorch's order (layer, then direction) and init: every tensor uniform(-1/sqrt(H), 1/sqrt(H)).
    std::vector<ParamSpec> params(const Attrs& a, std::span<const TensorSpec> in) const override
    {
        const Dims d = dims(a, in[0].shape);
        const InitSpec init{InitKind::KaimingUniform, double(d.H), double(d.H), 1.0 / std::sqrt(3.0), {}};
        std::vector<ParamSpec> p;
        for (I l = 0; l < d.L; ++l)
            for (I dir = 0; dir < d.D; ++dir) {
                const std::string suffix = "_l" + std::to_string(l) + (dir ? "_reverse" : "");
                p.push_back({"weight_ih" + suffix, Shape{d.GH, d.inputSize(l)}, init});
                p.push_back({"weight_hh" + suffix, Shape{d.GH, d.H}, init});
                p.push_back({"bias_ih" + suffix, Shape{d.GH}, init});
                p.push_back({"bias_hh" + suffix, Shape{d.GH}, init});
            }
        return p;
    }
    // Every layer's output [L, B, T, D H]; the cells' activations [L D, B, T, 4 H]; LSTM's cell
    // states [L D, B, T, H]; with dropout between layers, each lower layer's dropped output and mask.
    std::vector<TensorSpec> saved(const Attrs& a, std::span<const TensorSpec> in, const TensorSpec&) const override
    {
        const Dims d = dims(a, in[0].shape);
        std::vector<TensorSpec> s{{Shape{d.L, d.B, d.T, d.DH()}}, {Shape{d.L * d.D, d.B, d.T, 4 * d.H}}};
        if (lstm()) s.push_back({Shape{d.L * d.D, d.B, d.T, d.H}});
        if (mayDrop(a)) {
            s.push_back({Shape{d.L - 1, d.B, d.T, d.DH()}});
            s.push_back({Shape{d.L - 1, d.B, d.T, d.DH()}, DType::U8});
        }
        return s;
    }
    // Backward: the gradients of two layers' outputs, of the dropped input, of gx and gh, and dc.
    std::size_t workspaceBytes(Backend&, const Attrs& a, std::span<const TensorSpec> in, const TensorSpec&) const override
    {
        const Dims d = dims(a, in[0].shape);
        const I rows = d.B * d.T;
        return std::size_t(3 * rows * d.DH() + 2 * rows * d.GH + d.B * d.H) * sizeof(float);
    }
    // Both GEMMs per step and layer (2 flops a multiply-add) plus about 10 per gate and step.
    double flops(const Attrs& a, std::span<const TensorSpec> in, const TensorSpec&) const override
    {
        const Dims d = dims(a, in[0].shape);
        double f = 0;
        for (I l = 0; l < d.L; ++l) f += double(d.D * d.B * d.T * d.GH) * (2.0 * double(d.inputSize(l) + d.H) + 10.0);
        return f;
    }
    void forward(OpContext& c) const override;
    void backward(OpContext& c) const override;

private:
    bool lstm() const { return cell_ == RecurrentCell::LSTM; }
    static bool mayDrop(const Attrs& a) { return a.getFloat("dropout") > 0 && a.getInt("num_layers") > 1; }
    Dims dims(const Attrs& a, const Shape& x) const
    {
        const I H = a.getInt("hidden_size");
        return {x[0], x[1], x[2], H, a.getInt("num_layers"), a.getBool("bidirectional") ? 2 : 1, (lstm() ? 4 : 3) * H};
    }

    // Where one call's tensors are, by layer and direction.
    struct View {
        Dims d;
        OpContext& c;
        bool dropping;
        float* ys(I l) const { return f32(c.saved[0]) + l * d.B * d.T * d.DH(); }
        float* act(I l, I dir) const { return f32(c.saved[1]) + (l * d.D + dir) * d.B * d.T * 4 * d.H; }
        float* cells(I l, I dir, bool lstm) const
        {
            return lstm ? f32(c.saved[2]) + (l * d.D + dir) * d.B * d.T * d.H : nullptr;
        }
        std::size_t dropIndex(bool lstm) const { return lstm ? 3 : 2; }
        float* dropped(I l, bool lstm) const { return f32(c.saved[dropIndex(lstm)]) + l * d.B * d.T * d.DH(); }
        std::uint8_t* mask(I l, bool lstm) const
        {
            return c.saved[dropIndex(lstm) + 1].data<std::uint8_t>() + l * d.B * d.T * d.DH();
        }
        // Layer l's input: the op's input, or the layer below's output (dropped while training).
        const float* input(I l, bool lstm) const { return l == 0 ? f32(c.inputs[0]) : dropping ? dropped(l - 1, lstm) : ys(l - 1); }
        const Tensor& param(I l, I dir, int which) const { return c.params[std::size_t((l * d.D + dir) * 4 + which)]; }
        const Tensor& grad(I l, I dir, int which) const { return c.gradParams[std::size_t((l * d.D + dir) * 4 + which)]; }
        // Step s of direction dir is time step t; its predecessor is t -+ 1.
        I time(I dir, I s) const { return dir == 0 ? s : d.T - 1 - s; }
        RecurrentStep step(RecurrentCell cell, I gxStride, I ghStride) const
        {
            return {cell, d.B, d.H, gxStride, ghStride, d.T * 4 * d.H, d.T * d.DH(), d.T * d.H};
        }
    };
    View view(OpContext& c) const
    {
        const Dims d = dims(c.attrs, c.inputs[0].shape());
        return {d, c, c.training && mayDrop(c.attrs)};
    }
    // `last`: direction dir's final state is the forward's last step and the reverse's first.
    static I finalTime(const Dims& d, I dir) { return dir == 0 ? d.T - 1 : 0; }

    RecurrentCell cell_;
};

void Recurrent::forward(OpContext& c) const
{
    const View v = view(c);
    const Dims& d = v.d;
    Backend& be = c.backend;
    const I rows = d.B * d.T, H = d.H, GH = d.GH, DH = d.DH();
    float* gh = static_cast<float*>(c.workspace);  // [B, GH]: one step's h W_hh^T + b_hh
    for (I l = 0; l < d.L; ++l) {
        const float* x = v.input(l, lstm());
        const I F = d.inputSize(l);
        float* y = v.ys(l);
        for (I dir = 0; dir < d.D; ++dir) {
            float* act = v.act(l, dir);
            float* cells = v.cells(l, dir, lstm());
            // gx for every time step, written where the cell's activations go (act's rows are
            // 4 H wide), which the cell then overwrites in place.
            be.copy2d(f32(v.param(l, dir, 2)), 0, act, 4 * H, rows, GH, false);
            be.gemm(false, true, rows, GH, F, 1.0f, x, F, f32(v.param(l, dir, 0)), F, 1.0f, act, 4 * H);
            const RecurrentStep step = v.step(cell_, d.T * 4 * H, GH);
            for (I s = 0; s < d.T; ++s) {
                const I t = v.time(dir, s), prev = v.time(dir, s - 1);
                const float* hPrev = s ? y + prev * DH + dir * H : nullptr;
                be.copy2d(f32(v.param(l, dir, 3)), 0, gh, GH, d.B, GH, false);
                if (hPrev) be.gemm(false, true, d.B, GH, H, 1.0f, hPrev, d.T * DH, f32(v.param(l, dir, 1)), H, 1.0f, gh, GH);
                be.recurrentCellForward(step, act + t * 4 * H, gh, hPrev, s && cells ? cells + prev * H : nullptr,
                                        act + t * 4 * H, cells ? cells + t * H : nullptr, y + t * DH + dir * H);
            }
        }
        if (v.dropping && l + 1 < d.L)
            be.dropoutForward(y, v.dropped(l, lstm()), v.mask(l, lstm()), rows * DH, float(c.attrs.getFloat("dropout")),
                              mixSeed(c.seed, std::uint64_t(l)));
    }
    const float* top = v.ys(d.L - 1);
    if (c.attrs.getString("return") == "sequence") {
        be.copyBytes(f32(c.output), top, std::size_t(rows * DH) * sizeof(float));
        return;
    }
    for (I dir = 0; dir < d.D; ++dir)
        be.copy2d(top + finalTime(d, dir) * DH + dir * H, d.T * DH, f32(c.output) + dir * H, DH, d.B, H, false);
}

void Recurrent::backward(OpContext& c) const
{
    const View v = view(c);
    const Dims& d = v.d;
    Backend& be = c.backend;
    const I rows = d.B * d.T, H = d.H, GH = d.GH, DH = d.DH();
    const float p = float(c.attrs.getFloat("dropout"));
    float* dY = static_cast<float*>(c.workspace);  // this layer's output gradient [B, T, DH]
    float* dBelow = dY + rows * DH;                // the layer below's
    float* dDropped = dBelow + rows * DH;          // the dropped input's, before the mask
    float* dGx = dDropped + rows * DH;             // [B, T, GH]
    float* dGh = dGx + rows * GH;                  // GRU's [B, T, GH] (LSTM's equals dGx)
    float* dc = dGh + rows * GH;                   // LSTM's [B, H]
    const std::size_t layerBytes = std::size_t(rows * DH) * sizeof(float);

    if (c.attrs.getString("return") == "sequence") {
        be.copyBytes(dY, f32(c.gradOutput), layerBytes);
    } else {
        be.zeroBytes(dY, layerBytes);
        for (I dir = 0; dir < d.D; ++dir)
            be.copy2d(f32(c.gradOutput) + dir * H, DH, dY + finalTime(d, dir) * DH + dir * H, d.T * DH, d.B, H, false);
    }
    for (I l = d.L - 1; l >= 0; --l) {
        const float* x = v.input(l, lstm());
        const float* y = v.ys(l);
        const I F = d.inputSize(l);
        float* dx = l == 0 ? f32(c.gradInputs[0]) : v.dropping ? dDropped : dBelow;
        if (l > 0) be.zeroBytes(dx, layerBytes);
        for (I dir = 0; dir < d.D; ++dir) {
            const float* act = v.act(l, dir);
            const float* cells = v.cells(l, dir, lstm());
            const float* wHh = f32(v.param(l, dir, 1));
            float* dWhh = f32(v.grad(l, dir, 1));
            float* dGate = lstm() ? dGx : dGh;  // the gradient of gh
            if (lstm()) be.zeroBytes(dc, std::size_t(d.B * H) * sizeof(float));
            const RecurrentStep step = v.step(cell_, d.T * GH, d.T * GH);
            for (I s = d.T - 1; s >= 0; --s) {
                const I t = v.time(dir, s), prev = v.time(dir, s - 1);
                const float* hPrev = s ? y + prev * DH + dir * H : nullptr;
                float* dhPrev = s ? dY + prev * DH + dir * H : nullptr;
                be.recurrentCellBackward(step, act + t * 4 * H, hPrev, s && cells ? cells + prev * H : nullptr,
                                         cells ? cells + t * H : nullptr, dY + t * DH + dir * H, dc, dGx + t * GH,
                                         lstm() ? nullptr : dGh + t * GH, dhPrev);
                if (!hPrev) continue;
                be.gemm(false, false, d.B, H, GH, 1.0f, dGate + t * GH, d.T * GH, wHh, H, 1.0f, dhPrev, d.T * DH);
                if (dWhh) be.gemm(true, false, GH, H, d.B, 1.0f, dGate + t * GH, d.T * GH, hPrev, d.T * DH, 1.0f, dWhh, H);
            }
            if (float* dWih = f32(v.grad(l, dir, 0))) be.gemm(true, false, GH, F, rows, 1.0f, dGx, GH, x, F, 1.0f, dWih, F);
            if (float* dBih = f32(v.grad(l, dir, 2))) be.biasBackward(dGx, dBih, rows, GH, 1);
            if (float* dBhh = f32(v.grad(l, dir, 3))) be.biasBackward(dGate, dBhh, rows, GH, 1);
            if (dx) be.gemm(false, false, rows, F, GH, 1.0f, dGx, GH, f32(v.param(l, dir, 0)), F, 1.0f, dx, F);
        }
        if (l == 0) break;
        if (v.dropping) {
            be.zeroBytes(dBelow, layerBytes);
            be.dropoutBackward(dDropped, v.mask(l - 1, lstm()), dBelow, rows * DH, p);
        }
        std::swap(dY, dBelow);
    }
}

// ONNX's LSTM and GRU take [time, batch, features] and gates in another order (LSTM i o f c,
// GRU z r h); one node per layer, both directions in it. GRU's linear_before_reset=1 is
// PyTorch's n = tanh(gx_n + r (h W_hn^T + b_hn)).
std::string Recurrent::exportOnnx(OnnxNodeExport& e) const
{
    const Dims d = dims(e.attrs, e.inSpecs[0].shape);
    const std::vector<int> order = lstm() ? std::vector<int>{0, 3, 1, 2} : std::vector<int>{1, 0, 2};
    // The parameter `which` of every direction of layer l, [D, GH, cols], its gate blocks reordered.
    const auto stacked = [&](I l, const std::string& which, I cols) {
        std::vector<float> out;
        out.reserve(std::size_t(d.D * d.GH * cols));
        for (I dir = 0; dir < d.D; ++dir) {
            const float* src = e.param(which + "_l" + std::to_string(l) + (dir ? "_reverse" : "")).data<float>();
            for (int block : order) out.insert(out.end(), src + block * d.H * cols, src + (block + 1) * d.H * cols);
        }
        return out;
    };
    std::string x = e.step("time_major");
    e.b.node("Transpose", {e.in[0]}, {x}, e.name + "/time_major", {{"perm", std::vector<I>{1, 0, 2}}});
    const bool last = e.attrs.getString("return") == "last";
    for (I l = 0; l < d.L; ++l) {
        const std::string layer = "_l" + std::to_string(l);
        const std::string w = e.b.floats(e.name + ".W" + layer, {d.D, d.GH, d.inputSize(l)}, stacked(l, "weight_ih", d.inputSize(l)));
        const std::string r = e.b.floats(e.name + ".R" + layer, {d.D, d.GH, d.H}, stacked(l, "weight_hh", d.H));
        std::vector<float> bias;  // [D, 2 GH]: W's bias, then R's, per direction
        const std::vector<float> bIh = stacked(l, "bias_ih", 1), bHh = stacked(l, "bias_hh", 1);
        for (I dir = 0; dir < d.D; ++dir) {
            bias.insert(bias.end(), bIh.begin() + dir * d.GH, bIh.begin() + (dir + 1) * d.GH);
            bias.insert(bias.end(), bHh.begin() + dir * d.GH, bHh.begin() + (dir + 1) * d.GH);
        }
        const std::string b = e.b.floats(e.name + ".B" + layer, {d.D, 2 * d.GH}, bias);
        const std::string y = e.step("y" + layer), yH = e.step("y_h" + layer);  // [T, D, B, H], [D, B, H]
        OnnxAttrs attrs{{"hidden_size", d.H}, {"direction", std::string(d.D == 2 ? "bidirectional" : "forward")}};
        if (!lstm()) attrs.push_back({"linear_before_reset", I{1}});
        e.b.node(type(), {x, w, r, b}, {y, yH}, e.name + "/" + type() + layer, attrs);
        if (l + 1 == d.L) {
            const std::string t = e.step("batch_first");
            e.b.node("Transpose", {last ? yH : y}, {t}, e.name + "/batch_first",
                     {{"perm", last ? std::vector<I>{1, 0, 2} : std::vector<I>{2, 0, 1, 3}}});
            e.b.node("Reshape", {t, e.b.int64s(e.name + ".out_shape", {last ? 2 : 3}, last ? std::vector<I>{0, -1} : std::vector<I>{0, 0, -1})},
                     {e.out}, e.name + "/merge_directions");
            break;
        }
        const std::string t = e.step("directions_last" + layer);  // the next layer's [T, B, D H]
        x = e.step("x_l" + std::to_string(l + 1));
        e.b.node("Transpose", {y}, {t}, e.name + "/directions_last" + layer, {{"perm", std::vector<I>{0, 2, 1, 3}}});
        e.b.node("Reshape", {t, e.b.int64s(e.name + ".x_shape" + layer, {3}, {0, 0, -1})}, {x}, e.name + "/merge" + layer);
    }
    return e.out;
}

}  // namespace

TS_REGISTER_OPS(recurrent)
{
    r.add(std::make_unique<Recurrent>(RecurrentCell::LSTM));
    r.add(std::make_unique<Recurrent>(RecurrentCell::GRU));
}

}  // namespace ts

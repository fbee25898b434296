// The pre-norm Transformer block recipe (graph/transformer_block.h):
// 1. its nodes and wires are PyTorch's pre-norm block, x + drop(attn(ln1(x))) then
//    x + drop(fc2(gelu(fc1(ln2(x))))), and it checks and trains;
// 2. numerically, on fixed weights, it is that block as PyTorch 1.13 (Debian's python3-torch)
//    computes it, forward and every parameter gradient, with this script (float32 on the CPU,
//    printed with 7 significant digits):
//      seq = lambda shape, a, b, scale=1.0: torch.tensor([scale * math.sin(a * i + b) for i in
//                range(math.prod(shape))], dtype=torch.float32).reshape(shape)
//      B, T, C, H = 2, 5, 8, 2: ln1 = LayerNorm(C), attn = MultiheadAttention(C, H, batch_first=True),
//      ln2 = LayerNorm(C), fc1 = Linear(C, 4C), fc2 = Linear(4C, C);
//      h = ln1(x); x = x + attn(h, h, h, need_weights=False, attn_mask=triu(ones(T, T), 1))[0]
//      y = x + fc2(gelu(fc1(ln2(x))))
//      the k-th of named_parameters() = seq(shape, 0.3 + 0.17 k, 0.1 k, 0.5) (+1 for the norms' weights)
//      x = seq([B, T, C], 0.41, 0.2); mse_loss(y, seq([B, T, C], 0.7, 0.3)).backward()
//      then y, and the sum of squares of each parameter's gradient.
//    Tolerance 2e-5 relative: float32 sums in another order; a wrong wire or weight moves them by far more.
// 3. Activation checkpointing over blocks (the planner's segments): a 2-block character GPT
//    with dropout trains with the same gradients, bit for bit, with its blocks checkpointed,
//    and its planned activation memory drops.
#include <QtTest>

#include <cmath>
#include <random>

#include "backend/backend.h"
#include "exec/executor.h"
#include "graph/transformer_block.h"
#include "ops/registry.h"

using namespace ts;

namespace {

using I = std::int64_t;

std::vector<std::string> opsOf(const Graph& g, const std::vector<std::string>& names)
{
    std::vector<std::string> out;
    for (const auto& name : names)
        for (const Node& n : g.nodes)
            if (n.name == name) out.push_back(n.op);
    return out;
}

const Node& nodeNamed(const Graph& g, const std::string& name)
{
    for (const Node& n : g.nodes)
        if (n.name == name) return n;
    throw std::invalid_argument("no node " + name);
}

// A character GPT: tokens -> Embedding -> learned positions -> `blocks` pre-norm blocks ->
// LayerNorm -> Linear to the vocabulary -> cross-entropy at every position.
Graph charGpt(int blocks, I width, I tokens, double dropout, std::vector<std::vector<std::string>>* members = nullptr)
{
    const I vocab = 23;
    Graph g;
    g.inputs = {{"tokens", Shape{tokens}, DType::I64}, {"label", Shape{tokens}, DType::I64}};
    g.add("embed", "Embedding", {"tokens"}, {{"num_embeddings", vocab}, {"embedding_dim", width}});
    g.add("pos", "PositionalEncoding", {"embed"}, {{"kind", std::string("learned")}, {"max_length", tokens}});
    std::string x = "pos";
    for (int b = 0; b < blocks; ++b) {
        const auto added = appendTransformerBlock(g, x, freshBlockPrefix(g), {width, 4, 4, dropout, true});
        if (members) members->push_back(added);
        x = added.back();
    }
    g.add("ln_f", "LayerNorm", {x});
    g.add("head", "Linear", {"ln_f"}, {{"out_features", vocab}});
    g.add("loss", "CrossEntropy", {"head", "label"});
    return g;
}

Graph checkpointed(Graph g, const std::vector<std::string>& names)
{
    for (Node& n : g.nodes)
        if (std::find(names.begin(), names.end(), n.name) != names.end()) n.checkpoint = true;
    return g;
}

void fillTokens(Executor& ex, I tokens, I batch, std::uint64_t seed)
{
    std::mt19937_64 rng(seed);
    for (const char* name : {"tokens", "label"}) {
        Tensor t = Tensor::empty(Shape{batch, tokens}, DType::I64);
        for (I i = 0; i < t.numel(); ++i) t.data<I>()[i] = I(rng() % 23);
        ex.setInput(name, t);
    }
}

struct Step {
    std::vector<char> grads;
    float loss = 0;
    MemoryPlan plan;
};

Step trainStep(const Graph& g, I batch, I tokens, std::uint64_t dropoutStep)
{
    Executor ex(checkGraph(g, batch), cpuBackend());
    ex.initParameters(7);
    fillTokens(ex, tokens, batch, 3);
    ex.setSeed(5);
    ex.setStep(dropoutStep);
    ex.forward();
    ex.backward();
    const Tensor& grads = ex.flatGradients();
    Step s;
    s.grads.assign(static_cast<const char*>(grads.raw()), static_cast<const char*>(grads.raw()) + grads.bytes());
    s.loss = ex.loss();
    s.plan = ex.plan();
    return s;
}

Tensor seq(const Shape& shape, double a, double b, double scale = 1.0, double plus = 0.0)
{
    Tensor t = Tensor::empty(shape, DType::F32);
    for (I i = 0; i < t.numel(); ++i) t.data<float>()[i] = float(plus + scale * std::sin(a * double(i) + b));
    return t;
}

}  // namespace

class TestTransformerBlock : public QObject {
    Q_OBJECT
private slots:
    void isThePreNormBlockAndChecks()
    {
        Graph g;
        g.inputs = {{"x", Shape{6, 12}}};
        const auto names = appendTransformerBlock(g, "x", "t_", {12, 3, 4, 0.1, true});
        const std::vector<std::string> want{"t_ln1", "t_attn", "t_drop1", "t_add1", "t_ln2", "t_fc1", "t_gelu", "t_fc2", "t_drop2", "t_add2"};
        QCOMPARE(names, want);
        QCOMPARE(opsOf(g, names), (std::vector<std::string>{"LayerNorm", "MultiHeadAttention", "Dropout", "Add", "LayerNorm", "Linear",
                                                            "GELU", "Linear", "Dropout", "Add"}));
        // The wires: both residuals skip their branch, from the block's input and from add1.
        QCOMPARE(nodeNamed(g, "t_ln1").inputs, std::vector<std::string>{"x"});
        QCOMPARE(nodeNamed(g, "t_add1").inputs, (std::vector<std::string>{"t_drop1", "x"}));
        QCOMPARE(nodeNamed(g, "t_ln2").inputs, std::vector<std::string>{"t_add1"});
        QCOMPARE(nodeNamed(g, "t_add2").inputs, (std::vector<std::string>{"t_drop2", "t_add1"}));
        const Node& attn = nodeNamed(g, "t_attn");
        QCOMPARE(attn.attrs.getInt("heads"), I{3});
        QVERIFY(attn.attrs.getBool("causal"));
        QCOMPARE(attn.attrs.getFloat("dropout"), 0.1);
        QCOMPARE(nodeNamed(g, "t_drop2").attrs.getFloat("p"), 0.1);

        const CheckedGraph cg = checkGraph(g, 2);
        const Shape out = cg.values[std::size_t(cg.findValue("t_add2"))].spec.shape;
        QCOMPARE(out, (Shape{2, 6, 12}));  // the block keeps the shape: blocks stack
        QCOMPARE(cg.values[std::size_t(cg.findValue("t_fc1"))].spec.shape, (Shape{2, 6, 48}));
        I params = 0;
        for (const CheckedNode& n : cg.nodes)
            for (const ParamSpec& p : n.params) params += p.shape.numel();
        // PyTorch's count for the same modules: 2 LayerNorms 2*2C, attention 4C^2 + 4C, fc1 4C^2 + 4C, fc2 4C^2 + C.
        const I c = 12;
        QCOMPARE(params, 4 * c + 4 * c * c + 4 * c + 4 * c * c + 4 * c + 4 * c * c + c);

        // Without dropout the Dropout nodes are left out, and the residuals take the branches directly.
        Graph plain;
        plain.inputs = g.inputs;
        const auto lean = appendTransformerBlock(plain, "x", "p_", {12, 4, 2, 0.0, false});
        QCOMPARE(lean.size(), std::size_t(8));
        QCOMPARE(nodeNamed(plain, "p_add1").inputs, (std::vector<std::string>{"p_attn", "x"}));
        QCOMPARE(nodeNamed(plain, "p_fc1").attrs.getInt("out_features"), I{24});
        QVERIFY(!nodeNamed(plain, "p_attn").attrs.getBool("causal"));
    }

    void refusesWhatCannotBeBuilt()
    {
        Graph g;
        g.inputs = {{"x", Shape{6, 12}}};
        const Graph before = g;
        try {
            appendTransformerBlock(g, "x", "t_", {12, 5, 4, 0.0, false});
            QFAIL("5 heads over width 12 accepted");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(std::string(e.what()).find("4 would") != std::string::npos, e.what());
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, appendTransformerBlock(g, "x", "t_", {12, 4, 4, 1.0, false}));
        appendTransformerBlock(g, "x", "t_", {12, 4, 4, 0.0, false});
        const Graph once = g;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, appendTransformerBlock(g, "t_add2", "t_", {12, 4, 4, 0.0, false}));
        QVERIFY(g == once);  // nothing half-added
        QVERIFY(!(before == once));

        QCOMPARE(fittingHeads(128, 4), I{4});
        QCOMPARE(fittingHeads(6, 4), I{3});
        QCOMPARE(fittingHeads(7, 4), I{1});
        QCOMPARE(fittingHeads(2, 4), I{2});
        QCOMPARE(freshBlockPrefix(g), std::string("b1_"));
        QCOMPARE(freshBlockPrefix(charGpt(2, 16, 4, 0.0)), std::string("b3_"));
    }

    void agreesWithPyTorch()
    {
        Graph g;
        g.inputs = {{"x", Shape{5, 8}}, {"target", Shape{5, 8}}};
        appendTransformerBlock(g, "x", "b1_", {8, 2, 4, 0.0, true});
        g.add("loss", "MSE", {"b1_add2", "target"});
        Executor ex(checkGraph(g, 2), cpuBackend());
        // PyTorch's named_parameters() order, with the values its script gave them.
        const char* names[] = {"b1_ln1.weight", "b1_ln1.bias", "b1_attn.in_proj_weight", "b1_attn.in_proj_bias", "b1_attn.out_proj.weight",
                               "b1_attn.out_proj.bias", "b1_ln2.weight", "b1_ln2.bias", "b1_fc1.weight", "b1_fc1.bias",
                               "b1_fc2.weight", "b1_fc2.bias"};
        const double gradSquares[] = {219.6143, 21.01625, 627.2761, 7.385767, 553.1309, 1.917931,
                                      1.349963, 1.275468, 360.5766, 19.87538, 451.0522, 1.702076};
        QCOMPARE(ex.parameters().size(), std::size_t(12));
        for (int k = 0; k < 12; ++k) {
            const Parameter* p = ex.findParameter(names[k]);
            QVERIFY2(p, names[k]);
            const bool normWeight = k == 0 || k == 6;
            const Tensor v = seq(p->value.shape(), 0.3 + 0.17 * k, 0.1 * k, 0.5, normWeight ? 1.0 : 0.0);
            std::memcpy(const_cast<void*>(p->value.raw()), v.raw(), v.bytes());
        }
        ex.setInput("x", seq(Shape{2, 5, 8}, 0.41, 0.2));
        ex.setInput("target", seq(Shape{2, 5, 8}, 0.7, 0.3));
        ex.forward();
        const float y[] = {7.192099,   7.23642,   -5.672906, -5.954627, 6.11465,    8.103326,  -3.513571, -7.481086, 6.707643,  5.952972,
                           -7.510973,  -7.969319, 4.283117,  6.705471,  -4.313468,  -7.550208, 0.1212151, -4.253975, 1.579166,  6.640954,
                           -0.370626,  -5.249825, 1.524568,  5.365687,  3.677036,   8.109693,  -4.099395, -9.607234, 0.695239,  7.788376,
                           -0.6492556, -7.612151, 2.543048,  -4.852872, -0.780733,  7.183342,  2.003957,  -5.877564, -1.317043, 5.248157,
                           2.890854,   -6.219682, -4.388213, 4.891405,  2.204258,   -5.996782, -2.448595, 6.019947,  4.651087,  -4.146559,
                           -2.469279,  6.37196,   3.151026,  -5.657066, -2.856674,  4.781874,  0.321188,  7.553135,  -0.9823719, -8.947824,
                           -2.02178,   7.879549,  3.186913,  -6.530931, 5.455188,   -3.788691, -3.240081, 5.727404,  3.46015,   -5.472116,
                           -3.578821,  4.195206,  -0.4664099, 7.056722, -0.2654165, -8.166224, -2.17577,  7.683434,  3.770272,  -6.056028};
        const Tensor out = ex.value("b1_add2");
        QCOMPARE(out.numel(), I{80});
        for (int i = 0; i < 80; ++i)
            QVERIFY2(std::abs(out.data<float>()[i] - y[i]) <= 2e-5 * std::max(1.0f, std::abs(y[i])),
                     qPrintable(QString("y[%1] = %2, PyTorch %3").arg(i).arg(out.data<float>()[i]).arg(y[i])));
        ex.backward();
        for (int k = 0; k < 12; ++k) {
            const Tensor& gr = ex.findParameter(names[k])->grad;
            double squares = 0;
            for (I i = 0; i < gr.numel(); ++i) squares += double(gr.data<float>()[i]) * gr.data<float>()[i];
            QVERIFY2(std::abs(squares - gradSquares[k]) <= 2e-5 * gradSquares[k],
                     qPrintable(QString("%1: |grad|^2 = %2, PyTorch %3").arg(names[k]).arg(squares, 0, 'g', 8).arg(gradSquares[k])));
        }
    }

    void trains()
    {
        // A few SGD steps on one batch of a 2-block GPT bring its loss down: every part learns.
        const Graph g = charGpt(2, 16, 8, 0.0);
        Executor ex(checkGraph(g, 4), cpuBackend());
        ex.initParameters(1);
        fillTokens(ex, 8, 4, 2);
        float first = 0, last = 0;
        for (int step = 0; step < 30; ++step) {
            ex.zeroGrad();
            ex.forward();
            ex.backward();
            (step == 0 ? first : last) = ex.loss();
            for (Parameter& p : ex.parameters())
                if (p.trainable)
                    for (I i = 0; i < p.value.numel(); ++i) p.value.data<float>()[i] -= 0.1f * p.grad.data<float>()[i];
        }
        qInfo("2-block GPT, one batch: loss %.4f -> %.4f in 30 SGD steps (log 23 = %.4f)", first, last, std::log(23.0));
        QVERIFY(std::isfinite(last));
        QVERIFY(last < 0.5f * first);
    }

    void checkpointedBlocksGiveTheSameGradients()
    {
        std::vector<std::vector<std::string>> blocks;
        const Graph g = charGpt(2, 16, 8, 0.2, &blocks);
        std::vector<std::string> both = blocks[0];
        both.insert(both.end(), blocks[1].begin(), blocks[1].end());
        const Step plain = trainStep(g, 3, 8, 4);
        for (const auto& marked : {blocks[0], blocks[1], both}) {
            const Step ckpt = trainStep(checkpointed(g, marked), 3, 8, 4);
            QVERIFY(!ckpt.plan.segments.empty());
            QCOMPARE(ckpt.loss, plain.loss);
            QVERIFY2(ckpt.grads == plain.grads, "gradients differ with the blocks checkpointed");
        }
        // The dropout masks matter (another step draws others), so the recomputation replayed them.
        QVERIFY(trainStep(g, 3, 8, 5).grads != plain.grads);
    }

    void checkpointingBlocksLowersThePlannedMemory()
    {
        // The char GPT's shape (experiments/fortunes_char_gpt.yaml: 4 blocks, width 128,
        // context 128) at batch 32: planned, not run.
        std::vector<std::vector<std::string>> blocks;
        const Graph g = charGpt(4, 128, 128, 0.1, &blocks);
        std::vector<std::string> all;
        for (const auto& b : blocks) all.insert(all.end(), b.begin(), b.end());
        const MemoryPlan plain = planMemory(checkGraph(g, 32), cpuBackend(), true);
        const MemoryPlan ckpt = planMemory(checkGraph(checkpointed(g, all), 32), cpuBackend(), true);
        qInfo("4-block char GPT, batch 32: activations %.1f MiB plain, %.1f MiB with every block checkpointed (%zu segments)",
              double(plain.activationBytes) / (1 << 20), double(ckpt.activationBytes) / (1 << 20), ckpt.segments.size());
        QVERIFY(ckpt.activationBytes < plain.activationBytes * 6 / 10);
        // Split at the residual stream: each half-block (attention, then MLP) is a segment of its own.
        QCOMPARE(ckpt.segments.size(), std::size_t(8));
        const CheckedGraph cg = checkGraph(g, 32);
        for (std::size_t s = 0; s < ckpt.segments.size(); ++s) {
            const std::string& last = cg.nodes[std::size_t(ckpt.segments[s].last)].name;
            QCOMPARE(last, blocks[s / 2][s % 2 == 0 ? 3 : 9]);  // add1, add2
        }
        // No two live buffers share bytes.
        std::vector<BufferPlan> buffers = ckpt.values;
        for (const auto* list : {&ckpt.grads, &ckpt.recomputedValues}) buffers.insert(buffers.end(), list->begin(), list->end());
        for (const auto* lists : {&ckpt.saved, &ckpt.recomputedSaved})
            for (const auto& list : *lists) buffers.insert(buffers.end(), list.begin(), list.end());
        for (std::size_t i = 0; i < buffers.size(); ++i)
            for (std::size_t j = i + 1; j < buffers.size(); ++j) {
                const BufferPlan &a = buffers[i], &b = buffers[j];
                const bool clash = a.bytes && b.bytes && a.start <= b.end && b.start <= a.end && a.offset < b.offset + b.bytes &&
                                   b.offset < a.offset + a.bytes;
                QVERIFY2(!clash, "two live buffers share bytes");
            }
    }
};

QTEST_GUILESS_MAIN(TestTransformerBlock)
#include "tst_transformer_block.moc"

// Weight tying (Linear's tie_weight): a language model's output layer reads its Embedding's
// table. The reference is the untied twin: the same graph with the head's own weight set equal
// to the table. Tied, the loss is the same and the table's gradient is the sum of the twin's
// two gradients (the chain rule through both uses; tolerance 1e-6 relative to the largest
// gradient, float sums in another order). One tensor is stored, counted, saved and all-reduced.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <random>

#include "backend/cpu/cpu_backend.h"
#include "dist/gradient_buckets.h"
#include "exec/executor.h"
#include "graph/cost_model.h"
#include "graph/graph.h"
#include "io/checkpoint/checkpoint.h"

using namespace ts;

namespace {

constexpr std::int64_t kVocab = 11, kWidth = 6, kTokens = 5, kBatch = 3;

Graph languageModel(bool tied, std::int64_t headWidth = kWidth)
{
    Graph g;
    g.inputs = {{"tokens", Shape{kTokens}, DType::I64}, {"label", Shape{kTokens}, DType::I64}};
    g.add("embed", "Embedding", {"tokens"}, {{"num_embeddings", kVocab}, {"embedding_dim", kWidth}});
    g.add("mix", "Linear", {"embed"}, {{"out_features", headWidth}});
    g.add("act", "Tanh", {"mix"});
    Attrs head{{"out_features", kVocab}, {"bias", false}};
    if (tied) head.set("tie_weight", std::string("embed"));
    g.add("head", "Linear", {"act"}, head);
    g.add("loss", "CrossEntropy", {"head", "label"});
    return g;
}

Tensor tokens(std::uint64_t seed)
{
    std::mt19937_64 rng(seed);
    Tensor t = Tensor::empty(Shape{kBatch, kTokens}, DType::I64);
    for (std::int64_t i = 0; i < t.numel(); ++i) t.data<std::int64_t>()[i] = std::int64_t(rng() % kVocab);
    return t;
}

Parameter& param(Executor& e, const std::string& name)
{
    for (Parameter& p : e.parameters())
        if (p.name == name) return p;
    qFatal("no parameter %s", name.c_str());
}

void copyInto(const Tensor& from, Tensor& to) { std::copy_n(from.data<float>(), from.numel(), to.data<float>()); }

// One step of both: the twin's head weight starts equal to the table.
struct Twins {
    Executor tied{checkGraph(languageModel(true), kBatch), cpuBackend()};
    Executor untied{checkGraph(languageModel(false), kBatch), cpuBackend()};
    Twins()
    {
        untied.initParameters(7);
        copyInto(param(untied, "embed.weight").value, param(untied, "head.weight").value);
        for (Parameter& p : tied.parameters()) copyInto(param(untied, p.name).value, p.value);
        for (Executor* e : {&tied, &untied}) {
            e->setInput("tokens", tokens(1));
            e->setInput("label", tokens(2));
            e->zeroGrad();
            e->forward();
            e->backward();
        }
    }
};

}  // namespace

class TestWeightTying : public QObject {
    Q_OBJECT
private slots:
    void tiedGradientIsTheSumOfBothUses()
    {
        Twins t;
        QCOMPARE(t.tied.loss(), t.untied.loss());
        const Tensor& table = t.tied.findParameter("embed.weight")->grad;
        const Tensor& viaEmbedding = t.untied.findParameter("embed.weight")->grad;
        const Tensor& viaHead = t.untied.findParameter("head.weight")->grad;
        float largest = 0;
        for (std::int64_t i = 0; i < table.numel(); ++i) largest = std::max(largest, std::abs(table.data<float>()[i]));
        QVERIFY(largest > 1e-3f);
        bool bothContribute = false;
        for (std::int64_t i = 0; i < table.numel(); ++i) {
            const float want = viaEmbedding.data<float>()[i] + viaHead.data<float>()[i];
            QVERIFY2(std::abs(table.data<float>()[i] - want) <= 1e-6f * largest,
                     qPrintable(QString("[%1]: %2 tied, %3 + %4 untied").arg(i).arg(table.data<float>()[i]).arg(viaEmbedding.data<float>()[i]).arg(viaHead.data<float>()[i])));
            bothContribute = bothContribute || (viaEmbedding.data<float>()[i] != 0 && viaHead.data<float>()[i] != 0);
        }
        QVERIFY(bothContribute);
        // The other parameters' gradients are the twin's.
        for (const Parameter& p : t.tied.parameters())
            if (p.name != "embed.weight")
                for (std::int64_t i = 0; i < p.grad.numel(); ++i)
                    QCOMPARE(p.grad.data<float>()[i], t.untied.findParameter(p.name)->grad.data<float>()[i]);
    }

    // One tensor: stored, planned, counted and saved once.
    void oneTensorEverywhere()
    {
        Twins t;
        QCOMPARE(t.tied.parameters().size() + 1, t.untied.parameters().size());
        QVERIFY(!t.tied.findParameter("head.weight"));
        const std::size_t table = kVocab * kWidth * sizeof(float);
        QVERIFY(t.tied.plan().parameterBytes + table <= t.untied.plan().parameterBytes);
        QVERIFY(t.tied.plan().gradientBytes + table <= t.untied.plan().gradientBytes);
        QCOMPARE(estimateCost(t.tied.graph()).parameters + kVocab * kWidth, estimateCost(t.untied.graph()).parameters);

        const NamedTensors saved = captureWeights(t.tied);
        QCOMPARE(std::count_if(saved.begin(), saved.end(), [](const auto& w) { return w.first == "head.weight"; }), 0);
        Executor restored(checkGraph(languageModel(true), kBatch), cpuBackend());
        restoreWeights(restored, saved, "test");
        restored.setInput("tokens", tokens(1));
        restored.setInput("label", tokens(2));
        restored.forward();
        QCOMPARE(restored.loss(), t.tied.loss());
    }

    // Data parallelism all-reduces a gradient once it is final: the table's only after the
    // embedding's backward, which runs last, not after the head's.
    void tableReducedAfterItsLastUse()
    {
        Twins t;
        const std::vector<std::size_t> frontier = gradientFrontiers(t.tied);
        const float* base = t.tied.flatGradients().data<float>();
        const auto table = std::size_t(t.tied.findParameter("embed.weight")->grad.data<float>() - base);
        const auto& nodes = t.tied.graph().nodes;
        const auto at = [&](const char* name) {
            return std::size_t(std::find_if(nodes.begin(), nodes.end(), [&](const CheckedNode& n) { return n.name == name; }) - nodes.begin());
        };
        QVERIFY(frontier[at("head")] > table);
        QVERIFY(frontier[at("mix")] > table);
        QCOMPARE(frontier[at("embed")], std::min(table, frontier[at("mix")]));
    }

    void badTiesNameTheNodeAndAttribute()
    {
        Graph missing = languageModel(true);
        for (Node& n : missing.nodes)
            if (n.name == "head") n.attrs.set("tie_weight", std::string("embedding"));
        try {
            checkGraph(missing, kBatch);
            QFAIL("a tie to a missing node was accepted");
        } catch (const GraphError& e) {
            QCOMPARE(e.node(), std::string("head"));
            QVERIFY2(QString(e.what()).contains("tie_weight='embedding'") && QString(e.what()).contains("'embedding.weight'"), e.what());
        }
        try {
            checkGraph(languageModel(true, 4), kBatch);  // the head reads 4 features, the table has 6
            QFAIL("a tie of the wrong shape was accepted");
        } catch (const GraphError& e) {
            QCOMPARE(e.node(), std::string("head"));
            QVERIFY2(QString(e.what()).contains("[11, 6]") && QString(e.what()).contains("[11, 4]"), e.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestWeightTying)
#include "tst_weight_tying.moc"

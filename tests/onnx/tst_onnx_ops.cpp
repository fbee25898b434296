// Each op's ONNX mapping, one small graph per case, exported and run by ONNX Runtime at
// batch 1, 7 and 128 against our CPU inference (1e-4 absolute); the checker on every model;
// every registered op either mapped or deliberately dropped; refusals and losses named.
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <set>

#include "io/onnx/onnx_export.h"
#include "ops/registry.h"
#include "onnx_cases.h"

using namespace ts;
using namespace ts::test;

namespace {

constexpr double kTolerance = 1e-4;
const std::vector<std::int64_t> kBatches{1, 7, 128};

struct OpCase {
    std::string name;
    Graph graph;
    std::int64_t indexLimit = 1;  // Embedding: indices below this
};

using I = std::int64_t;
using Ints = std::vector<std::int64_t>;

Graph single(Shape in, const std::string& op, Attrs attrs = {})
{
    Graph g;
    g.inputs = {{"x", std::move(in)}};
    g.add("n", op, {"x"}, std::move(attrs));
    return g;
}

std::vector<OpCase> opCases()
{
    std::vector<OpCase> c;
    c.push_back({"linear", single(Shape{12}, "Linear", {{"out_features", I{5}}})});
    c.push_back({"linear_rank3_nobias", single(Shape{3, 6}, "Linear", {{"out_features", I{4}}, {"bias", false}})});
    c.push_back({"conv", single(Shape{3, 9, 9}, "Conv2d",
                                {{"out_channels", I{4}}, {"kernel_size", I{3}}, {"stride", I{2}}, {"padding", I{1}}})});
    c.push_back({"conv_groups_dilation",
                 single(Shape{4, 10, 10}, "Conv2d",
                        {{"out_channels", I{6}}, {"kernel_size", Ints{3, 2}}, {"dilation", I{2}}, {"groups", I{2}},
                         {"padding", Ints{2, 1}}, {"bias", false}})});
    c.push_back({"maxpool", single(Shape{2, 9, 9}, "MaxPool2d", {{"kernel_size", I{3}}, {"stride", I{2}}, {"padding", I{1}}})});
    c.push_back({"avgpool", single(Shape{2, 8, 8}, "AvgPool2d", {{"kernel_size", I{2}}})});
    c.push_back({"avgpool_pad_excluded",
                 single(Shape{2, 8, 8}, "AvgPool2d",
                        {{"kernel_size", I{3}}, {"stride", I{2}}, {"padding", I{1}}, {"count_include_pad", false}})});
    c.push_back({"avgpool_pad_included",
                 single(Shape{2, 7, 7}, "AvgPool2d", {{"kernel_size", I{3}}, {"stride", I{2}}, {"padding", I{1}}})});
    c.push_back({"global_avg_pool", single(Shape{3, 5, 5}, "GlobalAvgPool")});
    c.push_back({"batchnorm1d", single(Shape{6}, "BatchNorm1d")});
    c.push_back({"batchnorm1d_sequence", single(Shape{4, 5}, "BatchNorm1d")});
    c.push_back({"batchnorm2d", single(Shape{3, 4, 4}, "BatchNorm2d", {{"eps", 1e-3}})});
    c.push_back({"batchnorm2d_no_affine", single(Shape{3, 4, 4}, "BatchNorm2d", {{"affine", false}})});
    c.push_back({"layernorm", single(Shape{8}, "LayerNorm")});
    c.push_back({"layernorm_sequence_no_affine", single(Shape{3, 8}, "LayerNorm", {{"elementwise_affine", false}})});
    c.push_back({"groupnorm", single(Shape{6, 4, 4}, "GroupNorm", {{"num_groups", I{3}}})});
    c.push_back({"groupnorm_no_affine", single(Shape{4, 5}, "GroupNorm", {{"num_groups", I{2}}, {"affine", false}})});
    for (const char* act : {"ReLU", "GELU", "SiLU", "Sigmoid", "Tanh"}) c.push_back({act, single(Shape{10}, act)});
    c.push_back({"leaky_relu", single(Shape{10}, "LeakyReLU", {{"negative_slope", 0.2}})});
    c.push_back({"softmax", single(Shape{3, 5}, "Softmax")});
    {
        Graph g = single(Shape{8}, "Dropout", {{"p", 0.5}});
        g.add("fc", "Linear", {"n"}, {{"out_features", I{3}}});
        c.push_back({"dropout_removed", g});
    }
    c.push_back({"dropout_as_output", single(Shape{8}, "Dropout")});
    c.push_back({"flatten", single(Shape{2, 3, 4}, "Flatten")});
    c.push_back({"flatten_start_dim_2", single(Shape{2, 3, 4}, "Flatten", {{"start_dim", I{2}}})});
    c.push_back({"reshape", single(Shape{2, 3, 4}, "Reshape", {{"shape", Ints{-1, 4}}})});
    {
        Graph g;
        g.inputs = {{"x", Shape{5}}, {"y", Shape{5}}};
        g.add("sum", "Add", {"x", "y"});
        c.push_back({"add", g});
        Graph h = single(Shape{5}, "ReLU");
        h.add("t", "Tanh", {"x"});
        h.add("sum", "Add", {"n", "t", "x"});
        c.push_back({"add_three", h});
        Graph k;
        k.inputs = {{"x", Shape{2, 3}}, {"y", Shape{4, 3}}};
        k.add("cat", "Concat", {"x", "y"});
        c.push_back({"concat", k});
        Graph l;
        l.inputs = {{"x", Shape{3, 2}}, {"y", Shape{3, 5}}};
        l.add("cat", "Concat", {"x", "y"}, {{"axis", I{-1}}});
        c.push_back({"concat_last_axis", l});
    }
    {
        Graph g;
        g.inputs = {{"tokens", Shape{5}, DType::I64}};
        g.add("emb", "Embedding", {"tokens"}, {{"num_embeddings", I{11}}, {"embedding_dim", I{4}}});
        c.push_back({"embedding", g, 11});
    }
    return c;
}

}  // namespace

class TestOnnxOps : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(onnxExportAvailable(), "this engine was built without ONNX export (protobuf missing)");
        QVERIFY(dir_.isValid());
    }

    // A new op cannot be forgotten: it is mapped (and has a case here) or is a loss.
    void everyRegisteredOpIsMappedOrDropped()
    {
        std::set<std::string> covered;
        for (const OpCase& c : opCases())
            for (const Node& n : c.graph.nodes) covered.insert(n.op);
        QStringList problems;
        for (const std::string& type : OpRegistry::builtin().types()) {
            const OnnxOpSupport s = onnxOpSupport(type);
            const bool loss = OpRegistry::builtin().find(type)->isLoss();
            if (s == OnnxOpSupport::Dropped && loss) continue;
            if (s != OnnxOpSupport::Mapped) problems << QString::fromStdString(type) + " has no ONNX mapping";
            else if (!covered.count(type)) problems << QString::fromStdString(type) + " has no case in tst_onnx_ops";
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join("; ")));
        QCOMPARE(onnxOpSupport("NoSuchOp"), OnnxOpSupport::Refused);
    }

    void eachMappingAgreesWithOnnxRuntime()
    {
        const QString ready = ortReadiness();
        if (ready.startsWith("SKIP")) QSKIP(qPrintable(ready));
        QVERIFY2(ready.isEmpty(), qPrintable(ready));
        std::vector<OrtCase> cases;
        QStringList models;
        std::uint64_t seed = 1;
        for (const OpCase& c : opCases()) {
            const NamedTensors weights = randomWeights(c.graph, seed++);
            const QString model = dir_.filePath(QString::fromStdString(c.name) + ".onnx");
            try {
                exportOnnx(c.graph, weights, {}, model.toStdString());
            } catch (const std::exception& e) {
                QFAIL(qPrintable(QString::fromStdString(c.name) + ": " + e.what()));
            }
            models << model;
            for (std::int64_t batch : kBatches)
                cases.push_back(cpuReference(QString("%1 at batch %2").arg(QString::fromStdString(c.name)).arg(batch), model,
                                             c.graph, weights, batch, seed++, c.indexLimit));
        }
        QString failure;
        const std::vector<OrtResult> results = runOrt(dir_.path(), cases, &failure);
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        double largest = 0;
        QString where;
        for (std::size_t i = 0; i < cases.size(); ++i) {
            QVERIFY2(results[i].ok, qPrintable(cases[i].name + ": " + results[i].error));
            QCOMPARE(results[i].dims.at("logits"), cases[i].expected[0].dims);
            const double diff = results[i].maxAbsDiff.at("logits");
            QVERIFY2(diff <= kTolerance, qPrintable(QString("%1: ONNX Runtime differs by %2").arg(cases[i].name).arg(diff)));
            if (diff > largest) largest = diff, where = cases[i].name;
        }
        qInfo("%zu runs of %zu models: largest difference %.3g (%s)", cases.size(), std::size_t(models.size()), largest,
              qPrintable(where));
        const QString checked = checkWithOnnxPackage(models);
        if (checked.startsWith("SKIP")) QSKIP(qPrintable(checked));
        QVERIFY2(checked.isEmpty(), qPrintable(checked));
    }

    // Quantised Linear and Conv against our CPU inference with the weights rounded the way
    // the format defines (per output channel, scale = max |w| / 127, zero point 0), written
    // here independently of the exporter.
    void quantizedWeightsMatchTheirDefinition()
    {
        const QString ready = ortReadiness();
        if (ready.startsWith("SKIP")) QSKIP(qPrintable(ready));
        QVERIFY2(ready.isEmpty(), qPrintable(ready));
        Graph g;
        g.inputs = {{"x", Shape{3, 6, 6}}};
        g.add("conv", "Conv2d", {"x"}, {{"out_channels", I{4}}, {"kernel_size", I{3}}});
        g.add("flat", "Flatten", {"conv"});
        g.add("fc", "Linear", {"flat"}, {{"out_features", I{5}}});
        const NamedTensors weights = randomWeights(g, 7);
        const NamedTensors rounded = int8RoundedWeights(g, weights);
        OnnxExportOptions options;
        options.quantizeInt8 = true;
        const QString model = dir_.filePath("quantized.onnx");
        const OnnxExportInfo info = exportOnnx(g, weights, options, model.toStdString());
        QCOMPARE(info.quantizedWeights, 2);
        std::vector<OrtCase> cases;
        for (std::int64_t batch : kBatches) cases.push_back(cpuReference(QString("batch %1").arg(batch), model, g, rounded, batch, 40 + batch));
        QString failure;
        const std::vector<OrtResult> results = runOrt(dir_.path(), cases, &failure);
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        for (std::size_t i = 0; i < cases.size(); ++i) {
            QVERIFY2(results[i].ok, qPrintable(results[i].error));
            QVERIFY2(results[i].maxAbsDiff.at("logits") <= kTolerance,
                     qPrintable(QString("%1: differs by %2").arg(cases[i].name).arg(results[i].maxAbsDiff.at("logits"))));
        }
    }

    // Losses and their label input are left out; a loss as the model's output is refused by name.
    void lossesAreDroppedAndRefusalsNameTheNode()
    {
        Graph g;
        g.inputs = {{"x", Shape{4}}, {"label", Shape{}, DType::I64}};
        g.add("fc", "Linear", {"x"}, {{"out_features", I{3}}});
        g.add("ce", "CrossEntropy", {"fc", "label"});
        OnnxExportInfo info;
        onnxModelBytes(g, randomWeights(g, 3), {}, &info);
        QCOMPARE(info.inputs, std::vector<std::string>{"x"});
        QCOMPARE(info.dropped, std::vector<std::string>{"ce"});
        QCOMPARE(info.outputs, std::vector<std::string>{"logits"});

        g.output = "ce";
        try {
            onnxModelBytes(g, randomWeights(g, 3), {});
            QFAIL("a loss as the output was exported");
        } catch (const OnnxExportError& e) {
            QCOMPARE(QString::fromStdString(e.node()), QString("ce"));
            QVERIFY2(QString(e.what()).contains("'ce'"), e.what());
        }
        // Weights of another model: the node and the missing tensor are named.
        g.output.clear();
        try {
            onnxModelBytes(g, {}, {});
            QFAIL("exported without weights");
        } catch (const OnnxExportError& e) {
            QCOMPARE(QString::fromStdString(e.node()), QString("fc"));
            QVERIFY2(QString(e.what()).contains("fc.weight"), e.what());
        }
    }

private:
    QTemporaryDir dir_;
};

QTEST_GUILESS_MAIN(TestOnnxOps)
#include "tst_onnx_ops.moc"

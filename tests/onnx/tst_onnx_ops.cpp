// Each op's ONNX form against ONNX Runtime, read from the registry: every case of every
// registered op but a loss (Op::cases) becomes a one-node graph, exported and run by ONNX
// Runtime at batch 1, 7 and 128 against our CPU inference (1e-4 absolute); the checker on
// every model. A new op with cases is tested here by being registered. Also: quantised
// weights, losses dropped, refusals named.
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "io/onnx/onnx_export.h"
#include "onnx_cases.h"
#include "ops/registry.h"

using namespace ts;
using namespace ts::test;

namespace {

constexpr double kTolerance = 1e-4;
const std::vector<std::int64_t> kBatches{1, 7, 128};

using I = std::int64_t;

// A graph to export and run, and how its inputs are drawn.
struct Model {
    QString name;  // for reports
    QString file;  // its .onnx file's base name
    Graph graph;
    std::vector<InputFill> fills;  // per graph input
};

// One op case as a graph: the case's inputs, less their batch dimension, feed the op alone.
Model caseModel(const Op& op, const OpCase& c, std::size_t index)
{
    Model m{QString::fromStdString(op.type() + " (" + c.label + ")"), QString::fromStdString(op.type()) + "_" +
                                                                          QString::number(index),
            {}, {}};
    std::vector<std::string> names;
    for (std::size_t i = 0; i < c.inputs.size(); ++i) {
        const OpCaseInput& in = c.inputs[i];
        if (in.shape.rank() < 1) throw std::logic_error(m.name.toStdString() + ": an input has no batch dimension");
        const std::vector<std::int64_t>& dims = in.shape.dims();
        names.push_back("x" + std::to_string(i));
        m.graph.inputs.push_back({names.back(), Shape(std::vector<std::int64_t>(dims.begin() + 1, dims.end())), in.dtype});
        m.fills.push_back(in.fill);
    }
    m.graph.add("n", op.type(), names, c.attrs);
    return m;
}

// Graphs that no single node stands for: an op that is the identity at inference (Dropout)
// handing its input straight to the next node, and intermediate values, named by the export,
// with one value read by three nodes.
std::vector<Model> multiNodeModels()
{
    Graph dropout;
    dropout.inputs = {{"x", Shape{8}}};
    dropout.add("drop", "Dropout", {"x"}, {{"p", 0.5}});
    dropout.add("fc", "Linear", {"drop"}, {{"out_features", I{3}}});
    Graph shared;
    shared.inputs = {{"x", Shape{5}}};
    shared.add("relu", "ReLU", {"x"});
    shared.add("tanh", "Tanh", {"x"});
    shared.add("sum", "Add", {"relu", "tanh", "x"});
    return {{"Dropout then Linear", "dropout_removed", dropout, {}}, {"x read by three nodes", "shared_input", shared, {}}};
}

// Every registered op's cases but a loss's (dropped by the export), then the graphs above.
std::vector<Model> models()
{
    std::vector<Model> all;
    for (const std::string& type : OpRegistry::builtin().types()) {
        const Op& op = *OpRegistry::builtin().find(type);
        if (op.isLoss()) continue;
        const std::vector<OpCase> cases = op.cases();
        for (std::size_t i = 0; i < cases.size(); ++i) all.push_back(caseModel(op, cases[i], i));
    }
    for (Model& m : multiNodeModels()) all.push_back(std::move(m));
    return all;
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

    // A new op cannot be forgotten: a loss is dropped; any other op is exported and has at
    // least one case, which eachCaseAgreesWithOnnxRuntime runs.
    void everyOpButALossHasACaseHere()
    {
        QStringList problems;
        for (const std::string& type : OpRegistry::builtin().types()) {
            const Op& op = *OpRegistry::builtin().find(type);
            const QString name = QString::fromStdString(type);
            const OnnxOpSupport s = onnxOpSupport(type);
            if (op.isLoss()) {
                if (s != OnnxOpSupport::Dropped) problems << name + " is a loss the export does not drop";
                continue;
            }
            if (s != OnnxOpSupport::Mapped) problems << name + " has no ONNX mapping";
            if (op.cases().empty()) problems << name + " has no cases, so ONNX Runtime never runs it";
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join("; ")));
        QCOMPARE(onnxOpSupport("NoSuchOp"), OnnxOpSupport::Refused);
    }

    // All models in one ONNX Runtime process (starting it costs more than running them).
    void eachCaseAgreesWithOnnxRuntime()
    {
        const QString ready = ortReadiness();
        if (ready.startsWith("SKIP")) QSKIP(qPrintable(ready));
        QVERIFY2(ready.isEmpty(), qPrintable(ready));
        std::vector<OrtCase> cases;
        QStringList files, problems;
        std::uint64_t seed = 1;
        for (const Model& m : models()) {
            const QString file = dir_.filePath(m.file + ".onnx");
            try {
                const NamedTensors weights = randomWeights(m.graph, seed++);
                exportOnnx(m.graph, weights, {}, file.toStdString());
                for (std::int64_t batch : kBatches)
                    cases.push_back(
                        cpuReference(QString("%1 at batch %2").arg(m.name).arg(batch), file, m.graph, weights, batch, seed++, m.fills));
            } catch (const std::exception& e) {
                problems << m.name + ": " + e.what();
                continue;
            }
            files << file;
        }
        QString failure;
        const std::vector<OrtResult> results = runOrt(dir_.path(), cases, &failure);
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        double largest = 0;
        QString where;
        for (std::size_t i = 0; i < cases.size(); ++i) {
            const OrtResult& r = results[i];
            if (!r.ok) {
                problems << cases[i].name + ": " + r.error;
                continue;
            }
            const double diff = r.maxAbsDiff.at("logits");
            if (r.dims.at("logits") != cases[i].expected[0].dims) problems << cases[i].name + ": ONNX Runtime's output has another shape";
            else if (!(diff <= kTolerance)) problems << QString("%1: ONNX Runtime differs by %2").arg(cases[i].name).arg(diff);
            if (diff > largest) largest = diff, where = cases[i].name;
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join("\n")));
        qInfo("%zu runs of %lld models: largest difference %.3g (%s)", cases.size(), qlonglong(files.size()), largest,
              qPrintable(where));
        const QString checked = checkWithOnnxPackage(files);
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

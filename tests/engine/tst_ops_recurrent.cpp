// LSTM and GRU (ops/recurrent.cpp):
// 1. against PyTorch 1.13 (Debian's python3-torch), run now by recurrent_torch.py: nn.LSTM /
//    nn.GRU(batch_first=True) load our parameters with strict=True (PyTorch's names, shapes and
//    gate order), and the output and every gradient of sum(y * dy) agree within 1e-5 + 1e-5
//    relative (float32 sums in another order differ by ~1e-6; a wrong gate or direction moves
//    values by ~0.1), for one layer, two bidirectional layers and `last`;
// 2. the default init is PyTorch's, uniform(-1/sqrt(H), 1/sqrt(H));
// 3. shapes and refusals;
// 4. a backend without the cell primitive (CUDA today) trains an LSTM with the same bits: the
//    executor runs its passes on the CPU and says so. The gradient check of every case is tst_op_registry's, ONNX
//    Runtime's agreement tst_onnx_ops', the CUDA backend's fallback the self-test's.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <random>

#include "backend/forwarding_backend.h"
#include "exec/cpu_fallback.h"
#include "exec/executor.h"
#include "op_run.h"
#include "ops/init.h"
#include "ops/registry.h"

using namespace ts;
using namespace ts::test;

namespace {

using I = std::int64_t;

// Debian's interpreter, where python3-torch is (a python3 earlier on PATH may lack it).
const QString kPython = "/usr/bin/python3";

struct Case {
    QString label;
    std::string cell;
    Attrs attrs;
    Tensor x, dy;
    std::vector<Tensor> params;
    std::vector<std::string> paramNames;
    Tensor y;
    std::vector<Tensor> grads;  // the input's, then each parameter's
};

Tensor randomTensor(const Shape& shape, std::mt19937_64& rng)
{
    Tensor t = Tensor::empty(shape);
    std::normal_distribution<float> normal;
    for (I i = 0; i < t.numel(); ++i) t.data<float>()[i] = normal(rng);
    return t;
}

// The op's parameters as its default init draws them.
std::vector<Tensor> initialParams(const std::string& type, const Attrs& given, const Shape& x, std::vector<std::string>* names)
{
    const Op& op = *OpRegistry::builtin().find(type);
    Attrs attrs;
    normaliseAttrs(op.attrSpecs(), given, attrs);
    std::vector<Tensor> params;
    std::uint64_t seed = 7;
    for (const ParamSpec& p : op.params(attrs, std::vector<TensorSpec>{{x}})) {
        Tensor t = Tensor::empty(p.shape);
        initialise(p.init, t.data<float>(), t.numel(), mixSeed(seed++, stableHash(p.name)));
        params.push_back(t);
        if (names) names->push_back(p.name);
    }
    return params;
}

QJsonObject json(const Tensor& t)
{
    QJsonArray shape, data;
    for (I d : t.shape().dims()) shape.append(qint64(d));
    for (I i = 0; i < t.numel(); ++i) data.append(double(t.data<float>()[i]));
    return {{"shape", shape}, {"data", data}};
}

std::vector<float> floats(const QJsonValue& v)
{
    std::vector<float> out;
    for (const QJsonValue& e : v.toArray()) out.push_back(float(e.toDouble()));
    return out;
}

// The CPU backend without the recurrent cell primitives, as the CUDA backend: calling one fails.
class WithoutCells final : public ForwardingBackend {
public:
    WithoutCells() : ForwardingBackend(&cpuBackend()) {}
    std::string name() const override { return "without cells"; }
    bool supports(Primitive p, DType dtype) const override { return !isCell(p) && cpuBackend().supports(p, dtype); }

protected:
    void called(Primitive p, std::optional<Activation>) override
    {
        if (isCell(p)) throw std::logic_error(std::string(primitiveName(p)) + " called on a backend that lacks it");
    }

private:
    static bool isCell(Primitive p) { return p == Primitive::recurrentCellForward || p == Primitive::recurrentCellBackward; }
};

bool sameBits(const Tensor& a, const Tensor& b) { return a.bytes() == b.bytes() && std::memcmp(a.raw(), b.raw(), a.bytes()) == 0; }

}  // namespace

class TestOpsRecurrent : public QObject {
    Q_OBJECT

    std::vector<Case> cases_;
    QJsonArray torch_;  // recurrent_torch.py's results, one per case
    QString skip_;

private slots:
    void initTestCase()
    {
        std::mt19937_64 rng(41);
        const Shape x{3, 6, 4};
        const std::vector<std::pair<QString, Attrs>> configs{
            {"1 layer", {{"hidden_size", I{5}}}},
            {"2 layers, bidirectional", {{"hidden_size", I{5}}, {"num_layers", I{2}}, {"bidirectional", true}}},
            {"2 layers, bidirectional, last",
             {{"hidden_size", I{5}}, {"num_layers", I{2}}, {"bidirectional", true}, {"return", std::string("last")}}},
            {"2 layers, last", {{"hidden_size", I{5}}, {"num_layers", I{2}}, {"return", std::string("last")}}}};
        QJsonArray request;
        for (const std::string cell : {"LSTM", "GRU"})
            for (const auto& [label, attrs] : configs) {
                Case c{QString::fromStdString(cell) + ", " + label, cell, attrs, randomTensor(x, rng), {}, {}, {}, {}, {}};
                c.params = initialParams(cell, attrs, x, &c.paramNames);
                OpRun run(cell, attrs, {c.x}, c.params);
                c.y = run.forward();
                c.dy = randomTensor(c.y.shape(), rng);
                c.grads = run.backward(c.dy);
                QJsonObject params;
                for (std::size_t i = 0; i < c.params.size(); ++i) params[QString::fromStdString(c.paramNames[i])] = json(c.params[i]);
                Attrs full;  // defaults filled in
                normaliseAttrs(OpRegistry::builtin().find(cell)->attrSpecs(), attrs, full);
                request.append(QJsonObject{{"cell", QString::fromStdString(cell)},
                                           {"input_size", qint64(x[2])},
                                           {"hidden_size", qint64(full.getInt("hidden_size"))},
                                           {"num_layers", qint64(full.getInt("num_layers"))},
                                           {"bidirectional", full.getBool("bidirectional")},
                                           {"return", QString::fromStdString(full.getString("return"))},
                                           {"x", json(c.x)},
                                           {"dy", json(c.dy)},
                                           {"params", params}});
                cases_.push_back(std::move(c));
            }

        QProcess probe;
        probe.start(kPython, {"-c", "import torch"});
        if (!probe.waitForFinished(60000) || probe.exitCode() != 0) {
            skip_ = "PyTorch (python3-torch) is not installed";
            return;
        }
        QTemporaryDir dir;
        QFile in(dir.filePath("cases.json"));
        QVERIFY(in.open(QIODevice::WriteOnly));
        in.write(QJsonDocument(request).toJson(QJsonDocument::Compact));
        in.close();
        QProcess py;
        py.start(kPython, {QString(TS_SOURCE_DIR) + "/tests/engine/recurrent_torch.py", in.fileName(), dir.filePath("out.json")});
        QVERIFY(py.waitForFinished(120000));
        QVERIFY2(py.exitCode() == 0, py.readAllStandardError().constData());
        QFile out(dir.filePath("out.json"));
        QVERIFY(out.open(QIODevice::ReadOnly));
        torch_ = QJsonDocument::fromJson(out.readAll()).array();
        QCOMPARE(torch_.size(), qsizetype(cases_.size()));
    }

    void agreesWithPyTorch_data()
    {
        QTest::addColumn<int>("index");
        for (std::size_t i = 0; i < cases_.size(); ++i) QTest::newRow(qPrintable(cases_[i].label)) << int(i);
    }
    void agreesWithPyTorch()
    {
        if (!skip_.isEmpty()) QSKIP(qPrintable(skip_));
        QFETCH(int, index);
        const Case& c = cases_[std::size_t(index)];
        const QJsonObject ref = torch_[index].toObject();
        std::vector<I> shape;
        for (const QJsonValue& d : ref["shape"].toArray()) shape.push_back(d.toInteger());
        QCOMPARE(c.y.shape().dims(), shape);
        expectClose(c.y, floats(ref["y"]), "y");
        const QJsonObject grads = ref["grads"].toObject();
        QCOMPARE(grads.size(), qsizetype(c.params.size() + 1));  // PyTorch has no parameter we lack
        expectClose(c.grads[0], floats(grads["input"]), "input's gradient");
        for (std::size_t i = 0; i < c.params.size(); ++i) {
            const QString name = QString::fromStdString(c.paramNames[i]);
            QVERIFY2(grads.contains(name), qPrintable("PyTorch has no " + name));
            expectClose(c.grads[i + 1], floats(grads[name]), name + "'s gradient");
        }
    }

    // uniform(-1/sqrt(H), 1/sqrt(H)) for every tensor: inside the bound, and reaching near it.
    void defaultInitIsPyTorchs()
    {
        const I H = 16;
        for (const std::string cell : {"LSTM", "GRU"}) {
            std::vector<std::string> names;
            const auto params = initialParams(cell, {{"hidden_size", H}, {"bidirectional", true}}, Shape{2, 3, 8}, &names);
            QCOMPARE(names, (std::vector<std::string>{"weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0", "weight_ih_l0_reverse",
                                                      "weight_hh_l0_reverse", "bias_ih_l0_reverse", "bias_hh_l0_reverse"}));
            QCOMPARE(params[0].shape(), (Shape{(cell == "LSTM" ? 4 : 3) * H, 8}));
            const float bound = 1.0f / std::sqrt(float(H));
            for (const Tensor& p : params) {
                float largest = 0;
                for (I i = 0; i < p.numel(); ++i) largest = std::max(largest, std::abs(p.data<float>()[i]));
                QVERIFY2(largest <= bound && largest > 0.9f * bound, qPrintable(QString("largest |w| %1, bound %2").arg(largest).arg(bound)));
            }
        }
    }

    void aBackendWithoutTheCellFallsBackToTheCpu()
    {
        Graph g;
        g.inputs = {{"series", Shape{5, 3}, DType::F32}, {"target", Shape{4}, DType::F32}};
        g.add("rnn", "LSTM", {"series"},
              {{"hidden_size", I{4}}, {"num_layers", I{2}}, {"bidirectional", true}, {"dropout", 0.3}, {"return", std::string("last")}});
        g.add("fc", "Linear", {"rnn"}, {{"out_features", I{4}}});
        g.add("loss", "MSE", {"fc", "target"});
        WithoutCells lacking;
        Executor reference(checkGraph(g, 6), cpuBackend(), true), fallback(checkGraph(g, 6), lacking, true);
        std::mt19937_64 rng(5);
        for (Executor* ex : {&reference, &fallback}) ex->initParameters(7);
        for (int step = 0; step < 2; ++step) {
            const Tensor x = randomTensor(Shape{6, 5, 3}, rng), y = randomTensor(Shape{6, 4}, rng);
            for (Executor* ex : {&reference, &fallback}) {
                ex->setStep(std::uint64_t(step));
                ex->setInput("series", x);
                ex->setInput("target", y);
                ex->forward();
                ex->backward();
            }
            QCOMPARE(fallback.loss(), reference.loss());
            QVERIFY(sameBits(fallback.flatGradients(), reference.flatGradients()));
        }
        std::vector<std::string> said;
        for (const Message& m : describeCpuPasses(fallback.graph(), fallback.plan(), lacking.name())) said.push_back(m.text);
        QCOMPARE(said.size(), std::size_t(2));
        QVERIFY2(QString::fromStdString(said[0]).startsWith("LSTM forward runs on the CPU"), said[0].c_str());
        QVERIFY2(QString::fromStdString(said[1]).startsWith("LSTM backward runs on the CPU"), said[1].c_str());
    }

    void shapesAndRefusals()
    {
        const auto out = [](const Attrs& given, const Shape& x) {
            const Op& op = *OpRegistry::builtin().find("GRU");
            Attrs attrs;
            normaliseAttrs(op.attrSpecs(), given, attrs);
            return op.inferOutput(attrs, std::vector<TensorSpec>{{x}}).shape;
        };
        QCOMPARE(out({{"hidden_size", I{8}}}, Shape{4, 10, 3}), (Shape{4, 10, 8}));
        QCOMPARE(out({{"hidden_size", I{8}}, {"bidirectional", true}}, Shape{4, 10, 3}), (Shape{4, 10, 16}));
        QCOMPARE(out({{"hidden_size", I{8}}, {"bidirectional", true}, {"return", std::string("last")}}, Shape{4, 10, 3}), (Shape{4, 16}));
        EXPECT_REFUSED(refusal("LSTM", {{"hidden_size", I{8}}, {"input_size", I{5}}}, Shape{4, 10, 3}), "input_size", "3 features");
        const Refusal flat = refusal("LSTM", {{"hidden_size", I{8}}}, Shape{4, 10});
        QVERIFY2(flat.message.contains("[batch, time, features]") && flat.message.contains("Reshape"), qPrintable(flat.message));
        QVERIFY(refusal("LSTM", {{"hidden_size", I{8}}, {"return", std::string("first")}}, Shape{4, 10, 3}).message.contains("return"));
    }
};

QTEST_GUILESS_MAIN(TestOpsRecurrent)
#include "tst_ops_recurrent.moc"

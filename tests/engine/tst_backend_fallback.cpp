// A backend that lacks a primitive still trains: the executor's plan runs the passes that need
// it on the CPU (exec/cpu_fallback.h), with the same bits as the CPU alone, and the run's log
// says which. Also the batch norm + ReLU fusion, found by the primitives the nodes call: it
// needs the backend's fused primitives, and leaves results unchanged either way.
#include <QtTest>

#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

#include "backend/cpu/cpu_backend.h"
#include "backend/forwarding_backend.h"
#include "blob_dataset.h"
#include "data/dataset.h"
#include "exec/executor.h"
#include "graph/templates.h"
#include "io/yaml/experiment_yaml.h"
#include "train/trainer.h"

using namespace ts;
using namespace ts::test;

namespace {

// The CPU backend without one primitive: it says so (supports), and calling it fails the test
// (the plan must never send it here).
class Lacking final : public ForwardingBackend {
public:
    explicit Lacking(Primitive missing) : ForwardingBackend(&cpuBackend()), missing_(missing) {}
    std::string name() const override { return "lacking"; }
    bool supports(Primitive p, DType dtype) const override { return p != missing_ && cpuBackend().supports(p, dtype); }

protected:
    void called(Primitive p, std::optional<Activation>) override
    {
        if (p == missing_) throw std::logic_error(std::string(primitiveName(p)) + " called on a backend that lacks it");
    }

private:
    Primitive missing_;
};

bool same(const Tensor& a, const Tensor& b)
{
    return a.bytes() == b.bytes() && std::memcmp(a.raw(), b.raw(), a.bytes()) == 0;
}

// The CNN template (conv, batch norm, ReLU, pooling, twice; Linear, CrossEntropy) on random
// images, three steps with no zeroGrad in between (the gradients accumulate), the executors in
// lockstep: losses, outputs, gradients and parameters (running statistics too) compared bit
// for bit after each step, then an evaluation forward.
void expectSameSteps(Executor& a, Executor& b)
{
    std::mt19937_64 rng(3);
    std::normal_distribution<float> normal;
    for (Executor* ex : {&a, &b}) ex->initParameters(7);
    for (int step = 0; step < 3; ++step) {
        Tensor x = Tensor::empty(Shape{6, 2, 12, 12}), y = Tensor::empty(Shape{6}, DType::I64);
        for (std::int64_t i = 0; i < x.numel(); ++i) x.data<float>()[i] = normal(rng);
        for (std::int64_t i = 0; i < y.numel(); ++i) y.data<std::int64_t>()[i] = i % 10;
        for (Executor* ex : {&a, &b}) {
            ex->setStep(std::uint64_t(step));
            ex->setInput("image", x);
            ex->setInput("label", y);
            ex->forward();
            if (a.plan().training) ex->backward();
        }
        QCOMPARE(a.loss(), b.loss());
        for (const char* v : {"batchnorm1", "relu1", "relu2"}) QVERIFY2(same(a.value(v), b.value(v)), v);
        QVERIFY(same(a.flatGradients(), b.flatGradients()));
        for (std::size_t p = 0; p < a.parameters().size(); ++p)
            QVERIFY2(same(a.parameters()[p].value, b.parameters()[p].value), a.parameters()[p].name.c_str());
    }
    if (!a.plan().training) return;
    a.setTraining(false), b.setTraining(false);
    a.forward(), b.forward();
    QCOMPARE(a.loss(), b.loss());
}

Graph cnn() { return templateGraph("cnn", TemplateInput{{2, 12, 12}, 10}); }

std::vector<std::string> texts(const std::vector<Message>& messages)
{
    std::vector<std::string> out;
    for (const Message& m : messages) out.push_back(m.text);
    return out;
}

}  // namespace

class TestBackendFallback : public QObject {
    Q_OBJECT

private slots:
    void lackingOnePrimitiveGivesTheSameBits_data()
    {
        QTest::addColumn<int>("missing");
        QTest::addColumn<QString>("placed");  // what the plan says
        const auto row = [](Primitive p, const char* placed) {
            QTest::newRow(primitiveName(p).data()) << int(p) << QString::fromLatin1(placed);
        };
        row(Primitive::batchNormBackward, "BatchNorm2d backward runs on the CPU, as lacking does not support "
                                          "batchNormBackward (2 nodes)");
        row(Primitive::batchNormForwardTraining, "BatchNorm2d forward runs on the CPU, as lacking does not support "
                                                 "batchNormForwardTraining (2 nodes)");
        row(Primitive::batchNormForwardInference, "BatchNorm2d forward runs on the CPU, as lacking does not support "
                                                  "batchNormForwardInference (2 nodes)");
        row(Primitive::conv2dForward, "Conv2d forward runs on the CPU, as lacking does not support conv2dForward (2 nodes)");
        row(Primitive::pool2dBackward, "MaxPool2d backward runs on the CPU, as lacking does not support pool2dBackward "
                                       "(2 nodes)");
        row(Primitive::crossEntropyBackward, "CrossEntropy backward runs on the CPU, as lacking does not support "
                                             "crossEntropyBackward (1 node)");
        // The fused primitives are the executor's choice alone: without them it runs the two apart.
        row(Primitive::batchNormReluBackward, "");
    }
    void lackingOnePrimitiveGivesTheSameBits()
    {
        QFETCH(int, missing);
        QFETCH(QString, placed);
        Lacking lacking{Primitive(missing)};
        for (bool training : {true, false}) {
            Executor reference(checkGraph(cnn(), 6), cpuBackend(), training), fallback(checkGraph(cnn(), 6), lacking, training);
            expectSameSteps(reference, fallback);
            if (training || Primitive(missing) == Primitive::batchNormForwardInference || Primitive(missing) == Primitive::conv2dForward)
                QCOMPARE(texts(describeCpuPasses(fallback.graph(), fallback.plan(), lacking.name())),
                         placed.isEmpty() ? std::vector<std::string>{} : std::vector<std::string>{placed.toStdString()});
        }
    }

    // Fusion is found by what the nodes call: the CNN's two batch norm + ReLU pairs fuse on the
    // CPU; a backend without the fused primitives, or one that runs a batch norm pass on the
    // CPU, runs them apart.
    void fusionNeedsTheFusedPrimitives()
    {
        const auto pairs = [](Backend& backend) {
            Executor ex(checkGraph(cnn(), 6), backend);
            int n = 0;
            for (std::size_t i = 0; i < ex.graph().nodes.size(); ++i) n += ex.fusedWith(i) >= 0;
            return n;
        };
        QCOMPARE(pairs(cpuBackend()), 2);
        Lacking noFusedForward(Primitive::batchNormReluForwardTraining), noFusedBackward(Primitive::batchNormReluBackward);
        Lacking noBatchNormBackward(Primitive::batchNormBackward), noRelu(Primitive::activationForward);
        for (Backend* b : std::initializer_list<Backend*>{&noFusedForward, &noFusedBackward, &noBatchNormBackward, &noRelu})
            QCOMPARE(pairs(*b), 0);
        // A LeakyReLU after the batch norm is not a ReLU: its trace says so.
        Graph leaky = cnn();
        for (Node& n : leaky.nodes)
            if (n.op == "ReLU") n.op = "LeakyReLU";
        Executor ex(checkGraph(leaky, 6), cpuBackend());
        for (std::size_t i = 0; i < ex.graph().nodes.size(); ++i) QCOMPARE(ex.fusedWith(i), -1);
    }

    // Synchronised batch norm on a batch norm that runs on the CPU: the statistics still cross
    // the ranks, through the device's memory, as they do where the batch norm runs on the device.
    // (A sum that doubles stands for two ranks holding the same batch.)
    void crossRankSumsGoThroughTheDevice()
    {
        Lacking lacking{Primitive::batchNormForwardTraining};
        Executor reference(checkGraph(cnn(), 6), cpuBackend()), fallback(checkGraph(cnn(), 6), lacking);
        int calls[2] = {0, 0};
        for (int k = 0; k < 2; ++k)
            (k ? fallback : reference).setCrossRankSum([&calls, k](float* data, std::size_t count) {
                ++calls[k];
                for (std::size_t i = 0; i < count; ++i) data[i] *= 2;
            });
        expectSameSteps(reference, fallback);
        QVERIFY(calls[0] > 0);
        QCOMPARE(calls[1], calls[0]);
    }

    // The shipped CNN trains on a backend without batch norm's backward to the same losses and
    // gradient norms as on the CPU, bit for bit, and the run's log and plan say what ran where.
    void shippedCnnTrainsWithAFallback()
    {
        const std::string file = std::string(TS_SOURCE_DIR) + "/experiments/fashion_mnist_cnn.yaml";
        ExperimentSpec spec = loadExperiment(file);
        if (!QFileInfo::exists(QString::fromStdString(spec.dataset.path))) QSKIP("Fashion-MNIST is not installed");
        spec.training.device = "cpu";
        spec.training.clipGradNorm = 1.0;  // the gradient norm feeds the update
        QTemporaryDir cache;
        const auto train = [&](Backend& backend, Recorder& rec) {
            TrainerOptions options;
            options.maxSteps = 4;
            options.cacheDir = cache.path().toStdString();
            Trainer trainer(spec, openExperimentDataset(spec, options.cacheDir), backend, options);
            trainer.addListener(&rec);
            const FinishedEvent f = trainer.run();
            QCOMPARE(int(f.outcome), int(FinishedEvent::Outcome::Finished));
        };
        Recorder cpu, fallback;
        Lacking lacking{Primitive::batchNormBackward};
        train(cpuBackend(), cpu);
        train(lacking, fallback);
        const auto steps = cpu.all<StepEvent>(), fallbackSteps = fallback.all<StepEvent>();
        QCOMPARE(steps.size(), std::size_t(4));
        QCOMPARE(fallbackSteps.size(), steps.size());
        for (std::size_t i = 0; i < steps.size(); ++i) {
            QCOMPARE(fallbackSteps[i].loss, steps[i].loss);
            QCOMPARE(fallbackSteps[i].gradNorm, steps[i].gradNorm);
        }
        QCOMPARE(cpu.all<StartedEvent>().at(0).cpuNodes, 0);
        QCOMPARE(fallback.all<StartedEvent>().at(0).cpuNodes, 2);
        QVERIFY(fallback.hasLog(LogEvent::Level::Info, "BatchNorm2d backward runs on the CPU, as lacking does not support "
                                                       "batchNormBackward (2 nodes)"));
        QVERIFY(!cpu.hasLog(LogEvent::Level::Info, "runs on the CPU, as"));
    }
};

QTEST_GUILESS_MAIN(TestBackendFallback)
#include "tst_backend_fallback.moc"

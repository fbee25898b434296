// Model templates: for Fashion-MNIST they are the shipped experiments' models exactly (node
// names included), they check for other image shapes and class counts, and shapes they cannot
// take are refused with the reason.
#include <QtTest>

#include "graph/templates.h"
#include "io/yaml/experiment_yaml.h"

using namespace ts;

namespace {

const std::string kExperiments = std::string(TS_SOURCE_DIR) + "/experiments";

// The output shape [batch, classes] of the checked graph's prediction.
Shape outputShape(const Graph& g, std::int64_t batch)
{
    const CheckedGraph cg = checkGraph(g, batch);
    return cg.values[static_cast<std::size_t>(cg.outputValue)].spec.shape;
}

std::int64_t parameterCount(const Graph& g)
{
    std::int64_t n = 0;
    for (const CheckedNode& node : checkGraph(g, 1).nodes)
        for (const ParamSpec& p : node.params)
            if (p.trainable) n += p.shape.numel();
    return n;
}

}  // namespace

class TestTemplates : public QObject {
    Q_OBJECT
private slots:
    void shippedExperimentsAreTheTemplates_data()
    {
        QTest::addColumn<QString>("name");
        for (const char* n : {"mlp", "cnn", "resnet"}) QTest::newRow(n) << n;
    }
    void shippedExperimentsAreTheTemplates()
    {
        QFETCH(QString, name);
        const ExperimentSpec spec = loadExperiment(kExperiments + "/fashion_mnist_" + name.toStdString() + ".yaml");
        const Graph t = templateGraph(name.toStdString(), TemplateInput{{1, 28, 28}, 10});
        QCOMPARE(t.nodes.size(), spec.model.nodes.size());
        for (std::size_t i = 0; i < t.nodes.size(); ++i)
            QVERIFY2(t.nodes[i] == spec.model.nodes[i], qPrintable(QString("node %1: template '%2', file '%3'")
                                                                       .arg(i)
                                                                       .arg(t.nodes[i].name.c_str(), spec.model.nodes[i].name.c_str())));
        QVERIFY(t == spec.model);  // inputs, output and loss too
        QVERIFY(templateGraph(name.toStdString()) == spec.model);  // the CLI's Fashion-MNIST default
    }

    // The old short-named graphs are the templates renamed: same structure, other names.
    void fashionMnistGraphsAreTheTemplatesRenamed()
    {
        const Graph cnn = fashionMnistCnn(), t = templateGraph("cnn");
        QCOMPARE(cnn.nodes.size(), t.nodes.size());
        QCOMPARE(cnn.nodes[1].name, std::string("bn1"));
        QCOMPARE(cnn.nodes[2].inputs, std::vector<std::string>{"bn1"});
        for (std::size_t i = 0; i < t.nodes.size(); ++i) {
            QCOMPARE(cnn.nodes[i].op, t.nodes[i].op);
            QVERIFY(cnn.nodes[i].attrs == t.nodes[i].attrs);
        }
        QCOMPARE(fashionMnistMlp().nodes.back().inputs, (std::vector<std::string>{"fc3", "label"}));
        QCOMPARE(parameterCount(fashionMnistMlp()), parameterCount(templateGraph("mlp")));
    }

    void templatesCheckForOtherShapesAndClassCounts_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QList<qint64>>("shape");
        QTest::addColumn<int>("classes");
        for (const char* n : {"mlp", "cnn", "resnet", "lenet5"}) {
            QTest::addRow("%s 1x28x28", n) << n << QList<qint64>{1, 28, 28} << 10;
            QTest::addRow("%s 3x32x32", n) << n << QList<qint64>{3, 32, 32} << 100;
            QTest::addRow("%s 3x64x48", n) << n << QList<qint64>{3, 64, 48} << 2;
        }
        QTest::newRow("mlp features") << "mlp" << QList<qint64>{13} << 3;
        QTest::newRow("cnn 4x4") << "cnn" << QList<qint64>{2, 4, 4} << 5;
        QTest::newRow("resnet 4x4") << "resnet" << QList<qint64>{2, 4, 4} << 5;
        QTest::newRow("lenet5 12x12") << "lenet5" << QList<qint64>{1, 12, 12} << 5;
    }
    void templatesCheckForOtherShapesAndClassCounts()
    {
        QFETCH(QString, name);
        QFETCH(QList<qint64>, shape);
        QFETCH(int, classes);
        const TemplateInput in{std::vector<std::int64_t>(shape.begin(), shape.end()), classes};
        QVERIFY2(templateAccepts(name.toStdString(), in), templateRejection(name.toStdString(), in).c_str());
        const Graph g = templateGraph(name.toStdString(), in);
        QCOMPARE(g.inputs[0].shape, Shape(in.shape));
        QCOMPARE(outputShape(g, 3), (Shape{3, classes}));
        QVERIFY(checkGraph(g, 3).lossValue >= 0);
    }

    // LeNet-5's classic sizes: 6@28x28 after the (padded) first convolution, 16@5x5 before the
    // head, 120, 84; its parameter count is the textbook 61,706 for 10 classes on 1x28x28
    // (conv1 156, conv2 2,416, fc 48,120 + 10,164 + 850).
    void lenet5IsTheClassic()
    {
        for (const std::vector<std::int64_t>& shape : {std::vector<std::int64_t>{1, 28, 28}, {3, 32, 32}}) {
            const CheckedGraph cg = checkGraph(templateGraph("lenet5", {shape, 10}), 1);
            QCOMPARE(cg.values[static_cast<std::size_t>(cg.findValue("conv1"))].spec.shape, (Shape{1, 6, 28, 28}));
            QCOMPARE(cg.values[static_cast<std::size_t>(cg.findValue("avgpool2"))].spec.shape, (Shape{1, 16, 5, 5}));
            QCOMPARE(cg.values[static_cast<std::size_t>(cg.findValue("linear2"))].spec.shape, (Shape{1, 84}));
        }
        QCOMPARE(parameterCount(templateGraph("lenet5", {{1, 28, 28}, 10})), std::int64_t(156 + 2416 + 48120 + 10164 + 850));
        // 3 input channels: conv1 has 6 * (3 * 25 + 1) = 456 parameters instead of 156.
        QCOMPARE(parameterCount(templateGraph("lenet5", {{3, 32, 32}, 10})), std::int64_t(456 + 2416 + 48120 + 10164 + 850));
    }

    void refusalsSayWhy_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QList<qint64>>("shape");
        QTest::addColumn<int>("classes");
        QTest::addColumn<QString>("why");
        QTest::newRow("unknown") << "vgg" << QList<qint64>{1, 28, 28} << 10 << "unknown model template 'vgg' (built in: mlp, cnn, resnet, lenet5)";
        QTest::newRow("lenet5 small") << "lenet5" << QList<qint64>{1, 8, 8} << 10 << "template lenet5 needs images of at least 12x12, got 8x8";
        QTest::newRow("cnn features") << "cnn" << QList<qint64>{13} << 10 << "template cnn needs images [C, H, W], got [13]";
        QTest::newRow("resnet 3x3") << "resnet" << QList<qint64>{1, 3, 28} << 10 << "template resnet needs images of at least 4x4, got 3x28";
        QTest::newRow("mlp rank 2") << "mlp" << QList<qint64>{4, 4} << 10 << "template mlp takes features [F] or images [C, H, W], got [4, 4]";
        QTest::newRow("one class") << "mlp" << QList<qint64>{13} << 1 << "template mlp needs at least 2 classes, got 1";
        QTest::newRow("zero side") << "cnn" << QList<qint64>{1, 0, 28} << 10
                                   << "template cnn: every dimension of the input must be positive, got [1, 0, 28]";
    }
    void refusalsSayWhy()
    {
        QFETCH(QString, name);
        QFETCH(QList<qint64>, shape);
        QFETCH(int, classes);
        QFETCH(QString, why);
        const TemplateInput in{std::vector<std::int64_t>(shape.begin(), shape.end()), classes};
        QVERIFY(!templateAccepts(name.toStdString(), in));
        QCOMPARE(QString::fromStdString(templateRejection(name.toStdString(), in)), why);
        try {
            templateGraph(name.toStdString(), in);
            QFAIL("no exception");
        } catch (const std::invalid_argument& e) {
            QCOMPARE(QString(e.what()), why);
        }
    }

    // The refusal's bounds are the real ones: one pixel less than accepted does not check.
    void boundsAreTight()
    {
        for (const auto& [name, side] : std::vector<std::pair<std::string, std::int64_t>>{{"cnn", 4}, {"lenet5", 12}}) {
            QVERIFY(templateAccepts(name, {{1, side, side}, 10}));
            Graph g = templateGraph(name, {{1, side, side}, 10});
            g.inputs[0].shape = Shape{1, side - 1, side - 1};
            QVERIFY_THROWS_EXCEPTION(GraphError, checkGraph(g, 1));
        }
    }
};

QTEST_APPLESS_MAIN(TestTemplates)
#include "tst_templates.moc"

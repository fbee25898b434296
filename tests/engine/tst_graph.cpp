// The Graph: shape inference, the cost model, and malformed graphs whose errors must name
// the node at fault (and never crash).
#include <QtTest>

#include "graph/cost_model.h"
#include "graph/graph.h"

using namespace ts;

namespace {

Graph mlp()
{
    Graph g;
    g.inputs = {{"image", Shape{1, 28, 28}}, {"label", Shape{}, DType::I64}};
    g.add("flat", "Flatten", {"image"});
    g.add("fc1", "Linear", {"flat"}, {{"out_features", std::int64_t(512)}});
    g.add("relu1", "ReLU", {"fc1"});
    g.add("fc2", "Linear", {"relu1"}, {{"out_features", std::int64_t(256)}});
    g.add("relu2", "ReLU", {"fc2"});
    g.add("fc3", "Linear", {"relu2"}, {{"out_features", std::int64_t(10)}});
    g.add("loss", "CrossEntropy", {"fc3", "label"});
    return g;
}

// Runs checkGraph and returns the error it must throw.
GraphError expectError(const Graph& g)
{
    try {
        checkGraph(g, 4);
    } catch (const GraphError& e) {
        return e;
    }
    throw std::runtime_error("checkGraph accepted a malformed graph");
}

}  // namespace

class TestGraph : public QObject {
    Q_OBJECT
private slots:
    void inferMlpShapes()
    {
        const CheckedGraph cg = checkGraph(mlp(), 128);
        QCOMPARE(cg.values[cg.findValue("image")].spec.shape, Shape({128, 1, 28, 28}));
        QCOMPARE(cg.values[cg.findValue("flat")].spec.shape, Shape({128, 784}));
        QCOMPARE(cg.values[cg.findValue("fc2")].spec.shape, Shape({128, 256}));
        QCOMPARE(cg.values[cg.outputValue].name, std::string("fc3"));
        QCOMPARE(cg.values[cg.lossValue].name, std::string("loss"));
        QCOMPARE(cg.values[cg.lossValue].spec.shape.numel(), std::int64_t(1));
        QCOMPARE(cg.nodes[1].params[0].name, std::string("fc1.weight"));
        QCOMPARE(cg.nodes[1].params[0].shape, Shape({512, 784}));
    }

    void nodesMayBeListedInAnyOrder()
    {
        Graph g = mlp();
        std::reverse(g.nodes.begin(), g.nodes.end());
        const CheckedGraph cg = checkGraph(g, 2);
        QCOMPARE(cg.nodes.front().name, std::string("flat"));
        QCOMPARE(cg.nodes.back().name, std::string("loss"));
    }

    void costModelCountsParametersFlopsAndActivations()
    {
        const CostReport c = estimateCost(checkGraph(mlp(), 1));
        // 784*512+512 + 512*256+256 + 256*10+10
        QCOMPARE(c.parameters, std::int64_t(535818));
        const auto& fc1 = c.nodes[1];
        QCOMPARE(fc1.name, std::string("fc1"));
        QCOMPARE(fc1.parameters, std::int64_t(784 * 512 + 512));
        QCOMPARE(fc1.flops, 2.0 * 784 * 512);  // one multiply-add per weight per sample
        QCOMPARE(fc1.activationBytes, size_t(512 * 4));
        const CostReport c64 = estimateCost(checkGraph(mlp(), 64));
        QCOMPARE(c64.nodes[1].flops, 64 * fc1.flops);  // FLOPs scale with the batch
        QCOMPARE(c64.parameters, c.parameters);       // parameters do not
        double sum = 0;
        for (const auto& n : c64.nodes) sum += n.flops;
        QCOMPARE(c64.flops, sum);
    }

    void cnnShapesAndCost()
    {
        Graph g;
        g.inputs = {{"image", Shape{1, 28, 28}}};
        g.add("conv1", "Conv2d", {"image"}, {{"out_channels", std::int64_t(32)}, {"kernel_size", std::int64_t(3)}, {"padding", std::int64_t(1)}});
        g.add("bn1", "BatchNorm2d", {"conv1"});
        g.add("pool1", "MaxPool2d", {"bn1"}, {{"kernel_size", std::int64_t(2)}});
        g.add("gap", "GlobalAvgPool", {"pool1"});
        const CheckedGraph cg = checkGraph(g, 8);
        QCOMPARE(cg.values[cg.findValue("conv1")].spec.shape, Shape({8, 32, 28, 28}));
        QCOMPARE(cg.values[cg.findValue("pool1")].spec.shape, Shape({8, 32, 14, 14}));
        QCOMPARE(cg.values[cg.findValue("gap")].spec.shape, Shape({8, 32}));
        const CostReport c = estimateCost(cg);
        QCOMPARE(c.nodes[0].parameters, std::int64_t(32 * 9 + 32));
        QCOMPARE(c.nodes[0].flops, 2.0 * 8 * 32 * 28 * 28 * 9);
        QCOMPARE(c.nodes[1].parameters, std::int64_t(64));  // gamma and beta; running stats are not trained
        QCOMPARE(cg.lossValue, -1);
    }

    void shapeMismatchNamesNodeAndAttribute()
    {
        Graph g = mlp();
        g.nodes[3].attrs.set("in_features", std::int64_t(512));
        g.nodes[1].attrs.set("out_features", std::int64_t(256));
        const GraphError e = expectError(g);
        QCOMPARE(e.kind(), GraphError::Kind::ShapeMismatch);
        QCOMPARE(e.node(), std::string("fc2"));
        QCOMPARE(std::string(e.what()), std::string("node 'fc2' (Linear, in_features=512): input has 256 features"));
    }

    void cycleNamesANodeOnIt()
    {
        Graph g;
        g.inputs = {{"x", Shape{4}}};
        g.add("fc1", "Linear", {"x"}, {{"out_features", std::int64_t(4)}});
        g.add("r1", "ReLU", {"fc3"});
        g.add("fc2", "Linear", {"r1"}, {{"out_features", std::int64_t(4)}});
        g.add("fc3", "Linear", {"fc2"}, {{"out_features", std::int64_t(4)}});
        const GraphError e = expectError(g);
        QCOMPARE(e.kind(), GraphError::Kind::Cycle);
        QCOMPARE(e.node(), std::string("r1"));
        QVERIFY2(std::string(e.what()).find("r1 -> fc2 -> fc3 -> r1") != std::string::npos, e.what());
    }

    void selfLoopIsACycle()
    {
        Graph g;
        g.inputs = {{"x", Shape{4}}};
        g.add("a", "Add", {"x", "a"});
        const GraphError e = expectError(g);
        QCOMPARE(e.kind(), GraphError::Kind::Cycle);
        QCOMPARE(e.node(), std::string("a"));
    }

    void missingInputNamesConsumer()
    {
        Graph g = mlp();
        g.nodes[3].inputs = {"relu9"};
        const GraphError e = expectError(g);
        QCOMPARE(e.kind(), GraphError::Kind::MissingInput);
        QCOMPARE(e.node(), std::string("fc2"));
        QVERIFY2(std::string(e.what()).find("'relu9'") != std::string::npos, e.what());
    }

    void unknownOpSuggestsTheClosest()
    {
        Graph g = mlp();
        g.nodes[2].op = "Relu";
        const GraphError e = expectError(g);
        QCOMPARE(e.kind(), GraphError::Kind::UnknownOp);
        QCOMPARE(e.node(), std::string("relu1"));
        QVERIFY2(std::string(e.what()).find("did you mean 'ReLU'") != std::string::npos, e.what());
    }

    void badAttributesNameNodeAndAttribute_data()
    {
        QTest::addColumn<QString>("attr");
        QTest::addColumn<QString>("expected");
        QTest::newRow("zero") << "out_features=0" << "attribute 'out_features' must be >= 1, got 0";
        QTest::newRow("type") << "out_features='ten'" << "attribute 'out_features' must be an integer, got 'ten'";
        QTest::newRow("unknown") << "out_feature=3" << "unknown attribute 'out_feature'";
        QTest::newRow("missing") << "" << "missing required attribute 'out_features'";
    }
    void badAttributesNameNodeAndAttribute()
    {
        QFETCH(QString, attr);
        QFETCH(QString, expected);
        Graph g = mlp();
        Attrs a;
        if (attr == "out_features=0") a.set("out_features", std::int64_t(0));
        if (attr == "out_features='ten'") a.set("out_features", std::string("ten"));
        if (attr == "out_feature=3") a.set("out_feature", std::int64_t(3));
        g.nodes[5].attrs = a;
        const GraphError e = expectError(g);
        QCOMPARE(e.kind(), GraphError::Kind::BadAttribute);
        QCOMPARE(e.node(), std::string("fc3"));
        QVERIFY2(std::string(e.what()).rfind("node 'fc3' (Linear): " + expected.toStdString(), 0) == 0, e.what());
    }

    void duplicateNamesAndInputCounts()
    {
        Graph g = mlp();
        g.nodes[4].name = "relu1";
        GraphError e = expectError(g);
        QCOMPARE(e.kind(), GraphError::Kind::DuplicateName);
        QCOMPARE(e.node(), std::string("relu1"));

        Graph h = mlp();
        h.nodes[2].inputs = {"fc1", "flat"};  // ReLU takes one input
        e = expectError(h);
        QCOMPARE(e.kind(), GraphError::Kind::InputCount);
        QCOMPARE(e.node(), std::string("relu1"));
        QVERIFY2(std::string(e.what()).find("takes 1 input(s), got 2") != std::string::npos, e.what());
    }

    void lossMustBeALossOp()
    {
        Graph g = mlp();
        g.loss = "fc3";
        const GraphError e = expectError(g);
        QCOMPARE(e.node(), std::string("fc3"));
        Graph empty;
        QCOMPARE(expectError(empty).kind(), GraphError::Kind::Empty);
    }
};

QTEST_GUILESS_MAIN(TestGraph)
#include "tst_graph.moc"

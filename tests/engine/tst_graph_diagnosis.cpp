// diagnoseGraph, the model builder's check: every problem pinned to its node, shapes and
// costs above a problem still known, and the same answer as checkGraph on a good graph.
// Also the registry facts the builder's palette and ports rely on.
#include <QtTest>

#include <set>

#include "graph/graph_diagnosis.h"
#include "graph/templates.h"
#include "graph/training_check.h"
#include "train/evaluation.h"

using namespace ts;

namespace {

// flatten, fc1, relu1, fc2, relu2, fc3, loss
Graph mlp() { return fashionMnistMlp(); }

std::vector<std::string> problemNodes(const GraphDiagnosis& d)
{
    std::vector<std::string> out;
    for (const auto& p : d.problems) out.push_back(p.node());
    return out;
}

}  // namespace

class TestGraphDiagnosis : public QObject {
    Q_OBJECT
private slots:
    void goodGraphAgreesWithCheckGraphAndTheCostModel()
    {
        const Graph g = fashionMnistCnn();
        const GraphDiagnosis d = diagnoseGraph(g, 64);
        QVERIFY(d.ok());
        QVERIFY(d.checked.has_value());
        const CostReport cost = estimateCost(checkGraph(g, 64));
        QCOMPARE(d.parameters, cost.parameters);
        QCOMPARE(d.flops, cost.flops);
        QCOMPARE(d.nodes.size(), g.nodes.size());
        for (std::size_t i = 0; i < g.nodes.size(); ++i) {
            QCOMPARE(d.nodes[i].name, g.nodes[i].name);  // the graph's order, not execution order
            QVERIFY(d.nodes[i].known);
        }
        QCOMPARE(d.find("conv2")->output.shape, Shape({64, 64, 14, 14}));
    }

    void everyProblemIsPinnedAndShapesAboveAreKept()
    {
        Graph g = mlp();
        g.nodes[3].attrs.set("in_features", std::int64_t(100));  // fc2: the input has 512
        g.nodes[5].op = "Lineer";                                 // fc3: unknown op
        const GraphDiagnosis d = diagnoseGraph(g, 8);
        QVERIFY(!d.ok());
        QCOMPARE(problemNodes(d), (std::vector<std::string>{"fc2", "fc3"}));  // in the graph's order
        QCOMPARE(d.find("fc3")->kind, GraphError::Kind::UnknownOp);
        QVERIFY2(d.find("fc3")->problem.find("did you mean 'Linear'") != std::string::npos, d.find("fc3")->problem.c_str());
        QCOMPARE(d.find("fc2")->kind, GraphError::Kind::ShapeMismatch);
        // Above the mistake: shapes and costs; below it: blocked, without errors of their own.
        QVERIFY(d.find("fc1")->known);
        QCOMPARE(d.find("fc1")->output.shape, Shape({8, 512}));
        QCOMPARE(d.find("fc1")->cost.parameters, std::int64_t(784 * 512 + 512));
        QVERIFY(d.find("relu2")->blocked);
        QVERIFY(d.find("relu2")->problem.empty());
        QVERIFY(d.find("loss")->blocked);
        QCOMPARE(d.parameters, std::int64_t(784 * 512 + 512));
    }

    void cycleIsPinnedAndNodesBeforeItKeepTheirShapes()
    {
        Graph g;
        g.inputs = {{"x", Shape{4}}};
        g.add("fc1", "Linear", {"x"}, {{"out_features", std::int64_t(6)}});
        g.add("r1", "ReLU", {"fc3"});
        g.add("fc2", "Linear", {"r1"}, {{"out_features", std::int64_t(4)}});
        g.add("fc3", "Linear", {"fc2"}, {{"out_features", std::int64_t(4)}});
        const GraphDiagnosis d = diagnoseGraph(g, 2);
        QCOMPARE(problemNodes(d), std::vector<std::string>{"r1"});
        QCOMPARE(d.find("r1")->kind, GraphError::Kind::Cycle);
        QVERIFY(d.find("fc2")->blocked && d.find("fc3")->blocked);
        QCOMPARE(d.find("fc1")->output.shape, Shape({2, 6}));
    }

    void missingInputsDuplicatesAndInputCounts()
    {
        Graph g = mlp();
        g.nodes[2].inputs = {"nowhere"};     // relu1
        g.nodes[4].name = "fc2";             // relu2 renamed onto fc2
        g.nodes[6].inputs = {"fc3"};         // the loss without its target
        const GraphDiagnosis d = diagnoseGraph(g, 2);
        QCOMPARE(d.find("relu1")->kind, GraphError::Kind::MissingInput);
        QCOMPARE(d.find("loss")->kind, GraphError::Kind::InputCount);
        bool duplicate = false;
        for (const auto& p : d.problems) duplicate = duplicate || p.kind() == GraphError::Kind::DuplicateName;
        QVERIFY(duplicate);
        QVERIFY(d.find("flatten")->known);
    }

    void graphWideProblemsAreListedToo()
    {
        Graph g = mlp();
        g.loss = "fc3";  // not a loss op: no single node's own check finds it
        const GraphDiagnosis d = diagnoseGraph(g, 2);
        QCOMPARE(d.problems.size(), std::size_t(1));
        QVERIFY(std::string(d.problems[0].what()).find("not a loss op") != std::string::npos);
        QVERIFY(d.find("loss")->known);
        QVERIFY(diagnoseGraph(Graph{}, 2).problems.size() == 1);  // empty: one problem, no crash
    }

    // A model that checks but has no loss cannot train: the builder lists that as its one
    // problem (graph-wide, the shapes all known), in the trainer's own words, and knows the
    // loss that fits: CrossEntropy for class scores and class indices, MSE for a float target.
    void aModelWithoutALossIsAProblemWithItsFittingLoss()
    {
        Graph g = mlp();
        g.nodes.pop_back();  // the loss
        const GraphDiagnosis d = diagnoseGraph(g, 8);
        QCOMPARE(d.problems.size(), std::size_t(1));
        QCOMPARE(d.problems[0].kind(), GraphError::Kind::NotTrainable);
        QVERIFY(d.problems[0].node().empty());
        QVERIFY(d.checked.has_value() && d.find("fc3")->known);
        QCOMPARE(d.batch, std::int64_t(8));
        try {
            GraphBinding::of(*d.checked);
            QFAIL("the trainer took a model without a loss");
        } catch (const std::invalid_argument& e) {
            QCOMPARE(std::string(e.what()), std::string(d.problems[0].what()));
        }
        const auto loss = fittingLoss(g, *d.checked);
        QVERIFY(loss.has_value());
        QCOMPARE(loss->op, std::string("CrossEntropy"));
        QCOMPARE(loss->inputs, (std::vector<std::string>{"fc3", "label"}));
        g.nodes.push_back(*loss);
        QVERIFY(diagnoseGraph(g, 8).ok());
        QVERIFY(!fittingLoss(g, checkGraph(g, 8)).has_value());  // it has one now

        Graph regression;
        regression.inputs = {{"x", Shape{4}}, {"label", Shape{2}}};
        regression.add("fc", "Linear", {"x"}, {{"out_features", std::int64_t(2)}});
        const auto mse = fittingLoss(regression, checkGraph(regression, 3));
        QVERIFY(mse && mse->op == "MSE");
        regression.nodes.push_back(*mse);
        QVERIFY(diagnoseGraph(regression, 3).ok());

        Graph mismatch;  // a float target of another shape: no loss is guessed
        mismatch.inputs = {{"x", Shape{4}}, {"label", Shape{3}}};
        mismatch.add("fc", "Linear", {"x"}, {{"out_features", std::int64_t(2)}});
        QVERIFY(!fittingLoss(mismatch, checkGraph(mismatch, 3)).has_value());
        QCOMPARE(diagnoseGraph(mismatch, 3).problems.at(0).kind(), GraphError::Kind::NotTrainable);
    }

    // The palette groups ops by category and the canvas draws one port per input: every op
    // declares a category (losses exactly the ops that are losses) and names its inputs.
    void everyOpHasACategoryAndNamedInputs()
    {
        const OpRegistry& r = OpRegistry::builtin();
        QVERIFY(r.types().size() >= 20);
        for (const auto& type : r.types()) {
            const Op& op = *r.find(type);
            QCOMPARE(op.category() == OpCategory::Loss, op.isLoss());
            QVERIFY(!opCategoryName(op.category()).empty());
            const int ports = op.maxInputs() < 0 ? op.minInputs() + 1 : op.maxInputs();
            std::set<std::string> names;
            for (int i = 0; i < ports; ++i) QVERIFY2(names.insert(op.inputName(i)).second, type.c_str());
        }
        QCOMPARE(r.find("CrossEntropy")->inputName(1), std::string("target"));
        QCOMPARE(r.find("Conv2d")->category(), OpCategory::Layer);
        QCOMPARE(r.find("MaxPool2d")->category(), OpCategory::Pooling);
    }
};

QTEST_GUILESS_MAIN(TestGraphDiagnosis)
#include "tst_graph_diagnosis.moc"

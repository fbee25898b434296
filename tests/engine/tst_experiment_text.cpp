// Experiment files as the Model page edits them: the lenient draft (a broken model is still
// read, its problems pinned to nodes), the lossless saver (unchanged parts keep their bytes,
// an attribute change touches one line) and the `layout:` section.
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "io/yaml/experiment_text.h"
#include "io/yaml/experiment_yaml.h"
#include "../common/shipped_experiment_rows.h"

using namespace ts;

namespace {

const std::string kExperiments = std::string(TS_SOURCE_DIR) + "/experiments";

std::string readText(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<std::string> linesOf(const std::string& text)
{
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    return lines;
}

// The lines of `a` and `b` between their common first and last lines: what an edit removed
// and what it added, exact for an edit in one place.
struct LineDiff {
    std::vector<std::string> removed, added;
};
LineDiff lineDiff(const std::string& a, const std::string& b)
{
    const auto x = linesOf(a), y = linesOf(b);
    std::size_t head = 0;
    while (head < x.size() && head < y.size() && x[head] == y[head]) ++head;
    std::size_t tail = 0;
    while (tail < x.size() - head && tail < y.size() - head && x[x.size() - 1 - tail] == y[y.size() - 1 - tail]) ++tail;
    return {std::vector<std::string>(x.begin() + head, x.end() - tail), std::vector<std::string>(y.begin() + head, y.end() - tail)};
}

// `text` with its first occurrence of `from` replaced by `to` (the expected edit, written independently).
std::string replaced(std::string text, const std::string& from, const std::string& to)
{
    const auto at = text.find(from);
    if (at == std::string::npos) throw std::runtime_error("not in the text: " + from);
    return text.replace(at, from.size(), to);
}

ExperimentDraft draftOf(const std::string& text) { return parseExperimentDraft(text, "x.yaml"); }

Node& nodeNamed(ExperimentSpec& s, const std::string& name)
{
    for (Node& n : s.model.nodes)
        if (n.name == name) return n;
    throw std::runtime_error("no node " + name);
}

// A hand-written file with comments everywhere: at the top, beside keys, inside sections and
// flow mappings, between sections, at the end.
const char* kCommented = R"(# A hand-written experiment.
# Two lines of header.
name: commented        # the name
description: "A test: with a colon"

dataset:               # where the images are
  format: idx
  # a comment line inside a section
  path: /usr/share/datasets/fashion-mnist
  validation_fraction: 0.0   # no validation split

# about the model
model:
  # before the layers
  layers:
    - Flatten              # 784 features
    - Linear:              # a block mapping
        out_features: 64   # hidden units
        init: pytorch
    - BatchNorm1d
    - ReLU
    - Dropout: {p: 0.1}    # a flow mapping
    - Linear: {out_features: 10, init: pytorch}   # logits
    - CrossEntropy
# about the optimizer
optimizer: {type: sgd, lr: 0.1, momentum: 0.9}  # fast

training:
  epochs: 1     # one pass
  batch_size: 32
  # the end
)";

// A valid experiment in the nodes form (a residual add) for the draft and nodes-form tests.
const char* kNodes = R"(name: n
dataset: {format: idx, path: /nowhere}
model:
  nodes:
    - {name: flat, op: Flatten, inputs: [image]}
    - {name: fc1, op: Linear, out_features: 32}   # first
    - {name: act, op: ReLU}
    - {name: fc2, op: Linear, out_features: 32}
    - {name: add, op: Add, inputs: [fc2, fc1]}
    - {name: head, op: Linear, out_features: 10}
    - {name: loss, op: CrossEntropy, inputs: [head, label]}
training: {epochs: 1, batch_size: 8}
)";

}  // namespace

class TestExperimentText : public QObject {
    Q_OBJECT
private slots:
    void shippedFilesSaveUnchanged_data() { addShippedExperimentRows(kExperiments); }
    // Saving what was read gives the file back byte for byte; a layout added is appended after
    // everything else, and moving one node then changes one line.
    void shippedFilesSaveUnchanged()
    {
        QFETCH(QString, file);
        const std::string path = file.toStdString();
        const std::string text = readText(path);
        ExperimentSpec spec = loadExperiment(path);
        QCOMPARE(updateExperimentText(text, spec), text);

        std::vector<std::string> names;
        for (const auto& in : spec.model.inputs) names.push_back(in.name);
        for (const auto& n : spec.model.nodes) names.push_back(n.name);
        for (std::size_t i = 0; i < names.size(); ++i) spec.layout.positions[names[i]] = NodePosition{0, 100.0 * static_cast<double>(i)};
        const std::string laidOut = updateExperimentText(text, spec);
        QVERIFY2(laidOut.starts_with(text), laidOut.c_str());  // every byte of the file kept
        QVERIFY(laidOut.find("\nlayout:\n  positions:\n    " + names[0] + ": [0, 0]\n") != std::string::npos);
        QCOMPARE(static_cast<int>(linesOf(laidOut).size() - linesOf(text).size()), 1 + 1 + 1 + static_cast<int>(names.size()));
        QVERIFY(parseExperimentDraft(laidOut, path).spec == spec);

        ExperimentSpec moved = spec;
        moved.layout.positions[names[3]] = NodePosition{40, 325.5};
        const std::string after = updateExperimentText(laidOut, moved);
        const LineDiff d = lineDiff(laidOut, after);
        QCOMPARE(d.removed, std::vector<std::string>{"    " + names[3] + ": [0, 300]"});
        QCOMPARE(d.added, std::vector<std::string>{"    " + names[3] + ": [40, 325.5]"});
        QCOMPARE(linesOf(after).size(), linesOf(laidOut).size());
        QVERIFY(parseExperimentDraft(after, path).spec == moved);
        QCOMPARE(updateExperimentText(after, spec), laidOut);  // moving it back restores the file
    }

    // Every number of every node of every shipped file, changed one at a time, and every
    // node's checkpoint flag: one line of the file changes, and it reads back as edited.
    void everyShippedAttributeEditsOneLine_data() { shippedFilesSaveUnchanged_data(); }
    void everyShippedAttributeEditsOneLine()
    {
        QFETCH(QString, file);
        const std::string path = file.toStdString();
        const std::string text = readText(path);
        const ExperimentSpec spec = loadExperiment(path);
        int edits = 0;
        auto check = [&](const ExperimentSpec& edited, const std::string& what) {
            const std::string out = updateExperimentText(text, edited);
            const LineDiff d = lineDiff(text, out);
            QVERIFY2(d.removed.size() == 1 && d.added.size() == 1, (what + ":\n" + out).c_str());
            QVERIFY2(parseExperimentDraft(out, path).spec == edited, (what + ":\n" + out).c_str());
            ++edits;
        };
        for (std::size_t i = 0; i < spec.model.nodes.size(); ++i) {
            for (const auto& [key, value] : spec.model.nodes[i].attrs.values()) {
                ExperimentSpec edited = spec;
                if (const auto* n = std::get_if<std::int64_t>(&value)) edited.model.nodes[i].attrs.set(key, *n + 1);
                else if (const auto* x = std::get_if<double>(&value)) edited.model.nodes[i].attrs.set(key, *x / 2);
                else continue;
                check(edited, spec.model.nodes[i].name + "." + key);
            }
            ExperimentSpec toggled = spec;
            toggled.model.nodes[i].checkpoint = !toggled.model.nodes[i].checkpoint;
            check(toggled, spec.model.nodes[i].name + " checkpoint");
        }
        QVERIFY(edits > static_cast<int>(spec.model.nodes.size()));
    }

    void commentedFileRoundTrips()
    {
        const ExperimentDraft d = draftOf(kCommented);
        QVERIFY2(d.issues.empty(), d.issues.empty() ? "" : d.issues.front().message.c_str());
        QCOMPARE(updateExperimentText(kCommented, d.spec), std::string(kCommented));
        // A changed optimizer is rewritten alone, its comment kept; the rest keeps its bytes.
        ExperimentSpec s = d.spec;
        s.optimizer.lr = 0.05;
        const std::string lr = updateExperimentText(kCommented, s);
        QCOMPARE(lr, replaced(kCommented, "optimizer: {type: sgd, lr: 0.1, momentum: 0.9}  # fast",
                              "optimizer: {type: sgd, lr: 0.05, momentum: 0.9}  # fast"));
        // A section the file lacks goes where the writer puts it: the schedule after the optimizer.
        s = d.spec;
        s.schedule.type = "cosine";
        const std::string cosine = updateExperimentText(kCommented, s);
        QCOMPARE(cosine, replaced(kCommented, "# fast\n", "# fast\nschedule: {type: cosine}\n"));
        QVERIFY(draftOf(cosine).spec == s);
        // A section back to its defaults goes away.
        QCOMPARE(updateExperimentText(cosine, d.spec), std::string(kCommented));
        // Training changed: that section is rewritten as the writer writes it, its comments gone.
        s = d.spec;
        s.training.epochs = 3;
        const std::string epochs = updateExperimentText(kCommented, s);
        QVERIFY(epochs.ends_with("\ntraining:\n  epochs: 3\n  batch_size: 32\n"));
        QVERIFY(epochs.starts_with(std::string(kCommented).substr(0, std::string(kCommented).find("training:"))));
    }

    // One attribute changed: exactly its line changes, as the independent replacement says.
    void changedAttributeTouchesOneLine()
    {
        // A flow mapping with a comment after it on the same line.
        const std::string mlpPath = kExperiments + "/fashion_mnist_mlp.yaml";
        const std::string mlp = readText(mlpPath);
        ExperimentSpec s = loadExperiment(mlpPath);
        nodeNamed(s, "linear1").attrs.set("out_features", std::int64_t(300));
        std::string out = updateExperimentText(mlp, s);
        QCOMPARE(out, replaced(mlp, "- Linear: {out_features: 512, init: pytorch}  # 784 -> 512;",
                               "- Linear: {out_features: 300, init: pytorch}  # 784 -> 512;"));
        QCOMPARE(lineDiff(mlp, out).added.size(), std::size_t(1));
        QVERIFY(parseExperimentDraft(out, mlpPath).spec == s);

        // A block mapping, one key a line.
        ExperimentSpec c = draftOf(kCommented).spec;
        nodeNamed(c, "linear1").attrs.set("out_features", std::int64_t(128));
        out = updateExperimentText(kCommented, c);
        QCOMPARE(out, replaced(kCommented, "        out_features: 64   # hidden units", "        out_features: 128   # hidden units"));

        // The nodes form.
        ExperimentSpec n = draftOf(kNodes).spec;
        nodeNamed(n, "fc2").attrs.set("out_features", std::int64_t(64));
        out = updateExperimentText(kNodes, n);
        QCOMPARE(out, replaced(kNodes, "- {name: fc2, op: Linear, out_features: 32}", "- {name: fc2, op: Linear, out_features: 64}"));
        QVERIFY(draftOf(out).spec == n);

        // Another spelling of the same value is no change: kernel_size 3 is [3, 3].
        const std::string cnnPath = kExperiments + "/fashion_mnist_cnn.yaml";
        const std::string cnn = readText(cnnPath);
        ExperimentSpec k = loadExperiment(cnnPath);
        nodeNamed(k, "conv1").attrs.set("kernel_size", std::vector<std::int64_t>{3, 3});
        QCOMPARE(updateExperimentText(cnn, k), cnn);
        nodeNamed(k, "conv1").attrs.set("kernel_size", std::vector<std::int64_t>{5, 5});
        QCOMPARE(updateExperimentText(cnn, k),
                 replaced(cnn, "out_channels: 32, kernel_size: 3,", "out_channels: 32, kernel_size: [5, 5],"));
    }

    void addedAndRemovedAttributesTouchTheirNode()
    {
        const std::string cnnPath = kExperiments + "/fashion_mnist_cnn.yaml";
        const std::string cnn = readText(cnnPath);
        const ExperimentSpec base = loadExperiment(cnnPath);

        ExperimentSpec s = base;  // a bare layer gains an attribute
        nodeNamed(s, "batchnorm1").attrs.set("momentum", 0.2);
        std::string out = updateExperimentText(cnn, s);
        QCOMPARE(out, replaced(cnn, "    - BatchNorm2d\n", "    - BatchNorm2d: {momentum: 0.2}\n"));
        QVERIFY(parseExperimentDraft(out, cnnPath).spec == s);
        QCOMPARE(updateExperimentText(out, base), cnn);  // and loses it again: the bare layer comes back

        s = base;  // an attribute removed from a flow mapping
        Attrs attrs;
        for (const auto& [k, v] : nodeNamed(s, "conv1").attrs.values())
            if (k != "init") attrs.set(k, v);
        nodeNamed(s, "conv1").attrs = attrs;
        out = updateExperimentText(cnn, s);
        QCOMPARE(out, replaced(cnn, "- Conv2d: {out_channels: 32, kernel_size: 3, padding: 1, init: pytorch}",
                               "- Conv2d: {out_channels: 32, kernel_size: 3, padding: 1}"));

        // A block mapping: removing drops the key's line, adding puts one under the last key.
        ExperimentSpec c = draftOf(kCommented).spec;
        Attrs kept;
        kept.set("out_features", std::int64_t(64));
        nodeNamed(c, "linear1").attrs = kept;
        out = updateExperimentText(kCommented, c);
        QCOMPARE(out, replaced(kCommented, "        init: pytorch\n    - BatchNorm1d", "    - BatchNorm1d"));
        nodeNamed(c, "linear1").attrs.set("bias", false);
        out = updateExperimentText(kCommented, c);
        QCOMPARE(out, replaced(kCommented, "        init: pytorch\n", "        bias: false\n"));
        QVERIFY(draftOf(out).spec == c);
    }

    void checkpointToggleTouchesItsLine()
    {
        const std::string mlpPath = kExperiments + "/fashion_mnist_mlp.yaml";
        const std::string mlp = readText(mlpPath);
        const ExperimentSpec base = loadExperiment(mlpPath);
        ExperimentSpec s = base;
        nodeNamed(s, "linear2").checkpoint = true;
        nodeNamed(s, "relu1").checkpoint = true;
        const std::string on = updateExperimentText(mlp, s);
        std::string expected = replaced(mlp, "    - ReLU\n", "    - ReLU: {checkpoint: true}\n");
        expected = replaced(expected, "- Linear: {out_features: 256, init: pytorch}",
                            "- Linear: {out_features: 256, init: pytorch, checkpoint: true}");
        QCOMPARE(on, expected);
        QVERIFY(parseExperimentDraft(on, mlpPath).spec == s);
        QCOMPARE(updateExperimentText(on, base), mlp);

        ExperimentSpec c = draftOf(kCommented).spec;  // in a block mapping: one line more
        nodeNamed(c, "linear1").checkpoint = true;
        QCOMPARE(updateExperimentText(kCommented, c),
                 replaced(kCommented, "        init: pytorch\n", "        init: pytorch\n        checkpoint: true\n"));
    }

    // Nodes added, deleted or renamed: the model section is rewritten, everything else kept.
    void structuralChangesRewriteTheModelOnly()
    {
        const std::string cnnPath = kExperiments + "/fashion_mnist_cnn.yaml";
        const std::string cnn = readText(cnnPath);
        const ExperimentSpec base = loadExperiment(cnnPath);
        const std::string before = cnn.substr(0, cnn.find("model:\n"));
        const std::string after = cnn.substr(cnn.find("\noptimizer:"));

        ExperimentSpec added = base;
        added.model.nodes.insert(added.model.nodes.begin() + 3, Node{"dropout9", "Dropout", Attrs{{"p", 0.1}}, {"relu1"}});
        added.model.nodes[4].inputs = {"dropout9"};
        ExperimentSpec removed = base;
        removed.model.nodes.erase(removed.model.nodes.begin() + 1);  // batchnorm1
        removed.model.nodes[1].inputs = {"conv1"};
        ExperimentSpec renamed = base;
        nodeNamed(renamed, "classifier").name = "head";
        renamed.model.nodes.back().inputs = {"head", "label"};

        for (const ExperimentSpec* s : {&added, &removed, &renamed}) {
            const std::string out = updateExperimentText(cnn, *s);
            QVERIFY2(out.starts_with(before), out.c_str());
            QVERIFY2(out.ends_with(after), out.c_str());
            QVERIFY2(out.find("# block 1") == std::string::npos, out.c_str());  // the section was rewritten
            QVERIFY(parseExperimentDraft(out, cnnPath).spec == *s);
        }
        QVERIFY(updateExperimentText(cnn, renamed).find("- Linear: {name: head, out_features: 10, init: pytorch}") != std::string::npos);
    }

    void otherSpellingsAndForms()
    {
        // A layer written `- BatchNorm2d:` (an empty value) gains an attribute in place.
        const std::string text = replaced(kCommented, "    - BatchNorm1d\n", "    - BatchNorm1d:\n");
        ExperimentSpec s = draftOf(text).spec;
        QCOMPARE(updateExperimentText(text, s), text);
        nodeNamed(s, "batchnorm1").attrs.set("eps", 0.001);
        QCOMPARE(updateExperimentText(text, s), replaced(text, "    - BatchNorm1d:\n", "    - BatchNorm1d: {eps: 0.001}\n"));
        // A nodes-form item gains and loses keys on its own line.
        ExperimentSpec n = draftOf(kNodes).spec;
        nodeNamed(n, "fc1").attrs.set("bias", false);
        QCOMPARE(updateExperimentText(kNodes, n),
                 replaced(kNodes, "{name: fc1, op: Linear, out_features: 32}   # first",
                          "{name: fc1, op: Linear, out_features: 32, bias: false}   # first"));
        // Empty or unreadable text: the writer's file.
        QCOMPARE(updateExperimentText("", n), experimentToYaml(n));
        QCOMPARE(updateExperimentText("model: [", n), experimentToYaml(n));
    }

    // A model that does not check is still read: the node is there, its problem pinned to it;
    // the strict reader refuses the same file with the same message.
    void draftKeepsBrokenNodes_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("node");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("words");
        QTest::newRow("unknown op") << "{name: act, op: ReLU}" << "{name: act, op: Relu6x, alpha: 2}" << "act" << 7 << 23 << "unknown op 'Relu6x'";
        QTest::newRow("bad attribute") << "{name: fc2, op: Linear, out_features: 32}" << "{name: fc2, op: Linear, out_features: -4}" << "fc2"
                                       << 8 << 45 << "out_features";
        QTest::newRow("unknown attribute") << "{name: fc2, op: Linear, out_features: 32}"
                                           << "{name: fc2, op: Linear, out_features: 32, widht: 3}" << "fc2" << 8 << 49 << "unknown attribute 'widht'";
        QTest::newRow("shape") << "{name: fc2, op: Linear, out_features: 32}" << "{name: fc2, op: Linear, out_features: 16}" << "add" << 9 << 7
                               << "add";
        QTest::newRow("missing input") << "inputs: [fc2, fc1]" << "inputs: [fc2, fc9]" << "add" << 9 << 42 << "'fc9'";
    }
    void draftKeepsBrokenNodes()
    {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QString, node);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, words);
        const std::string text = replaced(kNodes, from.toStdString(), to.toStdString());
        const ExperimentDraft d = draftOf(text);
        QVERIFY(d.usable);
        QCOMPARE(d.spec.model.nodes.size(), std::size_t(7));
        QVERIFY(d.nodeIssues.count(node.toStdString()));
        const ExperimentIssue& issue = d.nodeIssues.at(node.toStdString());
        QCOMPARE(issue.line, line);
        QCOMPARE(issue.column, column);
        QVERIFY2(issue.message.find(words.toStdString()) != std::string::npos, issue.message.c_str());
        QCOMPARE(d.nodeIssues.size(), std::size_t(1));

        QTemporaryDir dir;
        const std::string path = dir.filePath("broken.yaml").toStdString();
        std::ofstream(path) << text;
        try {
            loadExperiment(path);
            QFAIL("loadExperiment took a broken model");
        } catch (const ExperimentError& e) {
            QCOMPARE(e.issues(), d.issues);
            QCOMPARE(e.issues().front(), issue);
        }
        const ExperimentDraft loaded = loadExperimentDraft(path);
        QCOMPARE(loaded.issues, d.issues);
        QCOMPARE(loaded.spec.sourceFile, path);

        // Saved back unchanged, and an edit elsewhere touches only its own line.
        QCOMPARE(updateExperimentText(text, d.spec), text);
        ExperimentSpec s = d.spec;
        nodeNamed(s, "head").attrs.set("out_features", std::int64_t(12));
        QCOMPARE(updateExperimentText(text, s),
                 replaced(text, "{name: head, op: Linear, out_features: 10}", "{name: head, op: Linear, out_features: 12}"));
    }

    void draftHoldsAttributesAsWritten()
    {
        const ExperimentDraft unknown = draftOf(replaced(kNodes, "{name: act, op: ReLU}", "{name: act, op: Relu6x, alpha: 2, mode: fast}"));
        const Node& act = unknown.spec.model.nodes[2];
        QCOMPARE(act.op, std::string("Relu6x"));
        QCOMPARE(act.attrs.getInt("alpha"), std::int64_t(2));
        QCOMPARE(act.attrs.getString("mode"), std::string("fast"));
        const ExperimentDraft refused = draftOf(replaced(kNodes, "out_features: 32}   # first", "out_features: -4, bias: maybe}"));
        QCOMPARE(refused.spec.model.nodes[1].attrs.getInt("out_features"), std::int64_t(-4));
        QCOMPARE(refused.spec.model.nodes[1].attrs.getString("bias"), std::string("maybe"));
        QCOMPARE(refused.issues.size(), std::size_t(2));  // both refused values, each at its place
        QCOMPARE(refused.nodeIssues.at("fc1").column, 45);
        // A fine file: no issue, usable; the strict reader agrees on the spec.
        const ExperimentDraft fine = draftOf(kNodes);
        QVERIFY(fine.usable && fine.issues.empty() && fine.nodeIssues.empty());
        QVERIFY(fine.spec == parseExperiment(kNodes, "x.yaml"));
    }

    void draftOfUnreadableFile()
    {
        const ExperimentDraft syntax = draftOf("name: x\nmodel:\n  layers: [Flatten, {Linear: \n");
        QVERIFY(!syntax.usable);
        QCOMPARE(syntax.issues.size(), std::size_t(1));
        QVERIFY(syntax.issues.front().line > 0);
        QVERIFY2(syntax.issues.front().message.starts_with("YAML syntax"), syntax.issues.front().message.c_str());
        const ExperimentDraft noModel = draftOf("name: x\ntraining: {epochs: 1}\n");
        QVERIFY(!noModel.usable);
        QCOMPARE(noModel.issues.front().message, std::string("missing key 'model' (layers: or nodes: describing the network)"));
        const ExperimentDraft missing = loadExperimentDraft("/nonexistent/x.yaml");
        QVERIFY(!missing.usable);
        QCOMPARE(missing.issues.front().line, 0);
    }

    void layoutRoundTrip()
    {
        ExperimentSpec s = draftOf(kNodes).spec;
        s.layout.positions["image"] = NodePosition{0, 0};
        s.layout.positions["fc1"] = NodePosition{12.5, -40};
        s.layout.positions["gone"] = NodePosition{7, 8};  // a name the model does not have: kept
        s.layout.blocks.push_back(ModelBlock{"res", {"fc2", "add"}, true});
        s.layout.blocks.push_back(ModelBlock{"tail", {"head"}, false});
        const std::string text = experimentToYaml(s);
        QVERIFY2(text.ends_with("\nlayout:\n  positions:\n    image: [0, 0]\n    fc1: [12.5, -40]\n    gone: [7, 8]\n"
                                "  blocks:\n    - {name: res, nodes: [fc2, add], collapsed: true}\n    - {name: tail, nodes: [head]}\n"),
                 text.c_str());
        QVERIFY(parseExperiment(text, "x.yaml") == s);
        // Rounded to a tenth on saving.
        s.layout.positions["fc1"] = NodePosition{12.34, 99.96};
        QVERIFY(experimentToYaml(s).find("    fc1: [12.3, 100]\n") != std::string::npos);
        // A block changed is one line changed; a block added is one line more.
        const ExperimentSpec laid = parseExperiment(text, "x.yaml");
        ExperimentSpec b = laid;
        b.layout.blocks[0].collapsed = false;
        LineDiff d = lineDiff(text, updateExperimentText(text, b));
        QCOMPARE(d.removed, std::vector<std::string>{"    - {name: res, nodes: [fc2, add], collapsed: true}"});
        QCOMPARE(d.added, std::vector<std::string>{"    - {name: res, nodes: [fc2, add]}"});
        b = laid;
        b.layout.blocks.push_back(ModelBlock{"third", {"act"}, false});
        const std::string third = updateExperimentText(text, b);
        QCOMPARE(third, text + "    - {name: third, nodes: [act]}\n");
        QVERIFY(parseExperiment(third, "x.yaml") == b);
        // An unchanged entry keeps its own spelling and comment.
        const std::string handWritten = replaced(text, "    gone: [7, 8]\n", "    gone: [7.0, 8]   # old name\n");
        ExperimentSpec m = laid;
        m.layout.positions["image"] = NodePosition{5, 5};
        QCOMPARE(updateExperimentText(handWritten, m), replaced(handWritten, "image: [0, 0]", "image: [5, 5]"));
        // The layout emptied: the section goes.
        ExperimentSpec none = laid;
        none.layout = {};
        QCOMPARE(updateExperimentText(text, none), experimentToYaml(none));
    }

    void layoutErrors_data()
    {
        QTest::addColumn<QString>("layout");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("message");
        // kNodes has 12 lines, then a blank one: the layout starts at line 14.
        QTest::newRow("one number") << "layout:\n  positions:\n    fc1: [3]\n" << 16 << 10
                                    << "layout: the position of 'fc1' must be two numbers [x, y], got 1 value";
        QTest::newRow("a word") << "layout:\n  positions:\n    fc1: [3, up]\n" << 16 << 14
                                << "layout: the position of 'fc1' must be two numbers [x, y], got 'up'";
        QTest::newRow("a scalar") << "layout:\n  positions: {fc1: 5}\n" << 15 << 20
                                  << "layout: the position of 'fc1' must be two numbers [x, y], got '5'";
        QTest::newRow("no name") << "layout:\n  blocks:\n    - {nodes: [fc1]}\n" << 16 << 7
                                 << "layout: a block needs a name, e.g. {name: res1, nodes: [conv1, bn1]}";
        QTest::newRow("node twice") << "layout:\n  blocks:\n    - {name: b, nodes: [fc1, act, fc1]}\n" << 16 << 35
                                    << "layout: block 'b' names node 'fc1' twice";
        QTest::newRow("shared node") << "layout:\n  blocks:\n    - {name: a, nodes: [fc1, act]}\n    - {name: b, nodes: [act]}\n" << 17 << 25
                                     << "layout: node 'act' is in block 'a' (line 16) and in block 'b'; a node belongs to one block at most";
        QTest::newRow("unknown key") << "layout:\n  position: {}\n" << 15 << 3 << "unknown key 'position' in layout (did you mean 'positions'?)";
    }
    void layoutErrors()
    {
        QFETCH(QString, layout);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, message);
        const std::string text = std::string(kNodes) + "\n" + layout.toStdString();
        try {
            parseExperiment(text, "x.yaml");
            QFAIL("a bad layout was taken");
        } catch (const ExperimentError& e) {
            QCOMPARE(e.issues().size(), std::size_t(1));
            QCOMPARE(QString::fromStdString(e.message()), message);
            QCOMPARE(e.line(), line);
            QCOMPARE(e.column(), column);
        }
        QVERIFY(draftOf(text).usable);  // a bad layout leaves the model to draw
    }
};

QTEST_APPLESS_MAIN(TestExperimentText)
#include "tst_experiment_text.moc"

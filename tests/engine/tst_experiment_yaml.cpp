// Experiment files: the shipped experiments load, check and round-trip; errors carry the
// exact line:column of what is wrong; saving is atomic.
#include <QtTest>

#include <filesystem>
#include <fstream>

#include "graph/templates.h"
#include "io/yaml/experiment_yaml.h"
#include "io/yaml/shipped_experiments.h"
#include "../common/shipped_experiment_rows.h"

using namespace ts;

namespace {

const std::string kExperiments = std::string(TS_SOURCE_DIR) + "/experiments";

// A valid experiment; the error tests change one line of it. Line numbers are 1-based.
const char* kBase = R"(name: t
dataset: {format: idx, path: /nowhere}
model:
  layers:
    - Flatten
    - Linear: {out_features: 256}
    - ReLU
    - Linear: {name: fc2, out_features: 10}
    - CrossEntropy
optimizer: {type: adam, lr: 0.001}
training:
  epochs: 10
  batch_size: 8
)";

// kBase with line `line` (1-based) replaced by `text`.
std::string withLine(int line, const std::string& text)
{
    std::string out, l;
    std::istringstream in(kBase);
    for (int i = 1; std::getline(in, l); ++i) out += (i == line ? text : l) + "\n";
    return out;
}

ExperimentError expectError(const std::string& yaml)
{
    try {
        parseExperiment(yaml, "x.yaml");
    } catch (const ExperimentError& e) {
        return e;
    }
    throw std::runtime_error("accepted an invalid experiment:\n" + yaml);
}

// Graphs equal up to node names: same inputs, ops, attributes and wiring, in the same order.
bool sameStructure(const Graph& a, const Graph& b, QString& why)
{
    if (!(a.inputs == b.inputs)) return why = "inputs differ", false;
    if (a.nodes.size() != b.nodes.size()) return why = QString("%1 vs %2 nodes").arg(a.nodes.size()).arg(b.nodes.size()), false;
    auto ref = [](const Graph& g, const std::string& name) -> std::string {
        for (std::size_t i = 0; i < g.nodes.size(); ++i)
            if (g.nodes[i].name == name) return "#" + std::to_string(i);
        return name;  // a graph input
    };
    for (std::size_t i = 0; i < a.nodes.size(); ++i) {
        const Node &x = a.nodes[i], &y = b.nodes[i];
        if (x.op != y.op || !(x.attrs == y.attrs) || x.inputs.size() != y.inputs.size())
            return why = QString("node %1: %2 vs %3").arg(i).arg(x.op.c_str(), y.op.c_str()), false;
        for (std::size_t k = 0; k < x.inputs.size(); ++k)
            if (ref(a, x.inputs[k]) != ref(b, y.inputs[k])) return why = QString("node %1: input %2 differs").arg(i).arg(k), false;
    }
    return true;
}

}  // namespace

class TestExperimentYaml : public QObject {
    Q_OBJECT
private slots:
    void shippedExperiments_data() { addShippedExperimentRows(kExperiments); }
    void shippedExperiments()
    {
        QFETCH(QString, file);
        const ExperimentSpec spec = loadExperiment(file.toStdString());
        QCOMPARE(spec.sourceFile, file.toStdString());
        QVERIFY(!spec.name.empty());
        const CheckedGraph cg = checkGraph(spec.model, spec.training.batchSize);
        QVERIFY(cg.lossValue >= 0);
        // Round trip: what save writes loads to the same spec, and saving that is stable.
        const std::string text = experimentToYaml(spec);
        const ExperimentSpec again = parseExperiment(text, spec.sourceFile);
        QVERIFY2(again == spec, text.c_str());
        QCOMPARE(experimentToYaml(again), text);
    }

    void shippedModelsMatchTemplates()
    {
        QString why;
        const ExperimentSpec mlp = loadExperiment(kExperiments + "/fashion_mnist_mlp.yaml");
        QVERIFY2(sameStructure(mlp.model, fashionMnistMlp(), why), qPrintable(why));
        const ExperimentSpec cnn = loadExperiment(kExperiments + "/fashion_mnist_cnn.yaml");
        QVERIFY2(sameStructure(cnn.model, fashionMnistCnn(), why), qPrintable(why));
        // The comparison can fail: a changed attribute is noticed.
        Graph other = fashionMnistCnn();
        other.nodes[0].attrs.set("out_channels", std::int64_t(16));
        QVERIFY(!sameStructure(cnn.model, other, why));

        QCOMPARE(mlp.optimizer.type, std::string("adam"));
        QCOMPARE(mlp.optimizer.lr, 1e-3);
        QCOMPARE(mlp.training.batchSize, std::int64_t(128));
        QCOMPARE(mlp.training.epochs, std::int64_t(10));
        QCOMPARE(mlp.dataset.normalizeMean, std::vector<double>{0.2860});
        QCOMPARE(mlp.dataset.normalizeStd, std::vector<double>{0.3530});
        QCOMPARE(mlp.dataset.path, std::string("/usr/share/datasets/fashion-mnist"));
        QCOMPARE(cnn.optimizer, mlp.optimizer);
        QCOMPARE(cnn.dataset.normalizeMean, mlp.dataset.normalizeMean);
    }

    // Where the studio and `selftest` find these files: from a build folder anywhere, this
    // source tree (it used to be found only from a build folder inside it); from an installed
    // binary, the copy installed beside it, even with the source tree still around.
    void shippedExperimentsAreFoundFromAnyFolder()
    {
        namespace fs = std::filesystem;
        auto found = [](const fs::path& exeDir) { return QString::fromStdString(shippedExperimentsDirectory(exeDir).string()); };
        const QString source = QString::fromStdString(fs::canonical(kExperiments).string());
        QTemporaryDir dir;
        const fs::path root = dir.path().toStdString();

        fs::create_directories(root / "elsewhere/tests/ui");  // `cmake -B ../elsewhere`, a test's folder
        QCOMPARE(found(root / "elsewhere/tests/ui"), source);
        QCOMPARE(found(executableDirectory()), source);  // this suite, wherever it was built

        const fs::path installed = root / "prefix/share/trainstudio/experiments";
        fs::create_directories(installed);
        fs::create_directories(root / "prefix/bin");
        QCOMPARE(found(root / "prefix/bin"), source);  // a share/ folder without the experiments does not count
        std::ofstream(installed / "fashion_mnist_mlp.yaml") << "name: installed\n";
        QCOMPARE(found(root / "prefix/bin"), QString::fromStdString(fs::canonical(installed).string()));
    }

    void tabularExampleReadsEveryPart()
    {
        const ExperimentSpec t = loadExperiment(kExperiments + "/tabular_example.yaml");
        QCOMPARE(t.dataset.format, std::string("csv"));
        QCOMPARE(t.dataset.groupColumn, std::string("vineyard"));
        QCOMPARE(t.dataset.featureColumns.size(), std::size_t(5));
        QVERIFY(t.dataset.normalizeFromStatistics);
        QCOMPARE(t.model.inputs.front().name, std::string("features"));
        QCOMPARE(t.model.inputs.front().shape, Shape{5});
        QVERIFY(t.training.earlyStopping.enabled);
        QCOMPARE(t.training.earlyStopping.patience, std::int64_t(10));
        const Node& loss = t.model.nodes.back();
        QCOMPARE(loss.attrs.getFloat("label_smoothing"), 0.05);
        QCOMPARE(std::get<std::vector<double>>(loss.attrs.get("class_weights")).size(), std::size_t(3));
        // The CSV beside it: a header and ~300 rows.
        std::ifstream csv(kExperiments + "/data/wine_like.csv");
        int lines = 0;
        for (std::string l; std::getline(csv, l);) ++lines;
        QVERIFY(lines > 250);
    }

    void layerNamesAndAttributeTypes()
    {
        const ExperimentSpec s = parseExperiment(withLine(7, "    - Dropout: {p: 0.5}"), "x.yaml");
        std::vector<std::string> names;
        for (const auto& n : s.model.nodes) names.push_back(n.name);
        QCOMPARE(names, (std::vector<std::string>{"flatten1", "linear1", "dropout1", "fc2", "crossentropy1"}));
        QCOMPARE(s.model.nodes[1].inputs, std::vector<std::string>{"flatten1"});
        QCOMPARE(s.model.nodes[4].inputs, (std::vector<std::string>{"fc2", "label"}));
        QVERIFY(std::holds_alternative<std::int64_t>(s.model.nodes[1].attrs.get("out_features")));
        QVERIFY(std::holds_alternative<double>(s.model.nodes[2].attrs.get("p")));
        // Lists, booleans and a name for Conv2d: the base name drops the "2d".
        const ExperimentSpec c = parseExperiment(
            withLine(5, "    - Conv2d: {out_channels: 4, kernel_size: [3, 3], padding: 1, bias: false}\n    - Flatten"), "x.yaml");
        QCOMPARE(c.model.nodes[0].name, std::string("conv1"));
        QCOMPARE(c.model.nodes[0].attrs.getInts("kernel_size"), (std::vector<std::int64_t>{3, 3}));
        QCOMPARE(c.model.nodes[0].attrs.getBool("bias"), false);
        QCOMPARE(c.name, std::string("t"));
    }

    void saveWritesShortFilesInBothForms()
    {
        const ExperimentSpec mlp = loadExperiment(kExperiments + "/fashion_mnist_mlp.yaml");
        const std::string text = experimentToYaml(mlp);
        QVERIFY(text.find("layers:\n    - Flatten\n    - Linear: {out_features: 512, init: pytorch}\n") != std::string::npos);
        QVERIFY(text.find("inputs") == std::string::npos);    // implied by the dataset
        QVERIFY(text.find("momentum") == std::string::npos);  // defaults are left out
        QVERIFY(text.find("schedule") == std::string::npos);
        const ExperimentSpec resnet = loadExperiment(kExperiments + "/fashion_mnist_resnet.yaml");
        const std::string rtext = experimentToYaml(resnet);
        QVERIFY(rtext.find("nodes:") != std::string::npos);
        QVERIFY(rtext.find("{name: b1_add, op: Add, inputs: [b1_bn2, stem_relu]}") != std::string::npos);
        // A chain whose loss does not take 'label' is not a layers chain.
        ExperimentSpec odd = mlp;
        odd.model.inputs.push_back({"target", Shape{}, DType::I64});
        odd.model.nodes.back().inputs.back() = "target";
        const std::string otext = experimentToYaml(odd);
        QVERIFY(otext.find("nodes:") != std::string::npos);
        QVERIFY(otext.find("target: {shape: [], dtype: i64}") != std::string::npos);
        QVERIFY(parseExperiment(otext, mlp.sourceFile) == odd);
    }

    void everyFieldHasAKey()
    {
        // Every field set away from its default must survive a save and load.
        ExperimentSpec s = loadExperiment(kExperiments + "/fashion_mnist_mlp.yaml");
        s.sourceFile = "x.yaml";
        s.name = "true";  // would read back as a boolean unless quoted
        s.description = "line one: with # and, commas\nline \"two\"";
        DatasetSpec& d = s.dataset;
        d.format = "image_folder", d.path = "- odd path", d.labelColumn = "y", d.featureColumns = {"true", "1.5", "a,b"};
        d.groupColumn = "g", d.imageShape = {1, 28, 28}, d.validationFraction = 0.25, d.splitSeed = 18446744073709551615ull;
        d.normalizeMean = {0.1, 0.30000000000000004}, d.normalizeStd = {1e-10, 1e20}, d.normalizeFromStatistics = true;
        d.randomCropPadding = 4, d.horizontalFlip = true, d.sampler = "weighted", d.classWeights = {1, 2.5}, d.replacement = false;
        d.numWorkers = 0, d.prefetchBatches = 9, d.cache = true;
        s.optimizer = {"sgd", 3e-4, 0.9, true, 0.01, 0.8, 0.99, 1e-6, 0.95};
        ScheduleSpec& c = s.schedule;
        c.type = "plateau", c.warmupSteps = 10, c.warmupStartFactor = 0.5, c.stepSize = 3, c.milestones = {2, 5}, c.gamma = 0.5;
        c.minLr = 1e-6, c.restartEpochs = 4, c.restartMultiplier = 2, c.maxLr = 0.1, c.pctStart = 0.25, c.metric = "val_acc";
        c.factor = 0.2, c.patience = 3, c.threshold = 0.01;
        TrainingSpec& t = s.training;
        t.epochs = 3, t.batchSize = 7, t.seed = 99, t.device = "cuda:1", t.clipGradNorm = 1, t.clipGradValue = 0.5;
        t.accumulationSteps = 4, t.earlyStopping = {false, "val_acc", 2, 0.001}, t.overfitBatches = 2, t.deterministic = true;
        t.skipNonFiniteLoss = true, t.logEverySteps = 10, t.topK = {1, 5};
        t.checkpoint = {0, 5, "val_loss"};
        s.model.nodes[1].name = "fc 1", s.model.nodes[2].inputs = {"fc 1"};
        s.model.output = "linear3";
        // Whole numbers stored as floats must stay floats (an int attribute is another value).
        s.model.nodes.back().attrs.set("label_smoothing", 0.0);
        s.model.nodes.back().attrs.set("class_weights", std::vector<double>(10, 1.0));
        const std::string text = experimentToYaml(s);
        const ExperimentSpec back = parseExperiment(text, "x.yaml");
        QVERIFY2(back.dataset == s.dataset, text.c_str());
        QVERIFY2(back.optimizer == s.optimizer, text.c_str());
        QVERIFY2(back.schedule == s.schedule, text.c_str());
        QVERIFY2(back.training == s.training, text.c_str());
        QVERIFY2(back == s, text.c_str());
        // And the defaults take no room at all.
        ExperimentSpec plain;
        plain.model = s.model;
        plain.model.output.clear();
        QCOMPARE(experimentToYaml(plain).find("dataset:\n  format: idx\n\nmodel:"), std::size_t(0));
    }

    void syntaxError()
    {
        // yaml-cpp's own position: the ':' of a wrongly indented key, a stray bracket.
        ExperimentError e = expectError(withLine(13, "   batch_size: 8"));
        QCOMPARE(e.file(), std::string("x.yaml"));
        QCOMPARE(e.line(), 13);
        QCOMPARE(e.column(), 14);
        QVERIFY2(std::string(e.what()).rfind("x.yaml:13:14: YAML syntax: ", 0) == 0, e.what());
        e = expectError(withLine(10, "optimizer: {type: adam, lr: 0.001]"));
        QCOMPARE(e.line(), 10);
        QCOMPARE(e.column(), 34);
    }

    // Aliases are fine until they repeat more than a million values: nine levels of ten
    // aliases each (an "alias bomb", a billion values from 400 bytes) are refused at the
    // alias that goes past the bound, before any reading walks the tree; an alias inside the
    // node its anchor names (a value containing itself) too.
    void aliasBombsAndCyclesAreRefused()
    {
        std::string bomb = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
        for (int i = 1; i <= 8; ++i) {
            bomb += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [";
            for (int k = 0; k < 10; ++k) bomb += (k ? ", *a" : "*a") + std::to_string(i - 1);
            bomb += "]\n";
        }
        auto has = [](const ExperimentError& e, const char* part) { return std::string(e.what()).find(part) != std::string::npos; };
        ExperimentError e = expectError(bomb + kBase);
        QCOMPARE(e.line(), 6);  // a5's aliases of a4 (111,111 values each) pass 1,000,000
        QVERIFY2(has(e, "x.yaml:6:"), e.what());
        QVERIFY2(has(e, "repeat more than 1000000 values (an alias bomb?)"), e.what());
        e = expectError("name: c\nmodel: &m {layers: [*m]}\n");
        QCOMPARE(e.line(), 2);
        QVERIFY2(has(e, "inside the node its anchor names"), e.what());
        // A text that leaves yaml-cpp's event parser reporting documents forever (found by
        // fuzz_experiment: it hung the alias count) is read once, as YAML::Load reads it.
        e = expectError(",\nx: *a\n");
        QVERIFY2(has(e, "x.yaml:"), e.what());
        // Ordinary aliases still read.
        const std::string aliased = std::string(kBase).replace(std::string(kBase).find("name: t"), 7, "name: &n t") + "description: *n\n";
        QCOMPARE(parseExperiment(aliased, "x.yaml").description, std::string("t"));
    }

    void unknownKeySuggestsTheNearOne()
    {
        ExperimentError e = expectError(withLine(13, "  batchsize: 8"));
        QCOMPARE(std::string(e.what()), std::string("x.yaml:13:3: unknown key 'batchsize' in training (did you mean 'batch_size'?)"));
        e = expectError(withLine(13, "  colour: 8"));
        QCOMPARE(e.line(), 13);
        QVERIFY2(e.message().find("valid keys: epochs, batch_size") != std::string::npos, e.what());
        e = expectError(std::string(kBase) + "epochs: 3\n");
        QCOMPARE(std::string(e.what()), std::string("x.yaml:14:1: unknown key 'epochs' in the experiment"
                                                    " (valid keys: name, description, dataset, model, optimizer, schedule, training, sweep, layout)"));
        e = expectError(std::string(kBase) + "optimizer: {type: sgd}\n");
        QCOMPARE(std::string(e.what()), std::string("x.yaml:14:1: the experiment: key 'optimizer' is given twice"));
    }

    void wrongType()
    {
        ExperimentError e = expectError(withLine(12, "  epochs: ten"));
        QCOMPARE(std::string(e.what()), std::string("x.yaml:12:11: epochs: expected an integer, got 'ten'"));
        e = expectError(withLine(12, "  epochs: 2.5"));
        QCOMPARE(e.line(), 12);
        QCOMPARE(e.column(), 11);
        e = expectError(withLine(2, "dataset: {format: idx, path: /nowhere, normalize: {mean: [0.5, x], std: [1, 1]}}"));
        QCOMPARE(std::string(e.what()), std::string("x.yaml:2:64: mean[1]: expected a number, got 'x'"));
        e = expectError(withLine(10, "optimizer: 5"));
        QCOMPARE(std::string(e.what()), std::string("x.yaml:10:12: optimizer: expected a mapping (key: value lines or {key: value}), got '5'"));
    }

    // Seen: `layers: []` said "expected a list of layers, got a list". An empty list is named as
    // empty; a list is described with what it holds.
    void emptyModelListSaysEmpty()
    {
        for (const std::string key : {"layers", "nodes"}) {
            const ExperimentError e = expectError("name: t\ndataset: {format: idx, path: /nowhere}\nmodel:\n  " + key + ": []\n");
            bool named = false;
            for (const ExperimentIssue& i : e.issues()) {
                QVERIFY2(i.message.find("expected a list") == std::string::npos, e.what());
                named = named || i.message.rfind(key + ": the list is empty; a model needs at least one ", 0) == 0;
            }
            QVERIFY2(named, e.what());
        }
        const ExperimentError e = expectError(withLine(10, "optimizer: [adam, 0.1]"));
        QCOMPARE(std::string(e.what()),
                 std::string("x.yaml:10:12: optimizer: expected a mapping (key: value lines or {key: value}), got a list [adam, 0.1]"));
    }

    // Values quoted in messages are bounded and show their control characters. Generated: long
    // and control-character values in every kind of place a value is quoted.
    void quotedValuesAreBoundedAndVisible()
    {
        struct Place {
            int line;
            std::string text;  // % is the value
            bool quoted;       // the message quotes the value itself
        };
        const std::vector<Place> places = {
            {12, "  epochs: %", true},                                              // expected an integer
            {10, "optimizer: {type: %, lr: 0.1}", true},                            // unknown optimizer
            {13, "  batch_size: 8\n  device: %", true},                             // a bad device
            {10, "optimizer: %", true},                                             // expected a mapping
            {5, "    - %", true},                                                   // unknown op
            {6, "    - Linear: {out_features: %}", true},                           // a bad attribute
            {2, "dataset: {format: idx, path: /nowhere, loader: {sampler: %}}", true},  // unknown sampler
            {13, "  batch_size: 8\n  %: 8", false},                                  // an unknown key
        };
        const std::vector<std::string> values = {std::string(81, 'y'), std::string(100000, 'z'),
                                                 "\"\\e[2J\\e[31mred\\r\\nforged line\"", "\"\\x9b31m \\u202Etxt.exe\""};
        int checked = 0;
        for (const Place& p : places)
            for (const std::string& v : values) {
                std::string text = p.text;
                text.replace(text.find('%'), 1, v);
                const ExperimentError e = expectError(withLine(p.line, text));
                for (const ExperimentIssue& i : e.issues()) {
                    // Bounded ("known ops: ..." lists every op), never the value's 100,000 bytes.
                    QVERIFY2(i.message.size() < 1500, qPrintable(QString::number(i.message.size()) + " characters: " + text.substr(0, 60).c_str()));
                    for (const char c : i.message) QVERIFY2(static_cast<unsigned char>(c) >= 0x20 && c != 0x7F, i.message.c_str());
                    QVERIFY2(i.message.find("\xC2\x9B") == std::string::npos && i.message.find("\xE2\x80\xAE") == std::string::npos,
                             i.message.c_str());
                }
                if (p.quoted && v.size() > 1000) QVERIFY2(std::string(e.what()).find("…' (100,000 bytes)") != std::string::npos, e.what());
                if (p.quoted && v.find("\\e[2J") != std::string::npos) QVERIFY2(std::string(e.what()).find("\\x1b[2J\\x1b[31mred\\r\\nforged line") != std::string::npos, e.what());
                ++checked;
            }
        QCOMPARE(checked, int(places.size() * values.size()));
    }

    void badValue()
    {
        ExperimentError e = expectError(withLine(10, "optimizer: {type: adam, lr: 0}"));
        QCOMPARE(std::string(e.what()), std::string("x.yaml:10:29: lr: must be > 0, got '0'"));
        e = expectError(withLine(13, "  batch_size: 0"));
        QCOMPARE(std::string(e.what()), std::string("x.yaml:13:15: batch_size: must be >= 1, got '0'"));
        e = expectError(withLine(2, "dataset: {format: idx, validation_fraction: 1.0}"));
        QCOMPARE(std::string(e.what()), std::string("x.yaml:2:45: validation_fraction: must be in [0, 1), got '1.0'"));
        e = expectError(withLine(10, "optimizer: {type: adamm, lr: 0.1}"));
        QCOMPARE(std::string(e.what()),
                 std::string("x.yaml:10:19: type: unknown optimizer 'adamm' (did you mean 'adam'?); valid: sgd, adam, adamw, rmsprop"));
        e = expectError(withLine(10, "schedule: {type: linear}"));
        QCOMPARE(e.line(), 10);
        QCOMPARE(e.column(), 18);
        QVERIFY2(e.message().find("valid: constant, step") != std::string::npos, e.what());
        e = expectError(withLine(2, "dataset: {format: idx, loader: {sampler: balanced}}"));
        QCOMPARE(e.column(), 42);
        QVERIFY2(e.message().find("did you mean 'weighted'?") == std::string::npos, e.what());
        // Two problems of their own: the csv needs its label column, and the model its inputs.
        e = expectError(withLine(2, "dataset: {format: csv, path: a.csv}"));
        QCOMPARE(e.issues().size(), std::size_t(2));
        QCOMPARE(e.issues()[0], (ExperimentIssue{2, 10, "dataset: a csv dataset needs label_column (the column holding the class), or target_columns for "
                                                       "regression (the numeric columns to predict)"}));
        QCOMPARE(e.issues()[1].line, 3);
        QVERIFY2(e.issues()[1].message.rfind("model: list its inputs", 0) == 0, e.what());
        e = expectError(withLine(13, "  batch_size: 8\n  device: gpu"));
        QCOMPARE(std::string(e.what()), std::string("x.yaml:14:11: device: expected auto, cpu, cuda or cuda:N, got 'gpu'"));
    }

    // Every independent problem at once, in file order, though the reader reads the model
    // (line 6) after the optimizer (10) and the training (12); the missing out_features that the
    // misspelt one implies is not a problem of its own.
    void independentErrorsInFileOrder()
    {
        std::string yaml = withLine(6, "    - Linear: {out_feature: 256}");
        yaml.replace(yaml.find("type: adam,"), 11, "type: adamm,");
        yaml.replace(yaml.find("epochs: 10"), 10, "epochs: ten");
        const ExperimentError e = expectError(yaml);
        const std::vector<ExperimentIssue> expected = {
            {6, 16, "node 'linear1' (Linear): unknown attribute 'out_feature' (did you mean 'out_features'?)"},
            {10, 19, "type: unknown optimizer 'adamm' (did you mean 'adam'?); valid: sgd, adam, adamw, rmsprop"},
            {12, 11, "epochs: expected an integer, got 'ten'"},
        };
        QCOMPARE(e.issues(), expected);
        QCOMPARE(e.line(), 6);
        QCOMPARE(std::string(e.what()), std::string("x.yaml: 3 problems\n"
                                                    "x.yaml:6:16: " + expected[0].message + "\n"
                                                    "x.yaml:10:19: " + expected[1].message + "\n"
                                                    "x.yaml:12:11: " + expected[2].message));
        // A broken section or layer does not hide the rest: both missing keys and bad layers count.
        const ExperimentError more = expectError("dataset: 5\nmodel:\n  layers:\n    - [1]\n    - Linearr\n    - Dropout: {p: 2}\n");
        QCOMPARE(more.issues().size(), std::size_t(4));
        QCOMPARE((std::pair(more.issues()[0].line, more.issues()[0].column)), (std::pair(1, 10)));
        QVERIFY2(more.issues()[0].message.find("dataset: expected a mapping") == 0, more.what());
        QCOMPARE(more.issues()[1].line, 4);
        QCOMPARE(more.issues()[2].line, 5);
        QVERIFY2(more.issues()[2].message.find("unknown op 'Linearr'") == 0, more.what());
        QCOMPARE(more.issues()[3].line, 6);
        QVERIFY2(more.issues()[3].message.find("node 'dropout1' (Dropout): attribute 'p'") == 0, more.what());
        // Problems that only follow from another are left out: a misspelt model is not also
        // missing, and a node without an op is still a name others may take as input.
        QCOMPARE(expectError("modle: {layers: [ReLU]}\n").issues().size(), std::size_t(1));
        const ExperimentError noOp = expectError(
            "dataset: {format: idx}\nmodel:\n  nodes:\n    - {name: flat, inputs: [image]}\n    - {name: fc, op: Linear, inputs: [flat], out_features: 3}\n");
        QCOMPARE(std::string(noOp.what()), std::string("x.yaml:4:7: node 'flat': needs an op, e.g. op: Linear"));
    }

    // A bad --set value is placed at the file's line of the value it replaces and names the
    // argument; a key it adds, at the section it adds to. (It once read the re-emitted tree
    // and said `x.yaml (with --set):5:29`.)
    void overrideErrorsPointAtTheFileAndTheArgument()
    {
        const auto expectOverrideError = [](const std::vector<std::string>& overrides, const std::string& yaml = kBase) {
            try {
                parseExperimentWithOverrides(yaml, "x.yaml", overrides);
            } catch (const ExperimentError& e) {
                return e;
            }
            throw std::runtime_error("accepted an invalid override");
        };
        ExperimentError e = expectOverrideError({"optimizer.lr=abc"});
        QCOMPARE(std::string(e.what()), std::string("x.yaml:10:29: lr: expected a number, got 'abc' (from --set optimizer.lr=abc)"));
        e = expectOverrideError({"training.batchsize=3"});
        QCOMPARE(std::string(e.what()), std::string("x.yaml:11:1: unknown key 'batchsize' in training (did you mean 'batch_size'?)"
                                                    " (from --set training.batchsize=3)"));
        // With the file's own problems, in file order; a section the file lacks has no line.
        e = expectOverrideError({"schedule.type=cosinee", "optimizer.lr=-1"}, withLine(12, "  epochs: ten"));
        QCOMPARE(e.issues().size(), std::size_t(3));
        QCOMPARE(e.issues()[0], (ExperimentIssue{10, 29, "lr: must be > 0, got '-1' (from --set optimizer.lr=-1)"}));
        QCOMPARE(e.issues()[1].line, 12);
        QCOMPARE(e.issues()[2].line, 0);
        QVERIFY2(e.issues()[2].message.find("type: unknown schedule 'cosinee'") == 0 &&
                     e.issues()[2].message.find("(from --set schedule.type=cosinee)") != std::string::npos, e.what());

        // Good overrides apply, a later one to the same key winning; a new section is added.
        const ExperimentSpec s = parseExperimentWithOverrides(kBase, "x.yaml", {"optimizer.lr=abc", "optimizer.lr=0.01", "schedule.type=cosine"});
        QCOMPARE(s.optimizer.lr, 0.01);
        QCOMPARE(s.schedule.type, std::string("cosine"));
        QCOMPARE(s.name, std::string("t"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseExperimentWithOverrides(kBase, "x.yaml", {"optimizer.lr.x=1"}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseExperimentWithOverrides(kBase, "x.yaml", {"lr"}));
    }

    void checkpointKeys()
    {
        // Read, written back only where they differ from the defaults, and validated.
        ExperimentSpec s = parseExperiment(withLine(13, "  batch_size: 8\n  checkpoint: {every_epochs: 2, keep_last: 4, metric: val_loss}"), "x.yaml");
        QCOMPARE(s.training.checkpoint, (CheckpointSpec{2, 4, "val_loss"}));
        s = parseExperiment(withLine(13, "  batch_size: 8\n  checkpoint: {keep_last: 1}"), "x.yaml");
        QCOMPARE(s.training.checkpoint, (CheckpointSpec{1, 1, "val_acc"}));
        std::string text = experimentToYaml(s);
        QVERIFY2(text.find("  checkpoint: {keep_last: 1}\n") != std::string::npos, text.c_str());
        QVERIFY(parseExperiment(text, "x.yaml") == s);
        s.training.checkpoint = {};
        text = experimentToYaml(s);
        QVERIFY2(text.find("checkpoint") == std::string::npos, text.c_str());
        s.training.checkpoint.everyEpochs = 0;
        QCOMPARE(parseExperiment(experimentToYaml(s), "x.yaml").training.checkpoint.everyEpochs, std::int64_t(0));

        ExperimentError e = expectError(withLine(13, "  batch_size: 8\n  checkpoint: {every_epochs: -1}"));
        QCOMPARE(std::string(e.what()), std::string("x.yaml:14:30: every_epochs: must be >= 0, got '-1'"));
        e = expectError(withLine(13, "  batch_size: 8\n  checkpoint: {keep_last: 0}"));
        QCOMPARE(std::string(e.what()), std::string("x.yaml:14:27: keep_last: must be >= 1, got '0'"));
        e = expectError(withLine(13, "  batch_size: 8\n  checkpoint: {metric: \"\"}"));
        QCOMPARE(e.line(), 14);
        QCOMPARE(e.column(), 24);
        QVERIFY2(e.message().find("metric: must name a metric") == 0, e.what());
        e = expectError(withLine(13, "  batch_size: 8\n  checkpoint:\n    keep_lats: 2"));
        QCOMPARE(e.line(), 15);
        QVERIFY2(e.message().find("did you mean 'keep_last'?") != std::string::npos, e.what());
        e = expectError(withLine(13, "  batch_size: 8\n  checkpoint: 3"));
        QCOMPARE(e.line(), 14);
        QCOMPARE(e.column(), 15);
    }

    void unknownOp()
    {
        ExperimentError e = expectError(withLine(6, "    - Lineer: {out_features: 256}"));
        QCOMPARE(e.line(), 6);
        QCOMPARE(e.column(), 7);
        QVERIFY2(e.message().rfind("unknown op 'Lineer' (did you mean 'Linear'?); known ops: ", 0) == 0, e.what());
        e = expectError(withLine(7, "    - relu"));
        QCOMPARE(e.line(), 7);
        QCOMPARE(e.column(), 7);
        QVERIFY2(e.message().find("did you mean 'ReLU'?") != std::string::npos, e.what());
    }

    void badAttribute()
    {
        ExperimentError e = expectError(withLine(6, "    - Linear: {out_feature: 256}"));
        QCOMPARE(std::string(e.what()),
                 std::string("x.yaml:6:16: node 'linear1' (Linear): unknown attribute 'out_feature' (did you mean 'out_features'?)"));
        e = expectError(withLine(7, "    - Dropout: {p: 1.5}"));
        QCOMPARE(std::string(e.what()), std::string("x.yaml:7:20: node 'dropout1' (Dropout): attribute 'p' must be in [0, 1), got 1.5"));
        e = expectError(withLine(6, "    - Linear: {out_features: many}"));
        QCOMPARE(e.line(), 6);
        QCOMPARE(e.column(), 30);
        QVERIFY2(e.message().find("must be an integer") != std::string::npos, e.what());
        e = expectError(withLine(6, "    - Linear"));
        QCOMPARE(std::string(e.what()), std::string("x.yaml:6:7: node 'linear1' (Linear): missing required attribute 'out_features'"));
    }

    void shapeMismatchPointsAtTheNode()
    {
        const ExperimentError e = expectError(withLine(8, "    - Linear: {name: fc2, in_features: 512, out_features: 10}"));
        QCOMPARE(std::string(e.what()), std::string("x.yaml:8:7: node 'fc2' (Linear, in_features=512): input has 256 features"));
        // The check runs at the training batch size, and errors in the nodes form land on the node.
        const std::string nodes = R"(dataset: {format: idx}
model:
  nodes:
    - {name: flat, op: Flatten, inputs: [image]}
    - {name: a, op: Linear, out_features: 8}
    - {name: b, op: Linear, inputs: [flat], out_features: 9}
    - {name: sum, op: Add, inputs: [a, b]}
)";
        const ExperimentError n = expectError(nodes);
        QCOMPARE(n.line(), 7);
        QCOMPARE(n.column(), 7);
        QVERIFY2(n.message().rfind("node 'sum' (Add): input 1 has shape [128, 9]", 0) == 0, n.what());
        std::string typo = nodes;
        typo.replace(typo.find("[a, b]"), 6, "[a, bb]");
        QCOMPARE(std::string(expectError(typo).what()),
                 std::string("x.yaml:7:40: node 'sum' (Add): input 'bb' is neither a model input nor a node (did you mean 'b'?)"));
    }

    void duplicateNamesAndMisplacedLoss()
    {
        ExperimentError e = expectError(withLine(7, "    - ReLU: {name: linear1}"));
        QCOMPARE(e.line(), 7);
        QCOMPARE(e.column(), 20);
        QVERIFY2(e.message().find("already used (line 6)") != std::string::npos, e.what());
        e = expectError(withLine(7, "    - CrossEntropy"));
        QCOMPARE(e.line(), 7);
        QVERIFY2(e.message().find("only the last layer may be a loss") != std::string::npos, e.what());
    }

    void missingFileHasNoPosition()
    {
        try {
            loadExperiment("/nonexistent/x.yaml");
            QFAIL("loaded a missing file");
        } catch (const ExperimentError& e) {
            QCOMPARE(e.line(), 0);
            QCOMPARE(std::string(e.what()), std::string("/nonexistent/x.yaml: cannot open the file"));
        }
    }

    void saveIsAtomic()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath("exp.yaml").toStdString();
        const ExperimentSpec cnn = loadExperiment(kExperiments + "/fashion_mnist_cnn.yaml");
        {
            std::ofstream old(path);
            old << "old contents\n";
        }
        saveExperiment(cnn, path);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"exp.yaml"});  // no temp file left
        ExperimentSpec back = loadExperiment(path);
        back.sourceFile = cnn.sourceFile;
        QVERIFY(back == cnn);
        // A failed save throws, names the file and leaves nothing behind.
        const std::string bad = dir.filePath("missing/exp.yaml").toStdString();
        try {
            saveExperiment(cnn, bad);
            QFAIL("saved into a missing directory");
        } catch (const OutputFileError& e) {
            QCOMPARE(e.message().id, std::string("output.no_folder"));
            QVERIFY2(std::string(e.what()).find(bad) != std::string::npos, e.what());
        }
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"exp.yaml"});
    }
};

QTEST_GUILESS_MAIN(TestExperimentYaml)
#include "tst_experiment_yaml.moc"

// The shipped MLP, CNN, ResNet and ViT, each trained for one epoch on a few hundred real
// Fashion-MNIST images, exported through the run store (jobs/onnx_export_run.h) and run by
// ONNX Runtime at batch 1, 7 and 128: logits and probabilities agree with our CPU inference
// (feedBatch / hostLogits) to 1e-4 absolute; the character GPT (a few steps on Debian's
// fortunes) takes any batch and sequence length, and agrees at each; the checker passes; int8 export is 3x smaller and
// matches its definition; the metadata carries what a consumer needs; bad input is named.
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <random>
#include <zlib.h>

#include "data/dataset.h"
#include "data/idx_dataset.h"
#include "io/yaml/experiment_yaml.h"
#include "jobs/job.h"
#include "jobs/onnx_export_run.h"
#include "train/evaluation.h"
#include "train/evaluation_report.h"
#include "train/run_control.h"
#include "store/run_reader.h"
#include "store/workspace.h"
#include "onnx_cases.h"

using namespace ts;
using namespace ts::test;

namespace {

constexpr double kTolerance = 1e-4;
constexpr std::uint32_t kTrain = 160, kTest = 128;  // 120 train, 40 validation
const std::vector<std::int64_t> kBatches{1, 7, 128};
const char* kFashion = "/usr/share/datasets/fashion-mnist";

// The first n samples of a real Fashion-MNIST file pair ("train", "t10k"), copied as IDX
// files: header rewritten for n, the bytes as they are. zlib reads only what is needed.
void copyIdx(const std::string& fromPrefix, const std::string& toPrefix, std::uint32_t n)
{
    for (const auto& [part, sampleBytes] : {std::pair<std::string, std::size_t>{"-images-idx3-ubyte", 784}, {"-labels-idx1-ubyte", 1}}) {
        gzFile in = gzopen((fromPrefix + part + ".gz").c_str(), "rb");
        QVERIFY2(in, (fromPrefix + part + ".gz").c_str());
        const std::size_t header = sampleBytes == 1 ? 8 : 16;
        std::vector<unsigned char> bytes(header + n * sampleBytes);
        const int read = gzread(in, bytes.data(), unsigned(bytes.size()));
        gzclose(in);
        QCOMPARE(read, int(bytes.size()));
        for (int k = 0; k < 4; ++k) bytes[4 + std::size_t(k)] = (unsigned char)(n >> (24 - 8 * k));
        std::ofstream(toPrefix + part, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    }
}

struct NullListener : TrainListener {
    void onEvent(const TrainEvent&) override {}
};

std::vector<float> softmaxRows(const std::vector<float>& logits, std::int64_t classes)
{
    std::vector<float> p(logits.size());
    for (std::size_t r = 0; r < logits.size() / std::size_t(classes); ++r) {
        const float* z = logits.data() + r * std::size_t(classes);
        const double top = *std::max_element(z, z + classes);
        double sum = 0;
        for (std::int64_t c = 0; c < classes; ++c) sum += std::exp(double(z[c]) - top);
        for (std::int64_t c = 0; c < classes; ++c) p[r * std::size_t(classes) + std::size_t(c)] = float(std::exp(double(z[c]) - top) / sum);
    }
    return p;
}

QJsonObject metadataOf(const QString& model)
{
    QProcess p;
    p.start("/usr/bin/python3", {QString(TS_ONNX_TEST_DIR) + "/check_model.py", "--metadata", model});
    p.waitForFinished(60000);
    return QJsonDocument::fromJson(p.readAllStandardOutput()).object();
}

}  // namespace

class TestOnnxExport : public QObject {
    Q_OBJECT

    // Trains `spec` on the CPU into this suite's workspace, quietly.
    JobResult train(const ExperimentSpec& spec)
    {
        TrainJob job;
        job.experiment = spec;
        JobEnvironment env;
        env.workspaceDir = workspace_;
        env.cacheDir = dir_.filePath("cache").toStdString();
        env.systemSampleSeconds = 0;
        RunControl control;
        NullListener quiet;
        return runJob(job, env, control, quiet);
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(onnxExportAvailable(), "this engine was built without ONNX export (protobuf missing)");
        QVERIFY(dir_.isValid());
        const QString ready = ortReadiness();
        if (ready.startsWith("SKIP")) QSKIP(qPrintable(ready));
        QVERIFY2(ready.isEmpty(), qPrintable(ready));
        data_ = dir_.filePath("fashion-mnist-small").toStdString();  // "fashion": the reader names the classes
        QVERIFY(QDir().mkpath(QString::fromStdString(data_)));
        copyIdx(std::string(kFashion) + "/train", data_ + "/train", kTrain);
        copyIdx(std::string(kFashion) + "/t10k", data_ + "/t10k", kTest);
        if (QTest::currentTestFailed()) return;
        workspace_ = dir_.filePath("ws").toStdString();
        for (const char* model : {"mlp", "cnn", "resnet", "vit"}) {
            ExperimentSpec spec = loadExperiment(std::string(TS_SOURCE_DIR) + "/experiments/fashion_mnist_" + model + ".yaml");
            spec.dataset.path = data_;
            spec.dataset.validationFraction = 0.25;  // a validation split, so evaluation fits a temperature on it
            spec.dataset.numWorkers = 1;
            spec.training.epochs = 1;
            spec.training.batchSize = 48;
            spec.training.device = "cpu";
            const JobResult r = train(spec);
            QVERIFY2(r.finished.outcome == FinishedEvent::Outcome::Finished, r.finished.message.text.c_str());
            runs_[model] = r.runId;
            specs_[model] = spec;
        }
    }

    void modelsAgreeWithOnnxRuntime_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<bool>("int8");
        QTest::newRow("mlp") << "mlp" << false;
        QTest::newRow("cnn") << "cnn" << false;
        QTest::newRow("resnet") << "resnet" << false;
        QTest::newRow("vit") << "vit" << false;
        QTest::newRow("mlp int8") << "mlp" << true;
        QTest::newRow("cnn int8") << "cnn" << true;
    }
    void modelsAgreeWithOnnxRuntime()
    {
        QFETCH(QString, model);
        QFETCH(bool, int8);
        RunExportRequest request;
        request.workspaceDir = workspace_;
        request.runId = runs_.at(model.toStdString());
        request.checkpoint = "last";
        request.probabilities = true;
        request.quantizeInt8 = int8;
        request.output = dir_.filePath(model + (int8 ? "_int8" : "") + ".onnx").toStdString();
        const RunExportResult exported = exportRunOnnx(request);
        QCOMPARE(exported.onnx.inputs, std::vector<std::string>{"image"});
        QCOMPARE(exported.onnx.outputs, (std::vector<std::string>{"logits", "probabilities"}));
        QVERIFY(QFileInfo(QString::fromStdString(request.output)).size() == exported.onnx.bytes);
        QVERIFY(!QFileInfo::exists(QString::fromStdString(request.output + ".tmp")));

        const Checkpoint checkpoint = loadCheckpoint(exported.checkpointPath);
        const Graph& graph = specs_.at(model.toStdString()).model;
        const NamedTensors weights = int8 ? int8RoundedWeights(graph, checkpoint.weights) : checkpoint.weights;
        DatasetSpec small;
        small.path = data_;
        const DatasetFiles files = openDatasetFiles(small, "/");
        std::vector<OrtCase> cases;
        for (std::int64_t batch : kBatches) {
            const CheckedGraph cg = checkGraph(graph, batch);
            Executor ex(cg, cpuBackend(), false);
            restoreWeights(ex, weights, exported.checkpointPath);
            Batch b{Tensor::empty(Shape{batch, 1, 28, 28}), Tensor::empty(Shape{batch}, DType::I64), batch, 0};
            for (std::int64_t i = 0; i < batch; ++i) {
                float* x = b.inputs.data<float>() + i * 784;
                b.labels.data<std::int64_t>()[i] = files.test->get(i, x);
                for (int k = 0; k < 784; ++k) x[k] = (x[k] - 0.2860f) / 0.3530f;
            }
            const GraphBinding binding = GraphBinding::of(cg);
            feedBatch(ex, binding, b);
            ex.forward();
            const std::vector<float> logits = hostLogits(ex, binding);
            OrtCase c{QString("%1 at batch %2").arg(model).arg(batch), QString::fromStdString(request.output), {}, {}};
            c.inputs.push_back({"image", "float32", {batch, 1, 28, 28},
                                QByteArray(static_cast<const char*>(b.inputs.raw()), qsizetype(b.inputs.bytes()))});
            c.expected.push_back({"logits", {batch, 10}, logits});
            c.expected.push_back({"probabilities", {batch, 10}, softmaxRows(logits, 10)});
            cases.push_back(c);
        }
        QString failure;
        const std::vector<OrtResult> results = runOrt(dir_.path(), cases, &failure);
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        double largest = 0;
        for (std::size_t i = 0; i < cases.size(); ++i) {
            QVERIFY2(results[i].ok, qPrintable(cases[i].name + ": " + results[i].error));
            for (const char* out : {"logits", "probabilities"}) {
                QCOMPARE(results[i].dims.at(out), cases[i].expected[0].dims);
                const double diff = results[i].maxAbsDiff.at(out);
                QVERIFY2(diff <= kTolerance, qPrintable(QString("%1 %2: ONNX Runtime differs by %3").arg(cases[i].name, out).arg(diff)));
                largest = std::max(largest, diff);
            }
        }
        qInfo("%s%s: %lld bytes, largest difference from our CPU inference %.3g", qPrintable(model), int8 ? " int8" : "",
              static_cast<long long>(exported.onnx.bytes), largest);
        if (int8) {
            const double ratio = double(QFileInfo(dir_.filePath(model + ".onnx")).size()) / double(exported.onnx.bytes);
            QVERIFY2(ratio >= 3.0, qPrintable(QString("int8 is only %1x smaller").arg(ratio)));
        }
        const QString checked = checkWithOnnxPackage({QString::fromStdString(request.output)});
        if (checked.startsWith("SKIP")) QSKIP(qPrintable(checked));
        QVERIFY2(checked.isEmpty(), qPrintable(checked));
    }

    // A text model's export leaves the sequence length symbolic: ONNX Runtime runs it at the
    // length it was trained at and at a shorter one, and agrees with our CPU inference of the
    // same graph checked at that length (the learned positions' first T rows). The language
    // model also with its output layer tied to the token table (weight tying): the checkpoint
    // holds the table once and the export reads it for both. The classifier's texts end in
    // padding, which its mask keeps out of attention and the mean.
    void textModelsTakeAnyLength_data()
    {
        QTest::addColumn<QString>("experiment");
        QTest::addColumn<bool>("tied");
        QTest::addColumn<std::int64_t>("vocabulary");
        QTest::newRow("char GPT") << "fortunes_char_gpt" << false << std::int64_t{113};
        QTest::newRow("char GPT, output tied to the embedding") << "fortunes_char_gpt" << true << std::int64_t{113};
        QTest::newRow("topic classifier, padded") << "fortunes_topics" << false << std::int64_t{107};
    }
    void textModelsTakeAnyLength()
    {
        QFETCH(QString, experiment);
        QFETCH(bool, tied);
        QFETCH(std::int64_t, vocabulary);
        const std::string fortunes = "/usr/share/games/fortunes";
        if (!QFileInfo::exists(QString::fromStdString(fortunes + "/fortunes"))) QSKIP("fortunes is not installed");
        ExperimentSpec spec = loadExperiment(std::string(TS_SOURCE_DIR) + "/experiments/" + experiment.toStdString() + ".yaml");
        for (Node& node : spec.model.nodes)
            if (tied && node.name == "head") node.attrs.set("tie_weight", std::string("embed"));
        const bool padded = spec.dataset.format == "text_folder";
        if (!padded) spec.dataset.validationFraction = 0.01;
        spec.dataset.numWorkers = 1;
        spec.training.maxSteps = 2;
        spec.training.device = "cpu";
        const JobResult r = train(spec);
        QVERIFY2(r.finished.outcome == FinishedEvent::Outcome::Finished, r.finished.message.text.c_str());
        RunExportRequest request;
        request.workspaceDir = workspace_;
        request.runId = r.runId;
        request.checkpoint = "last";
        request.output = dir_.filePath(QString("%1%2.onnx").arg(experiment, tied ? "_tied" : "")).toStdString();
        const RunExportResult exported = exportRunOnnx(request);
        QCOMPARE(exported.onnx.inputs, std::vector<std::string>{"tokens"});
        const Checkpoint checkpoint = loadCheckpoint(exported.checkpointPath);
        const auto saved = [&](const char* name) {
            return std::count_if(checkpoint.weights.begin(), checkpoint.weights.end(), [&](const auto& w) { return w.first == name; });
        };
        QCOMPARE(saved("embed.weight"), 1);
        if (!padded) QCOMPARE(saved("head.weight"), tied ? 0 : 1);
        std::vector<OrtCase> cases;
        std::mt19937_64 rng(7);
        for (const auto& [batch, length] : {std::pair<std::int64_t, std::int64_t>{2, 128}, {3, 37}}) {
            Graph graph = spec.model;
            for (GraphInput& in : graph.inputs)  // tokens (and a language model's labels) at this length
                if (in.shape.rank() == 1) in.shape = Shape{length};
            Executor ex(checkGraph(graph, batch), cpuBackend(), false);
            restoreWeights(ex, checkpoint.weights, exported.checkpointPath);
            const GraphBinding binding = GraphBinding::of(checkGraph(graph, batch));
            Batch b{Tensor::empty(Shape{batch, length}, DType::I64),
                    Tensor::zeros(padded ? Shape{batch} : Shape{batch, length}, DType::I64), batch, 0};
            for (std::int64_t n = 0; n < batch; ++n) {
                const std::int64_t real = padded ? length - 5 * (n + 1) : length;  // then padding (id 0)
                for (std::int64_t t = 0; t < length; ++t)
                    b.inputs.data<std::int64_t>()[n * length + t] =
                        t < real ? std::int64_t(padded + rng() % std::uint64_t(vocabulary - padded)) : 0;
            }
            feedBatch(ex, binding, b);
            ex.forward();
            const std::vector<float> logits = hostLogits(ex, binding);
            std::vector<std::int64_t> dims{batch};
            if (!padded) dims.push_back(length);
            dims.push_back(std::int64_t(logits.size()) / (padded ? batch : batch * length));
            OrtCase c{QString("%1 at batch %2, length %3").arg(experiment).arg(batch).arg(length), QString::fromStdString(request.output), {}, {}};
            c.inputs.push_back({"tokens", "int64", {batch, length}, QByteArray(static_cast<const char*>(b.inputs.raw()), qsizetype(b.inputs.bytes()))});
            c.expected.push_back({"logits", dims, logits});
            cases.push_back(c);
        }
        QString failure;
        const std::vector<OrtResult> results = runOrt(dir_.path(), cases, &failure);
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        for (std::size_t i = 0; i < cases.size(); ++i) {
            QVERIFY2(results[i].ok, qPrintable(cases[i].name + ": " + results[i].error));
            QCOMPARE(results[i].dims.at("logits"), cases[i].expected[0].dims);
            const double diff = results[i].maxAbsDiff.at("logits");
            QVERIFY2(diff <= kTolerance, qPrintable(QString("%1: ONNX Runtime differs by %2").arg(cases[i].name).arg(diff)));
            qInfo("%s: largest difference %.3g", qPrintable(cases[i].name), diff);
        }
        const QString checked = checkWithOnnxPackage({QString::fromStdString(request.output)});
        if (checked.startsWith("SKIP")) QSKIP(qPrintable(checked));
        QVERIFY2(checked.isEmpty(), qPrintable(checked));
    }

    // What a consumer needs to use the model, and the temperature an evaluation fitted.
    void metadataDescribesTheModel()
    {
        EvaluateJob eval;
        eval.runId = runs_.at("mlp");
        eval.checkpoint = "last";
        JobEnvironment env;
        env.workspaceDir = workspace_;
        env.cacheDir = dir_.filePath("cache").toStdString();
        env.systemSampleSeconds = 0;
        RunControl control;
        NullListener quiet;
        const JobResult evaluated = runJob(eval, env, control, quiet);
        QVERIFY2(evaluated.finished.outcome == FinishedEvent::Outcome::Finished, evaluated.finished.message.text.c_str());
        RunReader reader(Workspace::open(workspace_));
        const auto records = reader.evaluations(eval.runId);
        QVERIFY(!records.empty());
        const std::optional<double> fitted = fittedTemperature(records.back());
        QVERIFY(fitted.has_value());

        RunExportRequest request;
        request.workspaceDir = workspace_;
        request.runId = eval.runId;
        request.checkpoint = "last";
        request.output = dir_.filePath("mlp_meta.onnx").toStdString();
        const RunExportResult r = exportRunOnnx(request);
        QVERIFY(r.temperature.has_value());
        QCOMPARE(*r.temperature, *fitted);
        const QJsonObject m = metadataOf(QString::fromStdString(request.output));
        QCOMPARE(QJsonDocument::fromJson(m["class_names"].toString().toUtf8()).array().at(0).toString(), QString("T-shirt/top"));
        QCOMPARE(QJsonDocument::fromJson(m["class_names"].toString().toUtf8()).array().size(), 10);
        QCOMPARE(m["input_name"].toString(), QString("image"));
        QCOMPARE(m["input_shape"].toString(), QString("[1,28,28]"));
        QCOMPARE(QJsonDocument::fromJson(m["normalize_mean"].toString().toUtf8()).array().at(0).toDouble(), 0.2860);
        QCOMPARE(QJsonDocument::fromJson(m["normalize_std"].toString().toUtf8()).array().at(0).toDouble(), 0.3530);
        QCOMPARE(m["experiment"].toString(), QString("fashion_mnist_mlp"));
        QCOMPARE(m["run_id"].toString(), QString::number(eval.runId));
        QCOMPARE(m["checkpoint_epoch"].toString(), QString("1"));
        QCOMPARE(m["temperature"].toString().toDouble(), *fitted);
        QVERIFY(!m.contains("probabilities"));
    }

    void badInputIsNamed()
    {
        RunExportRequest request;
        request.workspaceDir = workspace_;
        request.runId = 99;
        request.output = dir_.filePath("bad.onnx").toStdString();
        const auto message = [&]() -> QString {
            try {
                exportRunOnnx(request);
            } catch (const std::exception& e) {
                return e.what();
            }
            return {};
        };
        QVERIFY2(message().contains("run 99 is not in"), qPrintable(message()));
        request.runId = runs_.at("mlp");
        request.checkpoint = "42";
        QVERIFY2(message().contains("no checkpoint of epoch 42") && message().contains("keeps epochs 1"), qPrintable(message()));
        request.checkpoint = "best";
        request.output = dir_.filePath("no/such/folder/model.onnx").toStdString();
        QVERIFY2(message().contains("does not exist"), qPrintable(message()));
        // The target is a folder: refused before writing (io/output_file.h), naming it, and
        // neither the folder nor a temporary file is disturbed or left.
        const QString folder = dir_.filePath("a_folder.onnx");
        QVERIFY(QDir().mkpath(folder + "/inside"));
        request.output = folder.toStdString();
        const QString failed = message();
        QVERIFY2(failed.contains(folder + " is a folder"), qPrintable(failed));
        QVERIFY(QFileInfo(folder + "/inside").isDir());
        QVERIFY(!QFileInfo::exists(folder + ".tmp"));
        QVERIFY(!QFileInfo::exists(dir_.filePath("bad.onnx")));
    }

private:
    QTemporaryDir dir_;
    std::string data_, workspace_;
    std::map<std::string, std::int64_t> runs_;
    std::map<std::string, ExperimentSpec> specs_;
};

QTEST_GUILESS_MAIN(TestOnnxExport)
#include "tst_onnx_export.moc"

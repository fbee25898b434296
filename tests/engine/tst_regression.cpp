// Regression as a task: the metrics (hand-derived and against scikit-learn), a CSV's target
// columns through the YAML, the dataset and the loader, the loss-task mismatch refused before
// training, and a tiny regression that trains below the training-mean baseline.
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>
#include <random>
#include <sstream>

#include "data/csv_dataset.h"
#include "data/loader.h"
#include "io/yaml/experiment_yaml.h"
#include "train/data_fit.h"
#include "train/regression_metrics.h"
#include "train/task_metrics.h"
#include "train/trainer.h"
#include "backend/backend.h"
#include "blob_dataset.h"
#include "evaluated_run.h"
#include "store/run_reader.h"
#include "data/subset_dataset.h"
#include "jobs/predictor.h"
#include "types/run_records.h"

using namespace ts;

namespace {

void writeFile(const QString& path, const std::string& text)
{
    std::ofstream(path.toStdString(), std::ios::binary) << text;
}

// y = 3 x1 - 2 x2 + 0.5 x3 + 10 + noise(0.3), 200 rows; x in [-2, 2].
std::string linearCsv()
{
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> x(-2, 2);
    std::normal_distribution<float> noise(0, 0.3f);
    std::ostringstream s;
    s << "x1,x2,x3,y\n";
    for (int i = 0; i < 200; ++i) {
        const float a = x(rng), b = x(rng), c = x(rng);
        s << a << ',' << b << ',' << c << ',' << 3 * a - 2 * b + 0.5f * c + 10 + noise(rng) << '\n';
    }
    return s.str();
}

std::string regressionYaml(const QString& csv, const std::string& loss, int epochs)
{
    return "name: tiny_regression\n"
           "dataset:\n"
           "  format: csv\n"
           "  path: " + csv.toStdString() + "\n"
           "  target_columns: [y]\n"
           "  feature_columns: [x1, x2, x3]\n"
           "  validation_fraction: 0.25\n"
           "  normalize: {from_statistics: true}\n"
           "  loader: {num_workers: 0}\n"
           "model:\n"
           "  layers:\n"
           "    - Linear: {out_features: 16}\n"
           "    - ReLU\n"
           "    - Linear: {out_features: 1}\n"
           "    - " + loss + "\n"
           "optimizer: {type: adam, lr: 0.02}\n"
           "training: {epochs: " + std::to_string(epochs) + ", batch_size: 16, seed: 3, device: cpu, checkpoint: {every_epochs: 0}}\n";
}

}  // namespace

class TestRegression : public QObject {
    Q_OBJECT

private slots:
    void metricsHandDerived()
    {
        // errors 0, -1, 1, 5; actual mean 1.5, SST 5, SSE 27.
        const float predicted[] = {1, 2, 3, 5}, actual[] = {1, 3, 2, 0};
        RegressionMetrics m;
        m.add(predicted, actual, 2, 0.5);
        m.add(predicted + 2, actual + 2, 2, 13.0);
        QCOMPARE(m.count(), std::int64_t(4));
        QCOMPARE(m.loss(), (0.5 * 2 + 13.0 * 2) / 4);
        QCOMPARE(m.mae(), 7.0 / 4);
        QCOMPARE(m.rmse(), std::sqrt(27.0 / 4));
        QCOMPARE(m.mape(), 100.0 * (0 + 1.0 / 3 + 1.0 / 2) / 3);  // the zero target is skipped
        QCOMPARE(m.r2(), 1 - 27.0 / 5);
        const auto s = m.summary("val");
        QCOMPARE(s.at("val_rmse"), m.rmse());
        QVERIFY(s.count("val_loss") && s.count("val_mae") && s.count("val_mape") && s.count("val_r2"));
        // A checkpoint's sums give the same numbers back.
        RegressionMetrics back;
        back.restore(m.sums());
        QCOMPARE(back.summary("val"), s);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, RegressionMetrics(2).restore(m.sums()));
        // Undefined parts are left out, not reported as numbers: a constant target has no R², all
        // zero targets no MAPE.
        const float zeros[] = {0, 0};
        RegressionMetrics flat;
        flat.add(predicted, zeros, 2);
        QVERIFY(std::isnan(flat.r2()) && std::isnan(flat.mape()) && std::isnan(flat.loss()));
        QVERIFY(!flat.summary("val").count("val_r2") && !flat.summary("val").count("val_mape"));
    }

    void metricsAgainstScikitLearn()
    {
        QProcess probe;
        probe.start("/usr/bin/python3", {"-c", "import sklearn.metrics"});
        if (!probe.waitForFinished(60000) || probe.exitCode() != 0) QSKIP("Debian's python3-sklearn is not installed");
        // Two targets of different scales, in three batches of uneven size.
        std::mt19937 rng(11);
        std::normal_distribution<float> n(0, 1);
        const int rows = 37;
        std::vector<float> p(rows * 2), y(rows * 2);
        std::ostringstream text;
        text.precision(9);  // every float exactly
        for (int i = 0; i < rows; ++i) {
            y[i * 2] = 5 + 2 * n(rng);
            y[i * 2 + 1] = -100 + 30 * n(rng);
            p[i * 2] = y[i * 2] + n(rng);
            p[i * 2 + 1] = 0.8f * y[i * 2 + 1] + 10 * n(rng);
            text << y[i * 2] << ' ' << y[i * 2 + 1] << ' ' << p[i * 2] << ' ' << p[i * 2 + 1] << '\n';
        }
        RegressionMetrics m(2);
        m.add(p.data(), y.data(), 20);
        m.add(p.data() + 20, y.data() + 20, 40);
        m.add(p.data() + 60, y.data() + 60, rows * 2 - 60);
        QProcess py;
        py.start("/usr/bin/python3",
                 {"-c", "import sys, numpy as np, sklearn.metrics as M\n"
                        "a = np.loadtxt(sys.stdin, dtype=np.float32).astype(np.float64); y, p = a[:, :2], a[:, 2:]\n"
                        // Equal counts per target: the uniform average of per-target MAE, MSE and MAPE is the pooled one.
                        "print(M.mean_absolute_error(y, p), np.sqrt(M.mean_squared_error(y, p)),\n"
                        "      100 * M.mean_absolute_percentage_error(y, p), M.r2_score(y, p))\n"});
        py.write(QByteArray::fromStdString(text.str()));
        py.closeWriteChannel();
        QVERIFY(py.waitForFinished(60000));
        QVERIFY2(py.exitCode() == 0, py.readAllStandardError().constData());
        const QStringList ref = QString::fromUtf8(py.readAllStandardOutput()).simplified().split(' ');
        QCOMPARE(ref.size(), 4);
        const double got[] = {m.mae(), m.rmse(), m.mape(), m.r2()};
        for (int i = 0; i < 4; ++i)
            QVERIFY2(std::abs(got[i] - ref[i].toDouble()) <= 1e-9 * std::max(1.0, std::abs(ref[i].toDouble())),
                     qPrintable(QString("metric %1: ours %2, scikit-learn %3").arg(i).arg(got[i], 0, 'g', 17).arg(ref[i])));
    }

    // Errors are minimised and R² maximised (best checkpoints, early stopping, plateaus), and a
    // regression run's headline is its best val_rmse, not its loss.
    void metricGoalsAndHeadline()
    {
        for (const char* lower : {"val_mae", "val_rmse", "val_mape", "test_baseline_rmse"}) QVERIFY2(lowerIsBetter(lower), lower);
        QCOMPARE(metricGoal("val_r2"), MetricGoal::Maximise);
        const std::vector<MetricSummary> summaries = {{"val_loss", 5, 3000, 50, 2900, 9000, 2900, 40},
                                                      {"val_rmse", 5, 54.8, 50, 53.9, 95, 53.9, 40},
                                                      {"val_r2", 5, 0.4, 50, -0.5, 0.42, 0.42, 40}};
        const HeadlineResult h = headlineResult(summaries);
        QVERIFY(h.summary && h.summary->name == "val_rmse");
        QCOMPARE(h.value, 53.9);
    }

    void csvTargetsThroughYamlDatasetAndLoader()
    {
        QTemporaryDir dir;
        const QString csv = dir.filePath("t.csv");
        writeFile(csv, "a,y,b,z\n1,10.5,2,-1\n3,20.25,4,-2\n5,30,6,-3\n");
        // The YAML names the targets and writes them back; the model's label is implied as f32 [2].
        const std::string yaml = "name: t\ndataset: {format: csv, path: " + csv.toStdString() +
                                 ", target_columns: [y, z], feature_columns: [a, b], validation_fraction: 0}\n"
                                 "model:\n  layers:\n    - Linear: {out_features: 2}\n    - MSE\n"
                                 "training: {epochs: 1, batch_size: 2}\n";
        const ExperimentSpec spec = parseExperiment(yaml, "t.yaml");
        QCOMPARE(spec.dataset.targetColumns, (std::vector<std::string>{"y", "z"}));
        QCOMPARE(parseExperiment(experimentToYaml(spec), "again.yaml").dataset, spec.dataset);
        const GraphInput& label = spec.model.inputs[1];
        QCOMPARE(label.name, std::string("label"));
        QCOMPARE(label.dtype, DType::F32);
        QCOMPARE(label.shape, (Shape{2}));

        // Features are the other numeric columns when none are named; the targets are not among them.
        CsvDataset data(csv.toStdString(), "", {}, "", {"y", "z"});
        QCOMPARE(data.targetKind(), TargetKind::Values);
        QCOMPARE(data.targetShape(), (Shape{2}));
        QCOMPARE(data.numClasses(), std::int64_t(0));
        QCOMPARE(data.featureNames(), (std::vector<std::string>{"a", "b"}));
        float values[2];
        data.getValues(1, values);
        QCOMPARE(values[0], 20.25f);
        QCOMPARE(values[1], -2.0f);

        const DatasetSplits splits = openExperimentDataset(spec, "");
        LoaderOptions options;
        options.batchSize = 2;
        options.shuffle = false;
        options.dropLast = false;
        Loader loader(splits.train, spec.dataset, splits.trainStatistics, options);
        loader.startEpoch(0);
        Batch b;
        QVERIFY(loader.next(b));
        QCOMPARE(b.labels.dtype(), DType::F32);
        QCOMPARE(b.labels.shape(), (Shape{2, 2}));
        const float* y = b.labels.data<float>();
        QCOMPARE(std::vector<float>(y, y + 4), (std::vector<float>{10.5f, -1, 20.25f, -2}));
        QVERIFY(loader.next(b));
        QCOMPARE(b.labels.shape(), (Shape{1, 2}));
        QCOMPARE(b.labels.data<float>()[0], 30.0f);
    }

    void badTargetsAreNamed()
    {
        QTemporaryDir dir;
        const QString csv = dir.filePath("bad.csv");
        writeFile(csv, "x,y\n1,2\n3,n/a\n");
        try {
            CsvDataset(csv.toStdString(), "", {"x"}, "", {"y"});
            QFAIL("a non-numeric target was read");
        } catch (const DataError& e) {
            const std::string m = e.what();
            QVERIFY2(m.find("bad.csv:3: column 2 ('y', a target) is 'n/a', not a (finite) number") != std::string::npos, e.what());
        }
        QVERIFY_THROWS_EXCEPTION(DataError, CsvDataset(csv.toStdString(), "x", {}, "", {"y"}));  // one task
        QVERIFY_THROWS_EXCEPTION(DataError, CsvDataset(csv.toStdString(), "", {"x"}, "", {"w"}));  // no such column
        // The YAML refuses both at once, at the line.
        try {
            parseExperiment("dataset: {format: csv, path: a.csv, label_column: x, target_columns: [y]}\n"
                            "model: {inputs: {features: [1], label: {shape: [], dtype: i64}}, layers: [{Linear: {out_features: 2}}, CrossEntropy]}\n",
                            "both.yaml");
            QFAIL("label_column and target_columns together were accepted");
        } catch (const std::exception& e) {
            QVERIFY2(std::string(e.what()).find("either classification (label_column") != std::string::npos, e.what());
        }
    }

    void lossTaskMismatchIsRefusedBeforeTraining()
    {
        QTemporaryDir dir;
        const QString csv = dir.filePath("d.csv");
        writeFile(csv, linearCsv());
        // Regression with CrossEntropy.
        ExperimentSpec spec = parseExperiment(regressionYaml(csv, "MSE", 1), "r.yaml");
        DatasetSplits splits = openExperimentDataset(spec, "");
        Graph crossEntropy = spec.model;
        crossEntropy.nodes.back().op = "CrossEntropy";
        try {
            checkDataFitsModel(splits, crossEntropy);
            QFAIL("CrossEntropy on numeric targets was accepted");
        } catch (const DataError& e) {
            const std::string m = e.what();
            QVERIFY2(m.find("is CrossEntropy, a classification loss, but the dataset's targets are numbers (y)") != std::string::npos &&
                         m.find("a regression loss (MSE, L1 or Huber)") != std::string::npos, e.what());
        }
        // A class label input on numeric targets says what the label must be.
        Graph intLabel = spec.model;
        intLabel.inputs[1] = GraphInput{"label", Shape{}, DType::I64};
        try {
            checkDataFitsModel(splits, intLabel);
            QFAIL("an i64 label on numeric targets was accepted");
        } catch (const DataError& e) {
            QVERIFY2(std::string(e.what()).find("set it to {shape: [1], dtype: f32}") != std::string::npos, e.what());
        }
        checkDataFitsModel(splits, spec.model);  // the right pairing passes

        // Classification with MSE: the same table read with classes.
        writeFile(dir.filePath("c.csv"), "x,c\n0.1,0\n0.5,1\n0.9,2\n0.2,0\n");
        ExperimentSpec classes = parseExperiment(
            "dataset: {format: csv, path: " + dir.filePath("c.csv").toStdString() + ", label_column: c, feature_columns: [x], validation_fraction: 0}\n"
            "model:\n  inputs: {features: [1], label: {shape: [3], dtype: f32}}\n  layers: [{Linear: {out_features: 3}}, MSE]\n",
            "c.yaml");
        try {
            checkDataFitsModel(openExperimentDataset(classes, ""), classes.model);
            QFAIL("MSE on class labels was accepted");
        } catch (const DataError& e) {
            const std::string m = e.what();
            QVERIFY2(m.find("is MSE, a regression loss, but the dataset's targets are 3 classes") != std::string::npos &&
                         m.find("CrossEntropy") != std::string::npos && m.find("target_columns") != std::string::npos, e.what());
        }
    }

    void tinyRegressionTrainsBelowTheMeanBaseline()
    {
        QTemporaryDir dir;
        const QString csv = dir.filePath("d.csv");
        writeFile(csv, linearCsv());
        const ExperimentSpec spec = parseExperiment(regressionYaml(csv, "MSE", 30), "r.yaml");
        DatasetSplits splits = openExperimentDataset(spec, "");
        // The baseline, computed here from the splits: the training targets' mean for every sample.
        double mean = 0, baseline = 0;
        float v = 0;
        for (std::int64_t i = 0; i < splits.train->size(); ++i) splits.train->getValues(i, &v), mean += v;
        mean /= double(splits.train->size());
        for (std::int64_t i = 0; i < splits.validation->size(); ++i) {
            splits.validation->getValues(i, &v);
            baseline += (v - mean) * (v - mean);
        }
        baseline = std::sqrt(baseline / double(splits.validation->size()));
        QVERIFY(baseline > 3);  // the targets vary: the test can fail

        Trainer trainer(spec, std::move(splits), cpuBackend());
        test::Recorder events;
        trainer.addListener(&events);
        const FinishedEvent done = trainer.run();
        QVERIFY2(done.outcome == FinishedEvent::Outcome::Finished, done.message.text.c_str());
        const auto epochs = events.all<EpochEvent>();
        QCOMPARE(epochs.size(), std::size_t(30));
        QVERIFY(epochs.back().metrics.at("train_loss") < 0.05 * epochs.front().metrics.at("train_loss"));
        for (const char* key : {"train_loss", "train_mae", "train_rmse", "train_r2", "val_loss", "val_mae", "val_rmse", "val_r2", "val_mape"})
            QVERIFY2(done.metrics.count(key), key);
        QVERIFY(!done.metrics.count("val_acc"));
        // The validation loss is the MSE: its root is the RMSE.
        QVERIFY(std::abs(std::sqrt(done.metrics.at("val_loss")) - done.metrics.at("val_rmse")) < 1e-3 * done.metrics.at("val_rmse"));
        // A linear target with noise 0.3: the model gets close to it, far below the baseline.
        QVERIFY2(done.metrics.at("val_rmse") < 0.25 * baseline,
                 qPrintable(QString("val_rmse %1, baseline %2").arg(done.metrics.at("val_rmse")).arg(baseline)));
        QVERIFY(done.metrics.at("val_r2") > 0.9);
    }

    // The evaluate job on a regression run: its metrics, the training-mean baseline and every
    // sample's predicted and actual value, read back from the store.
    void evaluationKeepsValuesAndTheMeanBaseline()
    {
        QTemporaryDir dir;
        const QString csv = dir.filePath("d.csv");
        writeFile(csv, linearCsv());
        const ExperimentSpec spec = parseExperiment(regressionYaml(csv, "MSE", 4), "r.yaml");
        const test::EvaluatedRun run = test::trainAndEvaluate(spec, dir.filePath("ws").toStdString());
        QVERIFY2(run.error.empty(), run.error.c_str());
        RunReader reader(Workspace::open(dir.filePath("ws").toStdString()));
        const std::vector<EvaluationRecord> records = reader.evaluations(run.runId);
        QCOMPARE(records.size(), std::size_t(1));
        const EvaluationRecord& r = records[0];
        QCOMPARE(r.classes, std::int64_t(0));
        QCOMPARE(r.split, std::string("val"));
        const std::vector<Prediction> rows = reader.predictions(run.evaluationId);
        QCOMPARE(std::int64_t(rows.size()), r.samples);

        const DatasetSplits splits = openExperimentDataset(spec, "");
        QCOMPARE(std::int64_t(rows.size()), splits.validation->size());
        double mean = 0, squares = 0, baseline = 0;
        float v = 0;
        for (std::int64_t i = 0; i < splits.train->size(); ++i) splits.train->getValues(i, &v), mean += v;
        mean /= double(splits.train->size());
        for (const Prediction& p : rows) {
            QCOMPARE(p.values.size(), std::size_t(1));
            QVERIFY(p.probabilities.empty());
            splits.validation->getValues(p.sample, &v);
            QCOMPARE(p.targets, std::vector<float>{v});
            squares += (double(p.values[0]) - v) * (double(p.values[0]) - v);
            baseline += (mean - v) * (mean - v);
        }
        const double n = double(rows.size());
        QVERIFY(std::abs(r.metrics.at("val_rmse") - std::sqrt(squares / n)) < 1e-5 * r.metrics.at("val_rmse"));
        QVERIFY(std::abs(r.metrics.at("val_baseline_rmse") - std::sqrt(baseline / n)) < 1e-9 * std::sqrt(baseline / n));
        QVERIFY(r.metrics.count("val_baseline_mae") && r.metrics.count("val_r2") && r.metrics.count("val_mae"));
        QVERIFY(r.metrics.at("val_rmse") < r.metrics.at("val_baseline_rmse"));

        // predict on the table itself gives, for the validation rows, the values eval stored,
        // with each row's actual value beside it.
        PredictorOptions options;
        options.workspaceDir = dir.filePath("ws").toStdString();
        options.runId = run.runId;
        Predictor predictor(options);
        QCOMPARE(predictor.modelInput().targetNames, std::vector<std::string>{"y"});
        const std::vector<SamplePrediction> predicted = predictor.predict({csv.toStdString()}, 5);
        QCOMPARE(std::int64_t(predicted.size()), splits.train->size() + splits.validation->size());
        const auto& rowsOfValidation = dynamic_cast<const SubsetDataset&>(*splits.validation).indices();
        for (const Prediction& p : rows) {
            const SamplePrediction& s = predicted[std::size_t(rowsOfValidation[std::size_t(p.sample)])];
            QVERIFY(s.top.empty());
            QCOMPARE(s.values.size(), std::size_t(1));
            QVERIFY(std::abs(s.values[0] - p.values[0]) <= 1e-5 * std::max(1.0, std::abs(s.values[0])));
            QVERIFY(std::abs(std::stod(s.source.label) - p.targets[0]) < 1e-3);
        }
    }
};

QTEST_GUILESS_MAIN(TestRegression)
#include "tst_regression.moc"

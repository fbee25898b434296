// The Learn page's lesson checks (engine/learn/lessons.h) against real runs: each lesson's
// shipped starting experiment, moved onto tiny 4x4 IDX data (three classes), trained through the
// jobs into a temporary workspace; a run that does the lesson passes its check and one that does
// not fails it, with the numbers the check saw compared against the store's own. Also the
// catalog, the shipped files and the progress rows. Seconds on the CPU.
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <set>

#include "data/dataset.h"
#include "lesson_data.h"
#include "io/yaml/experiment_yaml.h"
#include "io/onnx/onnx_export.h"
#include "jobs/onnx_export_run.h"
#include "jobs/job.h"
#include "learn/lessons.h"
#include "store/label_overlay.h"
#include "store/lesson_progress.h"
#include "store/run_reader.h"
#include "train/run_control.h"

using namespace ts;
using namespace ts::test;

class TestLessons : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;
    std::string clean_, noisy_, imbalanced_, text_;
    std::int64_t textVocabulary_ = 0;
    int workspaces_ = 0;

    // The lesson's shipped experiment on `data`: inputs 1x4x4, the CPU, one loader worker.
    ExperimentSpec lessonOn(const std::string& id, const std::string& data)
    {
        const Lesson* lesson = findLesson(id);
        if (!lesson) qFatal("no lesson %s", id.c_str());
        ExperimentSpec s = loadExperiment(lessonExperimentPath(*lesson).string());
        s.dataset.path = data;
        s.dataset.numWorkers = 1;
        s.dataset.prefetchBatches = 2;
        s.model.inputs = {{"image", Shape{1, 4, 4}}, {"label", Shape{}, DType::I64}};
        s.training.device = "cpu";
        s.training.batchSize = 16;
        return s;
    }
    std::string newWorkspace() { return tmp_.path().toStdString() + "/ws" + std::to_string(++workspaces_); }

    // A text lesson's shipped experiment on the tiny text: `context` characters, the vocabulary
    // of the text (the shipped one is the fortunes'), the CPU.
    ExperimentSpec textLessonOn(const std::string& id, std::int64_t context = 16)
    {
        const Lesson* lesson = findLesson(id);
        if (!lesson) qFatal("no lesson %s", id.c_str());
        ExperimentSpec s = loadExperiment(lessonExperimentPath(*lesson).string());
        s.dataset.path = text_;
        s.dataset.context = context;
        s.dataset.numWorkers = 1;
        s.dataset.prefetchBatches = 2;
        s.model.inputs = {{"tokens", Shape{context}, DType::I64}, {"label", Shape{context}, DType::I64}};
        for (Node& n : s.model.nodes) {
            if (n.op == "Embedding") n.attrs.set("num_embeddings", textVocabulary_);
            if (n.name == "head") n.attrs.set("out_features", textVocabulary_);
            if (n.op == "PositionalEncoding") n.attrs.set("max_length", context);
        }
        s.training.device = "cpu";
        s.training.batchSize = 16;
        s.training.maxSteps = 0;
        return s;
    }

    static std::int64_t train(const ExperimentSpec& spec, const std::string& ws, std::int64_t stopAfter = 0)
    {
        JobEnvironment env;
        env.workspaceDir = ws;
        env.systemSampleSeconds = 0;
        RunControl control;
        Quiet quiet;
        StopAfterEpoch stopper(control, stopAfter);
        TrainJob job;
        job.experiment = spec;
        const JobResult r = runJob(job, env, control, stopAfter > 0 ? static_cast<TrainListener&>(stopper) : quiet);
        const auto expected = stopAfter > 0 ? FinishedEvent::Outcome::Stopped : FinishedEvent::Outcome::Finished;
        if (r.finished.outcome != expected) qWarning("training ended otherwise: %s", r.finished.message.text.c_str());
        return r.runId;
    }
    static JobResult run(const Job& job, const std::string& ws)
    {
        JobEnvironment env;
        env.workspaceDir = ws;
        env.systemSampleSeconds = 0;
        RunControl control;
        Quiet quiet;
        return runJob(job, env, control, quiet);
    }
    static LessonResult check(const std::string& id, const ExperimentSpec& starting, const std::string& ws)
    {
        LessonResult r = checkLesson(*findLesson(id), LessonContext{Workspace{ws}, starting});
        qInfo("%s %s: %s", id.c_str(), r.passed ? "passed" : "not yet", r.headline.text.c_str());
        for (const Message& m : r.details) qInfo("  %s", m.text.c_str());
        return r;
    }
    static double best(const std::string& ws, std::int64_t runId, const std::string& metric)
    {
        RunReader reader(Workspace{ws});
        for (const MetricSummary& s : reader.summaries(runId))
            if (s.name == metric) return s.best;
        return NAN;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(tmp_.isValid());
        const std::string root = tmp_.path().toStdString();
        clean_ = root + "/clean", noisy_ = root + "/noisy", imbalanced_ = root + "/imbalanced";
        for (const std::string& d : {clean_, noisy_, imbalanced_}) std::filesystem::create_directories(d);
        writeImages(clean_, "train", cycle(300), cycle(300), 1, 20);
        writeImages(clean_, "t10k", cycle(90), cycle(90), 2, 20);
        // One label in six moved to the next class, in both splits: no model is sure, and one trained
        // long on such labels is over-confident.
        std::vector<int> noisyLabels = cycle(300);
        for (std::size_t i = 0; i < noisyLabels.size(); i += 6) noisyLabels[i] = (noisyLabels[i] + 1) % 3;
        writeImages(noisy_, "train", cycle(300), noisyLabels, 3, 45);
        std::vector<int> noisyTest = cycle(150);
        for (std::size_t i = 0; i < noisyTest.size(); i += 6) noisyTest[i] = (noisyTest[i] + 1) % 3;
        writeImages(noisy_, "t10k", cycle(150), noisyTest, 4, 45);
        // 240 : 24 : 6 training images, a balanced test split, classes overlapping in the noise.
        std::vector<int> rare;
        for (int i = 0; i < 270; ++i) rare.push_back(i < 240 ? 0 : i < 264 ? 1 : 2);
        writeImages(imbalanced_, "train", rare, rare, 5, 55);
        writeImages(imbalanced_, "t10k", cycle(150), cycle(150), 6, 55);
        // 16 KB of seeded sentences from eleven words: little to learn, much to repeat.
        text_ = root + "/sentences.txt";
        const char* words[] = {"the", "cat", "dog", "sat", "ran", "on", "mat", "log", "a", "big", "red"};
        std::mt19937_64 rng(7);
        std::string text;
        while (text.size() < 16000) {
            const int n = 3 + int(rng() % 4);
            for (int w = 0; w < n; ++w) text += std::string(w ? " " : "") + words[rng() % std::size(words)];
            text += rng() % 5 ? ". " : ".\n";
        }
        std::ofstream(text_) << text;
        textVocabulary_ = std::int64_t(std::set<char>(text.begin(), text.end()).size());
    }

    void catalogAndShippedFiles()
    {
        QVERIFY(lessonCatalog().size() >= 8);
        std::set<std::string> ids;
        for (const Lesson& l : lessonCatalog()) {
            QVERIFY2(ids.insert(l.id).second, l.id.c_str());
            QVERIFY(l.check);
            QVERIFY(!l.glossary.empty());
            const std::filesystem::path path = lessonExperimentPath(l);
            QVERIFY2(std::filesystem::is_regular_file(path), path.c_str());
            const ExperimentSpec spec = loadExperiment(path.string());  // throws on a broken file
            QCOMPARE(QString::fromStdString(spec.name), QString::fromStdString("lesson_" + l.id));
            QCOMPARE(findLesson(l.id), &l);
        }
        QVERIFY(!findLesson("no_such_lesson"));
        // The imbalanced subset is shipped beside the lessons, 50:1.
        const ExperimentSpec imbalance = loadExperiment(lessonExperimentPath(*findLesson("fix_imbalance")).string());
        const DatasetSplits splits = openExperimentDataset(imbalance, tmp_.path().toStdString() + "/cache");
        QCOMPARE(splits.train->size(), std::int64_t(1580));
        QCOMPARE(splits.test->size(), std::int64_t(600));
        QCOMPARE(std::count(splits.train->labels().begin(), splits.train->labels().end(), 0), 400);
        QCOMPARE(std::count(splits.train->labels().begin(), splits.train->labels().end(), 9), 8);
    }

    void emptyWorkspaceIsNotYet()
    {
        const std::string ws = newWorkspace();
        for (const Lesson& l : lessonCatalog()) {
            const LessonResult r = check(l.id, lessonOn(l.id, clean_), ws);
            QVERIFY2(!r.passed, l.id.c_str());
            QVERIFY2(!r.headline.id.empty(), r.headline.text.c_str());  // a worded not-yet, not a failure text
        }
    }

    void lookAtData()
    {
        const std::string ws = newWorkspace();
        const ExperimentSpec spec = lessonOn("look_at_data", clean_);
        DataCheckJob job;
        job.experiment = spec;
        QCOMPARE(int(run(job, ws).finished.outcome), int(FinishedEvent::Outcome::Finished));
        LessonResult r = check("look_at_data", spec, ws);
        QVERIFY(!r.passed);
        QCOMPARE(QString::fromStdString(r.headline.id), QString("lesson.data.no_mark"));
        const std::string key = datasetKey(spec.dataset, experimentDataDirectory(spec));
        setLabelMark(Workspace{ws}, key, {"train", 5, LabelMark::Action::Exclude, -1});
        r = check("look_at_data", spec, ws);
        QVERIFY2(r.passed, r.headline.text.c_str());
        QCOMPARE(r.headline.args.at(2), std::string("1"));  // one mark, excluded
        QCOMPARE(r.headline.args.at(3), std::string("1"));
        // Marks of another dataset do not count.
        const std::string ws2 = newWorkspace();
        QCOMPARE(int(run(job, ws2).finished.outcome), int(FinishedEvent::Outcome::Finished));
        setLabelMark(Workspace{ws2}, datasetKey(lessonOn("look_at_data", noisy_).dataset, experimentDataDirectory(spec)),
                     {"train", 1, LabelMark::Action::Exclude, -1});
        QVERIFY(!check("look_at_data", spec, ws2).passed);
    }

    void overfitOneBatch()
    {
        const std::string ws = newWorkspace();
        ExperimentSpec normal = lessonOn("overfit_one_batch", clean_);
        normal.training.overfitBatches = 0;
        normal.training.epochs = 1;
        train(normal, ws);
        LessonResult r = check("overfit_one_batch", normal, ws);
        QVERIFY(!r.passed);
        QCOMPARE(QString::fromStdString(r.headline.id), QString("lesson.overfit.no_run"));
        ExperimentSpec stuck = lessonOn("overfit_one_batch", clean_);
        stuck.optimizer.lr = 1e-7;
        stuck.training.epochs = 10;
        train(stuck, ws);
        r = check("overfit_one_batch", stuck, ws);
        QVERIFY2(!r.passed, r.headline.text.c_str());
        QCOMPARE(QString::fromStdString(r.headline.id), QString("lesson.overfit.not_yet"));
        const ExperimentSpec shipped = lessonOn("overfit_one_batch", clean_);  // overfit_batches 1, 100 epochs
        const std::int64_t good = train(shipped, ws);
        r = check("overfit_one_batch", shipped, ws);
        QVERIFY2(r.passed, r.headline.text.c_str());
        QCOMPARE(r.headline.args.at(0), std::to_string(good));
        RunReader reader(Workspace{ws});
        const MetricSeries loss = reader.metric(good, "train_loss");
        QVERIFY(loss.values.back() < lesson_goals::kOverfitLoss);
        QVERIFY2(shows(r.headline.args.at(3), loss.values.back()), r.headline.args.at(3).c_str());
    }

    void findLearningRate()
    {
        const std::string ws = newWorkspace();
        const ExperimentSpec shipped = lessonOn("find_learning_rate", clean_);  // sgd 1e-4
        QCOMPARE(QString::fromStdString(check("find_learning_rate", shipped, ws).headline.id), QString("lesson.no_runs"));
        const std::int64_t baseline = train(shipped, ws);
        LessonResult r = check("find_learning_rate", shipped, ws);
        QCOMPARE(QString::fromStdString(r.headline.id), QString("lesson.lr.no_change"));
        ExperimentSpec timid = shipped;
        timid.optimizer.lr = 1.2e-4;  // another rate, hardly better
        train(timid, ws);
        r = check("find_learning_rate", shipped, ws);
        QVERIFY2(!r.passed, r.headline.text.c_str());
        QCOMPARE(QString::fromStdString(r.headline.id), QString("lesson.lr.not_yet"));
        ExperimentSpec found = shipped;
        found.optimizer.lr = 0.05;
        const std::int64_t good = train(found, ws);
        r = check("find_learning_rate", shipped, ws);
        QVERIFY2(r.passed, r.headline.text.c_str());
        QCOMPARE(r.headline.args.at(0), std::to_string(good));
        QCOMPARE(r.headline.args.at(6), std::to_string(baseline));
        QVERIFY(best(ws, good, "val_loss") <= lesson_goals::kLearningRateLoss * best(ws, baseline, "val_loss"));
    }

    void beatTheMlp()
    {
        const std::string ws = newWorkspace();
        ExperimentSpec mlp = lessonOn("beat_the_mlp", noisy_);
        mlp.training.epochs = 1;
        mlp.optimizer.lr = 3e-4;
        const std::int64_t mlpRun = train(mlp, ws);
        LessonResult r = check("beat_the_mlp", mlp, ws);
        QCOMPARE(QString::fromStdString(r.headline.id), QString("lesson.cnn.no_cnn"));
        // The CNN drawn on the Model page: convolutions before the shipped head.
        ExperimentSpec cnn = mlp;
        Graph& g = cnn.model;
        g.nodes.insert(g.nodes.begin(), {Node{"conv1", "Conv2d", {{"out_channels", std::int64_t(8)}, {"kernel_size", std::int64_t(3)},
                                                                  {"padding", std::int64_t(1)}}, {"image"}},
                                         Node{"relu_c", "ReLU", {}, {"conv1"}}});
        g.nodes[2].inputs = {"relu_c"};  // the Flatten
        ExperimentSpec weak = cnn;
        weak.optimizer.lr = 1e-7;
        train(weak, ws);
        r = check("beat_the_mlp", mlp, ws);
        QVERIFY2(!r.passed, r.headline.text.c_str());
        QCOMPARE(QString::fromStdString(r.headline.id), QString("lesson.cnn.not_yet"));
        cnn.training.epochs = 4;
        cnn.optimizer.lr = 0.003;
        const std::int64_t cnnRun = train(cnn, ws);
        r = check("beat_the_mlp", mlp, ws);
        QVERIFY2(r.passed, r.headline.text.c_str());
        QCOMPARE(r.headline.args.at(0), std::to_string(cnnRun));
        QCOMPARE(r.headline.args.at(4), std::to_string(mlpRun));
        QVERIFY(best(ws, cnnRun, "val_acc") > best(ws, mlpRun, "val_acc"));
    }

    void fixImbalance()
    {
        const std::string ws = newWorkspace();
        ExperimentSpec shipped = lessonOn("fix_imbalance", imbalanced_);
        shipped.training.epochs = 3;
        const std::int64_t baseline = train(shipped, ws);
        LessonResult r = check("fix_imbalance", shipped, ws);
        QVERIFY(!r.passed);
        QCOMPARE(QString::fromStdString(r.headline.id), QString("lesson.imbalance.no_fix"));
        ExperimentSpec balanced = shipped;
        balanced.dataset.sampler = "class_balanced";
        const std::int64_t fixedRun = train(balanced, ws);
        r = check("fix_imbalance", shipped, ws);
        const double gain = best(ws, fixedRun, "test_macro_f1") - best(ws, baseline, "test_macro_f1");
        qInfo("macro F1: baseline %.3f, class_balanced %.3f", best(ws, baseline, "test_macro_f1"), best(ws, fixedRun, "test_macro_f1"));
        QVERIFY2(r.passed, r.headline.text.c_str());
        QVERIFY(gain >= lesson_goals::kImbalanceF1Gain);
        QCOMPARE(r.headline.args.at(1), std::string("class_balanced"));
    }

    void fitLargerBatch()
    {
        const std::string ws = newWorkspace();
        ExperimentSpec shipped = lessonOn("fit_larger_batch", clean_);  // batch 16 here: the goal is 64
        shipped.training.batchSize = 16;
        ExperimentSpec big = shipped;
        big.training.batchSize = 64;  // the batch alone: more activations than the budget
        train(big, ws);
        LessonResult r = check("fit_larger_batch", shipped, ws);
        QVERIFY2(!r.passed, r.headline.text.c_str());
        QCOMPARE(QString::fromStdString(r.headline.id), QString("lesson.batch.not_yet"));
        ExperimentSpec accumulated = shipped;
        accumulated.training.accumulationSteps = 4;
        const std::int64_t good = train(accumulated, ws);
        r = check("fit_larger_batch", shipped, ws);
        QVERIFY2(r.passed, r.headline.text.c_str());
        QCOMPARE(r.headline.args.at(0), std::to_string(good));
        QCOMPARE(r.headline.args.at(1), std::string("64"));
    }

    void resumeExactly()
    {
        const std::string ws = newWorkspace();
        ExperimentSpec shipped = lessonOn("resume_exactly", clean_);  // 4 epochs, a checkpoint each
        const std::int64_t uninterrupted = train(shipped, ws);
        QCOMPARE(QString::fromStdString(check("resume_exactly", shipped, ws).headline.id), QString("lesson.resume.no_stop"));
        const std::int64_t stopped = train(shipped, ws, /*stopAfter=*/2);
        LessonResult r = check("resume_exactly", shipped, ws);
        QVERIFY(!r.passed);
        QCOMPARE(QString::fromStdString(r.headline.id), QString("lesson.resume.no_resume"));
        QCOMPARE(r.headline.args.at(0), std::to_string(stopped));
        TrainJob resume;
        resume.resume = std::to_string(stopped);
        const JobResult resumed = run(resume, ws);
        QCOMPARE(int(resumed.finished.outcome), int(FinishedEvent::Outcome::Finished));
        r = check("resume_exactly", shipped, ws);
        QVERIFY2(r.passed, r.headline.text.c_str());
        QCOMPARE(r.headline.args.at(0), std::to_string(resumed.runId));
        QCOMPARE(r.headline.args.at(1), std::to_string(stopped));
        QCOMPARE(r.details.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(r.details[0].id), QString("lesson.resume.same"));  // bit for bit on the CPU
        QCOMPARE(r.details[0].args.at(1), std::to_string(uninterrupted));
    }

    void compareThreeSeeds()
    {
        const std::string ws = newWorkspace();
        ExperimentSpec shipped = lessonOn("compare_three_seeds", noisy_);
        shipped.training.epochs = 1;
        std::vector<double> accs;
        for (std::uint64_t seed : {0, 1}) {
            ExperimentSpec s = shipped;
            s.training.seed = seed;
            accs.push_back(best(ws, train(s, ws), "val_acc"));
        }
        ExperimentSpec other = shipped;  // a third seed with another setting is no third seed
        other.training.seed = 2;
        other.optimizer.lr = 0.01;
        train(other, ws);
        LessonResult r = check("compare_three_seeds", shipped, ws);
        QVERIFY2(!r.passed, r.headline.text.c_str());
        QCOMPARE(QString::fromStdString(r.headline.id), QString("lesson.seeds.not_yet"));
        QCOMPARE(r.headline.args.at(0), std::string("2"));
        ExperimentSpec third = shipped;
        third.training.seed = 2;
        accs.push_back(best(ws, train(third, ws), "val_acc"));
        r = check("compare_three_seeds", shipped, ws);
        QVERIFY2(r.passed, r.headline.text.c_str());
        const double mean = (accs[0] + accs[1] + accs[2]) / 3;
        double ss = 0;
        for (double a : accs) ss += (a - mean) * (a - mean);
        QCOMPARE(r.headline.args.at(1), std::string("0, 1, 2"));
        QVERIFY(shows(r.headline.args.at(3), mean));
        QVERIFY(shows(r.headline.args.at(4), std::sqrt(ss / 2)));  // the sample standard deviation
    }

    void calibrate()
    {
        const std::string ws = newWorkspace();
        ExperimentSpec shipped = lessonOn("calibrate", noisy_);
        shipped.training.epochs = 8;
        shipped.optimizer.lr = 0.01;
        const std::int64_t runId = train(shipped, ws);
        LessonResult r = check("calibrate", shipped, ws);
        QVERIFY(!r.passed);
        QCOMPARE(QString::fromStdString(r.headline.id), QString("lesson.calibrate.no_evaluation"));
        EvaluateJob evaluate;
        evaluate.runId = runId;
        const JobResult evaluated = run(evaluate, ws);
        QCOMPARE(int(evaluated.finished.outcome), int(FinishedEvent::Outcome::Finished));
        r = check("calibrate", shipped, ws);
        RunReader reader(Workspace{ws});
        const EvaluationRecord e = reader.evaluations(runId).back();
        qInfo("ECE %.4f -> %.4f at T %.3f", e.metrics.at("test_ece"), e.metrics.at("test_ece_calibrated"), e.metrics.at("temperature"));
        QVERIFY2(r.passed, r.headline.text.c_str());
        QVERIFY(shows(r.headline.args.at(3), e.metrics.at("test_ece")));
        QVERIFY(shows(r.headline.args.at(4), e.metrics.at("test_ece_calibrated")));
    }

    void exportOnnx()
    {
        if (!onnxExportAvailable()) QSKIP("built without ONNX export (protobuf)");
        const std::string ws = newWorkspace();
        ExperimentSpec shipped = lessonOn("export_onnx", clean_);
        shipped.training.epochs = 1;
        const std::int64_t runId = train(shipped, ws);
        LessonResult r = check("export_onnx", shipped, ws);
        QVERIFY(!r.passed);
        QCOMPARE(QString::fromStdString(r.headline.id), QString("lesson.onnx.not_exported"));
        RunExportRequest request;
        request.workspaceDir = ws;
        request.runId = runId;
        request.output = tmp_.path().toStdString() + "/lesson.onnx";
        const RunExportResult exported = exportRunOnnx(request);
        QVERIFY2(exported.notes.empty(), exported.notes.empty() ? "" : exported.notes.front().text.c_str());  // recorded
        r = check("export_onnx", shipped, ws);
        QVERIFY2(r.passed, r.headline.text.c_str());
        QCOMPARE(r.headline.args.at(0), std::to_string(runId));
        QCOMPARE(r.headline.args.at(2), std::filesystem::absolute(request.output).lexically_normal().string());
        // The file moved away: not yet, saying so.
        std::filesystem::remove(request.output);
        r = check("export_onnx", shipped, ws);
        QVERIFY(!r.passed);
        QCOMPARE(QString::fromStdString(r.headline.id), QString("lesson.onnx.file_gone"));
    }

    void attentionStepByStep()
    {
        const std::string ws = newWorkspace();
        // On 4x4 images: 2x2 patches, 4 tokens.
        ExperimentSpec shipped = lessonOn("attention_step_by_step", clean_);
        for (Node& n : shipped.model.nodes) {
            if (n.name == "patchify") n.attrs.set("kernel_size", std::int64_t(2)), n.attrs.set("stride", std::int64_t(2));
            if (n.op == "PositionalEncoding") n.attrs.set("max_length", std::int64_t(4));
        }
        shipped.schedule.warmupSteps = 10;
        shipped.training.epochs = 3;
        const std::int64_t plain = train(shipped, ws);
        LessonResult r = check("attention_step_by_step", shipped, ws);
        QVERIFY(!r.passed);
        QCOMPARE(QString::fromStdString(r.headline.id), QString("lesson.attention.no_block"));
        QCOMPARE(r.headline.args.at(0), std::to_string(plain));
        QVERIFY(shows(r.headline.args.at(2), best(ws, plain, "test_acc")));
        // The block the lesson's text draws between pos and ln_f.
        ExperimentSpec vit = shipped;
        std::vector<Node>& nodes = vit.model.nodes;
        const auto lnF = std::find_if(nodes.begin(), nodes.end(), [](const Node& n) { return n.name == "ln_f"; });
        QVERIFY(lnF != nodes.end());
        const auto width = [](std::int64_t n) { return Attrs{{"out_features", n}}; };
        nodes.insert(lnF, {Node{"b1_ln1", "LayerNorm", {}, {"pos"}},
                           Node{"b1_attn", "MultiHeadAttention", {{"heads", std::int64_t(4)}}, {"b1_ln1"}},
                           Node{"b1_add1", "Add", {}, {"b1_attn", "pos"}},
                           Node{"b1_ln2", "LayerNorm", {}, {"b1_add1"}},
                           Node{"b1_fc1", "Linear", width(128), {"b1_ln2"}},
                           Node{"b1_gelu", "GELU", {}, {"b1_fc1"}},
                           Node{"b1_fc2", "Linear", width(64), {"b1_gelu"}},
                           Node{"b1_add2", "Add", {}, {"b1_fc2", "b1_add1"}}});
        for (Node& n : nodes)
            if (n.name == "ln_f") n.inputs = {"b1_add2"};
        ExperimentSpec frozen = vit;
        frozen.optimizer.lr = 1e-7;
        frozen.training.epochs = 1;
        const std::int64_t weak = train(frozen, ws);
        r = check("attention_step_by_step", shipped, ws);
        QVERIFY2(!r.passed, r.headline.text.c_str());
        QCOMPARE(QString::fromStdString(r.headline.id), QString("lesson.attention.not_yet"));
        QCOMPARE(r.headline.args.at(0), std::to_string(weak));
        QCOMPARE(r.headline.args.at(1), std::string("1"));  // one attention layer
        const std::int64_t good = train(vit, ws);
        r = check("attention_step_by_step", shipped, ws);
        qInfo("test_acc: no attention %.3f, one block %.3f", best(ws, plain, "test_acc"), best(ws, good, "test_acc"));
        QVERIFY2(r.passed, r.headline.text.c_str());
        QCOMPARE(r.headline.args.at(0), std::to_string(good));
        QVERIFY(best(ws, good, "test_acc") >= lesson_goals::kVitAccuracy);
        QVERIFY(shows(r.headline.args.at(3), best(ws, good, "test_acc")));
    }

    void whyTransformersWarmUp()
    {
        const std::string ws = newWorkspace();
        const ExperimentSpec shipped = textLessonOn("why_transformers_warm_up");  // no warm-up, a high rate
        QCOMPARE(shipped.schedule.warmupSteps, std::int64_t(0));
        ExperimentSpec gentle = shipped;  // warm-up at another rate pairs with nothing
        gentle.optimizer.lr = shipped.optimizer.lr / 10;
        gentle.schedule.warmupSteps = 20;
        train(gentle, ws);
        LessonResult r = check("why_transformers_warm_up", shipped, ws);
        QCOMPARE(QString::fromStdString(r.headline.id), QString("lesson.warmup.no_plain"));
        const std::int64_t plain = train(shipped, ws);
        r = check("why_transformers_warm_up", shipped, ws);
        QVERIFY(!r.passed);
        QCOMPARE(QString::fromStdString(r.headline.id), QString("lesson.warmup.no_warm"));
        QCOMPARE(r.headline.args.at(0), std::to_string(plain));
        ExperimentSpec warm = shipped;
        warm.schedule.warmupSteps = lesson_goals::kWarmupSuggestedSteps;
        ExperimentSpec cut = warm;  // warmed up, but stopped after its first step
        cut.training.maxSteps = 1;
        const std::int64_t cutRun = train(cut, ws);
        r = check("why_transformers_warm_up", shipped, ws);
        QVERIFY2(!r.passed, r.headline.text.c_str());
        QCOMPARE(QString::fromStdString(r.headline.id), QString("lesson.warmup.not_yet"));
        QCOMPARE(r.headline.args.at(1), std::to_string(cutRun));
        QCOMPARE(r.headline.args.at(5), std::to_string(plain));
        const std::int64_t warmRun = train(warm, ws);
        r = check("why_transformers_warm_up", shipped, ws);
        RunReader reader(Workspace{ws});
        const double with = reader.metric(warmRun, "val_loss").values.back();
        const double without = reader.metric(plain, "val_loss").values.back();
        qInfo("final val_loss at lr %g: without warm-up %.3f, with %lld steps %.3f", shipped.optimizer.lr, without,
              static_cast<long long>(warm.schedule.warmupSteps), with);
        QVERIFY2(r.passed, r.headline.text.c_str());
        QCOMPARE(QString::fromStdString(r.headline.id), QString("lesson.warmup.passed"));
        QCOMPARE(r.headline.args.at(0), std::to_string(lesson_goals::kWarmupSuggestedSteps));
        QCOMPARE(r.headline.args.at(1), std::to_string(warmRun));
        QCOMPARE(r.headline.args.at(4), std::to_string(plain));
        QVERIFY(with < without);
        QVERIFY(shows(r.headline.args.at(3), with));
        QVERIFY(shows(r.headline.args.at(5), without));
    }

    void warmUpAgainstADivergedRun()
    {
        const std::string ws = newWorkspace();
        ExperimentSpec blowUp = textLessonOn("why_transformers_warm_up");
        blowUp.optimizer.lr = 1e15;  // the loss becomes NaN within steps
        blowUp.training.clipGradNorm = 0;
        const std::int64_t blownUp = train(blowUp, ws);
        RunReader reader(Workspace{ws});
        const RunInfo diverged = *reader.run(blownUp);
        QCOMPARE(int(diverged.status), int(RunStatus::Failed));
        QVERIFY2(diverged.message.id.starts_with("train.diverged_"), diverged.message.text.c_str());
        ExperimentSpec warm = blowUp;  // the same rate, of which 2 steps of a 10^18-step warm-up reach 2e-3
        warm.schedule.warmupSteps = 1000000000000000000;
        warm.schedule.warmupStartFactor = 1e-18;
        warm.training.maxSteps = 2;
        const std::int64_t warmRun = train(warm, ws);
        const LessonResult r = check("why_transformers_warm_up", blowUp, ws);
        QVERIFY2(r.passed, r.headline.text.c_str());
        QCOMPARE(QString::fromStdString(r.headline.id), QString("lesson.warmup.passed_diverged"));
        QCOMPARE(r.headline.args.at(1), std::to_string(warmRun));
        QCOMPARE(r.headline.args.at(4), std::to_string(diverged.id));
        QCOMPARE(r.headline.args.at(5), diverged.message.args.at(0));  // the step the trainer named
    }

    void makeItWrite()
    {
        const std::string ws = newWorkspace();
        ExperimentSpec shipped = textLessonOn("make_it_write");
        ExperimentSpec once = shipped;
        once.training.epochs = 1;
        const std::int64_t oneEpoch = train(once, ws);
        LessonResult r = check("make_it_write", shipped, ws);
        QVERIFY(!r.passed);
        QCOMPARE(QString::fromStdString(r.headline.id), QString("lesson.write.no_samples"));
        QCOMPARE(r.headline.args.at(0), std::to_string(oneEpoch));
        QCOMPARE(r.headline.args.at(3), std::string("1"));  // one epoch, one sample
        ExperimentSpec frozen = shipped;
        frozen.training.epochs = 2;
        frozen.optimizer.lr = 1e-7;
        const std::int64_t stuck = train(frozen, ws);
        r = check("make_it_write", shipped, ws);
        QVERIFY2(!r.passed, r.headline.text.c_str());
        QCOMPARE(QString::fromStdString(r.headline.id), QString("lesson.write.not_yet"));
        QCOMPARE(r.headline.args.at(0), std::to_string(stuck));
        ExperimentSpec writer = shipped;
        writer.training.epochs = 3;
        const std::int64_t good = train(writer, ws);
        r = check("make_it_write", shipped, ws);
        RunReader reader(Workspace{ws});
        const MetricSeries bpc = reader.metric(good, "val_bpc");
        QCOMPARE(bpc.values.size(), std::size_t(3));
        const double lowest = *std::min_element(bpc.values.begin(), bpc.values.end());
        qInfo("val_bpc by epoch: %.3f %.3f %.3f", bpc.values[0], bpc.values[1], bpc.values[2]);
        QVERIFY2(r.passed, r.headline.text.c_str());
        QCOMPARE(r.headline.args.at(0), std::to_string(good));
        QVERIFY(lowest <= lesson_goals::kWritingBpc);
        QVERIFY(shows(r.headline.args.at(2), lowest));
        QCOMPARE(r.headline.args.at(4), std::string("3"));
        // The details are its samples, one per epoch in order, as its log holds them.
        QCOMPARE(r.details.size(), std::size_t(3));
        for (std::size_t e = 0; e < r.details.size(); ++e) {
            QCOMPARE(QString::fromStdString(r.details[e].id), QString("train.text_sample"));
            QCOMPARE(r.details[e].args.at(0), std::to_string(e + 1));
        }
    }

    void progressIsKept()
    {
        const Workspace ws = Workspace::open(newWorkspace());
        QVERIFY(readLessonProgress(ws).empty());  // no database yet: no progress, nothing created
        QVERIFY(!std::filesystem::exists(ws.databasePath()));
        markLessonStarted(ws, "calibrate");
        std::vector<LessonProgress> p = readLessonProgress(ws);
        QCOMPARE(p.size(), std::size_t(1));
        const double started = p[0].started;
        QVERIFY(started > 0);
        QCOMPARE(p[0].passed, 0.0);
        const Message notYet = makeMessage(MessageId::LessonCalibrateNoEval, {"2"});
        recordLessonCheck(ws, "calibrate", false, notYet);
        markLessonStarted(ws, "calibrate");  // the first start is kept
        p = readLessonProgress(ws);
        QCOMPARE(p[0].started, started);
        QCOMPARE(p[0].passed, 0.0);
        QVERIFY(!p[0].lastPassed);
        QCOMPARE(p[0].lastResult, notYet);
        const Message passed = makeMessage(MessageId::LessonCalibratePassed, {"1", "1", "1.5", "0.1", "0.05", "0.4", "0.3"});
        recordLessonCheck(ws, "calibrate", true, passed);
        p = readLessonProgress(ws);
        const double passedAt = p[0].passed;
        QVERIFY(passedAt >= started);
        recordLessonCheck(ws, "calibrate", false, notYet);  // passing once is progress kept
        p = readLessonProgress(ws);
        QCOMPARE(p[0].passed, passedAt);
        QVERIFY(!p[0].lastPassed);
        // A check first, without a start: it counts as started then.
        recordLessonCheck(ws, "overfit_one_batch", true, passed);
        p = readLessonProgress(ws);
        QCOMPARE(p.size(), std::size_t(2));
        QVERIFY(p[1].started > 0 && p[1].passed > 0);
    }
};

QTEST_GUILESS_MAIN(TestLessons)
#include "tst_lessons.moc"

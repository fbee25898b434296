// The training diagnostics (train/diagnostics.h): each rule fires on a synthetic event stream
// made to provoke it, once, and stays silent on a healthy one: a synthetic healthy stream and
// the events of a real run (the shipped MLP, one epoch on 6,000 Fashion-MNIST images). Then a
// real provoked case through runJob and the store: learning rate 10 diverges, the run's log
// keeps diag.non_finite, and its action (lowerLearningRateJob: a fork of the last good
// checkpoint, or a new run when there is none, with optimizer.lr x0.1) trains to finite losses.
//
// Tolerances: the rules' thresholds are exact numbers (diagnostics.h); the synthetic streams
// sit well clear of them (a factor of 1.5 or more) so no rounding decides a case.
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>
#include <numeric>
#include <random>

#include "backend/backend.h"
#include "blob_dataset.h"
#include "data/subset_dataset.h"
#include "diverging_experiment.h"
#include "idx_files.h"
#include "io/yaml/experiment_yaml.h"
#include "jobs/diagnostic_actions.h"
#include "jobs/job.h"
#include "store/run_reader.h"
#include "store/workspace.h"
#include "train/diagnostics.h"
#include "train/run_control.h"

using namespace ts;
using namespace ts::test;

namespace {

const std::string kExperiments = std::string(TS_SOURCE_DIR) + "/experiments";
const std::string kFashion = "/usr/share/datasets/fashion-mnist";
constexpr double kMiB = 1024.0 * 1024.0;

StartedEvent started(std::int64_t stepsPerEpoch = 1000, std::int64_t firstStep = 0)
{
    StartedEvent s;
    s.stepsPerEpoch = stepsPerEpoch;
    s.firstStep = firstStep;
    s.totalSteps = firstStep + 10 * stepsPerEpoch;
    return s;
}

StepEvent step(std::int64_t n, double loss, double gradNorm = 1.0, double lr = 1e-3, double wait = 0.0005)
{
    StepEvent s;
    s.step = n;
    s.epoch = 1 + (n - 1) / 1000;
    s.loss = loss;
    s.gradNorm = gradNorm;
    s.lr = lr;
    s.dataWaitSeconds = wait;
    s.wallTime = 0.01 * double(n);  // 10 ms a step
    return s;
}

EpochEvent epoch(std::int64_t e, double trainLoss, double valLoss, double waitFraction = 0.05)
{
    EpochEvent ev;
    ev.epoch = e;
    ev.step = 1000 * e;
    ev.metrics = {{"train_loss", trainLoss}, {"val_loss", valLoss}, {"val_acc", 0.8}};
    ev.dataWaitFraction = waitFraction;
    return ev;
}

// A run that learns: the loss falls from 2.3 towards 0.3 with 5% noise, gradient norms near 1.5,
// validation loss falling, 5% of the time waiting for data.
std::vector<TrainEvent> healthyStream(std::int64_t steps = 400)
{
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> noise(-0.05, 0.05);
    std::vector<TrainEvent> events{started()};
    for (std::int64_t n = 1; n <= steps; ++n) {
        const double loss = (2.0 * std::exp(-double(n) / 50.0) + 0.3) * (1 + noise(rng));
        events.push_back(step(n, loss, 1.5 + 10 * noise(rng)));
    }
    return events;
}

ExperimentSpec mlpSpec() { return loadExperiment(kExperiments + "/fashion_mnist_mlp.yaml"); }

// Three post-norm Transformer blocks over 32 characters (19 of them), AdamW at a rate they
// cannot take cold (0.05: the second step's loss is a quarter above the first's, and the run
// ends near 2.5; with 60 steps of warm-up it ends near 0.8).
std::string transformerYaml(const std::string& textPath)
{
    return R"(name: warmup_test
dataset: {format: text, path: )" + textPath + R"(, tokenizer: characters, context: 32, validation_fraction: 0.1, loader: {num_workers: 0}}
model:
  nodes:
    - {name: embed, op: Embedding, inputs: [tokens], num_embeddings: 19, embedding_dim: 32}
    - {name: pos, op: PositionalEncoding, kind: learned, max_length: 32}
    - {name: b1_attn, op: MultiHeadAttention, inputs: [pos], heads: 2, causal: true}
    - {name: b1_add, op: Add, inputs: [b1_attn, pos]}
    - {name: b1_ln, op: LayerNorm}
    - {name: b1_fc1, op: Linear, out_features: 64}
    - {name: b1_gelu, op: GELU}
    - {name: b1_fc2, op: Linear, out_features: 32}
    - {name: b1_add2, op: Add, inputs: [b1_fc2, b1_ln]}
    - {name: b1_ln2, op: LayerNorm}
    - {name: b2_attn, op: MultiHeadAttention, inputs: [b1_ln2], heads: 2, causal: true}
    - {name: b2_add, op: Add, inputs: [b2_attn, b1_ln2]}
    - {name: b2_ln, op: LayerNorm}
    - {name: b2_fc1, op: Linear, out_features: 64}
    - {name: b2_gelu, op: GELU}
    - {name: b2_fc2, op: Linear, out_features: 32}
    - {name: b2_add2, op: Add, inputs: [b2_fc2, b2_ln]}
    - {name: b2_ln2, op: LayerNorm}
    - {name: b3_attn, op: MultiHeadAttention, inputs: [b2_ln2], heads: 2, causal: true}
    - {name: b3_add, op: Add, inputs: [b3_attn, b2_ln2]}
    - {name: b3_ln, op: LayerNorm}
    - {name: b3_fc1, op: Linear, out_features: 64}
    - {name: b3_gelu, op: GELU}
    - {name: b3_fc2, op: Linear, out_features: 32}
    - {name: b3_add2, op: Add, inputs: [b3_fc2, b3_ln]}
    - {name: b3_ln2, op: LayerNorm}
    - {name: head, op: Linear, out_features: 19}
    - {name: loss, op: CrossEntropy, inputs: [head, label]}
optimizer: {type: adamw, lr: 0.05, weight_decay: 0.01}
schedule: {type: cosine}
training: {epochs: 3, max_steps: 300, batch_size: 16, seed: 1, device: cpu, threads: 2}
)";
}

// The MLP's experiment with two attention nodes added: the rules read the model's ops only.
ExperimentSpec attentionSpec()
{
    ExperimentSpec spec = mlpSpec();
    spec.model.add("attn1", "MultiHeadAttention", {"x"}, {});
    spec.model.add("attn2", "MultiHeadAttention", {"attn1"}, {});
    return spec;
}

// The diagnostics that `events` raise, by rule id, each as often as it was raised.
std::vector<LogEvent> feed(Diagnostics& d, const std::vector<TrainEvent>& events)
{
    std::vector<LogEvent> out;
    for (const TrainEvent& e : events) {
        auto raised = d.observe(e);
        out.insert(out.end(), raised.begin(), raised.end());
    }
    return out;
}

std::vector<std::string> ids(const std::vector<LogEvent>& logs)
{
    std::vector<std::string> out;
    for (const LogEvent& l : logs) out.push_back(l.message.id);
    return out;
}

QString joined(const std::vector<std::string>& v)
{
    QStringList out;
    for (const auto& s : v) out << QString::fromStdString(s);
    return out.join(QStringLiteral(", "));
}

#define EXPECT_RULES(fired, ...) \
    QCOMPARE(joined(fired), joined(std::vector<std::string>{__VA_ARGS__}))

}  // namespace

class TestDiagnostics : public QObject {
    Q_OBJECT
private slots:
    void everyRuleHasItsMessageAndActions()
    {
        std::size_t diagMessages = 0;
        for (const MessageTemplate& t : messageTemplates())
            if (std::string(t.key).starts_with("diag.")) {
                ++diagMessages;
                const DiagnosticRule* rule = diagnosticRule(t.key);
                QVERIFY2(rule, t.key);
                QCOMPARE(rule->message, t.id);
            }
        QCOMPARE(diagMessages, diagnosticRules().size());
        QVERIFY(diagnosticRules().size() >= 15);
        QCOMPARE(std::string(diagnosticRule("diag.non_finite")->actions.front()), std::string("resume_lower_lr"));
        QVERIFY(diagnosticRule("diag.not_converging")->actions.size() == 6);  // the checklist's six lines
        QVERIFY(!diagnosticRule("train.paused"));
    }

    void healthySyntheticStreamIsSilent()
    {
        Diagnostics d(mlpSpec(), std::vector<std::int64_t>(10, 6000));
        auto events = healthyStream();
        for (std::int64_t e = 1; e <= 6; ++e) events.push_back(epoch(e, 1.0 / double(e), 1.1 / double(e)));
        QVERIFY(feed(d, events).empty());
        for (int e = 1; e <= 6; ++e) QVERIFY(d.observeMemory(e, AllocatorStats{std::size_t(100 * kMiB), std::size_t(120 * kMiB)}).empty());
        QVERIFY(d.fired().empty());
    }

    // --- NaN / inf -----------------------------------------------------------------------
    void nonFiniteLossInAStepFiresOnce()
    {
        Diagnostics d(mlpSpec());
        auto events = healthyStream(30);
        events.push_back(step(31, NAN));
        events.push_back(step(32, INFINITY));
        const auto logs = feed(d, events);
        EXPECT_RULES(ids(logs), "diag.non_finite");
        QCOMPARE(int(logs[0].level), int(LogEvent::Level::Error));
        QCOMPARE(logs[0].message.args.at(0), std::string("31"));
        QVERIFY2(logs[0].message.text.find("optimizer.lr 0.0001") != std::string::npos, logs[0].message.text.c_str());
    }

    void trainersDivergenceComesBeforeTheFinishedEvent()
    {
        // The real trainer: learning rate 1e6 on the blobs fails with train.diverged_*.
        ExperimentSpec spec = blobSpec();
        spec.optimizer.lr = 1e6;
        Diagnostics diagnostics(spec);
        Recorder rec;
        DiagnosticsListener listener(diagnostics, {&rec});
        Trainer trainer(spec, blobSplits(), cpuBackend());
        trainer.addListener(&listener);
        const FinishedEvent f = trainer.run();
        QCOMPARE(int(f.outcome), int(FinishedEvent::Outcome::Failed));
        QVERIFY2(f.message.id.starts_with("train.diverged_"), f.message.text.c_str());
        QCOMPARE(diagnostics.fired(), std::vector<std::string>{"diag.non_finite"});
        QVERIFY(rec.events.size() >= 2);
        QVERIFY(std::holds_alternative<FinishedEvent>(rec.events.back()));
        const auto* log = std::get_if<LogEvent>(&rec.events[rec.events.size() - 2]);
        QVERIFY(log && log->message.id == "diag.non_finite");
        QCOMPARE(log->message.args.at(0), f.message.args.at(0));  // the step that diverged
    }

    void skippedStepsFireAtTheThird()
    {
        ExperimentSpec spec = mlpSpec();
        spec.training.skipNonFiniteLoss = true;
        Diagnostics d(spec);
        const auto skip = [](int n) {
            return TrainEvent(LogEvent{LogEvent::Level::Warning,
                                       makeMessage(MessageId::TrainSkippedNanLoss, {std::to_string(n), "1", std::to_string(n)})});
        };
        QVERIFY(feed(d, {started(), skip(3), skip(9)}).empty());
        EXPECT_RULES(ids(feed(d, {skip(12), skip(13)})), "diag.non_finite");
    }

    // --- not converging ------------------------------------------------------------------
    void flatLossIsNotConverging()
    {
        std::vector<TrainEvent> events{started()};
        for (int n = 1; n <= 150; ++n) events.push_back(step(n, 2.30 + 0.01 * std::sin(n)));
        Diagnostics d(mlpSpec());
        const auto logs = feed(d, events);
        EXPECT_RULES(ids(logs), "diag.not_converging");
        QCOMPARE(logs[0].message.args.at(0), std::string("100"));  // checked once, after 100 steps
        // A resumed run continues from a low loss that need not fall: no checklist.
        events[0] = started(1000, 5000);
        Diagnostics resumed(mlpSpec());
        QVERIFY(feed(resumed, events).empty());
        // A short epoch is checked at its end (20 steps at least).
        events[0] = started(30);
        Diagnostics shortEpoch(mlpSpec());
        QCOMPARE(feed(shortEpoch, events).at(0).message.args.at(0), std::string("30"));
    }

    // --- rising / oscillating at a high learning rate -------------------------------------
    void risingLossAtAHighRate()
    {
        const auto stream = [](double lr) {
            std::vector<TrainEvent> events{started()};
            for (int n = 1; n <= 40; ++n) events.push_back(step(n, 2.3 - 0.045 * n, 1.0, lr));  // to 0.5
            for (int n = 41; n <= 80; ++n) events.push_back(step(n, 0.5 + 0.05 * (n - 40), 1.0, lr));  // to 2.5
            return events;
        };
        Diagnostics high(mlpSpec());
        const auto logs = feed(high, stream(0.05));
        EXPECT_RULES(ids(logs), "diag.loss_rising");
        QVERIFY(logs[0].message.text.find("high learning rate (0.05)") != std::string::npos);
        Diagnostics low(mlpSpec());
        QVERIFY(feed(low, stream(1e-3)).empty());  // the rule is about the rate
        // Near zero, noise that doubles a tiny loss is no rise (a real 400-epoch CSV run did this).
        std::vector<TrainEvent> tiny{started()};
        for (int n = 1; n <= 20; ++n) tiny.push_back(step(n, 1.0 - 0.045 * n, 1.0, 0.05));  // 1 -> 0.1
        for (int n = 21; n <= 60; ++n) tiny.push_back(step(n, 0.004 + 0.0001 * (n - 20), 1.0, 0.05));
        Diagnostics nearZero(mlpSpec());
        QVERIFY(feed(nearZero, tiny).empty());
    }

    void oscillatingLossAtAHighRate()
    {
        const auto stream = [](double lr) {
            std::vector<TrainEvent> events{started()};
            for (int n = 1; n <= 30; ++n) events.push_back(step(n, n % 2 ? 0.4 : 4.0, 1.0, lr));
            return events;
        };
        ExperimentSpec sgd = mlpSpec();
        sgd.optimizer.type = "sgd";
        Diagnostics high(sgd);
        EXPECT_RULES(ids(feed(high, stream(0.5))), "diag.loss_oscillating");
        Diagnostics low(sgd);
        QVERIFY(feed(low, stream(0.05)).empty());  // below SGD's high mark (0.1)
    }

    // --- gradient norm --------------------------------------------------------------------
    void gradientNormAboveTenPersistently()
    {
        const auto stream = [](int highOfEachTwenty) {
            std::vector<TrainEvent> events{started()};
            for (int n = 1; n <= 60; ++n) events.push_back(step(n, 2.0 - 0.02 * n, (n - 1) % 20 < highOfEachTwenty ? 25.0 : 2.0));
            return events;
        };
        Diagnostics often(mlpSpec());
        const auto logs = feed(often, stream(17));
        EXPECT_RULES(ids(logs), "diag.gradient_exploding");
        QCOMPARE(logs[0].message.args.at(1), std::string("20"));
        Diagnostics sometimes(mlpSpec());
        QVERIFY(feed(sometimes, stream(15)).empty());  // 15 of 20: not persistent
    }

    void vanishingGradientWhileTheLossStaysHigh()
    {
        std::vector<TrainEvent> stuck{started(30)};
        for (int n = 1; n <= 40; ++n) stuck.push_back(step(n, 2.3, 1e-7));
        Diagnostics d(mlpSpec());
        const auto fired = ids(feed(d, stuck));
        QVERIFY2(std::count(fired.begin(), fired.end(), "diag.gradient_vanishing") == 1, qPrintable(joined(fired)));
        // Tiny gradients once the loss is near zero are convergence, not vanishing.
        std::vector<TrainEvent> converged{started(30)};
        for (int n = 1; n <= 20; ++n) converged.push_back(step(n, 2.3 - 0.1 * n, 1.0));
        for (int n = 21; n <= 60; ++n) converged.push_back(step(n, 0.01, 1e-7));
        Diagnostics quiet(mlpSpec());
        QVERIFY(feed(quiet, converged).empty());
    }

    // --- overfitting ----------------------------------------------------------------------
    void validationLossRisingWhileTrainingLossFalls()
    {
        std::vector<TrainEvent> events{started()};
        const double val[] = {0.50, 0.45, 0.47, 0.50, 0.55};
        for (int e = 1; e <= 5; ++e) events.push_back(epoch(e, 0.6 / e, val[e - 1]));
        Diagnostics d(mlpSpec());
        const auto logs = feed(d, events);
        EXPECT_RULES(ids(logs), "diag.overfitting");
        QCOMPARE(logs[0].message.args.at(0), std::string("val_loss"));
        QCOMPARE(logs[0].message.args.at(6), std::string("2"));  // the best epoch
        // Two rises are not yet three; a training loss that rises too is no overfitting.
        Diagnostics twoRises(mlpSpec());
        QVERIFY(feed(twoRises, std::vector<TrainEvent>(events.begin(), events.end() - 1)).empty());
        std::vector<TrainEvent> bothRise{started()};
        for (int e = 1; e <= 5; ++e) bothRise.push_back(epoch(e, 0.1 * e, val[e - 1]));
        Diagnostics diverging(mlpSpec());
        QVERIFY(feed(diverging, bothRise).empty());
    }

    // --- the loader -----------------------------------------------------------------------
    void loaderStarvingTheTrainer()
    {
        std::vector<TrainEvent> slow{started()};
        for (int n = 1; n <= 80; ++n) slow.push_back(step(n, 2.0 - 0.01 * n, 1.0, 1e-3, 0.005));  // 5 of 10 ms
        Diagnostics d(mlpSpec());
        const auto logs = feed(d, slow);
        EXPECT_RULES(ids(logs), "diag.loader_starving");
        QCOMPARE(logs[0].message.args.at(0), std::string("50"));  // percent
        QCOMPARE(logs[0].message.args.at(1), std::string("2"));   // the MLP's num_workers
        Diagnostics byEpoch(mlpSpec());
        EXPECT_RULES(ids(feed(byEpoch, {started(), epoch(1, 0.5, 0.5, 0.45)})), "diag.loader_starving");
        Diagnostics fine(mlpSpec());
        QVERIFY(feed(fine, {started(), epoch(1, 0.5, 0.5, 0.2)}).empty());
    }

    // --- memory ---------------------------------------------------------------------------
    void allocatedMemoryGrowingAcrossEpochs()
    {
        Diagnostics d(mlpSpec());
        const double mib[] = {100, 120, 140, 160};
        std::vector<std::string> fired;
        for (int e = 0; e < 4; ++e)
            for (const LogEvent& l : d.observeMemory(e + 1, AllocatorStats{std::size_t(mib[e] * kMiB), std::size_t(200 * kMiB)}))
                fired.push_back(l.message.id);
        EXPECT_RULES(fired, "diag.memory_growing");
        Diagnostics steady(mlpSpec());
        for (int e = 1; e <= 6; ++e) QVERIFY(steady.observeMemory(e, AllocatorStats{std::size_t(100 * kMiB), std::size_t(150 * kMiB)}).empty());
        // Reserved far above a steady allocated: the cache, said once.
        Diagnostics cached(mlpSpec());
        const AllocatorStats fragmented{std::size_t(100 * kMiB), std::size_t(1024 * kMiB)};
        EXPECT_RULES(ids(cached.observeMemory(1, fragmented)), "diag.memory_fragmented");
        QVERIFY(cached.observeMemory(2, fragmented).empty());
    }

    // --- the model at the start -----------------------------------------------------------
    void batchNormWarningsAtTheStart()
    {
        ExperimentSpec spec = loadExperiment(kExperiments + "/fashion_mnist_cnn.yaml");
        Diagnostics shipped(spec);  // batch norm with batches of 128, no dropout before it
        QVERIFY(feed(shipped, {started()}).empty());

        spec.training.batchSize = 4;
        spec.training.accumulationSteps = 8;
        Diagnostics small(spec);
        EXPECT_RULES(ids(feed(small, {started()})), "diag.batchnorm_small_batch", "diag.batchnorm_accumulation");

        ExperimentSpec blob = blobSpec();  // Flatten, Linear, ReLU, ...: put dropout then batch norm in
        Graph& g = blob.model;
        g.nodes.insert(g.nodes.begin() + 1, Node{"drop", "Dropout", Attrs{{"p", 0.5}}, {g.nodes[0].name}});
        g.nodes.insert(g.nodes.begin() + 2, Node{"bn", "BatchNorm1d", {}, {"drop"}});
        g.nodes[3].inputs[0] = "bn";
        Diagnostics afterDropout(blob);
        const auto logs = feed(afterDropout, {started()});
        EXPECT_RULES(ids(logs), "diag.batchnorm_after_dropout");
        QCOMPARE(logs[0].message.args, (std::vector<std::string>{"bn", "drop"}));
    }

    void imbalancedClassesJudgedByAccuracy()
    {
        const std::vector<std::string> names{"a", "b", "c"};
        Diagnostics d(mlpSpec(), {6000, 6000, 500}, names);
        const auto logs = feed(d, {started()});
        EXPECT_RULES(ids(logs), "diag.imbalanced_accuracy");
        QCOMPARE(logs[0].message.args, (std::vector<std::string>{"12.0", "a", "6000", "c", "500", "val_acc"}));
        ExperimentSpec balanced = mlpSpec();
        balanced.dataset.sampler = "class_balanced";
        Diagnostics sampled(balanced, {6000, 6000, 500}, names);
        QVERIFY(feed(sampled, {started()}).empty());
        ExperimentSpec byLoss = mlpSpec();
        byLoss.training.checkpoint.metric = "val_loss";
        Diagnostics judgedByLoss(byLoss, {6000, 6000, 500}, names);
        QVERIFY(feed(judgedByLoss, {started()}).empty());
        // IDX readers declare ten classes: the empty ones are not "the smallest class".
        Diagnostics declared(mlpSpec(), {80, 70, 70, 0, 0, 0, 0, 0, 0, 0});
        QVERIFY(feed(declared, {started()}).empty());
    }

    // --- f16 loss scale ---------------------------------------------------------------------
    void lossScaleFallingSteadily()
    {
        const auto overflow = [](int stepNumber, double before, double after) {
            return TrainEvent(LogEvent{LogEvent::Level::Info, makeMessage(MessageId::TrainF16Overflow,
                                                                          {std::to_string(stepNumber), numberArg(before), numberArg(after)})});
        };
        ExperimentSpec spec = mlpSpec();
        spec.training.precision = "f16";
        // The scaler's first search (65536 -> 2048 in the first steps), then a fit: silent.
        std::vector<TrainEvent> search{started()};
        double scale = 65536;
        for (int n = 1; n <= 5; ++n, scale /= 2) search.push_back(overflow(n, scale, scale / 2));
        search.push_back(overflow(2500, 4096, 2048));  // grown once, overflowed back: no new low
        Diagnostics settled(spec);
        QVERIFY(feed(settled, search).empty());
        // Then four new lows after step 100.
        std::vector<TrainEvent> falling;
        for (int i = 0; i < 4; ++i, scale /= 2) falling.push_back(overflow(3000 + 500 * i, scale, scale / 2));
        const auto logs = feed(settled, falling);
        EXPECT_RULES(ids(logs), "diag.loss_scale_falling");
        QCOMPARE(logs[0].message.args.at(0), std::string("65536"));
        QCOMPARE(logs[0].message.args.at(1), std::string("128"));
    }

    // --- a real healthy run -----------------------------------------------------------------
    void realHealthyRunIsSilent()
    {
        if (!QFileInfo::exists(QString::fromStdString(kFashion + "/train-images-idx3-ubyte.gz")))
            QSKIP("Fashion-MNIST is not installed (apt-get install dataset-fashion-mnist)");
        QTemporaryDir cache;
        ExperimentSpec spec = mlpSpec();
        spec.training.epochs = 1;
        spec.training.device = "cpu";
        DatasetSplits full = openDataset(spec.dataset, kExperiments, cache.path().toStdString());
        std::vector<std::int64_t> first(6000), firstTest(1000);
        std::iota(first.begin(), first.end(), 0);
        std::iota(firstTest.begin(), firstTest.end(), 0);
        DatasetSplits splits = full;
        splits.train = std::make_shared<SubsetDataset>(full.train, first, "Fashion-MNIST train (first 6000)");
        splits.test = std::make_shared<SubsetDataset>(full.test, firstTest, "Fashion-MNIST test (first 1000)");
        Diagnostics diagnostics(spec, full.trainStatistics.classCounts, full.train->classNames());
        Recorder rec;
        DiagnosticsListener listener(diagnostics, {&rec}, &cpuBackend().allocator());
        Trainer trainer(spec, std::move(splits), cpuBackend());
        trainer.addListener(&listener);
        const FinishedEvent f = trainer.run();
        QCOMPARE(int(f.outcome), int(FinishedEvent::Outcome::Finished));
        const auto steps = rec.all<StepEvent>();
        QCOMPARE(std::int64_t(steps.size()), std::int64_t(6000 / 128));  // the ragged last batch is dropped
        QVERIFY(steps.back().loss < 0.6 * steps.front().loss);  // it learned
        const auto epochs = rec.all<EpochEvent>();
        qInfo("real MLP epoch: loss %.3f -> %.3f, data wait %.1f%%, test_acc %.3f", steps.front().loss,
              steps.back().loss, 100 * epochs.back().dataWaitFraction, f.metrics.at("test_acc"));
        QVERIFY2(diagnostics.fired().empty(), qPrintable(joined(diagnostics.fired())));
    }

    // --- Transformers without warm-up ---------------------------------------------------------
    void transformerJumpWithoutWarmupAdvisesWarmup()
    {
        // The healthy stream falls from about 2.3 to 0.5 by step 60; a loss of 3 at step 61 is
        // above the first window's mean (about 2.1) and 1.5x the best window's.
        std::vector<TrainEvent> events = healthyStream(60);
        events.push_back(step(61, 3.0));
        events.push_back(step(62, 3.2));
        Diagnostics d(attentionSpec());
        const auto logs = feed(d, events);
        EXPECT_RULES(ids(logs), "diag.transformer_warmup");
        const Message& m = logs[0].message;
        QCOMPARE(int(logs[0].level), int(LogEvent::Level::Warning));
        // step, of the run's 10,000, loss, lowest so far, lr, the attention nodes, the warm-up:
        // 5% of the run (500) is more than twice step 61.
        QCOMPARE(m.args.at(0), std::string("61"));
        QCOMPARE(m.args.at(1), std::string("10000"));
        QCOMPARE(m.args.at(2), std::string("3"));
        QCOMPARE(m.args.at(5), std::string("attn1, attn2"));
        QCOMPARE(m.args.at(6), std::string("500"));
        QVERIFY2(m.text.find("schedule.warmup_steps: 500") != std::string::npos, m.text.c_str());
        QCOMPARE(std::string(diagnosticRule("diag.transformer_warmup")->actions.front()), std::string("add_warmup"));

        // Silent with warm-up, without attention, for a resumed run, and past the first few hundred steps.
        ExperimentSpec warm = attentionSpec();
        warm.schedule.warmupSteps = 50;
        Diagnostics withWarmup(warm), plain(mlpSpec());
        QVERIFY(feed(withWarmup, events).empty());
        QVERIFY(feed(plain, events).empty());
        std::vector<TrainEvent> resumed = events;
        resumed.front() = started(1000, 1000);
        Diagnostics continued(attentionSpec());
        QVERIFY(feed(continued, resumed).empty());
        std::vector<TrainEvent> late = healthyStream(kWarmupHorizon + 10);
        late.push_back(step(kWarmupHorizon + 11, 3.0));
        Diagnostics later(attentionSpec());
        QVERIFY(feed(later, late).empty());
        // A healthy Transformer says nothing.
        Diagnostics healthy(attentionSpec());
        QVERIFY(feed(healthy, healthyStream()).empty());
        // One that blows up at once: a loss a quarter above the untrained model's (2.3 x 1.25 = 2.875).
        Diagnostics blowUp(attentionSpec());
        const auto early = feed(blowUp, {started(), step(1, 2.3), step(2, 2.8), step(3, 3.2), step(4, 5.0)});
        EXPECT_RULES(ids(early), "diag.transformer_warmup");
        QCOMPARE(early[0].message.args.at(0), std::string("3"));
        QCOMPARE(early[0].message.args.at(3), std::string("2.3"));  // the lowest so far
    }

    void transformerDivergingWithoutWarmupAdvisesWarmupToo()
    {
        auto events = healthyStream(30);
        events.push_back(step(31, NAN));
        Diagnostics d(attentionSpec());
        const auto logs = feed(d, events);
        EXPECT_RULES(ids(logs), "diag.non_finite", "diag.transformer_warmup");
        QCOMPARE(logs[1].message.args.at(0), std::string("31"));
        QCOMPARE(logs[1].message.args.at(2), std::string("nan"));
        // The trainer's own divergence (no step event for the failed step) advises it as well.
        Diagnostics failed(attentionSpec());
        feed(failed, {started()});
        FinishedEvent f;
        f.outcome = FinishedEvent::Outcome::Failed;
        f.message = makeMessage(MessageId::TrainDivergedInfiniteLoss, {"7", "1", "7", "0.01", "0.001", "10"});
        EXPECT_RULES(ids(failed.observe(f)), "diag.non_finite", "diag.transformer_warmup");
    }

    void suggestedWarmupIsAShareOfTheRun()
    {
        QCOMPARE(suggestedWarmupSteps(10000, 61), std::int64_t(500));  // 5%
        QCOMPARE(suggestedWarmupSteps(10000, 400), std::int64_t(800));  // past the breakdown
        QCOMPARE(suggestedWarmupSteps(2000, 10), std::int64_t(100));    // at least 100
        QCOMPARE(suggestedWarmupSteps(600, 100), std::int64_t(120));    // at most a fifth
        QCOMPARE(suggestedWarmupSteps(300, 10), std::int64_t(60));
        QCOMPARE(suggestedWarmupSteps(0, 80), std::int64_t(160));       // run length unknown
        QCOMPARE(suggestedWarmupSteps(3, 0), std::int64_t(1));
    }

    // --- the provoked case, through the job and the store ------------------------------------
    void learningRateTenGivesTheCardAndItsActionTrains()
    {
        QTemporaryDir dir;
        const std::string data = dir.filePath("data").toStdString(), workspace = dir.filePath("ws").toStdString();
        QVERIFY(QDir().mkpath(QString::fromStdString(data)));
        writeIdxPair(data, "train", 240, 1, 30.0);
        writeIdxPair(data, "t10k", 60, 2, 30.0);
        ExperimentSpec spec = test::divergingSpec(data);
        const JobEnvironment env{workspace, dir.filePath("cache").toStdString()};
        const Workspace ws = Workspace::open(workspace);
        RunControl control;

        // Learning rate 10 survives an epoch here (15 steps; seed 3) and then diverges: the card
        // is raised once, kept in the run's log, and its action forks the last good checkpoint.
        Recorder rec;
        const JobResult failed = runJob(TrainJob{spec}, env, control, rec);
        QCOMPARE(int(failed.finished.outcome), int(FinishedEvent::Outcome::Failed));
        const std::int64_t goodEpochs = std::int64_t(rec.all<EpochEvent>().size());
        QVERIFY2(goodEpochs >= 1, failed.finished.message.text.c_str());
        int raised = 0;
        for (const auto& l : rec.all<LogEvent>()) raised += l.message.id == "diag.non_finite";
        QCOMPARE(raised, 1);
        {
            RunReader reader(ws);
            int stored = 0;
            for (const LogLine& line : reader.logs(failed.runId)) stored += line.message.id == "diag.non_finite";
            QCOMPARE(stored, 1);  // in the run's log, once
        }
        const TrainJob fork = lowerLearningRateJob(ws, failed.runId);
        QCOMPARE(fork.fork, std::to_string(failed.runId));
        QCOMPARE(fork.overrides, std::vector<std::string>{"optimizer.lr=1"});
        Recorder forked;
        const JobResult forkResult = runJob(fork, env, control, forked);
        QVERIFY2(forkResult.finished.outcome == FinishedEvent::Outcome::Finished, forkResult.finished.message.text.c_str());
        const auto steps = forked.all<StepEvent>();
        QCOMPARE(std::int64_t(steps.size()), 15 * (4 - goodEpochs));  // from the last good epoch on
        QCOMPARE(steps.front().step, 15 * goodEpochs + 1);
        for (const auto& s : steps) {
            QCOMPARE(s.lr, 1.0);
            QVERIFY(std::isfinite(s.loss) && std::isfinite(s.gradNorm));
        }
        QVERIFY(std::isfinite(forkResult.finished.metrics.at("test_loss")));
        {
            RunReader reader(ws);
            QCOMPARE(reader.run(forkResult.runId)->parentRunId.value_or(-1), failed.runId);
        }

        // Without a checkpoint (only a final one, which a failure does not write) the action
        // trains the experiment anew at the lower rate.
        spec.training.checkpoint.everyEpochs = 0;
        Recorder unsaved;
        const JobResult lost = runJob(TrainJob{spec}, env, control, unsaved);
        QCOMPARE(int(lost.finished.outcome), int(FinishedEvent::Outcome::Failed));
        const TrainJob retry = lowerLearningRateJob(ws, lost.runId);
        QVERIFY(retry.fork.empty() && retry.experiment);
        QCOMPARE(retry.experiment->optimizer.lr, 1.0);
        Recorder retried;
        const JobResult fine = runJob(retry, env, control, retried);
        QCOMPARE(int(fine.finished.outcome), int(FinishedEvent::Outcome::Finished));
        QCOMPARE(retried.all<StepEvent>().size(), std::size_t(4 * 15));
        for (const auto& s : retried.all<StepEvent>()) QVERIFY(std::isfinite(s.loss));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, lowerLearningRateJob(ws, 999));
    }

    // A real Transformer (three post-norm blocks) on generated sentences, AdamW at a large rate:
    // without warm-up its loss jumps back up early and the card advises warm-up; its action
    // trains the experiment again with the suggested warm-up, which stays stable.
    void transformerWithoutWarmupGetsTheCardAndItsActionTrains()
    {
        QTemporaryDir dir;
        const std::string text = dir.filePath("sentences.txt").toStdString(), workspace = dir.filePath("ws").toStdString();
        {
            const char* words[] = {"the", "cat", "sat", "on", "a", "mat", "dog", "ran", "to", "red", "big", "old", "sun"};
            std::mt19937 rng(1);
            std::ofstream out(text);
            for (int i = 0; i < 3000; ++i) {
                const int n = 3 + int(rng() % 5);
                for (int w = 0; w < n; ++w) out << (w ? " " : "") << words[rng() % 13];
                out << ".\n";
            }
        }
        ExperimentSpec spec = parseExperiment(transformerYaml(text), "warm-up test");
        const JobEnvironment env{workspace, dir.filePath("cache").toStdString()};
        const Workspace ws = Workspace::open(workspace);
        RunControl control;

        Recorder cold;
        const JobResult broke = runJob(TrainJob{spec}, env, control, cold);
        std::vector<Message> advice;
        for (const auto& l : cold.all<LogEvent>())
            if (l.message.id == "diag.transformer_warmup") advice.push_back(l.message);
        QVERIFY2(advice.size() == 1, broke.finished.message.text.c_str());
        const std::int64_t brokeAt = std::stoll(advice[0].args.at(0));
        qInfo("without warm-up: %s", advice[0].text.c_str());
        QVERIFY(brokeAt <= kWarmupHorizon);
        const std::string suggested = advice[0].args.back();
        {
            RunReader reader(ws);
            int stored = 0;
            for (const LogLine& line : reader.logs(broke.runId)) stored += line.message.id == "diag.transformer_warmup";
            QCOMPARE(stored, 1);
        }

        const TrainJob again = warmupJob(ws, broke.runId);
        QVERIFY(again.fork.empty() && again.experiment);
        QCOMPARE(std::to_string(again.experiment->schedule.warmupSteps), suggested);
        QCOMPARE(again.experiment->optimizer.lr, spec.optimizer.lr);  // the same rate, warmed up
        Recorder warm;
        const JobResult fine = runJob(again, env, control, warm);
        QVERIFY2(fine.finished.outcome == FinishedEvent::Outcome::Finished, fine.finished.message.text.c_str());
        for (const auto& l : warm.all<LogEvent>()) QVERIFY2(!isDiagnostic(l.message), l.message.text.c_str());
        const auto steps = warm.all<StepEvent>();
        for (const auto& s : steps) QVERIFY(std::isfinite(s.loss));
        QVERIFY(steps.back().loss < 0.6 * steps.front().loss);
        // Warm-up, not the rule's switch, kept it quiet: its losses judged as if there were no
        // warm-up do not jump either.
        Diagnostics judged(spec);
        std::vector<TrainEvent> events;
        for (const TrainEvent& e : warm.events)
            if (!std::holds_alternative<LogEvent>(e)) events.push_back(e);
        QVERIFY2(feed(judged, events).empty(), qPrintable(joined(judged.fired())));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, warmupJob(ws, fine.runId));  // no advice in its log
    }
};

QTEST_GUILESS_MAIN(TestDiagnostics)
#include "tst_diagnostics.moc"

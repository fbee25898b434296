// Sweeps: the `sweep:` section (reading with line:column problems, writing back), the trials
// (grid order, seeded random draws, conditions), and the runner against a real workspace and
// the real CSV reader (experiments/data/wine_like.csv, 240 training rows: 15 steps of 16 an
// epoch): memory skips, successive halving (the kept trials are the best 1/eta by the metric
// the store holds, and a trial paused at rungs and resumed trains exactly as one uninterrupted
// run) and continuation after a stop.
//
// Tolerances: none. Losses, learning rates and metrics of resumed runs are compared with ==
// (CPU backend: bit-identical by design, ARCHITECTURE.md, Determinism); the log-uniform check
// is statistical: 400 draws, the fraction below the geometric mean within 0.5 +- 0.1 (about 4
// standard deviations).
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "io/yaml/experiment_yaml.h"
#include "jobs/sweep_runner.h"
#include "store/run_reader.h"
#include "train/run_control.h"

using namespace ts;

namespace {

const std::string kCsv = std::string(TS_SOURCE_DIR) + "/experiments/data/wine_like.csv";

// A small MLP on the wine-like table, with every random stream in play (dropout, shuffling,
// Adam or SGD momentum) and a schedule that depends on training.epochs (cosine + warm-up).
std::string baseYaml()
{
    return "name: tab\n"
           "dataset:\n"
           "  format: csv\n"
           "  path: " + kCsv + "\n"
           "  label_column: cultivar\n"
           "  feature_columns: [alcohol, malic_acid, color_intensity, hue, proline]\n"
           "  group_column: vineyard\n"
           "  validation_fraction: 0.2\n"
           "  normalize: {from_statistics: true}\n"
           "  loader: {num_workers: 0}\n"
           "model:\n"
           "  layers:\n"
           "    - Linear: {out_features: 16}\n"
           "    - ReLU\n"
           "    - Dropout: {p: 0.1}\n"
           "    - Linear: {out_features: 3}\n"
           "    - CrossEntropy\n"
           "optimizer: {type: adam, lr: 0.003}\n"
           "schedule: {type: cosine, warmup_steps: 3}\n"
           "training: {epochs: 4, batch_size: 16, seed: 1, device: cpu}\n";
}

// 6 trials: two rates, each with sgd at momentum 0 or 0.9, or adam (which has no momentum).
const char* kHalvingSweep = "sweep:\n"
                            "  metric: val_loss\n"
                            "  parameters:\n"
                            "    optimizer.lr: {values: [0.001, 0.01]}\n"
                            "    optimizer.type: {choices: [sgd, adam]}\n"
                            "    optimizer.momentum: {values: [0.0, 0.9], when: {optimizer.type: sgd}}\n"
                            "  halving: {min_epochs: 1, eta: 2}\n";

ExperimentSpec parse(const std::string& sweep, const std::vector<std::string>& overrides = {})
{
    return parseExperimentWithOverrides(baseYaml() + sweep, "sweep.yaml", overrides);
}

ExperimentError expectError(const std::string& sweep, const std::vector<std::string>& overrides = {})
{
    try {
        parse(sweep, overrides);
    } catch (const ExperimentError& e) {
        return e;
    }
    throw std::runtime_error("accepted an invalid sweep:\n" + sweep);
}

// The 1-based line and column of `token` in the first line of the file that contains `line`.
std::pair<int, int> placeOf(const std::string& text, const std::string& line, const std::string& token)
{
    std::istringstream in(text);
    std::string l;
    for (int n = 1; std::getline(in, l); ++n)
        if (l.find(line) != std::string::npos) return {n, int(l.find(token, l.find(line))) + 1};
    return {0, 0};
}

struct Events : SweepListener, TrainListener {
    std::vector<SweepEvent> sweep;
    void onSweepEvent(const SweepEvent& e) override { sweep.push_back(e); }
    void onEvent(const TrainEvent&) override {}
};

// Stops the sweep at step `step` of the `nth` training run it starts.
struct StopMidTrial : TrainListener {
    RunControl* control = nullptr;
    int nth = 0, started = 0;
    std::int64_t step = 0;
    void onEvent(const TrainEvent& e) override
    {
        if (std::holds_alternative<StartedEvent>(e)) ++started;
        if (auto* s = std::get_if<StepEvent>(&e); s && started == nth && s->step == step) control->stop();
    }
};

SweepResult sweepIn(const std::string& workspace, const ExperimentSpec& spec, TrainListener* trialListener = nullptr,
                    RunControl* control = nullptr)
{
    Events events;
    RunControl own;
    JobEnvironment env;
    env.workspaceDir = workspace;
    env.systemSampleSeconds = 0;
    return runSweep(SweepJob{spec, ""}, env, control ? *control : own, trialListener ? *trialListener : events, events);
}

// A trial's runs in the store, oldest first (found by its tags, as the runner finds them).
std::vector<std::int64_t> trialRuns(const std::string& workspace, const std::string& id, int trial)
{
    RunReader reader(Workspace{workspace});
    std::vector<std::int64_t> runs;
    const std::vector<std::string> tags = sweepTrialTags(id, trial);
    for (const RunListing& l : reader.listRuns())
        if (std::all_of(tags.begin(), tags.end(), [&](const std::string& t) {
                return std::find(l.run.tags.begin(), l.run.tags.end(), t) != l.run.tags.end();
            }))
            runs.push_back(l.run.id);
    std::sort(runs.begin(), runs.end());
    return runs;
}

// A metric over several runs by step (a later run's point wins).
std::map<std::int64_t, double> series(const std::string& workspace, const std::vector<std::int64_t>& runs, const std::string& name)
{
    RunReader reader(Workspace{workspace});
    std::map<std::int64_t, double> out;
    for (std::int64_t run : runs) {
        const MetricSeries s = reader.metric(run, name);
        for (std::size_t i = 0; i < s.steps.size(); ++i) out[s.steps[i]] = s.values[i];
    }
    return out;
}

}  // namespace

class TestSweep : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    std::string halvingWorkspace_;
    SweepResult halving_;  // the 6-trial halving sweep, uninterrupted

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        halvingWorkspace_ = dir_.filePath("halving").toStdString();
        halving_ = sweepIn(halvingWorkspace_, parse(kHalvingSweep));
        QVERIFY2(halving_.outcome == FinishedEvent::Outcome::Finished, halving_.message.text.c_str());
    }

    void gridIsTheProductInOrder()
    {
        const ExperimentSpec spec = parse("sweep:\n"
                                          "  parameters:\n"
                                          "    optimizer.lr: {values: [1e-4, 3e-4, 1e-3, 3e-3]}\n"
                                          "    optimizer.weight_decay: {log_uniform: [1e-5, 1e-2], count: 4}\n");
        const std::vector<SweepTrial> trials = sweepTrials(*spec.sweep);
        const std::vector<std::string> lr = {"1e-4", "3e-4", "1e-3", "3e-3"}, wd = {"1e-05", "0.0001", "0.001", "0.01"};
        QCOMPARE(trials.size(), std::size_t(16));
        for (std::size_t i = 0; i < 16; ++i) {
            QCOMPARE(trials[i].number, int(i + 1));
            const std::vector<std::pair<std::string, std::string>> expected = {{"optimizer.lr", lr[i / 4]},
                                                                               {"optimizer.weight_decay", wd[i % 4]}};
            QCOMPARE(trials[i].values, expected);
        }
        QCOMPARE(trials[5].overrides(), (std::vector<std::string>{"optimizer.lr=3e-4", "optimizer.weight_decay=0.0001"}));

        // A smaller budget keeps that many points of the grid, chosen by the seed, in grid order.
        ExperimentSpec some = spec;
        some.sweep->budget = 5;
        const std::vector<SweepTrial> kept = sweepTrials(*some.sweep);
        QCOMPARE(kept.size(), std::size_t(5));
        QCOMPARE(sweepTrials(*some.sweep), kept);
        std::size_t last = 0;
        for (std::size_t i = 0; i < kept.size(); ++i) {
            const auto at = std::find_if(trials.begin(), trials.end(), [&](const SweepTrial& t) { return t.values == kept[i].values; });
            QVERIFY(at != trials.end());
            const std::size_t index = std::size_t(at - trials.begin());
            QVERIFY(i == 0 || index > last);
            last = index;
        }
        some.sweep->seed = 1;
        QVERIFY(sweepTrials(*some.sweep) != kept);
    }

    void randomIsReproducibleWithTheSeed()
    {
        const std::string sweep = "sweep:\n"
                                  "  method: random\n"
                                  "  budget: 400\n"
                                  "  seed: 7\n"
                                  "  parameters:\n"
                                  "    optimizer.lr: {log_uniform: [1e-5, 1e-1]}\n"
                                  "    training.batch_size: {uniform: [8, 64], integer: true}\n"
                                  "    optimizer.type: {choices: [adam, adamw]}\n";
        const ExperimentSpec spec = parse(sweep);
        const std::vector<SweepTrial> trials = sweepTrials(*spec.sweep);
        QCOMPARE(trials.size(), std::size_t(400));
        QCOMPARE(sweepTrials(*parse(sweep).sweep), trials);  // read again: the same draws
        ExperimentSpec other = spec;
        other.sweep->seed = 8;
        QVERIFY(sweepTrials(*other.sweep) != trials);
        int below = 0;
        std::set<std::string> types;
        for (const SweepTrial& t : trials) {
            QCOMPARE(t.values.size(), std::size_t(3));
            const double lr = std::stod(t.values[0].second);
            QVERIFY(lr >= 1e-5 && lr <= 1e-1);
            below += lr < 1e-3;  // the geometric mean of the range
            const std::string& batch = t.values[1].second;
            QVERIFY2(batch.find_first_not_of("0123456789") == std::string::npos, batch.c_str());
            QVERIFY(std::stoi(batch) >= 8 && std::stoi(batch) <= 64);
            types.insert(t.values[2].second);
        }
        QVERIFY2(std::abs(below / 400.0 - 0.5) < 0.1, qPrintable(QString::number(below)));
        QCOMPARE(types, (std::set<std::string>{"adam", "adamw"}));
    }

    void conditionsDropParameters()
    {
        // momentum only for sgd, nesterov only with momentum 0.9 (a chain): adam's configurations
        // coincide once momentum and nesterov are dropped, and are kept once.
        const ExperimentSpec spec = parse("sweep:\n"
                                          "  parameters:\n"
                                          "    optimizer.type: {choices: [sgd, adam]}\n"
                                          "    optimizer.momentum: {values: [0, 0.9], when: {optimizer.type: sgd}}\n"
                                          "    optimizer.nesterov: {values: [false, true], when: {optimizer.momentum: 0.9}}\n");
        const std::vector<SweepTrial> trials = sweepTrials(*spec.sweep);
        const std::vector<std::string> expected = {
            "optimizer.type=sgd optimizer.momentum=0",
            "optimizer.type=sgd optimizer.momentum=0.9 optimizer.nesterov=false",
            "optimizer.type=sgd optimizer.momentum=0.9 optimizer.nesterov=true",
            "optimizer.type=adam",
        };
        QCOMPARE(trials.size(), expected.size());
        for (std::size_t i = 0; i < trials.size(); ++i) QCOMPARE(trials[i].text(), expected[i]);

        ExperimentSpec random = spec;
        random.sweep->method = "random";
        random.sweep->budget = 50;
        for (const SweepTrial& t : sweepTrials(*random.sweep)) {  // the space holds the same 4
            QVERIFY2(std::find(expected.begin(), expected.end(), t.text()) != expected.end(), t.text().c_str());
            const bool sgd = t.values[0].second == "sgd";
            QCOMPARE(t.text().find("momentum") != std::string::npos, sgd);
        }
        QCOMPARE(sweepTrials(*random.sweep).size(), expected.size());
    }

    void savedAndLoadedBack()
    {
        const ExperimentSpec spec = parse("sweep:\n"
                                          "  method: random\n"
                                          "  budget: 12\n"
                                          "  seed: 3\n"
                                          "  metric: val_loss\n"
                                          "  parameters:\n"
                                          "    optimizer.lr: [1e-4, 1e-3]\n"
                                          "    optimizer.type: {choices: [sgd, rmsprop, adamw]}\n"
                                          "    optimizer.weight_decay: {log_uniform: [1e-5, 0.1], count: 5}\n"
                                          "    optimizer.momentum: {uniform: [0.8, 0.99], when: {optimizer.type: [sgd, rmsprop]}}\n"
                                          "    training.batch_size: {uniform: [8, 64], integer: true}\n"
                                          "  halving: {}\n");
        QVERIFY(spec.sweep);
        QCOMPARE(spec.sweep->parameters.size(), std::size_t(5));
        QCOMPARE(spec.sweep->parameters[3].when.front().second, (std::vector<std::string>{"sgd", "rmsprop"}));
        QCOMPARE(spec.sweep->halving->eta, std::int64_t(3));
        const std::string text = experimentToYaml(spec);
        QVERIFY2(text.find("optimizer.lr: {values: [1e-4, 1e-3]}") != std::string::npos, text.c_str());
        QVERIFY(parseExperiment(text, "sweep.yaml") == spec);
        QVERIFY(!parseExperiment(baseYaml(), "plain.yaml").sweep);
    }

    void badInputNamesLineAndColumn_data()
    {
        QTest::addColumn<QString>("sweep");
        QTest::addColumn<QString>("line");   // a text on the line at fault
        QTest::addColumn<QString>("token");  // where on it
        QTest::addColumn<QString>("message");
        auto add = [](const char* name, const std::string& params, const char* line, const char* token, const char* message,
                      const std::string& head = "") {
            QTest::newRow(name) << QString::fromStdString("sweep:\n" + head + "  metric: val_loss\n  parameters:\n" + params)
                                << line << token << message;
        };
        add("min > max", "    optimizer.momentum: {uniform: [0.99, 0.8]}\n", "momentum", "[",
            "uniform: min 0.99 is greater than max 0.8");
        add("log range at 0", "    optimizer.weight_decay: {log_uniform: [0, 0.1], count: 3}\n", "weight_decay", "[",
            "log_uniform: a log range must lie above 0, got [0.0, 0.1]");
        add("log range below 0", "    optimizer.weight_decay: {log_uniform: [-1e-3, 0.1], count: 3}\n", "weight_decay", "[",
            "log_uniform: a log range must lie above 0");
        add("condition on an unknown parameter",
            "    optimizer.type: {choices: [sgd, adam]}\n    optimizer.momentum: {values: [0.9], when: {optimizer.typ: sgd}}\n",
            "momentum", "optimizer.typ:", "when: 'optimizer.typ' is not a parameter of this sweep (did you mean 'optimizer.type'?)");
        add("condition on a value never taken",
            "    optimizer.type: {choices: [sgd, adam]}\n    optimizer.momentum: {values: [0.9], when: {optimizer.type: sdg}}\n",
            "momentum", "optimizer.type:", "when: optimizer.type never takes 'sdg' (did you mean 'sgd'?)");
        add("not an experiment option", "    optimizer.lrr: {values: [0.001]}\n", "optimizer.lrr", "optimizer.lrr",
            "sweep parameter optimizer.lrr: unknown key 'lrr' in optimizer (did you mean 'lr'?)");
        add("a value of the wrong type", "    optimizer.lr: {values: [0.001, fast]}\n", "optimizer.lr", "fast",
            "sweep parameter optimizer.lr, value fast: lr: expected a number, got 'fast'");
        add("a value out of range", "    optimizer.lr: [0.001, -1]\n", "optimizer.lr", "-1",
            "sweep parameter optimizer.lr, value -1: lr: must be > 0");
        add("budget 0", "    optimizer.lr: [0.001]\n", "budget", "0", "budget: must be >= 1, got '0'", "  budget: 0\n");
        add("eta below 2", "    optimizer.lr: [0.001]\n  halving: {min_epochs: 1, eta: 1}\n", "halving", "1}",
            "eta: must be >= 2, got '1'");
        add("min_epochs leaves no rung", "    optimizer.lr: [0.001]\n  halving: {min_epochs: 4}\n", "halving", "4",
            "halving: min_epochs 4 leaves no rung before training.epochs 4");
        add("empty parameters", "", "parameters", "parameters", "sweep: parameters is empty");
        add("random without budget", "    optimizer.lr: [0.001]\n", "random", "random",
            "sweep: random search needs budget: N", "  method: random\n");
        add("grid range without count", "    optimizer.weight_decay: {log_uniform: [1e-5, 1e-2]}\n", "optimizer.weight_decay",
            "optimizer", "sweep parameter optimizer.weight_decay: a grid takes points: add count: N (N log-spaced");
        add("no way to give values", "    optimizer.lr: {count: 3}\n", "optimizer.lr", "optimizer",
            "sweep parameter optimizer.lr: give one of values, choices, uniform or log_uniform");
        add("unknown sweep key", "    optimizer.lr: [0.001]\n", "budjet", "budjet", "unknown key 'budjet' in sweep (did you mean 'budget'?)",
            "  budjet: 4\n");
    }

    void badInputNamesLineAndColumn()
    {
        QFETCH(QString, sweep);
        QFETCH(QString, line);
        QFETCH(QString, token);
        QFETCH(QString, message);
        const std::string text = sweep.toStdString();
        const ExperimentError e = expectError(text);
        QCOMPARE(e.issues().size(), std::size_t(1));
        QVERIFY2(e.message().find(message.toStdString()) != std::string::npos, e.what());
        const auto [lineNo, column] = placeOf(baseYaml() + text, line.toStdString(), token.toStdString());
        QCOMPARE((std::pair(e.line(), e.column())), (std::pair(lineNo, column)));
        QVERIFY2(std::string(e.what()).starts_with("sweep.yaml:" + std::to_string(lineNo) + ":" + std::to_string(column) + ": "),
                 e.what());
    }

    void rankingByValidationNeedsValidation()
    {
        const std::string sweep = "sweep:\n  parameters:\n    optimizer.lr: [0.001]\n";
        const ExperimentError e = expectError(sweep, {"dataset.validation_fraction=0"});
        QVERIFY2(e.message().find("ranked by val_acc, and dataset.validation_fraction is 0") != std::string::npos, e.what());
        QCOMPARE(e.line(), placeOf(baseYaml() + sweep, "  parameters:", "p").first);
        QVERIFY(parse("sweep:\n  metric: test_acc\n  parameters:\n    optimizer.lr: [0.001]\n", {"dataset.validation_fraction=0"}).sweep);
    }

    void skipsWhatDoesNotFitInMemory()
    {
        // Batch 10^11 plans terabytes of activations: more than any machine's RAM.
        const ExperimentSpec spec = parse("sweep:\n  metric: val_loss\n  parameters:\n"
                                          "    training.batch_size: [16, 100000000000]\n",
                                          {"training.epochs=1"});
        const std::string workspace = dir_.filePath("memory").toStdString();
        const SweepResult r = sweepIn(workspace, spec);
        QVERIFY2(r.outcome == FinishedEvent::Outcome::Finished, r.message.text.c_str());
        QCOMPARE(r.trials.size(), std::size_t(2));
        QCOMPARE(int(r.trials[0].state), int(SweepTrialResult::State::Finished));
        QCOMPARE(int(r.trials[1].state), int(SweepTrialResult::State::Skipped));
        QCOMPARE(r.trials[1].reason.id, std::string("sweep.trial_skipped_memory"));
        QVERIFY2(r.trials[1].reason.text.find("more than the") != std::string::npos &&
                     r.trials[1].reason.text.find("this machine's RAM") != std::string::npos,
                 r.trials[1].reason.text.c_str());
        QVERIFY(r.trials[1].plannedBytes > std::size_t(1) << 40);
        QVERIFY(r.trials[0].plannedBytes < std::size_t(1) << 30);
        QCOMPARE(r.best, 1);
        QVERIFY(trialRuns(workspace, r.id, 2).empty());  // never started
        QCOMPARE(trialRuns(workspace, r.id, 1).size(), std::size_t(1));
    }

    void halvingKeepsTheBestAndResumesExactly()
    {
        const SweepResult& r = halving_;
        QCOMPARE(r.rungs, (std::vector<std::int64_t>{1, 2, 4}));
        QCOMPARE(r.trials.size(), std::size_t(6));
        // The store's own numbers, read here: val_loss after epoch 1 (step 15) and 2 (step 30).
        std::map<int, std::map<std::int64_t, double>> loss;
        for (int k = 1; k <= 6; ++k) loss[k] = series(halvingWorkspace_, trialRuns(halvingWorkspace_, r.id, k), "val_loss");
        auto best = [&](std::vector<int> trials, std::int64_t step, std::size_t keep) {
            std::stable_sort(trials.begin(), trials.end(), [&](int a, int b) { return loss[a].at(step) < loss[b].at(step); });
            trials.resize(keep);
            std::sort(trials.begin(), trials.end());
            return trials;
        };
        const std::vector<int> second = best({1, 2, 3, 4, 5, 6}, 15, 3), third = best(second, 30, 1);
        for (int k = 1; k <= 6; ++k) {
            const SweepTrialResult& t = r.trials[std::size_t(k - 1)];
            const bool kept2 = std::count(second.begin(), second.end(), k) > 0, kept3 = std::count(third.begin(), third.end(), k) > 0;
            QCOMPARE(t.epochs, kept3 ? std::int64_t(4) : kept2 ? std::int64_t(2) : std::int64_t(1));
            QCOMPARE(int(t.state), int(kept3 ? SweepTrialResult::State::Finished : SweepTrialResult::State::Paused));
            QCOMPARE(t.runs.size(), std::size_t(kept3 ? 3 : kept2 ? 2 : 1));  // one run per rung: paused, then resumed
        }
        QCOMPARE(r.best, third.front());
        QCOMPARE(r.trainingJobs, std::int64_t(6 + 3 + 1));

        // The winner paused after epochs 1 and 2 and resumed twice, against one uninterrupted
        // run of its configuration: every step's loss and learning rate, every epoch's metrics.
        const SweepTrialResult& winner = r.trials[std::size_t(r.best - 1)];
        const std::string plain = dir_.filePath("plain").toStdString();
        TrainJob job;
        job.experiment = parseExperimentWithOverrides(baseYaml(), "sweep.yaml", winner.trial.overrides());
        JobEnvironment env;
        env.workspaceDir = plain;
        env.systemSampleSeconds = 0;
        Events quiet;
        RunControl control;
        const JobResult once = runJob(job, env, control, quiet);
        QCOMPARE(int(once.finished.outcome), int(FinishedEvent::Outcome::Finished));
        for (const char* name : {"loss", "lr", "grad_norm", "val_loss", "val_acc", "train_loss"}) {
            const auto paused = series(halvingWorkspace_, winner.runs, name), straight = series(plain, {once.runId}, name);
            QCOMPARE(straight.size(), std::size_t(std::string(name) == "loss" || std::string(name) == "lr" ||
                                                          std::string(name) == "grad_norm"
                                                      ? 60
                                                      : 4));
            QVERIFY2(paused == straight, name);
        }
    }

    void continuesAfterAStop()
    {
        // Stopped at step 7 of the third trial's run (mid-epoch), then run again.
        const ExperimentSpec spec = parse(kHalvingSweep);
        const std::string workspace = dir_.filePath("stopped").toStdString();
        RunControl control;
        StopMidTrial stop;
        stop.control = &control;
        stop.nth = 3;
        stop.step = 7;
        const SweepResult first = sweepIn(workspace, spec, &stop, &control);
        QCOMPARE(int(first.outcome), int(FinishedEvent::Outcome::Stopped));
        QCOMPARE(first.message.id, std::string("sweep.stopped"));
        QCOMPARE(first.trainingJobs, std::int64_t(3));

        const SweepResult second = sweepIn(workspace, spec);
        QVERIFY2(second.outcome == FinishedEvent::Outcome::Finished, second.message.text.c_str());
        QCOMPARE(second.trainingJobs, halving_.trainingJobs - 2);  // trials 1 and 2 were not trained again
        QCOMPARE(second.best, halving_.best);
        for (int k = 1; k <= 6; ++k) {
            const std::vector<std::int64_t> runs = trialRuns(workspace, second.id, k);
            const std::size_t uninterrupted = halving_.trials[std::size_t(k - 1)].runs.size();
            QCOMPARE(runs.size(), uninterrupted + (k == 3 ? 1 : 0));  // the stopped run, then its resume
            for (const char* name : {"loss", "val_loss"})
                QVERIFY2(series(workspace, runs, name) == series(halvingWorkspace_, halving_.trials[std::size_t(k - 1)].runs, name),
                         qPrintable(QString("trial %1 %2").arg(k).arg(name)));
        }
    }
};

QTEST_GUILESS_MAIN(TestSweep)
#include "tst_sweep.moc"

// bench_studio_epoch: is the studio as fast as the CLI (issue 39)? One epoch of the shipped CNN
// (experiments/fashion_mnist_cnn.yaml) trained through the studio's real path (an
// ExperimentDocument, a shown Train page with its charts, its TrainingSession; offscreen) and
// through the real `trainstudio-cli train` process, alternately, each round in a fresh
// temporary workspace that records the run. It prints each round, both medians and their ratio.
//
//   bench_studio_epoch [--rounds 3] [--samples N]
//
// --samples N trains on the first N training images (and N/6 test images) of Fashion-MNIST,
// copied to a scratch folder: ctest's short form, only to prove the bench works.
//
// What is timed: the epoch's training seconds as the trainer itself reports them (EpochEvent:
// the epoch's steps, pauses left out), which the studio receives as epochFinished and the CLI
// prints with --json. The same clock in the same engine code for both, so process start-up,
// dataset loading, the test-split evaluation and the store's last commit (which differ in kind
// between a process and a page, and are not what the issue measured) stay out of both.
// A benchmark, not a test: it fails (exit 1) only when a run does not finish, never on a time.
#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QThread>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "bench_timing.h"
#include "data/data_files.h"
#include "io/yaml/shipped_experiments.h"
#include "scratch_home.h"
#include "ui/experiment_document.h"
#include "ui/train/train_page.h"
#include "ui/train/training_session.h"

using namespace ts;
using namespace ts::ui;

namespace {

constexpr const char* kFashion = "/usr/share/datasets/fashion-mnist";

struct Epoch {
    double seconds = 0;       // the trainer's epoch time
    double uiCpuSeconds = 0;  // the studio's UI thread meanwhile (studio only)
    double fewerThreadsSeconds = 0;  // of the run, on fewer CPU threads than cores
    int threadChanges = 0;
};

// The CPU thread governor's choices, from its log lines ("CPU threads now N", English: the
// bench installs no translator): how long a run computed on fewer threads than there are cores,
// that is, how long the governor took something for other programs' load.
class ThreadTrace {
public:
    ThreadTrace() { m_clock.start(); }
    void onLog(const QString& text)
    {
        static const QRegularExpression changed(QStringLiteral("CPU threads now (\\d+)"));
        const QRegularExpressionMatch m = changed.match(text);
        if (!m.hasMatch()) return;
        account();
        m_threads = m.captured(1).toInt();
        ++m_changes;
    }
    void finish(Epoch& e)
    {
        account();
        e.fewerThreadsSeconds = m_fewer;
        e.threadChanges = m_changes;
    }

private:
    void account()
    {
        const double now = double(m_clock.nsecsElapsed()) / 1e9;
        if (m_threads < QThread::idealThreadCount()) m_fewer += now - m_since;
        m_since = now;
    }
    QElapsedTimer m_clock;
    int m_threads = QThread::idealThreadCount(), m_changes = 0;
    double m_since = 0, m_fewer = 0;
};

// Copies the first `count` records of a gzipped IDX file, its header's count adjusted, to `out`.
bool copyIdxHead(const QString& in, const QString& out, long count)
{
    std::vector<std::uint8_t> bytes = readFileBytes(in.toStdString(), 16);
    const std::size_t header = 4 + 4 * std::size_t(bytes.size() >= 4 ? bytes[3] : 0);
    std::size_t record = 1;
    for (std::size_t d = 8; d + 4 <= header && d + 4 <= bytes.size(); d += 4)  // dimensions after the count
        record *= std::size_t(bytes[d]) << 24 | std::size_t(bytes[d + 1]) << 16 | std::size_t(bytes[d + 2]) << 8 | bytes[d + 3];
    bytes = readFileBytes(in.toStdString(), header + record * std::size_t(count));
    if (bytes.size() != header + record * std::size_t(count)) return false;
    for (int i = 0; i < 4; ++i) bytes[4 + i] = std::uint8_t(count >> (24 - 8 * i));
    QFile o(out);
    return o.open(QIODevice::WriteOnly) && o.write(reinterpret_cast<const char*>(bytes.data()), qint64(bytes.size())) == qint64(bytes.size());
}

bool writeSubset(const QString& dir, long samples)
try {
    const long test = std::max(1L, samples / 6);
    return copyIdxHead(QString(kFashion) + "/train-images-idx3-ubyte.gz", dir + "/train-images-idx3-ubyte", samples) &&
           copyIdxHead(QString(kFashion) + "/train-labels-idx1-ubyte.gz", dir + "/train-labels-idx1-ubyte", samples) &&
           copyIdxHead(QString(kFashion) + "/t10k-images-idx3-ubyte.gz", dir + "/t10k-images-idx3-ubyte", test) &&
           copyIdxHead(QString(kFashion) + "/t10k-labels-idx1-ubyte.gz", dir + "/t10k-labels-idx1-ubyte", test);
} catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return false;
}

// The studio: the page as the window shows it, started as its Train button starts it, the
// event loop running as the application's does (waiting, not polling) until the run ends.
std::optional<Epoch> studioEpoch(const QString& experiment, const QString& dataDir)
{
    QTemporaryDir workspace;
    TrainingSession session;
    ExperimentDocument doc;
    QString error;
    if (!doc.open(experiment, &error)) {
        std::fprintf(stderr, "studio: %s\n", qPrintable(error));
        return std::nullopt;
    }
    ExperimentSpec spec = doc.spec();
    spec.training.epochs = 1;
    if (!dataDir.isEmpty()) spec.dataset.path = dataDir.toStdString();
    doc.edit(spec, QStringLiteral("one epoch"));
    TrainPage page(&session, &doc);
    page.setWorkspaceDirectory(workspace.path());
    page.resize(1400, 900);
    page.show();

    std::optional<Epoch> epoch;
    double uiCpu0 = 0;
    ThreadTrace trace;
    QEventLoop loop;
    QObject::connect(&session, &TrainingSession::runStarted, [&] { uiCpu0 = bench::threadCpuMs(); });
    QObject::connect(&session, &TrainingSession::logLine,
                     [&](TrainingSession::LogLevel, const QString& text) { trace.onLog(text); });
    QObject::connect(&session, &TrainingSession::epochFinished, [&](const EpochSummary& e) {
        epoch = Epoch{e.seconds, (bench::threadCpuMs() - uiCpu0) / 1e3};
        trace.finish(*epoch);
    });
    QObject::connect(&session, &TrainingSession::finished, [&](TrainingSession::Outcome outcome, const QString& message) {
        if (outcome != TrainingSession::Outcome::Finished) {
            std::fprintf(stderr, "studio: %s\n", qPrintable(message));
            epoch.reset();
        }
        loop.quit();
    });
    page.startTraining();
    if (session.isActive()) loop.exec();
    return epoch;
}

// The CLI: the same file, one epoch (--epochs 1), its events as JSON lines.
std::optional<Epoch> cliEpoch(const QString& experiment, const QString& dataDir)
{
    QTemporaryDir workspace;
    QStringList args{"train", experiment, "--epochs", "1", "--workspace", workspace.path(), "--json"};
    if (!dataDir.isEmpty()) args << "--set" << "dataset.path=" + dataDir;
    QProcess cli;
    cli.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    std::optional<Epoch> epoch;
    ThreadTrace trace;
    QEventLoop loop;
    // Read as it comes (the CLI flushes each event), so the governor's changes are timed.
    QObject::connect(&cli, &QProcess::readyReadStandardOutput, [&] {
        while (cli.canReadLine()) {
            const QJsonObject event = QJsonDocument::fromJson(cli.readLine()).object();
            const QString kind = event.value("event").toString();
            if (kind == "log") trace.onLog(event.value("message").toString());
            if (kind == "epoch") {
                epoch = Epoch{event.value("seconds").toDouble()};
                trace.finish(*epoch);
            }
        }
    });
    QObject::connect(&cli, &QProcess::finished, &loop, &QEventLoop::quit);
    QObject::connect(&cli, &QProcess::errorOccurred, &loop, &QEventLoop::quit);
    cli.start(QStringLiteral(TS_CLI_EXE), args);
    loop.exec();
    if (cli.state() != QProcess::NotRunning || cli.exitStatus() != QProcess::NormalExit || cli.exitCode() != 0) {
        std::fprintf(stderr, "cli: did not finish (%s)\n", qPrintable(cli.errorString()));
        return std::nullopt;
    }
    return epoch;
}

double loadAverage()
{
    double load[1] = {-1};
    return getloadavg(load, 1) == 1 ? load[0] : -1;
}

}  // namespace

int main(int argc, char** argv)
{
    long rounds = 3, samples = 0;
    for (int i = 1; i < argc; ++i) {
        long* target = !std::strcmp(argv[i], "--rounds") ? &rounds : !std::strcmp(argv[i], "--samples") ? &samples : nullptr;
        if (!target || i + 1 >= argc || (*target = std::strtol(argv[i + 1], nullptr, 10)) <= 0) {
            std::fprintf(stderr, "usage: bench_studio_epoch [--rounds N] [--samples N] (positive numbers)\n");
            return 2;
        }
        ++i;
    }
    QTemporaryDir home;
    if (!home.isValid()) return 1;
    useScratchHome(home.path());  // the CLI child inherits it: neither touches the user's files
    QApplication app(argc, argv);

    const QString experiment = QString::fromStdString((shippedExperimentsDirectory() / "fashion_mnist_cnn.yaml").string());
    QString dataDir;
    if (samples > 0) {
        dataDir = home.path() + "/fashion_subset";
        if (!QDir().mkpath(dataDir) || !writeSubset(dataDir, samples)) {
            std::fprintf(stderr, "could not copy %ld samples of %s\n", samples, kFashion);
            return 1;
        }
    }
    std::printf("one epoch of %s%s, %ld rounds; load average %.2f\n", qPrintable(experiment),
                samples > 0 ? qPrintable(QString(" on %1 training images").arg(samples)) : "", rounds, loadAverage());
    std::vector<double> studio, cli;
    for (long r = 0; r < rounds; ++r) {
        // Alternately first, so neither always meets a warmer or busier machine.
        std::optional<Epoch> s, c;
        if (r % 2 == 0) {
            s = studioEpoch(experiment, dataDir);
            c = s ? cliEpoch(experiment, dataDir) : std::nullopt;
        } else {
            c = cliEpoch(experiment, dataDir);
            s = c ? studioEpoch(experiment, dataDir) : std::nullopt;
        }
        if (!s || !c) return 1;
        studio.push_back(s->seconds);
        cli.push_back(c->seconds);
        std::printf("round %ld: studio %.2f s (UI thread %.2f CPU-s, %.1f%% of the epoch; %.1f s on fewer threads, "
                    "%d changes), cli %.2f s (%.1f s on fewer threads, %d changes); load average %.2f\n",
                    r + 1, s->seconds, s->uiCpuSeconds, 100 * s->uiCpuSeconds / s->seconds, s->fewerThreadsSeconds,
                    s->threadChanges, c->seconds, c->fewerThreadsSeconds, c->threadChanges, loadAverage());
        std::fflush(stdout);
    }
    const double ms = bench::median(studio), mc = bench::median(cli);
    std::printf("median: studio %.2f s, cli %.2f s, ratio studio/cli %.3f (target <= 1.05)\n", ms, mc, ms / mc);
    return 0;
}

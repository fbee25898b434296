#include "train_page.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QSplitter>
#include <QStyle>
#include <QTime>
#include <QVBoxLayout>

#include "ui/experiment_document.h"
#include "ui/studio_workspace.h"
#include "diagnostic_cards.h"
#include "distributed_launch.h"
#include "text_samples_box.h"
#include "train_charts.h"
#include "widgets/log_view.h"

namespace ts::ui {

namespace {

QString durationText(double seconds)
{
    if (!(seconds >= 0) || seconds > 360000) return QStringLiteral("–");
    const auto s = qint64(seconds + 0.5);
    return s >= 3600 ? QStringLiteral("%1:%2:%3").arg(s / 3600).arg(s / 60 % 60, 2, 10, QLatin1Char('0')).arg(s % 60, 2, 10, QLatin1Char('0'))
                     : QStringLiteral("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
}

}  // namespace

TrainPage::TrainPage(TrainingSession* session, ExperimentDocument* document, QWidget* parent)
    : QWidget(parent), m_session(session), m_doc(document)
{
    setObjectName(QStringLiteral("page_train"));
    createActions();

    m_charts = new TrainCharts;
    m_charts->setObjectName(QStringLiteral("trainCharts"));
    m_status = new QLabel(tr("Ready"));
    m_status->setObjectName(QStringLiteral("statusLine"));
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setWordWrap(true);  // a long outcome wraps instead of widening the window
    m_log = new widgets::LogView;  // follows new lines while scrolled to the bottom
    m_log->setObjectName(QStringLiteral("logView"));
    m_log->setMaximumBlockCount(10000);  // a long run's log must not grow without bound

    // Both columns scroll, so the page (and the window) still fits a small screen: eight
    // charts need room that a 640x480 window does not have.
    QWidget* controls = createControls();
    auto* controlsScroll = new QScrollArea;
    controlsScroll->setWidget(controls);
    controlsScroll->setWidgetResizable(true);
    controlsScroll->setFrameShape(QFrame::NoFrame);
    controlsScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    controlsScroll->setMinimumWidth(controls->minimumSizeHint().width() +
                                    controlsScroll->verticalScrollBar()->sizeHint().width());
    controlsScroll->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Expanding);

    auto* top = new QWidget;
    auto* topLayout = new QHBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(controlsScroll);
    topLayout->addWidget(m_charts, 1);  // the chart grid scrolls itself when it must

    auto* bottom = new QWidget;
    auto* bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    m_cards = new DiagnosticCards;
    connect(m_cards, &DiagnosticCards::actionRequested, this, &TrainPage::onDiagnosticAction);
    bottomLayout->addWidget(m_status);
    bottomLayout->addWidget(m_cards);
    m_samples = new TextSamplesBox;  // hidden until a language model writes
    auto* logAndSamples = new QSplitter(Qt::Horizontal);
    logAndSamples->addWidget(m_log);
    logAndSamples->addWidget(m_samples);
    logAndSamples->setChildrenCollapsible(false);
    logAndSamples->setStretchFactor(0, 1);
    logAndSamples->setStretchFactor(1, 1);
    bottomLayout->addWidget(logAndSamples, 1);

    m_splitter = new QSplitter(Qt::Vertical);
    m_splitter->addWidget(top);
    m_splitter->addWidget(bottom);
    m_splitter->setStretchFactor(0, 4);
    m_splitter->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->addWidget(m_splitter);

    if (m_session) {
        // The session's signals describe its current job: shown only when it is one of this page's runs.
        connect(m_session, &TrainingSession::stateChanged, this, [this] { updateActions(); updateStatus(); });
        connect(m_session, &TrainingSession::runStarted, this, [this](const RunStartInfo& info) {
            if (follows()) onRunStarted(info);
        });
        connect(m_session, &TrainingSession::stepsArrived, this, [this](const QVector<StepPoint>& steps) {
            if (follows()) onSteps(steps);
        });
        connect(m_session, &TrainingSession::epochFinished, this, [this](const EpochSummary& e) {
            if (follows()) onEpoch(e);
        });
        connect(m_session, &TrainingSession::logLine, this, [this](TrainingSession::LogLevel level, const QString& message) {
            if (follows()) onLog(level, message);
        });
        connect(m_session, &TrainingSession::diagnosticRaised, this, [this](const ts::Message& message, qint64 runId) {
            if (follows()) m_cards->addDiagnostic(message, runId);
        });
        connect(m_session, &TrainingSession::textSampled, this, [this](const ts::Message& message) {
            if (!follows()) return;
            const bool first = m_samples->isHidden();
            if (!m_samples->addMessage(message) || !first) return;
            // The first sample: the lower part grows to a third of the page, so the text can be read.
            const QList<int> sizes = m_splitter->sizes();
            const int total = sizes.value(0) + sizes.value(1);
            if (sizes.value(1) < total / 3) m_splitter->setSizes({total - total / 3, total / 3});
        });
        // By now the session's current job is the next one: the run that ended is this page's
        // job that is done and not yet said to be (a cancelled one never began, so never ends).
        connect(m_session, &TrainingSession::finished, this, [this](TrainingSession::Outcome outcome, const QString& message) {
            for (const JobRow& job : m_session->jobs())
                if (job.isDone() && job.state != JobRow::State::Cancelled && m_ownJobs.remove(job.id)) {
                    onFinished(outcome, message);
                    return;
                }
        });
        connect(m_session, &TrainingSession::checkpointSaved, this, [this](const QString& path, qint64 step, qint64 epoch, bool best) {
            if (!follows()) return;
            m_charts->addCheckpoint(step, epoch, best);
            appendLog(tr("Checkpoint saved: %1").arg(QDir::toNativeSeparators(path)));
        });
        connect(m_session, &TrainingSession::systemSample, this, [this](const ts::SystemSample& s, qint64 step) {
            if (!follows()) return;
            m_charts->addSystem(s, step);
            m_memoryBytes = s.gpuMemoryUsed >= 0 ? s.gpuMemoryUsed : s.ramBytes;
            updateStatus();
        });
    }
    populateExperiments();
    connect(m_doc, &ExperimentDocument::changed, this, &TrainPage::showDocument);
    connect(m_doc, &ExperimentDocument::pathChanged, this, &TrainPage::selectDocumentInChooser);
    showDocument();
}

bool TrainPage::follows()
{
    if (!m_session || !m_ownJobs.contains(m_session->currentJob())) return false;
    m_followedJob = m_session->currentJob();  // a queued run of this page's, begun: its view now
    return true;
}

void TrainPage::own(qint64 job)
{
    m_ownJobs.insert(job);
    // The session announced the job's state before this page knew the job as its own.
    updateActions();
    updateStatus();
}

QString TrainPage::workspaceDirectory() const
{
    return m_workspace.isEmpty() ? QString::fromStdString(studioWorkspace().directory) : m_workspace;
}

void TrainPage::startTraining()
{
    const std::optional<ExperimentSpec> spec = experimentForRun();
    if (!spec || !m_session || m_session->isActive() || launchRunning()) return;
    if (m_processes->value() > 1) {
        startDistributed(*spec);
        return;
    }
    resetRunView(spec->training.clipGradNorm);
    appendLog(tr("Starting %1 on %2").arg(QString::fromStdString(spec->name), m_device->currentText()));
    own(m_session->start(*spec, m_device->currentData().toString(), workspaceDirectory()));
}

void TrainPage::queueTraining()
{
    const std::optional<ExperimentSpec> spec = experimentForRun();
    if (!spec || !m_session) return;
    if (!m_session->isActive()) {
        startTraining();
        return;
    }
    const qint64 job = m_session->start(*spec, m_device->currentData().toString(), workspaceDirectory());
    own(job);
    appendLog(tr("Queued %1 as job %2: it trains when the jobs before it have ended.")
                  .arg(QString::fromStdString(spec->name))
                  .arg(job));
}

void TrainPage::resumeRun(qint64 runId)
{
    if (!m_session) return;
    if (m_session->isActive()) {
        const qint64 job = m_session->resumeRun(runId, m_device->currentData().toString(), workspaceDirectory());
        own(job);
        appendLog(tr("Queued the resumption of run %1 as job %2.").arg(runId).arg(job));
        return;
    }
    resetRunView(0);
    appendLog(tr("Resuming run %1 on %2").arg(runId).arg(m_device->currentText()));
    own(m_session->resumeRun(runId, m_device->currentData().toString(), workspaceDirectory()));
}

void TrainPage::resetRunView(double clipThreshold)
{
    m_run = RunStartInfo{};
    m_step = m_epoch = 0;
    m_memoryBytes = -1;
    m_lastOutcome.clear();
    m_clipThreshold = clipThreshold;
    m_charts->reset(0, m_clipThreshold);
}

void TrainPage::togglePause()
{
    if (!m_session) return;
    if (m_session->state() == TrainingSession::State::Paused)
        m_session->resume();
    else
        m_session->pause();
}

void TrainPage::stopTraining()
{
    if (launchRunning()) {
        appendLog(tr("Stopping the run on %n process(es): each finishes its step and the run saves a checkpoint.", nullptr,
                     m_launch->processes()));
        m_launch->stop();
        return;
    }
    if (m_session) m_session->stop();
}

void TrainPage::updateActions()
{
    using State = TrainingSession::State;
    const State state = follows() ? m_session->state() : State::Idle;  // Pause and Stop act on this page's run
    const bool launched = launchRunning();
    const bool busy = (m_session && m_session->isActive()) || launched;  // Train waits; Queue does not
    const bool ready = m_doc->hasExperiment() && m_session;
    m_trainAction->setEnabled(!busy && ready);
    m_queueAction->setEnabled(ready && !launched && m_processes->value() == 1);
    m_pauseAction->setEnabled(state == State::Starting || state == State::Running || state == State::Paused);
    m_pauseAction->setText(state == State::Paused ? tr("&Resume") : tr("&Pause"));
    m_pauseAction->setIcon(style()->standardIcon(state == State::Paused ? QStyle::SP_MediaPlay : QStyle::SP_MediaPause));
    m_stopAction->setEnabled((state != State::Idle && state != State::Stopping) || launched);
}

void TrainPage::updateStatus()
{
    using State = TrainingSession::State;
    const State state = follows() ? m_session->state() : State::Idle;  // another kind of job is not this page's
    if (launchRunning()) {
        const int n = m_launch->processes();
        m_status->setText(m_launch->runId() >= 0
                              ? tr("Run %1 on %2 processes · epoch %3 · step %4 (also in Jobs and on the Runs page)")
                                    .arg(m_launch->runId())
                                    .arg(n)
                                    .arg(m_epoch)
                                    .arg(m_step)
                              : tr("Starting %1 processes: loading the dataset…").arg(n));
        return;
    }
    if (state == State::Idle) {
        m_status->setText(m_lastOutcome.isEmpty() ? tr("Ready") : m_lastOutcome);
        return;
    }
    if (state == State::Starting) {
        m_status->setText(tr("Starting: loading the dataset…"));
        return;
    }
    const std::optional<double> eta = m_session->progress().etaSeconds();
    const QString memory = m_memoryBytes >= 0 ? QLocale().formattedDataSize(qint64(m_memoryBytes)) : QStringLiteral("–");
    QString text = tr("Epoch %1/%2 · step %3/%4 · ETA %5 · %6 · memory %7")
                       .arg(m_epoch)
                       .arg(m_run.epochs)
                       .arg(m_step)
                       .arg(m_run.totalSteps)
                       .arg(eta ? durationText(*eta) : QStringLiteral("–"), m_run.device, memory);
    if (state == State::Paused) text = tr("Paused · %1").arg(text);
    if (state == State::Stopping) text = tr("Stopping · %1").arg(text);
    m_status->setText(text);
}

void TrainPage::appendLog(const QString& text, bool error)
{
    const QString line = QTime::currentTime().toString(QStringLiteral("HH:mm:ss  ")) + text;
    if (!error) {
        m_log->appendLine(line);
        return;
    }
    m_log->appendHtmlLine(QStringLiteral("<span style=\"color:#c62828\">%1</span>").arg(line.toHtmlEscaped()));
}

void TrainPage::onRunStarted(const RunStartInfo& info)
{
    // A queued job begins where the last one ended: a fresh view (the first was reset at Train).
    m_step = info.firstStep;
    m_epoch = 0;
    m_run = info;
    m_charts->reset(info.stepsPerEpoch, m_clipThreshold);
    m_cards->clear();  // the advice was about the run before
    m_samples->clear();
    appendLog(info.runId >= 0 ? tr("Run %1 on %2: %3, %n step(s)", nullptr, int(info.totalSteps)).arg(info.runId).arg(info.device, info.dataset)
                              : tr("Training on %1: %2, %n step(s)", nullptr, int(info.totalSteps)).arg(info.device, info.dataset));
    updateStatus();
}

void TrainPage::onSteps(const QVector<StepPoint>& steps)
{
    m_charts->addSteps(steps);
    const StepPoint& last = steps.constLast();
    m_step = last.step;
    m_epoch = last.epoch;
    updateStatus();
}

void TrainPage::onEpoch(const EpochSummary& e)
{
    m_charts->addEpoch(e);
    QStringList parts;
    for (auto it = e.metrics.cbegin(); it != e.metrics.cend(); ++it)
        parts << QStringLiteral("%1 %2").arg(it.key(), QLocale().toString(it.value(), 'g', 4));
    appendLog(tr("Epoch %1 done in %2 s: %3").arg(e.epoch).arg(e.seconds, 0, 'f', 1).arg(parts.join(QStringLiteral(", "))));
}

void TrainPage::onLog(TrainingSession::LogLevel level, const QString& message)
{
    switch (level) {
    case TrainingSession::LogLevel::Info: appendLog(message); break;
    case TrainingSession::LogLevel::Warning: appendLog(tr("Warning: %1").arg(message)); break;
    case TrainingSession::LogLevel::Error: appendLog(tr("Error: %1").arg(message), true); break;
    }
}

void TrainPage::onFinished(TrainingSession::Outcome outcome, const QString& message)
{
    switch (outcome) {
    case TrainingSession::Outcome::Finished: m_lastOutcome = tr("Finished: %1").arg(message); break;
    case TrainingSession::Outcome::EarlyStopped: m_lastOutcome = tr("Stopped early: %1").arg(message); break;
    case TrainingSession::Outcome::Stopped: m_lastOutcome = tr("Stopped: %1").arg(message); break;
    case TrainingSession::Outcome::Failed: m_lastOutcome = tr("Training failed: %1").arg(message); break;
    }
    appendLog(m_lastOutcome, outcome == TrainingSession::Outcome::Failed);
    updateActions();
    updateStatus();
}

}  // namespace ts::ui

#include "label_check_panel.h"

#include <QComboBox>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <filesystem>

#include "check_job_progress.h"
#include "data/dataset.h"
#include "io/yaml/experiment_yaml.h"
#include "jobs/job.h"
#include "store/run_reader.h"
#include "ui/train/training_session.h"

namespace ts::ui {

namespace {

// Runs that read well enough to score labels: finished or stopped, newest first; a few hundred
// at most, since each run's experiment is read to compare its dataset.
constexpr int kRunsLooked = 300;

QVector<LabelCheckPanel::RunChoice> runsOfDataset(const Workspace& workspace, const std::string& key)
{
    QVector<LabelCheckPanel::RunChoice> choices;
    std::error_code ec;
    if (!std::filesystem::exists(workspace.databasePath(), ec)) return choices;  // nothing trained yet
    RunReader reader(workspace);
    int looked = 0;
    for (const RunListing& listing : reader.listRuns()) {
        const RunInfo& brief = listing.run;
        if (brief.status != RunStatus::Finished && brief.status != RunStatus::Stopped) continue;
        if (++looked > kRunsLooked) break;
        const std::optional<RunInfo> run = reader.run(brief.id);
        if (!run || reader.checkpoints(brief.id).empty()) continue;
        try {
            const ExperimentSpec spec = parseExperiment(run->experimentYaml, "run " + std::to_string(run->id));
            if (datasetKey(spec.dataset, experimentDataDirectory(spec)) != key) continue;
        } catch (const std::exception&) {
            continue;  // an experiment this version cannot read cannot score labels either
        }
        choices.push_back({run->id, LabelCheckPanel::tr("run %1 · %2").arg(run->id).arg(QString::fromStdString(run->name))});
    }
    return choices;
}

}  // namespace

LabelCheckPanel::LabelCheckPanel(TrainingSession* session, QWidget* parent) : QWidget(parent), m_session(session)
{
    m_title = new QLabel(this);
    m_title->setWordWrap(true);
    m_inSample = new QRadioButton(this);
    m_inSample->setObjectName(QStringLiteral("labelCheckInSample"));
    m_inSample->setChecked(true);
    m_kFold = new QRadioButton(this);
    m_kFold->setObjectName(QStringLiteral("labelCheckKFold"));
    m_runBox = new QComboBox(this);
    m_runBox->setObjectName(QStringLiteral("labelCheckRun"));
    m_runBox->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_runBox->setMinimumContentsLength(12);
    m_foldsLabel = new QLabel(this);
    m_folds = new QSpinBox(this);
    m_folds->setRange(2, 20);
    m_folds->setValue(5);
    m_epochsLabel = new QLabel(this);
    m_epochs = new QSpinBox(this);
    m_epochs->setRange(1, 1000);
    m_epochs->setValue(3);
    m_check = new QPushButton(this);
    m_check->setObjectName(QStringLiteral("labelCheckStart"));
    m_stop = new QPushButton(this);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("labelCheckStatus"));
    m_status->setWordWrap(true);

    auto* kFold = new QGridLayout;
    kFold->setContentsMargins(20, 0, 0, 0);  // under its choice
    kFold->addWidget(m_foldsLabel, 0, 0);
    kFold->addWidget(m_folds, 0, 1);
    kFold->addWidget(m_epochsLabel, 1, 0);
    kFold->addWidget(m_epochs, 1, 1);
    kFold->setColumnStretch(2, 1);
    auto* run = new QHBoxLayout;
    run->addWidget(m_check);
    run->addWidget(m_stop);
    run->addWidget(m_progress, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_title);
    layout->addWidget(m_inSample);
    auto* runRow = new QHBoxLayout;
    runRow->setContentsMargins(20, 0, 0, 0);
    runRow->addWidget(m_runBox, 1);
    layout->addLayout(runRow);
    layout->addWidget(m_kFold);
    layout->addLayout(kFold);
    layout->addLayout(run);
    layout->addWidget(m_status);

    connect(m_inSample, &QRadioButton::toggled, this, &LabelCheckPanel::updateControls);
    connect(m_check, &QPushButton::clicked, this, &LabelCheckPanel::startCheck);
    connect(m_stop, &QPushButton::clicked, this, [this] {
        if (m_session && m_jobId > 0) m_session->cancel(m_jobId);
    });
    connect(&m_read, &QFutureWatcher<QVector<RunChoice>>::finished, this, [this] {
        m_reading = false;
        if (m_readAgain) {  // the experiment or workspace changed meanwhile
            refreshRuns();
            return;
        }
        const qint64 chosen = m_runBox->currentData().toLongLong();
        m_runs = m_read.result();
        m_runBox->clear();
        for (const RunChoice& r : m_runs) m_runBox->addItem(r.text, r.id);
        if (const int at = m_runBox->findData(chosen); at >= 0) m_runBox->setCurrentIndex(at);
        if (m_runs.isEmpty()) m_kFold->setChecked(true);
        updateControls();
        emit runsRead();
    });
    if (m_session) {
        connect(m_session, &TrainingSession::jobsChanged, this, &LabelCheckPanel::onJobsChanged);
        connect(m_session, &TrainingSession::finished, this, &LabelCheckPanel::refreshRuns);  // a new run may score labels
    }
    retranslate();
}

void LabelCheckPanel::setWorkspace(const Workspace& workspace)
{
    m_workspace = workspace;
    refreshRuns();
}

void LabelCheckPanel::setExperiment(const ExperimentSpec& spec)
{
    m_spec = spec;
    m_epochs->setValue(int(std::clamp<std::int64_t>(spec.training.epochs, 1, 3)));  // short: a few epochs rank well
    refreshRuns();
}

void LabelCheckPanel::refreshRuns()
{
    if (!m_workspace || !m_spec) return;
    if (m_reading) {
        m_readAgain = true;
        return;
    }
    m_reading = true;
    m_readAgain = false;
    const std::string key = datasetKey(m_spec->dataset, experimentDataDirectory(*m_spec));
    m_read.setFuture(QtConcurrent::run([ws = *m_workspace, key] {
        try {
            return runsOfDataset(ws, key);
        } catch (const std::exception&) {  // a locked or damaged store: no runs to offer
            return QVector<RunChoice>{};
        }
    }));
    updateControls();
}

void LabelCheckPanel::startCheck()
{
    if (!m_session || !m_workspace || !m_spec || m_jobId > 0) return;
    LabelCheckJob job;
    job.experiment = *m_spec;
    QString title;
    if (m_inSample->isChecked()) {
        if (m_runBox->currentIndex() < 0) return;
        job.runId = m_runBox->currentData().toLongLong();
        title = tr("Label check with run %1").arg(job.runId);
    } else {
        job.folds = m_folds->value();
        job.epochsPerFold = m_epochs->value();
        title = tr("Label check, %1 folds").arg(job.folds);
    }
    m_outcome.clear();
    m_progress->setValue(0);
    m_jobId = m_session->enqueue(job, title, QString::fromStdString(m_workspace->directory));
    updateControls();
}

void LabelCheckPanel::onJobsChanged()
{
    if (m_jobId <= 0) return;
    const JobRow* row = followCheckJob(*m_session, m_jobId, m_progress, m_status);
    if (!row || !row->isDone()) return;
    m_jobId = 0;
    m_outcome = checkJobOutcome(*row);
    updateControls();
    if (m_outcome.isEmpty()) emit checkFinished();
}

void LabelCheckPanel::updateControls()
{
    const bool checking = m_jobId > 0;
    const bool inSample = m_inSample->isChecked();
    m_inSample->setEnabled(!checking && !m_runs.isEmpty());
    m_runBox->setEnabled(!checking && inSample && !m_runs.isEmpty());
    m_kFold->setEnabled(!checking);
    m_folds->setEnabled(!checking && !inSample);
    m_epochs->setEnabled(!checking && !inSample);
    m_check->setEnabled(m_session && m_workspace && m_spec && !checking && (!inSample || m_runBox->count() > 0));
    m_stop->setVisible(checking);
    m_progress->setVisible(checking);
    if (checking) return;  // the job's progress speaks
    if (!m_session)
        m_status->setText(tr("Checks run on the studio's job queue, which this view has not got."));
    else if (!m_outcome.isEmpty())
        m_status->setText(m_outcome);
    else if (m_reading)
        m_status->setText(tr("Looking for runs of this dataset…"));
    else if (m_runs.isEmpty())
        m_status->setText(tr("No finished run of this dataset yet: train one for the in-sample check, or use K-fold."));
    else
        m_status->clear();
}

void LabelCheckPanel::retranslate()
{
    m_title->setText(tr("Check the labels"));
    m_inSample->setText(tr("In-sample, with a run's best checkpoint (seconds)"));
    m_inSample->setToolTip(tr("Ranks every training sample by how little the run's model believes its given label. "
                              "Fast; a model that memorised a wrong label no longer doubts it."));
    m_kFold->setText(tr("K-fold, out of sample (trains K short models: minutes)"));
    m_kFold->setToolTip(tr("Each sample is scored by a model that never saw it (confident learning): slower, and still "
                           "right where the model would memorise the wrong labels."));
    m_foldsLabel->setText(tr("Folds:"));
    m_epochsLabel->setText(tr("Epochs per fold:"));
    m_check->setText(tr("Check Labels"));
    m_stop->setText(tr("Stop"));
    updateControls();
}

void LabelCheckPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) retranslate();
}

}  // namespace ts::ui

#include "sweep_panel.h"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QVBoxLayout>

#include "io/yaml/experiment_yaml.h"
#include "jobs/job.h"
#include "jobs/sweep_trials.h"
#include "ui/train/training_session.h"

namespace ts::ui {

namespace {

// A 4 x 4 learning rate by weight decay grid with successive halving: the seeds' first two
// knobs, most trials stopped after an epoch.
const char* kExample =
    "sweep:\n"
    "  method: grid            # grid | random (random needs a budget)\n"
    "  metric: val_acc         # needs a validation split\n"
    "  parameters:\n"
    "    optimizer.lr: {values: [1e-4, 3e-4, 1e-3, 3e-3]}\n"
    "    optimizer.weight_decay: {values: [0, 1e-4, 1e-3, 1e-2]}\n"
    "  halving: {min_epochs: 1, eta: 3}\n";

int lineCount(const std::string& text) { return int(std::count(text.begin(), text.end(), '\n')); }

}  // namespace

SweepPanel::SweepPanel(TrainingSession* session, const QString& workspaceDir, QWidget* parent)
    : QWidget(parent), m_session(session), m_workspace(workspaceDir)
{
    m_text = new QPlainTextEdit(this);
    m_text->setObjectName(QStringLiteral("sweepText"));
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_text->setPlaceholderText(tr("No sweep. Write a sweep: section here, or insert the example."));
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setMinimumHeight(120);
    m_plan = new QLabel(this);
    m_plan->setWordWrap(true);
    m_problems = new QLabel(this);
    m_problems->setWordWrap(true);
    m_problems->setStyleSheet(QStringLiteral("color: #c0392b;"));
    m_problems->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_example = new QPushButton(tr("Insert Example"), this);
    m_example->setToolTip(tr("A learning rate by weight decay grid with successive halving."));
    m_run = new QPushButton(tr("Run Sweep"), this);
    m_run->setObjectName(QStringLiteral("runSweep"));
    m_run->setToolTip(tr("Queue the sweep as one job: each trial becomes a run of the workspace, tagged with the sweep. "
                         "Stopped, it continues where it was when run again."));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_example);
    buttons->addStretch();
    buttons->addWidget(m_run);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_problems);
    layout->addWidget(m_plan);
    layout->addLayout(buttons);

    m_checkTimer.setSingleShot(true);
    m_checkTimer.setInterval(400);  // after a pause in typing, not at every key
    connect(&m_checkTimer, &QTimer::timeout, this, &SweepPanel::checkNow);
    // Any change starts the timer; a text shown by the code is checked at once (checkNow stops it).
    connect(m_text, &QPlainTextEdit::textChanged, &m_checkTimer, qOverload<>(&QTimer::start));
    connect(m_example, &QPushButton::clicked, this, [this] {
        m_text->setPlainText(QString::fromLatin1(kExample));
        checkNow();
    });
    connect(m_run, &QPushButton::clicked, this, &SweepPanel::runSweep);
    m_run->setEnabled(false);
}

// The sweep: section of the experiment as the writer writes it.
QString SweepPanel::sweepText(const ExperimentSpec& spec) const
{
    if (!spec.sweep) return {};
    const QString yaml = QString::fromStdString(experimentToYaml(spec));
    const int start = yaml.indexOf(QRegularExpression(QStringLiteral("^sweep:"), QRegularExpression::MultilineOption));
    if (start < 0) return {};
    const int end = yaml.indexOf(QRegularExpression(QStringLiteral("^[A-Za-z_]"), QRegularExpression::MultilineOption), start + 1);
    return yaml.mid(start, end < 0 ? -1 : end - start);
}

void SweepPanel::setExperiment(const ExperimentSpec& spec)
{
    const bool sameSweep = m_checked && m_checked->sweep == spec.sweep;
    m_spec = spec;
    if (!sameSweep) m_text->setPlainText(sweepText(spec));  // not the echo of an edit made here: show the experiment's own
    checkNow();
}

QString SweepPanel::problems() const { return m_problems->text(); }

void SweepPanel::checkNow()
{
    m_checkTimer.stop();
    m_checked.reset();
    m_problems->clear();
    m_run->setEnabled(false);
    if (!m_spec) return;
    ExperimentSpec base = *m_spec;
    base.sweep.reset();
    const std::string prefix = experimentToYaml(base) + "\n";
    const std::string text = m_text->toPlainText().toStdString();
    try {
        ExperimentSpec read = parseExperiment(prefix + text, m_spec->sourceFile);
        read.sourceFile = m_spec->sourceFile;
        m_checked = read;
    } catch (const ExperimentError& e) {
        // Problems are placed in this text: the experiment above it is not shown here.
        const int offset = lineCount(prefix);
        QStringList lines;
        for (const ExperimentIssue& i : e.issues())
            lines << (i.line > offset ? tr("line %1, column %2: %3").arg(i.line - offset).arg(i.column).arg(QString::fromStdString(i.message))
                                      : QString::fromStdString(i.message));
        m_problems->setText(lines.join(QLatin1Char('\n')));
        m_plan->clear();
        return;
    }
    if (!m_checked->sweep) {
        m_plan->setText(tr("No sweep: the experiment trains one run."));
    } else {
        const SweepSpec& s = *m_checked->sweep;
        const auto trials = sweepTrials(s);
        const auto rungs = sweepRungs(s, m_checked->training.epochs);
        QStringList epochs;
        for (std::int64_t r : rungs) epochs << QString::number(r);
        m_plan->setText(s.halving ? tr("%n trial(s), ranked by %1; successive halving keeps the best 1/%2 at epochs %3.", nullptr, int(trials.size()))
                                        .arg(QString::fromStdString(s.metric))
                                        .arg(s.halving->eta)
                                        .arg(epochs.join(QStringLiteral(", ")))
                                  : tr("%n trial(s), ranked by %1, each trained %2 epochs.", nullptr, int(trials.size()))
                                        .arg(QString::fromStdString(s.metric))
                                        .arg(m_checked->training.epochs));
        m_run->setEnabled(m_session != nullptr);
    }
    if (!(m_checked->sweep == m_spec->sweep)) emit sweepEdited(*m_checked);
}

void SweepPanel::runSweep()
{
    checkNow();
    if (!m_checked || !m_checked->sweep || !m_session) return;
    SweepJob job;
    job.experiment = withAbsolutePaths(*m_checked);
    m_lastJob = m_session->enqueue(job, tr("%1: sweep").arg(QString::fromStdString(m_checked->name)), m_workspace);
}

}  // namespace ts::ui

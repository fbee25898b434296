#include "run_details.h"

#include <QAction>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "ui/engine_messages.h"
#include "attention_panel.h"
#include "evaluation_view.h"
#include "generate_panel.h"
#include "prediction_panel.h"
#include "run_charts.h"
#include "run_overview.h"
#include "runs_model.h"
#include "store/resume_source.h"

namespace ts::ui {

namespace {
enum CheckpointColumn { CkStep, CkEpoch, CkMetric, CkSize, CkFile, CkColumns };
}

RunDetails::RunDetails(const Workspace& workspace, QWidget* parent) : QWidget(parent), m_workspace(workspace)
{
    // Left: who the run is (fields) and what people wrote about it (notes).
    auto* info = new QWidget;
    auto* infoLayout = new QVBoxLayout(info);
    infoLayout->setContentsMargins(0, 0, 0, 0);
    m_title = new QLabel;
    m_title->setObjectName(QStringLiteral("runTitle"));
    QFont font = m_title->font();
    font.setBold(true);
    font.setPointSizeF(font.pointSizeF() * 1.2);
    m_title->setFont(font);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    infoLayout->addWidget(m_title);

    m_form = new QFormLayout;
    addField(QStringLiteral("status"), tr("Status:"));
    addField(QStringLiteral("result"), tr("Result:"));
    addField(QStringLiteral("started"), tr("Started:"));
    addField(QStringLiteral("ended"), tr("Ended:"));
    addField(QStringLiteral("duration"), tr("Duration:"));
    addField(QStringLiteral("device"), tr("Device:"));
    addField(QStringLiteral("seed"), tr("Seed:"));
    addField(QStringLiteral("parent"), tr("Parent:"));
    addField(QStringLiteral("message"), tr("Message:"));
    infoLayout->addLayout(m_form);

    m_overview = new RunOverview;
    infoLayout->addSpacing(6);
    infoLayout->addWidget(m_overview);
    infoLayout->addStretch(1);
    connect(m_overview, &RunOverview::runActivated, this, &RunDetails::runActivated);

    // Notes get a tab of their own: the editor fills it and its button is always in view.
    auto* notesTab = new QWidget;
    auto* notesLayout = new QVBoxLayout(notesTab);
    m_notes = new QPlainTextEdit;
    m_notes->setObjectName(QStringLiteral("notesEditor"));
    m_notes->setPlaceholderText(tr("What was tried in this run, and what came of it"));
    notesLayout->addWidget(m_notes, 1);
    m_saveNotes = new QPushButton(tr("Save Notes"));
    m_saveNotes->setObjectName(QStringLiteral("saveNotesButton"));
    m_saveNotes->setToolTip(tr("Store the notes with the run (Ctrl+S in the editor)"));
    notesLayout->addWidget(m_saveNotes, 0, Qt::AlignRight);
    // Ctrl+S inside the editor only: elsewhere it means nothing on this page.
    auto* save = new QAction(tr("Save Notes"), m_notes);
    save->setShortcut(QKeySequence::Save);
    save->setShortcutContext(Qt::WidgetShortcut);
    m_notes->addAction(save);
    auto requestSave = [this] {
        if (m_runId >= 0 && notesModified()) emit saveNotesRequested(m_runId, m_notes->toPlainText());
    };
    connect(save, &QAction::triggered, this, requestSave);
    connect(m_saveNotes, &QPushButton::clicked, this, requestSave);
    connect(m_notes, &QPlainTextEdit::textChanged, this, &RunDetails::updateSaveButton);

    // Right: what the store recorded while it ran.
    m_charts = new RunCharts;
    connect(m_charts, &RunCharts::loaded, this, &RunDetails::chartsLoaded);
    connect(m_charts, &RunCharts::readFailed, this, &RunDetails::readFailed);
    m_checkpoints = new QTreeWidget;
    m_checkpoints->setObjectName(QStringLiteral("checkpointList"));
    m_checkpoints->setRootIsDecorated(false);
    m_checkpoints->setHeaderLabels({tr("Step"), tr("Epoch"), tr("Metric"), tr("Size"), tr("File")});
    m_log = new QPlainTextEdit;
    m_log->setObjectName(QStringLiteral("runLog"));
    m_log->setReadOnly(true);
    m_log->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_tabs = new QTabWidget;
    m_tabs->setObjectName(QStringLiteral("runTabs"));
    // Both panels scroll rather than forcing their minimum size onto the whole window.
    auto scrolling = [](QWidget* content) {
        auto* scroll = new QScrollArea;
        scroll->setWidgetResizable(true);
        scroll->setFrameShape(QFrame::NoFrame);
        scroll->setWidget(content);
        return scroll;
    };
    m_tabs->addTab(m_charts, tr("Charts"));  // the chart grid scrolls itself when it must
    m_tabs->addTab(m_checkpoints, tr("Checkpoints"));
    m_tabs->addTab(m_log, tr("Log"));
    m_tabs->addTab(notesTab, tr("Notes"));
    m_evaluation = new EvaluationView;
    m_evaluation->setObjectName(QStringLiteral("evaluationView"));
    m_tabs->insertTab(1, m_evaluation, tr("Evaluation"));
    m_prediction = new PredictionPanel;  // drop an image to see the run's prediction
    m_tabs->insertTab(2, m_prediction, tr("Predict"));
    m_generation = new GeneratePanel;  // a language model writes from a prompt
    m_tabs->insertTab(3, m_generation, tr("Generate"));
    // The writing and attention tabs shrink with the window (their fields and maps narrow)
    // rather than set the whole window's minimum width.
    m_generation->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_attention = new AttentionPanel;  // what a Transformer's heads look at, for one sample
    m_tabs->insertTab(4, m_attention, tr("Attention"));
    m_attention->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);

    m_splitter = new QSplitter(Qt::Horizontal);
    m_splitter->setObjectName(QStringLiteral("runDetailsSplitter"));
    QScrollArea* infoScroll = scrolling(info);
    infoScroll->setMinimumWidth(info->fontMetrics().horizontalAdvance(QLatin1Char('x')) * 28);  // labels and short values
    m_splitter->addWidget(infoScroll);
    m_splitter->setCollapsible(0, false);
    m_splitter->addWidget(m_tabs);
    m_splitter->setStretchFactor(1, 3);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_splitter);
    clear();
}

void RunDetails::addField(const QString& key, const QString& label)
{
    auto* value = new QLabel;
    value->setObjectName(QStringLiteral("field_") + key);
    value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    value->setWordWrap(true);
    m_form->addRow(label, value);
    m_fields.insert(key, value);
}

QString RunDetails::fieldText(const QString& field) const
{
    const QLabel* label = m_fields.value(field);
    return label ? label->text() : QString();
}

void RunDetails::showRun(RunReader& reader, qint64 runId, const std::vector<RunListing>& runs)
{
    const std::optional<RunInfo> run = reader.run(runId);
    if (!run) {  // deleted meanwhile
        clear();
        return;
    }
    if (runId != m_runId) {
        clear();
        m_runId = runId;
        setEnabled(true);
    }
    const std::vector<MetricSummary> summaries = reader.summaries(runId);
    showFields(*run, summaries);
    m_overview->showRun(*run, summaries, runs);
    // Edits in progress win over the store; otherwise show what is stored (another window,
    // or the CLI, may have changed it).
    const QString stored = QString::fromStdString(run->notes);
    if (!notesModified() && m_notes->toPlainText() != stored) m_notes->setPlainText(stored);
    m_savedNotes = stored;
    updateSaveButton();
    m_charts->load(m_workspace, runId);
    m_evaluation->showRun(reader, runId);
    m_prediction->showRun(m_workspace, runId, PredictionPanel::readsText(run->experimentYaml));
    const std::vector<CheckpointRecord> checkpoints = reader.checkpoints(runId);
    m_generation->showRun(m_workspace, *run, checkpoints);
    m_attention->showRun(m_workspace, *run, checkpoints);
    // A language model writes (Generate); any other model classifies a dropped image (Predict).
    m_tabs->setTabVisible(m_tabs->indexOf(m_generation), m_generation->isLanguageModel());
    m_tabs->setTabVisible(m_tabs->indexOf(m_prediction), !m_generation->isLanguageModel());
    showCheckpoints(checkpoints);
    appendLogs(reader.logs(runId));
}

void RunDetails::clear()
{
    m_runId = -1;
    m_title->setText(tr("No run selected"));
    for (QLabel* label : std::as_const(m_fields)) label->clear();
    m_overview->clear();
    m_savedNotes.clear();
    m_notes->clear();
    m_charts->clear();
    m_evaluation->clear();
    m_prediction->clear();
    m_generation->clear();
    m_attention->clear();
    m_tabs->setTabVisible(m_tabs->indexOf(m_generation), false);
    m_tabs->setTabVisible(m_tabs->indexOf(m_prediction), true);
    m_checkpoints->clear();
    m_checkpointCount = 0;
    m_lastCheckpointId = -1;
    m_log->clear();
    m_logCount = 0;
    setEnabled(false);
    updateSaveButton();
}

void RunDetails::showFields(const RunInfo& run, const std::vector<MetricSummary>& summaries)
{
    m_title->setText(QString::fromStdString(run.name));
    QLabel* status = m_fields.value(QStringLiteral("status"));
    status->setText(RunsModel::statusText(run.status));
    QPalette palette = status->palette();
    palette.setColor(QPalette::WindowText, RunsModel::statusColor(run.status));
    status->setPalette(palette);
    m_fields.value(QStringLiteral("result"))->setText(RunsModel::resultText(headlineResult(summaries)));
    m_fields.value(QStringLiteral("started"))->setText(RunsModel::timeText(run.startTime));
    m_fields.value(QStringLiteral("ended"))->setText(RunsModel::timeText(run.endTime));
    const double paused = pausedSeconds(summaries);
    const QString active = RunsModel::durationText(activeSeconds(run, summaries));
    m_fields.value(QStringLiteral("duration"))
        ->setText(paused > 0 ? tr("%1 (paused %2)").arg(active, RunsModel::durationText(paused)) : active);
    const QString device = run.device.empty() ? QStringLiteral("—") : QString::fromStdString(run.device);
    m_fields.value(QStringLiteral("device"))
        ->setText(run.host.empty() ? device : tr("%1 on %2").arg(device, QString::fromStdString(run.host)));
    m_fields.value(QStringLiteral("seed"))->setText(QString::number(run.seed));
    QString parent = QStringLiteral("—");
    if (run.parentRunId) {
        if (run.parentRelation == "resume") parent = tr("resumed from run %1").arg(*run.parentRunId);
        else if (run.parentRelation == "fork") parent = tr("forked from run %1").arg(*run.parentRunId);
        else parent = tr("run %1").arg(*run.parentRunId);
    }
    m_fields.value(QStringLiteral("parent"))->setText(parent);
    m_fields.value(QStringLiteral("message"))
        ->setText(run.message.text.empty() ? QStringLiteral("—") : renderMessage(run.message));
}

void RunDetails::showCheckpoints(const std::vector<CheckpointRecord>& checkpoints)
{
    // Few rows (a policy keeps a handful): rebuild when the set changed, not on every refresh.
    const std::int64_t lastId = checkpoints.empty() ? -1 : checkpoints.back().id;
    if (int(checkpoints.size()) == m_checkpointCount && lastId == m_lastCheckpointId) return;
    m_checkpointCount = int(checkpoints.size());
    m_lastCheckpointId = lastId;
    m_checkpoints->clear();
    const QLocale locale;
    for (const CheckpointRecord& c : checkpoints) {
        auto* item = new QTreeWidgetItem(m_checkpoints);
        item->setText(CkStep, locale.toString(qint64(c.step)));
        item->setText(CkEpoch, locale.toString(qint64(c.epoch)));
        QString metric = c.metricName.empty() ? QStringLiteral("—")
                                              : QStringLiteral("%1 %2").arg(QString::fromStdString(c.metricName),
                                                                            locale.toString(c.metricValue, 'g', 4));
        if (c.best) metric = tr("%1 (best)").arg(metric);
        item->setText(CkMetric, metric);
        item->setText(CkSize, locale.formattedDataSize(c.sizeBytes));
        const QString path = QString::fromStdString(absoluteCheckpointPath(m_workspace, c.path));
        item->setText(CkFile, QFileInfo(path).fileName());
        item->setToolTip(CkFile, tr("%1\nSHA-256: %2").arg(QDir::toNativeSeparators(path), QString::fromStdString(c.sha256)));
        item->setTextAlignment(CkStep, Qt::AlignRight | Qt::AlignVCenter);
        item->setTextAlignment(CkEpoch, Qt::AlignRight | Qt::AlignVCenter);
        item->setTextAlignment(CkSize, Qt::AlignRight | Qt::AlignVCenter);
    }
    m_checkpoints->header()->resizeSections(QHeaderView::ResizeToContents);
}

void RunDetails::appendLogs(const std::vector<LogLine>& lines)
{
    if (lines.size() < m_logCount) {  // cannot happen short of a rewrite of the log: start over
        m_log->clear();
        m_logCount = 0;
    }
    for (std::size_t i = m_logCount; i < lines.size(); ++i) {
        const LogLine& line = lines[i];
        const QDateTime time = QDateTime::fromMSecsSinceEpoch(qint64(line.time * 1000.0)).toLocalTime();
        m_log->appendPlainText(QStringLiteral("%1  %2  %3").arg(time.toString(QStringLiteral("HH:mm:ss")),
                                                                logLevelText(line.level), renderMessage(line.message)));
    }
    m_logCount = lines.size();
}

bool RunDetails::notesModified() const { return m_runId >= 0 && m_notes->toPlainText() != m_savedNotes; }

void RunDetails::notesSaved(const QString& notes)
{
    m_savedNotes = notes;
    updateSaveButton();
}

void RunDetails::updateSaveButton() { m_saveNotes->setEnabled(notesModified()); }

}  // namespace ts::ui

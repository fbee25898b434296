#include "health_report_panel.h"

#include "count_text.h"

#include <QDateTime>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>


#include "check_job_progress.h"
#include "health_fixes.h"
#include "split_counts.h"
#include "statistics_histogram.h"
#include "ui/train/training_session.h"

namespace ts::ui {

namespace {

QString splitName(const std::string& s) { return StatisticsHistogram::splitTitle(s); }

// A finding's samples for the grid: file splits and indices, pairs side by side.
SampleRef refOf(const HealthFinding& f)
{
    SampleRef r;
    r.split = QString::fromStdString(f.split);
    r.index = f.sample;
    if (f.otherSample >= 0) {
        r.pairWith = f.otherSample;
        r.pairSplit = QString::fromStdString(f.otherSplit.empty() ? f.split : f.otherSplit);
    }
    return r;
}

bool showsSamples(FindingKind k) { return k == FindingKind::Unreadable || isPairKind(k); }

constexpr int kExamplePairs = 3;  // pairs of each kind the table names by their files

bool isColumnKind(FindingKind k)
{
    return k == FindingKind::ConstantFeature || k == FindingKind::NearConstantFeature ||
           k == FindingKind::TooManyClasses || k == FindingKind::MissingValues || k == FindingKind::RaggedRow;
}

}  // namespace

HealthReportPanel::HealthReportPanel(TrainingSession* session, QWidget* parent) : QWidget(parent), m_session(session)
{
    qRegisterMetaType<QVector<SampleRef>>();
    m_title = new QLabel(this);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_checkNow = new QPushButton(this);
    m_checkNow->setObjectName(QStringLiteral("checkNow"));
    m_stop = new QPushButton(this);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    // Two columns, the finding (its name and count, then where) wrapped in the first and its
    // Show button in the second: four columns did not fit the page's side area at 1.5x.
    m_table = new QTableWidget(0, 2, this);
    m_table->verticalHeader()->setVisible(false);
    m_table->horizontalHeader()->setVisible(false);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    m_table->setFocusPolicy(Qt::NoFocus);
    m_table->setWordWrap(true);
    m_table->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_imbalance = new QLabel(this);
    m_imbalance->setWordWrap(true);
    m_imbalance->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_useWeights = new QPushButton(this);
    m_useWeights->setObjectName(QStringLiteral("useClassWeights"));
    m_useSampler = new QPushButton(this);
    m_useSampler->setObjectName(QStringLiteral("useClassBalancedSampler"));
    m_refusal = new QLabel(this);
    m_refusal->setWordWrap(true);
    m_refusal->setStyleSheet(QStringLiteral("color: #c0392b;"));
    m_refusal->hide();

    auto* run = new QHBoxLayout;
    run->addWidget(m_checkNow);
    run->addWidget(m_stop);
    run->addWidget(m_progress, 1);
    // One above the other: side by side they are wider than the page's side area at 1.5x.
    auto* fixes = new QVBoxLayout;
    fixes->addWidget(m_useWeights, 0, Qt::AlignLeft);
    fixes->addWidget(m_useSampler, 0, Qt::AlignLeft);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addWidget(m_status);
    layout->addLayout(run);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_imbalance);
    layout->addLayout(fixes);
    layout->addWidget(m_refusal);
    layout->addStretch(0);

    connect(m_checkNow, &QPushButton::clicked, this, &HealthReportPanel::checkNow);
    connect(m_stop, &QPushButton::clicked, this, [this] {
        if (m_session && m_jobId > 0) m_session->cancel(m_jobId);
    });
    connect(m_useWeights, &QPushButton::clicked, this, &HealthReportPanel::useClassWeights);
    connect(m_useSampler, &QPushButton::clicked, this, &HealthReportPanel::useClassBalancedSampler);
    connect(&m_read, &QFutureWatcher<Read>::finished, this, &HealthReportPanel::onRead);
    connect(&m_show, &QFutureWatcher<Shown>::finished, this, [this] {
        m_showing = false;
        const Shown s = m_show.result();
        if (!s.error.isEmpty()) {
            m_refusal->setText(s.error);
            m_refusal->show();
            return;
        }
        emit showSamples(s.title, s.refs);
    });
    if (m_session) connect(m_session, &TrainingSession::jobsChanged, this, &HealthReportPanel::onJobsChanged);
    retranslate();
}

HealthReportPanel::~HealthReportPanel()
{
    // The workers hold their own copies, but waiting keeps a closing studio from racing SQLite.
    m_read.waitForFinished();
    m_show.waitForFinished();
}

void HealthReportPanel::setWorkspace(const Workspace& workspace)
{
    m_workspace = workspace;
    refresh();
}

void HealthReportPanel::setExperiment(const ExperimentSpec& spec)
{
    const bool sameData = m_spec && m_spec->dataset.path == spec.dataset.path && m_spec->dataset.format == spec.dataset.format &&
                          m_spec->sourceFile == spec.sourceFile;
    m_spec = spec;
    recountTrain();
    if (!sameData) refresh();
    else updateControls();
}

void HealthReportPanel::setFiles(std::shared_ptr<const DatasetFiles> files)
{
    m_files = std::move(files);
    recountTrain();
    refresh();
}

void HealthReportPanel::recountTrain()
{
    m_trainCounts.clear();
    if (m_files && m_files->train && m_spec) {
        try {
            const auto splits = splitClassCounts(*m_files, m_spec->dataset);
            if (!splits.empty()) m_trainCounts = splits.front().counts;
        } catch (const std::exception&) {  // a bad fraction: the split preview says why
        }
    }
    showImbalance();
}

std::vector<double> HealthReportPanel::suggestedWeights() const
{
    if (!m_trainCounts.empty()) return HealthFixes::lossClassWeights(m_trainCounts);
    if (m_check && !m_check->report.splits.empty()) return HealthFixes::lossClassWeights(m_check->report.splits.front().classCounts);
    return {};
}

void HealthReportPanel::refresh()
{
    ++m_generation;
    if (!m_workspace || !m_spec) {
        m_reading = false;
        m_check.reset();
        showReport();
        return;
    }
    m_status->setText(tr("Reading the latest check…"));
    m_reading = true;
    m_read.setFuture(QtConcurrent::run([workspace = *m_workspace, spec = *m_spec, files = m_files, generation = m_generation]() {
        Read out;
        out.generation = generation;
        try {
            DatasetCatalog catalog(workspace);
            const auto record = catalog.dataset(datasetKey(spec.dataset, experimentDataDirectory(spec)));
            if (record) out.check = catalog.latestCheck(record->id);
            if (out.check && files) out.current = ts::isCurrent(*out.check, *files);  // the job's own test
            // The first pairs of each pair kind, for the files the table names.
            if (out.check)
                for (FindingKind k : {FindingKind::ExactDuplicate, FindingKind::ExactLeak, FindingKind::NearDuplicate,
                                      FindingKind::NearLeak})
                    for (HealthFinding& f : catalog.findings(out.check->id, k, kExamplePairs))
                        out.check->report.findings.push_back(std::move(f));
            // Column findings are few (one per column): kept with the report for the table.
            if (out.check && out.check->report.table)
                for (FindingKind k : {FindingKind::ConstantFeature, FindingKind::NearConstantFeature, FindingKind::TooManyClasses,
                                      FindingKind::MissingValues})
                    for (HealthFinding& f : catalog.findings(out.check->id, k, 50)) out.check->report.findings.push_back(std::move(f));
        } catch (const std::exception& e) {
            out.error = QString::fromStdString(e.what());
        }
        return out;
    }));
}

void HealthReportPanel::onRead()
{
    Read r = m_read.result();
    if (r.generation != m_generation) return;
    m_reading = false;
    m_check = std::move(r.check);
    m_current = r.current;
    m_readError = r.error;
    showReport();
    emit reportChanged();
}

void HealthReportPanel::checkNow()
{
    if (!m_session || !m_spec || !m_workspace || m_jobId > 0) return;
    DataCheckJob job;
    job.experiment = *m_spec;
    job.force = true;  // asked for: check again even when a current report is stored
    m_jobMessage.clear();
    m_refusal->hide();
    const QString name = m_files ? QString::fromStdString(m_files->name) : QString::fromStdString(m_spec->dataset.path);
    m_jobId = m_session->enqueue(job, tr("Data check of %1").arg(name), QString::fromStdString(m_workspace->directory));
    m_progress->setValue(0);
    updateControls();
}

void HealthReportPanel::onJobsChanged()
{
    if (m_jobId <= 0) return;
    const JobRow* row = followCheckJob(*m_session, m_jobId, m_progress, m_status);
    if (!row || !row->isDone()) return;
    m_jobId = 0;
    if (const QString why = checkJobOutcome(*row); !why.isEmpty()) m_jobMessage = why;
    updateControls();
    refresh();
}

QString HealthReportPanel::kindTitle(FindingKind kind) const
{
    switch (kind) {
    case FindingKind::Unreadable: return tr("Unreadable or corrupt samples");
    case FindingKind::ExactDuplicate: return tr("Exact duplicates within a split");
    case FindingKind::ExactLeak: return tr("Exact duplicates across splits (leakage)");
    case FindingKind::NearDuplicate: return tr("Near duplicates within a split");
    case FindingKind::NearLeak: return tr("Near duplicates across splits (leakage)");
    case FindingKind::ClassImbalance: return tr("Class imbalance");
    case FindingKind::ConstantFeature: return tr("Constant features");
    case FindingKind::NearConstantFeature: return tr("Near-constant features");
    case FindingKind::TooManyClasses: return tr("Label column with too many classes");
    case FindingKind::MissingValues: return tr("Columns with missing values");
    case FindingKind::RaggedRow: return tr("Rows with a wrong number of fields");
    }
    return QString::fromLatin1(findingKindName(kind));
}

// Why a sample is unreadable, in the user's words (the engine's causes, dataset_health.h).
QString HealthReportPanel::causeText(const std::string& cause) const
{
    if (cause == "damaged_png") return tr("damaged PNG");
    if (cause == "damaged_jpeg") return tr("damaged JPEG");
    if (cause == "unsupported_image") return tr("unsupported image (CMYK)");
    if (cause == "not_an_image") return tr("not an image");
    if (cause == "damaged_gzip") return tr("damaged gzip");
    if (cause == "image_too_large") return tr("image too large");
    if (cause == "non_finite") return tr("NaN or infinite values");
    if (cause == "unreadable") return tr("unreadable");
    return QString::fromStdString(cause);
}

// The first pairs of a pair kind by their files ("a/x.png = b/y.png"), relative to the dataset's
// folder, and with whole paths (the tool tip); empty when the findings name no files.
std::pair<QString, QString> HealthReportPanel::pairFiles(FindingKind kind) const
{
    if (!isPairKind(kind) || !m_check) return {};
    const QString root = m_files && !m_files->path.empty() ? QString::fromStdString(m_files->path) : QString();
    const auto shortName = [&](const std::string& file) {
        const QString path = QString::fromStdString(file);
        return !root.isEmpty() && path.startsWith(root + '/') ? path.mid(root.size() + 1) : path;
    };
    const QString sign = kind == FindingKind::NearDuplicate || kind == FindingKind::NearLeak ? QStringLiteral(" ~ ")
                                                                                             : QStringLiteral(" = ");
    QStringList shown, whole;
    for (const HealthFinding& f : m_check->report.findings) {
        if (f.kind != kind || f.file.empty() || f.otherFile.empty()) continue;
        shown << shortName(f.file) + sign + shortName(f.otherFile);
        whole << QString::fromStdString(f.file) + sign + QString::fromStdString(f.otherFile);
    }
    if (shown.isEmpty()) return {};
    const std::int64_t more = m_check->report.total(kind) - shown.size();
    QString text = shown.join('\n');
    if (more > 0) text += '\n' + tr("and %1 more").arg(countText(more));
    return {text, whole.join('\n')};
}

// Per split (or pair of splits), with the unreadable causes; column names for a table's findings.
QString HealthReportPanel::whereText(FindingKind kind) const
{
    const HealthReport& r = m_check->report;
    QStringList parts;
    if (kind == FindingKind::ClassImbalance) {
        for (const SplitHealth& s : r.splits)
            parts << tr("%1: ratio %2").arg(splitName(s.split),
                                            std::isinf(s.imbalanceRatio) ? tr("infinite") : QLocale().toString(s.imbalanceRatio, 'f', 2));
        return parts.join(QStringLiteral("; "));
    }
    if (isColumnKind(kind) && kind != FindingKind::RaggedRow) {
        for (const HealthFinding& f : r.findings)
            if (f.kind == kind) parts << QString::fromStdString(f.column);
        return parts.join(QStringLiteral(", "));
    }
    for (const HealthCount& c : r.counts) {
        if (c.kind != kind || c.count == 0) continue;
        QString where = c.otherSplit.empty() || c.otherSplit == c.split
                            ? splitName(c.split)
                            : tr("%1 and %2").arg(splitName(c.split), splitName(c.otherSplit));
        if (where.isEmpty()) where = tr("the table");
        QString text = tr("%1: %2").arg(where, countText(c.count));
        if (!c.cause.empty()) text += QStringLiteral(" (%1)").arg(causeText(c.cause));
        parts << text;
    }
    return parts.join(QStringLiteral("; "));
}

void HealthReportPanel::showReport()
{
    m_table->setRowCount(0);
    m_showButtons.clear();
    const QString name = m_files ? QString::fromStdString(m_files->name)
                       : m_spec  ? QString::fromStdString(m_spec->dataset.path)
                                 : QString();
    m_title->setText(name.isEmpty() ? tr("Health report") : tr("Health report of %1").arg(name));
    QString status;
    if (!m_readError.isEmpty())
        status = tr("The store cannot be read: %1").arg(m_readError);
    else if (!m_spec || !m_workspace)
        status = tr("Open a dataset to check its health.");
    else if (!m_check)
        status = tr("This dataset has not been checked yet: Check now finds corrupt samples, duplicates, leakage between "
                    "splits and class imbalance.");
    else {
        const QString when = QLocale().toString(QDateTime::fromSecsSinceEpoch(qint64(m_check->created)), QLocale::ShortFormat);
        status = m_current ? tr("Checked %1 in %2 s; the files are unchanged since.")
                                 .arg(when, QLocale().toString(m_check->report.seconds, 'f', 1))
               : m_files   ? tr("Checked %1, but the files have changed since: this report is out of date. Check again.").arg(when)
                           : tr("Checked %1.").arg(when);
    }
    if (!m_jobMessage.isEmpty()) status += '\n' + m_jobMessage;
    if (m_check && !m_check->report.openError.empty())
        status += '\n' + tr("The reader refused the data: %1").arg(QString::fromStdString(m_check->report.openError));
    m_status->setText(status);

    if (m_check) {
        const HealthReport& r = m_check->report;
        std::vector<FindingKind> kinds = {FindingKind::Unreadable, FindingKind::ExactDuplicate, FindingKind::ExactLeak};
        if (r.images) kinds.insert(kinds.end(), {FindingKind::NearDuplicate, FindingKind::NearLeak});
        kinds.push_back(FindingKind::ClassImbalance);
        if (r.table)
            kinds.insert(kinds.end(), {FindingKind::ConstantFeature, FindingKind::NearConstantFeature, FindingKind::TooManyClasses,
                                       FindingKind::MissingValues, FindingKind::RaggedRow});
        m_table->setRowCount(int(kinds.size()));
        for (int row = 0; row < int(kinds.size()); ++row) {
            const FindingKind k = kinds[std::size_t(row)];
            const std::int64_t n = r.total(k);
            QString title = tr("%1: %2").arg(kindTitle(k), countText(n));
            if (k == FindingKind::NearDuplicate || k == FindingKind::NearLeak)
                title += ' ' + tr("(within %1 of 64 bits)").arg(r.nearThreshold);
            const QString where = whereText(k);
            const auto [pairs, pairPaths] = pairFiles(k);
            QString text = where.isEmpty() ? title : title + '\n' + where;
            if (!pairs.isEmpty()) text += '\n' + pairs;
            auto* item = new QTableWidgetItem(text);
            item->setData(Qt::UserRole, QString::fromLatin1(findingKindName(k)));
            item->setData(Qt::UserRole + 1, qlonglong(n));
            if (n > 0 && k != FindingKind::ClassImbalance) item->setForeground(QColor(192, 57, 43));
            item->setToolTip(pairPaths.isEmpty() ? item->text() : title + '\n' + pairPaths);
            m_table->setItem(row, 0, item);
            if (showsSamples(k)) {
                auto* show = new QPushButton(tr("Show"), m_table);
                show->setEnabled(n > 0);
                show->setToolTip(isPairKind(k) ? tr("List these pairs in the grid, side by side")
                                               : tr("List these samples in the grid"));
                connect(show, &QPushButton::clicked, this, [this, k] { showFindings(k); });
                m_table->setCellWidget(row, 1, show);
                m_showButtons.push_back({k, show});
            }
        }
        if (r.findingsCapped)
            m_status->setText(m_status->text() + '\n' +
                              tr("Some kinds have more findings than were kept; the counts are exact."));
    }
    showImbalance();
    updateControls();
}

void HealthReportPanel::showImbalance()
{
    const std::vector<std::int64_t> counts =
        !m_trainCounts.empty() ? m_trainCounts
        : m_check && !m_check->report.splits.empty() ? m_check->report.splits.front().classCounts
                                                     : std::vector<std::int64_t>{};
    if (counts.empty()) {
        m_imbalance->setText(tr("Class imbalance: open a dataset to count its classes."));
        updateControls();
        return;
    }
    const double ratio = imbalanceRatio(counts);
    QStringList weights;
    for (double w : HealthFixes::lossClassWeights(counts)) weights << QLocale().toString(w, 'g', 4);
    QString text = tr("The training split's largest class / smallest class: %1.")
                       .arg(std::isinf(ratio) ? tr("infinite (a class has no samples)")
                            : std::isnan(ratio) ? tr("no samples")
                                                : QLocale().toString(ratio, 'f', 2));
    text += ' ' + tr("Weights n / (k · count) per class: %1.").arg(weights.join(QStringLiteral(", ")));
    if (m_spec) {
        if (HealthFixes::usesLossClassWeights(*m_spec)) text += ' ' + tr("The loss already uses class weights.");
        if (HealthFixes::usesClassBalancedSampler(*m_spec)) text += ' ' + tr("The class-balanced sampler is in use.");
    }
    m_imbalance->setText(text);
    updateControls();
}

void HealthReportPanel::updateControls()
{
    const bool checking = m_jobId > 0;
    m_checkNow->setEnabled(m_session && m_spec && m_workspace && !checking);
    m_checkNow->setToolTip(!m_session ? tr("Checks run on the studio's job queue, which is not available here.")
                                      : tr("Queue a health check of this dataset on the job queue (the report is kept in "
                                           "the workspace until the files change)."));
    m_stop->setVisible(checking);
    m_progress->setVisible(checking);
    const bool haveCounts = !m_trainCounts.empty() || (m_check && !m_check->report.splits.empty());
    m_useWeights->setEnabled(m_spec && haveCounts);
    m_useSampler->setEnabled(m_spec && !(m_spec && HealthFixes::usesClassBalancedSampler(*m_spec)));
}

QPushButton* HealthReportPanel::showButton(FindingKind kind) const
{
    for (const auto& [k, b] : m_showButtons)
        if (k == kind) return b;
    return nullptr;
}

QString HealthReportPanel::refusal() const { return m_refusal->isHidden() ? QString() : m_refusal->text(); }

void HealthReportPanel::showFindings(FindingKind kind)
{
    if (!m_check || !m_workspace) return;
    const std::int64_t total = m_check->report.total(kind);
    const QString title = isPairKind(kind) ? tr("%1: %2 pairs").arg(kindTitle(kind), countText(total))
                                           : tr("%1: %2 samples").arg(kindTitle(kind), countText(total));
    m_showing = true;
    m_show.setFuture(QtConcurrent::run([workspace = *m_workspace, checkId = m_check->id, kind, title]() {
        Shown out;
        out.title = title;
        try {
            DatasetCatalog catalog(workspace);
            for (const HealthFinding& f : catalog.findings(checkId, kind))
                if (f.sample >= 0) out.refs.push_back(refOf(f));
        } catch (const std::exception& e) {
            out.error = QString::fromStdString(e.what());
        }
        return out;
    }));
}

void HealthReportPanel::useClassWeights()
{
    if (!m_spec) return;
    QString why;
    const auto edited = HealthFixes::withLossClassWeights(*m_spec, suggestedWeights(), &why);
    m_refusal->setText(why);
    m_refusal->setVisible(!why.isEmpty());
    if (!edited) return;
    m_spec = *edited;
    showImbalance();
    emit experimentEdited(*edited);
}

void HealthReportPanel::useClassBalancedSampler()
{
    if (!m_spec) return;
    m_refusal->hide();
    m_spec = HealthFixes::withClassBalancedSampler(*m_spec);
    showImbalance();
    emit experimentEdited(*m_spec);
}

void HealthReportPanel::retranslate()
{
    m_checkNow->setText(tr("Check now"));
    m_stop->setText(tr("Stop"));
    m_useWeights->setText(tr("Use class weights in the loss"));
    m_useWeights->setToolTip(tr("Weight the CrossEntropy loss by n / (k · count) per class of the training split, so every "
                                "class counts equally (the loss's class_weights; replaces the class-balanced sampler)."));
    m_useSampler->setText(tr("Use the class-balanced sampler"));
    m_useSampler->setToolTip(tr("Draw every class equally often in each epoch (dataset.loader.sampler: class_balanced; removes "
                                "the loss's class weights)."));
    showReport();
}

void HealthReportPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) retranslate();
}

}  // namespace ts::ui

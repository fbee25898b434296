#include "model_diff_view.h"

#include <QComboBox>
#include <QDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>

#include "confusion_plot.h"
#include "sample_gallery.h"
#include "store/run_writer.h"

namespace ts::ui {

namespace {

const QColor kBetter(33, 102, 172), kWorse(178, 24, 43);  // ColorBrewer RdBu ends
constexpr int kSortRole = Qt::UserRole + 1;

QString percent(double share, int decimals = 1) { return QLocale().toString(share * 100, 'f', decimals); }

QStandardItem* numberItem(const QString& text, double sortValue)
{
    auto* item = new QStandardItem(text);
    item->setData(sortValue, kSortRole);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

QStandardItem* deltaItem(double change)
{
    QStandardItem* item = numberItem(signedPoints(change), change);
    if (std::fabs(change) >= 0.0005) item->setForeground(change > 0 ? kBetter : kWorse);
    return item;
}

// A class by name (or number), sorted by its number.
QStandardItem* classItem(const QString& name, std::int64_t c)
{
    QStandardItem* item = numberItem(name, double(c));
    item->setTextAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    return item;
}

// Test first, as the evaluate job's default; then validation, then training.
int splitRank(const std::string& split) { return split == "test" ? 0 : split == "val" ? 1 : split == "train" ? 2 : 3; }

// The newest evaluation of `split` (evaluations come oldest first).
const EvaluationRecord* newestOn(const std::vector<EvaluationRecord>& evaluations, const std::string& split)
{
    for (auto it = evaluations.rbegin(); it != evaluations.rend(); ++it)
        if (it->split == split) return &*it;
    return nullptr;
}

}  // namespace

ModelDiffView::ModelDiffView(QWidget* parent) : QWidget(parent)
{
    m_message = new QLabel;
    m_message->setObjectName(QStringLiteral("modelDiffMessage"));
    m_message->setWordWrap(true);
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setMargin(12);

    m_splitBox = new QComboBox;
    m_splitBox->setObjectName(QStringLiteral("modelDiffSplit"));
    m_splitBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    auto* splitLabel = new QLabel(tr("Split:"));
    splitLabel->setBuddy(m_splitBox);
    m_header = new QLabel;
    m_header->setObjectName(QStringLiteral("modelDiffHeader"));
    m_header->setWordWrap(true);
    m_header->setTextFormat(Qt::RichText);
    auto* bar = new QHBoxLayout;
    bar->addWidget(splitLabel);
    bar->addWidget(m_splitBox);
    bar->addSpacing(12);
    bar->addWidget(m_header, 1);

    // One line, however long the reason (the whole of it in the tooltip): the tables keep their room.
    m_namesNote = new QLabel;
    m_namesNote->setObjectName(QStringLiteral("modelDiffNamesNote"));
    m_namesNote->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    m_namesNote->hide();
    m_namesNote->installEventFilter(this);

    m_heatMap = new ConfusionPlot;
    m_heatMap->setObjectName(QStringLiteral("modelDiffHeatMap"));
    m_heatMap->setMinimumSize(160, 160);

    m_perClass = new QStandardItemModel(this);
    auto* perClassProxy = new QSortFilterProxyModel(this);
    perClassProxy->setSourceModel(m_perClass);
    perClassProxy->setSortRole(kSortRole);
    m_perClassView = new QTableView;
    m_perClassView->setObjectName(QStringLiteral("modelDiffPerClass"));
    m_perClassView->setModel(perClassProxy);

    m_listBox = new QComboBox;
    m_listBox->setObjectName(QStringLiteral("modelDiffList"));
    m_listBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_viewImages = new QPushButton(tr("View as Images"));
    m_viewImages->setObjectName(QStringLiteral("modelDiffViewImages"));
    m_viewImages->setToolTip(tr("Show these samples (or the selected ones) as images, with the predictions of the run "
                                "that gets them wrong; double-click a row for the selected samples"));
    m_samples = new QStandardItemModel(this);
    auto* samplesProxy = new QSortFilterProxyModel(this);
    samplesProxy->setSourceModel(m_samples);
    samplesProxy->setSortRole(kSortRole);
    m_samplesView = new QTableView;
    m_samplesView->setObjectName(QStringLiteral("modelDiffSamples"));
    m_samplesView->setModel(samplesProxy);
    m_samplesView->setSelectionBehavior(QAbstractItemView::SelectRows);
    for (QTableView* view : {m_perClassView, m_samplesView}) {
        view->setSortingEnabled(true);
        view->sortByColumn(-1, Qt::AscendingOrder);
        view->setEditTriggers(QAbstractItemView::NoEditTriggers);
        view->verticalHeader()->hide();
        view->setAlternatingRowColors(true);
        view->horizontalHeader()->setStretchLastSection(true);
        view->setMinimumWidth(120);
        view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    }
    auto* listBar = new QHBoxLayout;
    listBar->addWidget(m_listBox, 1);
    listBar->addWidget(m_viewImages);
    auto* samplesPane = new QWidget;
    auto* samplesLayout = new QVBoxLayout(samplesPane);
    samplesLayout->setContentsMargins(0, 0, 0, 0);
    samplesLayout->addLayout(listBar);
    samplesLayout->addWidget(m_samplesView, 1);

    // The matrix left, as large as it can be; the tables stacked on its right.
    auto* tables = new QSplitter(Qt::Vertical);
    tables->addWidget(m_perClassView);
    tables->addWidget(samplesPane);
    auto* splitter = new QSplitter(Qt::Horizontal);
    splitter->addWidget(m_heatMap);
    splitter->addWidget(tables);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({1000, 1000});  // scaled to the width it gets
    auto* page = new QWidget;
    auto* pageLayout = new QVBoxLayout(page);
    pageLayout->setContentsMargins(4, 4, 4, 4);
    pageLayout->addLayout(bar);
    pageLayout->addWidget(m_namesNote);
    pageLayout->addWidget(splitter, 1);

    m_stack = new QStackedWidget;
    m_stack->addWidget(m_message);
    m_stack->addWidget(page);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);

    connect(m_splitBox, &QComboBox::activated, this, [this](int index) {
        try {
            chooseSplit(m_splitBox->itemData(index).toString());
        } catch (const std::exception& e) {  // a store that cannot be read now: say so, the next poll retries
            m_shown.reset();
            showMessage(tr("Cannot read the evaluations: %1").arg(QString::fromUtf8(e.what())));
        }
    });
    connect(m_listBox, &QComboBox::activated, this, &ModelDiffView::fillSamples);
    connect(m_viewImages, &QPushButton::clicked, this, [this] { requestSamples(false); });
    connect(m_samplesView, &QTableView::doubleClicked, this, [this] { requestSamples(true); });
    connect(&m_watcher, &QFutureWatcher<Outcome>::finished, this, &ModelDiffView::finished);
    showMessage(tr("Select exactly two runs to compare their evaluations sample by sample."));
}

ModelDiffView::~ModelDiffView() { m_watcher.waitForFinished(); }  // the worker holds no pointer to this, but let it end

void ModelDiffView::clear()
{
    m_runA = m_runB = -1;
    m_evaluationsA.clear();
    m_evaluationsB.clear();
    m_shown.reset();
    m_comparison.reset();
    m_reader = nullptr;
    showMessage(tr("Select exactly two runs to compare their evaluations sample by sample."));
}

void ModelDiffView::showMessage(const QString& text)
{
    m_message->setText(text);
    m_stack->setCurrentWidget(m_message);
}

QString ModelDiffView::messageText() const { return m_stack->currentWidget() == m_message ? m_message->text() : QString(); }
QString ModelDiffView::split() const { return m_shown ? QString::fromStdString(m_shown->a.split) : QString(); }

void ModelDiffView::showRuns(RunReader& reader, const QList<qint64>& runIds)
{
    if (runIds.size() != 2) {
        clear();
        return;
    }
    m_reader = &reader;
    std::vector<EvaluationRecord> a = reader.evaluations(runIds[0]), b = reader.evaluations(runIds[1]);
    auto ids = [](const std::vector<EvaluationRecord>& records) {
        std::vector<std::int64_t> out;
        for (const EvaluationRecord& r : records) out.push_back(r.id);
        return out;
    };
    if (runIds[0] == m_runA && runIds[1] == m_runB && ids(a) == ids(m_evaluationsA) && ids(b) == ids(m_evaluationsB))
        return;  // nothing new: a poll while other runs train
    const bool samePair = runIds[0] == m_runA && runIds[1] == m_runB;
    m_runA = runIds[0];
    m_runB = runIds[1];
    const std::optional<RunInfo> infoA = reader.run(m_runA), infoB = reader.run(m_runB);
    auto name = [&](qint64 id, const std::optional<RunInfo>& info) {
        return tr("%1 · %2").arg(id).arg(info ? QString::fromStdString(info->name) : QString());
    };
    m_nameA = name(m_runA, infoA);
    m_nameB = name(m_runB, infoB);
    m_experimentA = infoA ? infoA->experimentYaml : std::string();
    m_evaluationsA = std::move(a);
    m_evaluationsB = std::move(b);

    std::vector<std::string> shared;
    for (const EvaluationRecord& r : m_evaluationsA)
        if (newestOn(m_evaluationsB, r.split) && std::find(shared.begin(), shared.end(), r.split) == shared.end())
            shared.push_back(r.split);
    std::sort(shared.begin(), shared.end(), [](const std::string& x, const std::string& y) {
        return splitRank(x) != splitRank(y) ? splitRank(x) < splitRank(y) : x < y;
    });
    const QString previous = samePair ? split() : QString();
    {
        const QSignalBlocker block(m_splitBox);
        m_splitBox->clear();
        for (const std::string& s : shared) m_splitBox->addItem(QString::fromStdString(s), QString::fromStdString(s));
        m_splitBox->setCurrentIndex(std::max(0, m_splitBox->findData(previous)));
    }
    m_splitBox->setEnabled(shared.size() > 1);
    if (shared.empty()) {
        m_shown.reset();
        m_comparison.reset();
        auto splits = [](const std::vector<EvaluationRecord>& records) {
            QStringList out;
            for (const EvaluationRecord& r : records) out << QString::fromStdString(r.split);
            out.removeDuplicates();
            return out.isEmpty() ? tr("none") : out.join(QStringLiteral(", "));
        };
        showMessage(tr("These two runs have no evaluation on a common split (run %1: %2; run %3: %4). Evaluate both on "
                       "the same split to compare them sample by sample: select each run alone and choose Evaluate on "
                       "the Runs page's toolbar, or run trainstudio-cli eval RUN --split test.")
                        .arg(m_runA)
                        .arg(splits(m_evaluationsA))
                        .arg(m_runB)
                        .arg(splits(m_evaluationsB)));
        return;
    }
    chooseSplit(m_splitBox->currentData().toString());
}

// Compares the two runs' newest evaluations of `split`: predictions read here, compared on a worker.
void ModelDiffView::chooseSplit(const QString& split)
{
    const EvaluationRecord* a = newestOn(m_evaluationsA, split.toStdString());
    const EvaluationRecord* b = newestOn(m_evaluationsB, split.toStdString());
    if (!a || !b || !m_reader) return;
    if (m_shown && m_shown->a.id == a->id && m_shown->b.id == b->id) return;
    m_shown = Evaluations{*a, *b};
    m_comparison.reset();
    if (a->classes != b->classes) {
        showMessage(tr("Run %1 was evaluated with %2 classes and run %3 with %4: they were trained on different "
                       "datasets and cannot be compared sample by sample.")
                        .arg(m_runA)
                        .arg(a->classes)
                        .arg(m_runB)
                        .arg(b->classes));
        emit comparisonShown();
        return;
    }
    showMessage(tr("Comparing the evaluations of runs %1 and %2 on the %3 split…").arg(m_runA).arg(m_runB).arg(split));
    openClassNames(a->split);
    std::vector<Prediction> predictionsA = m_reader->predictions(a->id), predictionsB = m_reader->predictions(b->id);
    const std::int64_t classes = a->classes;
    // A comparison still running for an earlier choice goes on; finished() drops its result.
    m_watcher.setFuture(QtConcurrent::run([pa = std::move(predictionsA), pb = std::move(predictionsB), classes,
                                           ids = std::pair(a->id, b->id)] {
        Outcome outcome{ids, {}, {}};
        try {
            outcome.comparison = compareEvaluations(pa, pb, classes);
        } catch (const std::invalid_argument& e) {
            outcome.error = QString::fromUtf8(e.what());
        }
        return outcome;
    }));
}

void ModelDiffView::finished()
{
    Outcome outcome = m_watcher.result();
    if (!m_shown || outcome.evaluations != std::pair(m_shown->a.id, m_shown->b.id)) return;  // superseded
    if (!outcome.comparison) {
        showMessage(tr("The evaluations of runs %1 and %2 cannot be compared: %3").arg(m_runA).arg(m_runB).arg(outcome.error));
        emit comparisonShown();
        return;
    }
    m_comparison = std::move(outcome.comparison);
    const EvaluationComparison& c = *m_comparison;
    m_header->setText(tr("<b>A</b> = %1, epoch %2: accuracy %3 % &nbsp; <b>B</b> = %4, epoch %5: accuracy %6 % &nbsp; (%7 samples)")
                          .arg(m_nameA.toHtmlEscaped())
                          .arg(m_shown->a.epoch)
                          .arg(percent(c.accuracyA, 2), m_nameB.toHtmlEscaped())
                          .arg(m_shown->b.epoch)
                          .arg(percent(c.accuracyB, 2), QLocale().toString(qint64(c.samples))));
    {
        const QSignalBlocker block(m_listBox);
        const int chosen = std::max(0, m_listBox->currentIndex());
        m_listBox->clear();
        m_listBox->addItem(tr("A right, B wrong: %1").arg(QLocale().toString(qint64(c.aRightBWrong.size()))));
        m_listBox->addItem(tr("B right, A wrong: %1").arg(QLocale().toString(qint64(c.bRightAWrong.size()))));
        m_listBox->setCurrentIndex(chosen);
    }
    m_stack->setCurrentIndex(1);
    fillPerClass();
    fillSamples();
    m_heatMap->setDifference(c.normalisedDifference);
    emit comparisonShown();
}

QString ModelDiffView::countsText() const
{
    QStringList lines;
    for (int i = 0; i < m_listBox->count(); ++i) lines << m_listBox->itemText(i);
    return lines.join(QLatin1Char('\n'));
}

void ModelDiffView::fillPerClass()
{
    const EvaluationComparison& c = *m_comparison;
    m_perClass->clear();
    m_perClass->setHorizontalHeaderLabels(
        {tr("Class"), tr("Recall A"), tr("Recall B"), tr("Δ recall"), tr("Δ F1"), tr("Support")});
    for (std::size_t k = 0; k < c.perClass.size(); ++k) {
        const ClassComparison& s = c.perClass[k];
        m_perClass->appendRow({classItem(className(std::int64_t(k)), std::int64_t(k)), numberItem(percent(s.a.recall), s.a.recall), numberItem(percent(s.b.recall), s.b.recall),
                               deltaItem(s.recallDelta), deltaItem(s.f1Delta),
                               numberItem(QLocale().toString(qint64(s.a.support)), double(s.a.support))});
    }
    m_perClass->setHeaderData(3, Qt::Horizontal, tr("B − A, in percentage points"), Qt::ToolTipRole);
    m_perClass->setHeaderData(4, Qt::Horizontal, tr("F1 of B − F1 of A, in percentage points (precision and recall together)"), Qt::ToolTipRole);
    m_perClassView->resizeColumnsToContents();
}

void ModelDiffView::fillSamples()
{
    if (!m_comparison) return;
    const auto& list = m_listBox->currentIndex() == 1 ? m_comparison->bRightAWrong : m_comparison->aRightBWrong;
    m_samples->clear();
    m_samples->setHorizontalHeaderLabels({tr("Sample"), tr("Label"), tr("A predicts"), tr("A confidence"),
                                          tr("B predicts"), tr("B confidence")});
    for (const SampleDisagreement& d : list) {
        auto cls = [this](std::int64_t c) { return classItem(className(c), c); };
        m_samples->appendRow({numberItem(QString::number(d.sample), double(d.sample)), cls(d.label), cls(d.predictedA),
                              numberItem(percent(d.confidenceA) + QStringLiteral(" %"), d.confidenceA), cls(d.predictedB),
                              numberItem(percent(d.confidenceB) + QStringLiteral(" %"), d.confidenceB)});
    }
    m_samplesView->resizeColumnsToContents();
}

void ModelDiffView::requestSamples(bool selectedOnly)
{
    if (!m_comparison || !m_shown) return;
    QList<qint64> indices;
    if (selectedOnly) {
        for (const QModelIndex& row : m_samplesView->selectionModel()->selectedRows())
            indices << row.data(kSortRole).toLongLong();  // column 0: the sample index
        std::sort(indices.begin(), indices.end());
    } else {
        const bool bRight = m_listBox->currentIndex() == 1;
        for (const SampleDisagreement& d : bRight ? m_comparison->bRightAWrong : m_comparison->aRightBWrong) indices << d.sample;
    }
    if (indices.isEmpty()) return;
    const bool bRight = m_listBox->currentIndex() == 1;
    const QString title = bRight ? tr("Run %1 right, run %2 wrong (%3 split)").arg(m_runB).arg(m_runA).arg(split())
                                 : tr("Run %1 right, run %2 wrong (%3 split)").arg(m_runA).arg(m_runB).arg(split());
    emit samplesRequested(bRight ? m_runA : m_runB, split(), indices, title);
    showSamplesWindow(bRight ? m_runA : m_runB, indices, title);
}

// The samples as images in a window of their own beside the comparison (one, reused), with
// the predictions of the run that gets them wrong.
void ModelDiffView::showSamplesWindow(qint64 runId, const QList<qint64>& sampleIndices, const QString& title)
{
    if (!m_reader) return;
    if (!m_samplesWindow) {
        m_samplesWindow = new QDialog(this);
        m_samplesWindow->setObjectName(QStringLiteral("twoModelsSamples"));
        auto* layout = new QVBoxLayout(m_samplesWindow);
        m_gallery = new SampleGallery;
        layout->addWidget(m_gallery);
        m_samplesWindow->resize(900, 640);
    }
    try {
        m_gallery->showRunSamples(*m_reader, runId, split(), sampleIndices, title);
    } catch (const StoreError& e) {
        m_gallery->clear();
        showMessage(tr("Cannot read the predictions: %1").arg(QString::fromUtf8(e.what())));
        return;
    }
    m_samplesWindow->setWindowTitle(title);
    m_samplesWindow->show();
    m_samplesWindow->raise();
    m_samplesWindow->activateWindow();
}

// The class names of run A's dataset, from the compared split (the same files, whichever
// split: but the split is what the evaluations were of, so the one sure to exist).
void ModelDiffView::openClassNames(const std::string& split)
{
    const std::pair wanted(m_experimentA, split);
    if (wanted == m_namesFrom && (m_namesWatcher || !m_classNames.isEmpty())) return;  // a failure is tried again
    m_namesFrom = wanted;
    m_classNames.clear();
    m_namesError.clear();
    applyClassNames();
    auto* watcher = new QFutureWatcher<OpenedSplit>(this);
    m_namesWatcher = watcher;
    connect(watcher, &QFutureWatcher<OpenedSplit>::finished, this, [this, watcher] {
        watcher->deleteLater();
        if (watcher != m_namesWatcher) return;  // a split no longer shown
        m_namesWatcher = nullptr;
        const OpenedSplit opened = watcher->result();
        m_classNames = opened.classNames;
        m_namesError = opened.error;
        applyClassNames();
    });
    watcher->setFuture(openEvaluatedSplitOfRunAsync(m_experimentA, split));
}

QString ModelDiffView::className(std::int64_t c) const
{
    return c >= 0 && c < m_classNames.size() && !m_classNames[int(c)].isEmpty() ? m_classNames[int(c)] : QString::number(c);
}

QString ModelDiffView::classNamesNote() const { return m_namesNoteText; }

bool ModelDiffView::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_namesNote && event->type() == QEvent::Resize)
        m_namesNote->setText(m_namesNote->fontMetrics().elidedText(m_namesNoteText, Qt::ElideRight, m_namesNote->width()));
    return QWidget::eventFilter(watched, event);
}

void ModelDiffView::applyClassNames()
{
    const QString reason = m_namesError.section(QLatin1Char('\n'), 0, 0).trimmed();
    m_namesNoteText = reason.isEmpty() ? QString() : tr("Classes are shown by number: the dataset cannot be opened (%1).").arg(reason);
    m_namesNote->setText(m_namesNote->fontMetrics().elidedText(m_namesNoteText, Qt::ElideRight, m_namesNote->width()));
    m_namesNote->setToolTip(m_namesError);  // the whole of it
    m_namesNote->setVisible(!reason.isEmpty());
    m_heatMap->setClassNames(m_classNames);
    auto rename = [this](QStandardItemModel* model, std::initializer_list<int> columns) {
        for (int row = 0; row < model->rowCount(); ++row)
            for (int column : columns)
                if (QStandardItem* item = model->item(row, column)) item->setText(className(item->data(kSortRole).toLongLong()));
    };
    rename(m_perClass, {0});
    rename(m_samples, {1, 2, 4});
    m_perClassView->resizeColumnsToContents();
    m_samplesView->resizeColumnsToContents();
}

}  // namespace ts::ui

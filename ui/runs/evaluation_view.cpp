#include "evaluation_view.h"

#include "ui/metric_names.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedWidget>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include <cmath>

#include "evaluation_curves.h"
#include "sample_gallery.h"
#include "store/label_overlay.h"

namespace ts::ui {

namespace {
QString number(double v, int digits = 4) { return std::isfinite(v) ? QLocale().toString(v, 'f', digits) : QStringLiteral("—"); }
}  // namespace

EvaluationView::EvaluationView(QWidget* parent) : QWidget(parent)
{
    auto* none = new QLabel(tr("No evaluation yet. Evaluate the run (Runs page > Evaluate, or trainstudio-cli eval RUN) "
                               "to see its confusion matrix, per-class scores and calibration here."));
    none->setWordWrap(true);
    none->setAlignment(Qt::AlignCenter);

    m_summary = new QLabel;
    m_summary->setObjectName(QStringLiteral("evaluationSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    // Confusion: the matrix beside the samples its cells hold.
    m_confusion = new ConfusionPlot;
    m_confusion->setObjectName(QStringLiteral("confusionPlot"));
    connect(m_confusion, &ConfusionPlot::cellClicked, this, &EvaluationView::showConfusionCell);
    m_cellText = new QComboBox;
    m_cellText->setObjectName(QStringLiteral("confusionCellText"));
    m_cellText->addItem(tr("Counts"), int(ConfusionPlot::CellText::Counts));
    m_cellText->addItem(tr("Row %"), int(ConfusionPlot::CellText::RowPercent));
    m_cellText->setToolTip(tr("What the cells say; their colour is always the share of the true class's row"));
    connect(m_cellText, &QComboBox::currentIndexChanged, this,
            [this] { m_confusion->setCellText(ConfusionPlot::CellText(m_cellText->currentData().toInt())); });
    auto* worst = new QPushButton(tr("Worst samples"));
    worst->setObjectName(QStringLiteral("worstSamplesButton"));
    worst->setToolTip(tr("Every sample, the most confidently wrong first (highest loss −log p(true class))"));
    connect(worst, &QPushButton::clicked, this, &EvaluationView::showWorstSamples);
    auto* cellLabel = new QLabel(tr("Cells:"));
    cellLabel->setBuddy(m_cellText);
    auto* confusionBar = new QHBoxLayout;
    confusionBar->setContentsMargins(0, 0, 0, 0);
    confusionBar->addWidget(cellLabel);
    confusionBar->addWidget(m_cellText);
    confusionBar->addStretch(1);
    confusionBar->addWidget(worst);
    auto* confusionPanel = new QWidget;
    auto* confusionLayout = new QVBoxLayout(confusionPanel);
    confusionLayout->setContentsMargins(0, 0, 0, 0);
    confusionLayout->addLayout(confusionBar);
    confusionLayout->addWidget(m_confusion, 1);
    m_samples = new SampleGallery;
    m_samples->setObjectName(QStringLiteral("evaluationSamples"));
    m_samples->setMinimumWidth(160);
    connect(m_samples, &SampleGallery::splitOpened, this, &EvaluationView::applyClassNames);
    auto* confusionTab = new QSplitter(Qt::Horizontal);
    confusionTab->addWidget(confusionPanel);
    confusionTab->addWidget(m_samples);
    confusionTab->setStretchFactor(0, 1);
    confusionTab->setStretchFactor(1, 1);
    confusionTab->setChildrenCollapsible(false);

    m_perClass = new QStandardItemModel(this);
    m_table = new QTableView;
    m_table->setObjectName(QStringLiteral("perClassTable"));
    m_table->setModel(m_perClass);
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);

    m_curves = new EvaluationCurves;
    m_curves->setObjectName(QStringLiteral("evaluationCurves"));
    m_reliability = new QCustomPlot;
    m_reliability->setObjectName(QStringLiteral("reliabilityPlot"));
    m_reliability->setMinimumSize(120, 120);

    m_tabs = new QTabWidget;
    m_tabs->setObjectName(QStringLiteral("evaluationTabs"));
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(confusionTab, tr("Confusion"));
    m_tabs->addTab(m_table, tr("Per class"));
    m_tabs->addTab(m_curves, tr("ROC and PR curves"));
    m_tabs->addTab(m_reliability, tr("Calibration"));

    auto* report = new QWidget;
    auto* reportLayout = new QVBoxLayout(report);
    reportLayout->setContentsMargins(4, 4, 4, 4);
    reportLayout->addWidget(m_summary);
    reportLayout->addWidget(m_tabs, 1);
    reportLayout->addStretch();  // keeps the summary at the top while the tabs are hidden (regression)
    auto* scroll = new QScrollArea;  // a small window scrolls the report instead of growing
    scroll->setWidget(report);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    m_stack = new QStackedWidget;
    m_stack->addWidget(none);
    m_stack->addWidget(scroll);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);
}

void EvaluationView::clear()
{
    m_evaluationId = -1;
    m_report.reset();
    m_predictions.clear();
    m_listedCell.reset();
    m_samples->clear();
    m_curves->clear();
    m_stack->setCurrentIndex(0);
}

void EvaluationView::showRun(RunReader& reader, qint64 runId)
{
    const std::vector<EvaluationRecord> evaluations = reader.evaluations(runId);
    if (evaluations.empty()) {
        clear();
        return;
    }
    const EvaluationRecord& newest = evaluations.back();
    if (newest.id == m_evaluationId) return;
    m_evaluationId = newest.id;
    m_predictions = reader.predictions(newest.id);
    if (newest.classes == 0) {  // a regression's values: none of the class plots apply
        showRegression(newest);
        return;
    }
    m_tabs->setVisible(true);
    try {
        m_report = evaluationReport(m_predictions, newest.classes, fittedTemperature(newest));
    } catch (const std::invalid_argument& e) {  // stored predictions that do not make a report
        m_report.reset();
        m_predictions.clear();
        m_summary->setText(tr("Evaluation %1 cannot be shown: %2").arg(newest.id).arg(QString::fromUtf8(e.what())));
        m_stack->setCurrentIndex(1);
        return;
    }
    // The images and class names: from the split the evaluation predicted, opened meanwhile.
    const std::optional<RunInfo> run = reader.run(runId);
    if (run) m_samples->openSplit(run->experimentYaml, newest.split, runLabelOverlay(reader.workspace(), runId));
    showReport(newest);
}

void EvaluationView::showRegression(const EvaluationRecord& record)
{
    m_report.reset();
    m_samples->clear();
    m_curves->clear();
    const auto metric = [&](const char* name) {
        const auto it = record.metrics.find(record.split + "_" + name);
        return it == record.metrics.end() ? std::nan("") : it->second;
    };
    m_summary->setText(tr("Evaluation of the %1 split at epoch %2 (%3 samples), a regression: MAE %4, RMSE %5, R² %6; "
                          "predicting the training mean instead: MAE %7, RMSE %8")
                           .arg(MetricNames::split(QString::fromStdString(record.split)))
                           .arg(record.epoch)
                           .arg(QLocale().toString(qint64(record.samples)))
                           .arg(number(metric("mae")), number(metric("rmse")), number(metric("r2")),
                                number(metric("baseline_mae")), number(metric("baseline_rmse"))));
    m_tabs->setVisible(false);  // confusion, per class, curves and calibration are about classes
    m_stack->setCurrentIndex(1);
}

void EvaluationView::showReport(const EvaluationRecord& record)
{
    const EvaluationReport& r = *m_report;
    QString summary = tr("Evaluation of the %1 split at epoch %2 (%3 samples): accuracy %4 %, macro F1 %5, "
                         "ECE %6, NLL %7, Brier %8")
                          .arg(MetricNames::split(QString::fromStdString(record.split)))
                          .arg(record.epoch)
                          .arg(QLocale().toString(qint64(record.samples)))
                          .arg(number(r.classification.accuracy() * 100, 2), number(r.classification.macro.f1),
                               number(r.calibration.ece), number(r.calibration.nll), number(r.calibration.brier));
    if (r.temperature)
        summary += tr("; temperature scaling T = %1: ECE %2, NLL %3")
                       .arg(number(*r.temperature, 3), number(r.calibrated.ece), number(r.calibrated.nll));
    m_summary->setText(summary);

    m_confusion->setClassNames(m_samples->split().classNames);
    m_confusion->setMatrix(r.classification.confusion);
    m_curves->setClassNames(m_samples->split().classNames);
    m_curves->setCurves(r.classification.roc, r.classification.precisionRecall);
    fillPerClass();
    drawReliability();
    m_listedCell.reset();
    listSamples();
    m_stack->setCurrentIndex(1);
}

QStringList EvaluationView::classNames() const { return m_samples->split().classNames; }

QString EvaluationView::className(int c) const
{
    const QStringList names = classNames();
    return c >= 0 && c < names.size() && !names[c].isEmpty() ? names[c] : QString::number(c);
}

// Once the split is open (or has failed to open): its class names wherever classes are named.
void EvaluationView::applyClassNames()
{
    if (!m_report) return;
    m_confusion->setClassNames(classNames());
    m_curves->setClassNames(classNames());
    for (int c = 0; c < m_perClass->rowCount(); ++c) m_perClass->item(c, 0)->setText(className(c));
    m_table->resizeColumnsToContents();
    listSamples();  // the title names the classes too
}

void EvaluationView::fillPerClass()
{
    const ClassificationReport& r = m_report->classification;
    m_perClass->clear();
    m_perClass->setHorizontalHeaderLabels(
        {tr("Class"), tr("Precision"), tr("Recall"), tr("F1"), tr("Support"), tr("ROC-AUC"), tr("AP")});
    for (std::size_t c = 0; c < r.perClass.size(); ++c) {
        const ClassScores& s = r.perClass[c];
        auto* name = new QStandardItem(className(int(c)));
        name->setToolTip(tr("Class %1").arg(c));
        QList<QStandardItem*> row{name,
                                  new QStandardItem(number(s.precision)),
                                  new QStandardItem(number(s.recall)),
                                  new QStandardItem(number(s.f1)),
                                  new QStandardItem(QLocale().toString(qint64(s.support))),
                                  new QStandardItem(number(r.roc[c].auc)),
                                  new QStandardItem(number(r.precisionRecall[c].averagePrecision))};
        for (QStandardItem* item : row.mid(1)) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_perClass->appendRow(row);
    }
    m_table->resizeColumnsToContents();
}

void EvaluationView::showConfusionCell(int truth, int predicted)
{
    if (!m_report) return;
    m_listedCell = std::pair(truth, predicted);
    if (m_confusion->selectedCell() != m_listedCell) m_confusion->setSelectedCell(m_listedCell);
    listSamples();
}

void EvaluationView::showWorstSamples()
{
    if (!m_report) return;
    m_listedCell.reset();
    m_confusion->setSelectedCell(std::nullopt);
    listSamples();
}

void EvaluationView::listSamples()
{
    if (!m_listedCell) {
        m_samples->showSamples(tr("Worst samples: all %1, highest loss first").arg(QLocale().toString(qint64(m_predictions.size()))),
                               worstSamples(m_predictions));
        return;
    }
    const auto [truth, predicted] = *m_listedCell;
    std::vector<EvaluatedSample> cell = confusionCellSamples(m_predictions, truth, predicted);
    const QString count = QLocale().toString(qint64(cell.size()));
    const QString name = className(truth), prediction = className(predicted);
    QString title;
    if (truth == predicted)
        title = cell.size() == 1 ? tr("1 sample: %1 predicted correctly").arg(name)
                                 : tr("%1 samples: %2 predicted correctly").arg(count, name);
    else
        title = cell.size() == 1 ? tr("1 sample: %1 predicted as %2").arg(name, prediction)
                                 : tr("%1 samples: %2 predicted as %3").arg(count, name, prediction);
    m_samples->showSamples(title, std::move(cell));
}

// Accuracy against confidence per bin, before and after temperature scaling, over the
// diagonal a perfectly calibrated model would follow.
void EvaluationView::drawReliability()
{
    m_reliability->clearPlottables();
    auto bars = [&](const Calibration& c, const QColor& colour, const QString& name, double offset) {
        auto* b = new QCPBars(m_reliability->xAxis, m_reliability->yAxis);
        b->setName(name);
        b->setPen(QPen(colour));
        QColor fill = colour;
        fill.setAlpha(120);
        b->setBrush(fill);
        const double width = c.bins.empty() ? 0.0 : (c.bins.front().upper - c.bins.front().lower) / 2;
        b->setWidth(width);
        for (const ReliabilityBin& bin : c.bins)
            if (bin.count > 0) b->addData((bin.lower + bin.upper) / 2 + offset * width, bin.accuracy);
    };
    bars(m_report->calibration, QColor(31, 119, 180), tr("as given"), -0.5);
    if (m_report->temperature) bars(m_report->calibrated, QColor(255, 127, 14), tr("scaled"), 0.5);
    QCPGraph* diagonal = m_reliability->addGraph();
    diagonal->setName(tr("ideal"));
    diagonal->setPen(QPen(Qt::gray, 1, Qt::DashLine));
    diagonal->setData({0, 1}, {0, 1});
    m_reliability->xAxis->setLabel(tr("Confidence"));
    m_reliability->yAxis->setLabel(tr("Accuracy"));
    m_reliability->xAxis->setRange(0, 1);
    m_reliability->xAxis->ticker()->setTickCount(4);  // 0, 0.25, ...: room for the labels in a narrow plot
    m_reliability->yAxis->setRange(0, 1.05);
    m_reliability->legend->setVisible(true);
    QFont small = m_reliability->font();
    small.setPointSizeF(small.pointSizeF() * 0.8);
    m_reliability->legend->setFont(small);
    m_reliability->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    m_reliability->replot();
}

QString EvaluationView::summaryText() const { return m_summary->text(); }

}  // namespace ts::ui

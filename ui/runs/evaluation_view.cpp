#include "evaluation_view.h"

#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedWidget>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include <cmath>

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
    m_confusion = new QCustomPlot;
    m_confusion->setObjectName(QStringLiteral("confusionPlot"));
    m_reliability = new QCustomPlot;
    m_reliability->setObjectName(QStringLiteral("reliabilityPlot"));
    for (QCustomPlot* plot : {m_confusion, m_reliability}) plot->setMinimumSize(120, 120);  // the window may be small
    m_perClass = new QStandardItemModel(this);
    auto* table = new QTableView;
    table->setObjectName(QStringLiteral("perClassTable"));
    table->setModel(m_perClass);
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->horizontalHeader()->setStretchLastSection(true);
    table->setMinimumWidth(120);

    auto* splitter = new QSplitter(Qt::Horizontal);
    splitter->addWidget(m_confusion);
    splitter->addWidget(m_reliability);
    splitter->addWidget(table);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 3);
    splitter->setStretchFactor(2, 2);
    m_table = table;
    auto* report = new QWidget;
    auto* reportLayout = new QVBoxLayout(report);
    reportLayout->setContentsMargins(4, 4, 4, 4);
    reportLayout->addWidget(m_summary);
    reportLayout->addWidget(splitter, 1);

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
    try {
        m_report = evaluationReport(reader.predictions(newest.id), newest.classes, fittedTemperature(newest));
    } catch (const std::invalid_argument& e) {  // stored predictions that do not make a report
        m_report.reset();
        m_summary->setText(tr("Evaluation %1 cannot be shown: %2").arg(newest.id).arg(QString::fromUtf8(e.what())));
        m_stack->setCurrentIndex(1);
        return;
    }
    showReport(newest);
}

void EvaluationView::showReport(const EvaluationRecord& record)
{
    const EvaluationReport& r = *m_report;
    QString summary = tr("Evaluation of the %1 split at epoch %2 (%3 samples): accuracy %4 %, macro F1 %5, "
                         "ECE %6, NLL %7, Brier %8")
                          .arg(QString::fromStdString(record.split))
                          .arg(record.epoch)
                          .arg(QLocale().toString(qint64(record.samples)))
                          .arg(number(r.classification.accuracy() * 100, 2), number(r.classification.macro.f1),
                               number(r.calibration.ece), number(r.calibration.nll), number(r.calibration.brier));
    if (r.temperature)
        summary += tr("; temperature scaling T = %1: ECE %2, NLL %3")
                       .arg(number(*r.temperature, 3), number(r.calibrated.ece), number(r.calibrated.nll));
    m_summary->setText(summary);

    m_perClass->clear();
    m_perClass->setHorizontalHeaderLabels({tr("Class"), tr("Precision"), tr("Recall"), tr("F1"), tr("Support"), tr("ROC-AUC")});
    for (std::size_t c = 0; c < r.classification.perClass.size(); ++c) {
        const ClassScores& s = r.classification.perClass[c];
        QList<QStandardItem*> row{new QStandardItem(QString::number(c)), new QStandardItem(number(s.precision)),
                                  new QStandardItem(number(s.recall)), new QStandardItem(number(s.f1)),
                                  new QStandardItem(QLocale().toString(qint64(s.support))),
                                  new QStandardItem(number(r.classification.roc[c].auc))};
        for (QStandardItem* item : row) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_perClass->appendRow(row);
    }
    m_table->resizeColumnsToContents();
    drawConfusion();
    drawReliability();
    m_stack->setCurrentIndex(1);
}

// Rows are the true classes, columns the predictions; the colour is the row's share, so a
// rare class's mistakes show as clearly as a common one's; the counts are written in.
void EvaluationView::drawConfusion()
{
    m_confusion->clearPlottables();
    m_confusion->clearItems();
    const auto& counts = m_report->classification.confusion;
    const int n = int(counts.size());
    const auto shares = rowNormalised(counts);
    auto* map = new QCPColorMap(m_confusion->xAxis, m_confusion->yAxis);
    map->data()->setSize(n, n);
    map->data()->setRange(QCPRange(0, n - 1), QCPRange(0, n - 1));
    // Counts only where a cell holds four digits: cramped cells leave the colour to speak.
    const bool countsFit = m_confusion->width() / std::max(n + 2, 1) >= m_confusion->fontMetrics().horizontalAdvance(QStringLiteral("0000"));
    for (int truth = 0; truth < n; ++truth)
        for (int predicted = 0; predicted < n; ++predicted) {
            map->data()->setCell(predicted, n - 1 - truth, shares[std::size_t(truth)][std::size_t(predicted)]);
            if (!countsFit) continue;
            auto* text = new QCPItemText(m_confusion);
            text->position->setCoords(predicted, n - 1 - truth);
            text->setText(QLocale().toString(qint64(counts[std::size_t(truth)][std::size_t(predicted)])));
            // The thermal gradient runs from dark (0) to bright (1): light text on the dark cells.
            text->setColor(shares[std::size_t(truth)][std::size_t(predicted)] > 0.6 ? Qt::black : Qt::white);
            QFont font = text->font();
            font.setPointSizeF(font.pointSizeF() * (n > 10 ? 0.6 : 0.8));
            text->setFont(font);
        }
    map->setGradient(QCPColorGradient::gpThermal);
    map->setDataRange(QCPRange(0, 1));
    map->setInterpolate(false);
    m_confusion->xAxis->setLabel(tr("Predicted class"));
    m_confusion->yAxis->setLabel(tr("True class"));
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    auto yTicker = QSharedPointer<QCPAxisTickerText>::create();
    for (int c = 0; c < n; ++c) {
        ticker->addTick(c, QString::number(c));
        yTicker->addTick(n - 1 - c, QString::number(c));
    }
    m_confusion->xAxis->setTicker(ticker);
    m_confusion->yAxis->setTicker(yTicker);
    m_confusion->xAxis->setRange(-0.5, n - 0.5);
    m_confusion->yAxis->setRange(-0.5, n - 0.5);
    m_confusion->replot();
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

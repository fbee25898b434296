// The comparison's trade-off chart: one point per run, a result (best validation accuracy,
// final test loss, ...) against a cost (parameters, FLOPs, active time) or a numeric setting,
// with the Pareto front drawn: the runs no other run beats on both at once. Clicking a point
// names its run (runClicked).
#pragma once

#include <QString>
#include <QVector>
#include <QWidget>

#include <vector>

class QComboBox;
class QCustomPlot;

namespace ts::ui {

class ComparisonModel;

struct TradeOffPoint {
    double cost = 0;    // x: lower is better
    double result = 0;  // y
    qint64 runId = -1;
};
// The points no other point dominates (cost no higher and result no worse, one of them
// strictly), by increasing cost. `maximise`: a higher result is better (accuracy).
std::vector<TradeOffPoint> paretoFront(std::vector<TradeOffPoint> points, bool maximise);

class TradeOffChart : public QWidget {
    Q_OBJECT
public:
    explicit TradeOffChart(QWidget* parent = nullptr);
    // Offers the model's numeric rows as axes (results for y; costs and settings for x).
    void setModel(const ComparisonModel* model, const QVector<qint64>& runIds);

    QComboBox* xBox() const { return m_x; }
    QComboBox* yBox() const { return m_y; }
    QCustomPlot* plot() const { return m_plot; }
    const std::vector<TradeOffPoint>& front() const { return m_front; }

signals:
    void runClicked(qint64 runId);

private:
    void redraw();

    const ComparisonModel* m_model = nullptr;
    QVector<qint64> m_runIds;
    std::vector<TradeOffPoint> m_points, m_front;
    QComboBox* m_x = nullptr;
    QComboBox* m_y = nullptr;
    QCustomPlot* m_plot = nullptr;
};

}  // namespace ts::ui

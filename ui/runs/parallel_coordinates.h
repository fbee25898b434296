// The comparison's parallel-coordinates view of a sweep: one vertical axis per setting on
// which the selected runs differ (numbers on a linear scale, or a log scale when they are all
// positive and span more than two decades, as learning rates do; other values as evenly
// spaced labels), then one result axis chosen in a combo box (the results the trade-off chart
// offers), and one polyline per run coloured by that result, with a colour scale. Hovering a
// line highlights it and names its run; clicking it emits runClicked. Painted with QPainter.
// Settings and results come from ComparisonModel (its accessors), never from the YAML.
#pragma once

#include <QStringList>
#include <QVector>
#include <QWidget>

#include <vector>

#include "comparison_model.h"

class QComboBox;
class QLabel;

namespace ts::ui {

class ParallelCoordinates : public QWidget {
    Q_OBJECT
public:
    struct Axis {
        QString name;
        int row = -1;            // the model's row
        bool result = false;     // the chosen result (the last axis)
        bool categorical = false;
        bool log = false;
        double low = 0, high = 0;  // numeric: the range drawn (of log10 values when log)
        QStringList categories;    // categorical: bottom to top
    };

    explicit ParallelCoordinates(QWidget* parent = nullptr);
    // `runs` as given to model->setRuns (their order is the model's run index).
    void setRuns(const ComparisonModel* model, const std::vector<ComparisonModel::Run>& runs);

    QComboBox* resultBox() const { return m_result; }
    const QVector<Axis>& axes() const { return m_axes; }
    // Where run `run` crosses axis `axis`: 0 at the bottom of the axis, 1 at the top; NaN when
    // the run has no value there.
    double position(int axis, int run) const;
    QPointF vertex(int axis, int run) const;  // the same, in the widget's pixels
    int hoveredRun() const { return m_hovered; }  // -1: none
    QColor colourOf(int run) const;

signals:
    void runClicked(qint64 runId);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    void rebuildAxes();
    QRectF plotArea() const;
    int runAt(const QPointF& point) const;  // the run whose line passes within a few pixels; -1: none
    QString valueText(const Axis& axis, double value) const;
    void showHovered();  // the hovered run's name and result above the plot

    const ComparisonModel* m_model = nullptr;
    QVector<qint64> m_runIds;
    QStringList m_runNames;
    QVector<Axis> m_axes;
    QComboBox* m_result = nullptr;
    QWidget* m_bar = nullptr;  // the combo box's row, above the plot
    QLabel* m_hoverLabel = nullptr;
    int m_hovered = -1;
};

}  // namespace ts::ui

// The learning-rate range test's curve: loss against the learning rate on a log axis, the
// seeds' min-max band behind their mean, each seed's curve faint, and the suggested rates as
// labelled vertical lines. Plain numbers in; the page decides what they mean.
#pragma once

#include <QColor>
#include <QString>
#include <QWidget>

#include <vector>

class QCPItemText;
class QCustomPlot;

namespace ts::widgets {

class RangeTestChart : public QWidget {
    Q_OBJECT
public:
    explicit RangeTestChart(QWidget* parent = nullptr);

    // One curve per seed, each (lrs, losses); replaces what was drawn. A curve still running
    // may be shorter than the others.
    void setCurves(const std::vector<std::vector<double>>& lrs, const std::vector<std::vector<double>>& losses);
    // The mean and band over the steps every seed reached (empty: none, e.g. one seed).
    void setBand(const std::vector<double>& lrs, const std::vector<double>& mean, const std::vector<double>& low,
                 const std::vector<double>& high);
    struct Mark {
        double lr = 0;
        QString label;
        QColor color;
    };
    void setMarks(const std::vector<Mark>& marks);
    void clear();
    // The note shown while nothing is drawn ("Run the test to see the curve").
    void setEmptyNote(const QString& note);

    QCustomPlot* plot() const { return m_plot; }  // tests
    int markCount() const { return int(m_marks.size()); }

private:
    void fitAxes();
    void replot();

    QCustomPlot* m_plot;
    std::vector<Mark> m_marks;
    QString m_emptyNote;
    QCPItemText* m_note = nullptr;  // the empty note; items are cleared with the marks
};

}  // namespace ts::widgets

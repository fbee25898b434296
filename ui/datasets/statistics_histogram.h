// The class histogram of the Datasets page: one bar per class and split (train, validation,
// test side by side), class names under the bars. A click on a bar (or anywhere in its
// column above it, so a tiny or empty bar is still a target) says which split and class.
//
// Bars are placed by hand rather than with a QCPBarsGroup so that a pixel maps back to
// (split, class) with plain arithmetic: split s of S sits at key c + (s - (S-1)/2) * w with
// w = 0.8 / S, the same rule barCenter() and barAt() use.
#pragma once

#include <qcustomplot.h>

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "split_counts.h"

namespace ts::ui {

class StatisticsHistogram : public QCustomPlot {
    Q_OBJECT
public:
    explicit StatisticsHistogram(QWidget* parent = nullptr);

    void setCounts(const std::vector<SplitClassCounts>& splits, const QStringList& classNames);
    void clearCounts();

    // Which bar is at `pixel` (split index into the counts given, class): none outside a column.
    std::optional<std::pair<int, int>> barAt(const QPointF& pixel) const;
    // A bar's centre in pixels (after a replot): where a click hits it.
    QPointF barCenter(int split, int classIndex) const;
    QCPBars* bars(int split) const;
    int splitCount() const { return int(m_bars.size()); }
    static QString splitTitle(const std::string& split);  // "Train", translated

    // What the bars count: samples (a click shows them), or a text's lines (the Lengths tab of
    // a language model, whose samples are blocks of equal length): the axis and tool tips say so.
    enum class Counted { Samples, Lines };
    void setCounted(Counted counted);

signals:
    void barClicked(int split, int classIndex);

protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    double barWidth() const { return m_bars.empty() ? 0.8 : 0.8 / double(m_bars.size()); }
    double barKey(int split, int classIndex) const;
    void fitTickLabels();
    void showToolTip(QMouseEvent* event);

    std::vector<SplitClassCounts> m_splits;
    QStringList m_names;
    std::vector<QCPBars*> m_bars;
    Counted m_counted = Counted::Samples;
};

}  // namespace ts::ui

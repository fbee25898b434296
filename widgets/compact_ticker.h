// Axis tick labels with just enough significant digits to tell neighbouring ticks apart:
// "0.3305" instead of "0.330125", "9.99e-4" instead of "0.000999", "0" instead of "-1.4e-17".
// QCustomPlot's own labels use one fixed precision for every range, which is either too long
// (a learning rate, a memory axis in GiB) or too short (a loss that moves in the 4th digit).
#pragma once

#include <qcustomplot.h>

namespace ts::widgets {

// The label of `value` on an axis whose ticks are `step` apart (step <= 0: a lone tick), in
// the shorter of fixed and scientific notation.
QString compactTickLabel(double value, double step, const QLocale& locale);

class CompactTicker : public QCPAxisTicker {
protected:
    QVector<QString> createLabelVector(const QVector<double>& ticks, const QLocale& locale, QChar formatChar,
                                       int precision) override;
};

}  // namespace ts::widgets

#include "compact_ticker.h"

#include <cmath>

namespace ts::widgets {

namespace {
constexpr int kMaxFixedDecimals = 4;  // beyond this, 9.99e-4 reads better than 0.000999
constexpr double kMaxFixed = 1e6;

QString stripZeros(QString text, QChar point)
{
    if (!text.contains(point)) return text;
    while (text.endsWith(QLatin1Char('0'))) text.chop(1);
    if (text.endsWith(point)) text.chop(1);
    return text;
}
// The decimals that write `unit` exactly (0.25 -> 2, 5 -> 0, 2000 -> -3): QCustomPlot's steps
// are 1, 2, 2.5 or 5 times a power of ten, so at most two digits past the leading one.
int resolutionDecimals(double unit)
{
    const int leading = -int(std::floor(std::log10(unit) + 1e-9));
    for (int d = leading; d < leading + 2; ++d) {
        const double scaled = unit * std::pow(10.0, d);
        if (std::abs(scaled - std::round(scaled)) < 1e-6 * scaled) return d;
    }
    return leading + 2;
}
}  // namespace

QString compactTickLabel(double value, double step, const QLocale& locale)
{
    if (!std::isfinite(value)) return locale.toString(value);
    const double magnitude = std::abs(value);
    if (step > 0 && magnitude < step * 1e-6) return QStringLiteral("0");  // rounding noise around zero
    const int resolution = resolutionDecimals(step > 0 ? step : (magnitude > 0 ? magnitude : 1.0));
    const int decimals = std::max(0, resolution);
    const QChar point = locale.decimalPoint().at(0);
    if (decimals <= kMaxFixedDecimals && magnitude < kMaxFixed)
        return stripZeros(locale.toString(value, 'f', decimals), point);
    // Scientific: as many mantissa digits as the step's resolution needs below the value's exponent.
    int exponent = int(std::floor(std::log10(magnitude)));
    double mantissa = value / std::pow(10.0, exponent);
    const int digits = std::clamp(exponent + resolution, 0, 6);
    if (std::abs(std::round(mantissa * std::pow(10.0, digits))) >= 10 * std::pow(10.0, digits)) {
        mantissa /= 10;  // 9.996 rounds to 10.00: say 1.000e(n+1)
        ++exponent;
    }
    return stripZeros(locale.toString(mantissa, 'f', digits), point) + QStringLiteral("e") + QString::number(exponent);
}

QVector<QString> CompactTicker::createLabelVector(const QVector<double>& ticks, const QLocale& locale, QChar, int)
{
    const double step = ticks.size() > 1 ? std::abs(ticks[1] - ticks[0]) : 0.0;
    QVector<QString> labels;
    labels.reserve(ticks.size());
    for (double t : ticks) labels.push_back(compactTickLabel(t, step, locale));
    return labels;
}

}  // namespace ts::widgets

#include "compact_ticker.h"

#include <cmath>

namespace ts::widgets {

namespace {
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

namespace {

QString fixedLabel(double value, int resolution, const QLocale& locale)
{
    return stripZeros(locale.toString(value, 'f', std::max(0, resolution)), locale.decimalPoint().at(0));
}

// As many mantissa digits as the step's resolution needs below the value's exponent.
QString scientificLabel(double value, int resolution, const QLocale& locale)
{
    if (value == 0) return QStringLiteral("0");
    int exponent = int(std::floor(std::log10(std::abs(value))));
    double mantissa = value / std::pow(10.0, exponent);
    const int digits = std::clamp(exponent + resolution, 0, 6);
    if (std::abs(std::round(mantissa * std::pow(10.0, digits))) >= 10 * std::pow(10.0, digits)) {
        mantissa /= 10;  // 9.996 rounds to 10.00: say 1.000e(n+1)
        ++exponent;
    }
    return stripZeros(locale.toString(mantissa, 'f', digits), locale.decimalPoint().at(0)) + QStringLiteral("e") +
           QString::number(exponent);
}

// Labels for all ticks in the one notation whose longest label is shorter (fixed on a tie):
// 0.3305 stays fixed, 9.99e-4 and 1.2e7 go scientific, and one axis never mixes the two.
QVector<QString> labels(const QVector<double>& ticks, double step, const QLocale& locale)
{
    const double magnitude = ticks.isEmpty() ? 1.0 : std::abs(ticks.front());
    const int resolution = resolutionDecimals(step > 0 ? step : (magnitude > 0 ? magnitude : 1.0));
    QVector<QString> fixed, scientific;
    qsizetype fixedWidth = 0, scientificWidth = 0;
    for (double t : ticks) {
        if (!std::isfinite(t)) {
            fixed << locale.toString(t);
            scientific << locale.toString(t);
            continue;
        }
        if (step > 0 && std::abs(t) < step * 1e-6) t = 0;  // rounding noise around zero
        fixed << fixedLabel(t, resolution, locale);
        scientific << scientificLabel(t, resolution, locale);
        fixedWidth = std::max(fixedWidth, fixed.back().size());
        scientificWidth = std::max(scientificWidth, scientific.back().size());
    }
    // Steps and counts (1 to a million) read as written: "1000", not the shorter "1e3".
    double largest = 0;
    for (double t : ticks)
        if (std::isfinite(t)) largest = std::max(largest, std::abs(t));
    if (largest >= 1 && largest < 1e6) return fixed;
    return fixedWidth <= scientificWidth ? fixed : scientific;
}

}  // namespace

QString compactTickLabel(double value, double step, const QLocale& locale)
{
    return labels({value}, step, locale).front();
}

QVector<QString> CompactTicker::createLabelVector(const QVector<double>& ticks, const QLocale& locale, QChar, int)
{
    return labels(ticks, ticks.size() > 1 ? std::abs(ticks[1] - ticks[0]) : 0.0, locale);
}

}  // namespace ts::widgets

#include "scientific_spin_box.h"

#include <QLocale>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace ts::widgets {

ScientificSpinBox::ScientificSpinBox(QWidget* parent) : QDoubleSpinBox(parent)
{
    // QDoubleSpinBox rounds every value to decimals(); with 300 nothing a double holds is lost.
    setDecimals(300);
    setRange(1e-12, 1e3);
    setValue(1e-3);
    setKeyboardTracking(false);
}

QString ScientificSpinBox::compactText(double value)
{
    if (value == 0 || !std::isfinite(value)) return QString::number(value);
    const double magnitude = std::fabs(value);
    if (magnitude >= 1e-3 && magnitude < 1e5) return QString::number(value, 'g', 6);
    // "3e-04" -> "3e-4": the exponent without its padding.
    QString text = QString::number(value, 'e', 5);  // "3.00000e-04"
    const qsizetype e = text.indexOf(QLatin1Char('e'));
    QString mantissa = text.left(e), exponent = text.mid(e + 1);
    if (mantissa.contains(QLatin1Char('.'))) {
        while (mantissa.endsWith(QLatin1Char('0'))) mantissa.chop(1);
        if (mantissa.endsWith(QLatin1Char('.'))) mantissa.chop(1);
    }
    const int power = exponent.toInt();
    return mantissa + QLatin1Char('e') + QString::number(power);
}

double ScientificSpinBox::step125(double value, int steps)
{
    if (!(value > 0) || steps == 0) return value;
    static const double kMantissas[] = {1, 2, 5};
    // The sequence position of the largest 1-2-5 value at or below `value` (with a little
    // slack, so 3e-4 * ... rounding never skips a step).
    const double decade = std::floor(std::log10(value) + 1e-9);
    const double scaled = value / std::pow(10.0, decade);
    int index = 0;
    for (int i = 0; i < 3; ++i)
        if (scaled >= kMantissas[i] * (1 - 1e-9)) index = i;
    const bool onSequence = std::fabs(scaled - kMantissas[index]) <= 1e-9 * kMantissas[index];
    long long position = static_cast<long long>(decade) * 3 + index;
    // Off the sequence (3e-4), the first step down lands on the value below it (2e-4).
    position += steps > 0 ? steps : (onSequence ? steps : steps + 1);
    const long long d = position >= 0 ? position / 3 : -((-position + 2) / 3);
    const int i = static_cast<int>(position - d * 3);
    return kMantissas[i] * std::pow(10.0, double(d));
}

QString ScientificSpinBox::textFromValue(double value) const { return compactText(value); }

double ScientificSpinBox::valueFromText(const QString& text) const
{
    const QString t = text.trimmed();
    bool ok = false;
    double v = t.toDouble(&ok);  // the C locale: "3e-4", "0.0003"
    if (!ok) v = locale().toDouble(t, &ok);  // the user's: "0,0003"
    return ok ? v : value();
}

QValidator::State ScientificSpinBox::validate(QString& input, int&) const
{
    const QString t = input.trimmed();
    if (t.isEmpty()) return QValidator::Intermediate;
    // A number being typed: "3", "3.", "3e", "3e-", "1E-7".
    static const QRegularExpression partial(QStringLiteral(R"(^[+]?(\d+[.,]?\d*|[.,]\d*)([eE][+-]?\d*)?$)"));
    if (!partial.match(t).hasMatch()) return QValidator::Invalid;
    bool ok = false;
    double v = t.toDouble(&ok);
    if (!ok) v = locale().toDouble(t, &ok);
    if (!ok) return QValidator::Intermediate;
    return v >= minimum() && v <= maximum() ? QValidator::Acceptable : QValidator::Intermediate;
}

void ScientificSpinBox::stepBy(int steps)
{
    setValue(std::clamp(step125(value(), steps), minimum(), maximum()));
    selectAll();
}

}  // namespace ts::widgets

// A spin box for positive quantities that span decades (learning rates, weight decay, eps):
// it takes "3e-4", "0.0000005" or "1E-7" as typed, keeps the value exactly (no rounding to a
// number of decimals), shows it compactly ("3e-4", "0.001", "5e-7"), and its arrows walk the
// 1-2-5 sequence (1e-3, 2e-3, 5e-3, 1e-2, ...), the steps people actually try.
#pragma once
#include <QDoubleSpinBox>

namespace ts::widgets {

class ScientificSpinBox : public QDoubleSpinBox {
    Q_OBJECT
public:
    explicit ScientificSpinBox(QWidget* parent = nullptr);

    // "3e-4" below 1e-3 and from 1e5 on, plain otherwise ("0.001", "0.5", "12"), at most 6
    // significant digits, in the C locale (a rate is written as in code and YAML).
    static QString compactText(double value);
    // The next value of the 1-2-5 sequence above (steps > 0) or below (steps < 0) `value`.
    static double step125(double value, int steps);

    QString textFromValue(double value) const override;
    double valueFromText(const QString& text) const override;
    QValidator::State validate(QString& input, int& pos) const override;
    void stepBy(int steps) override;
};

}  // namespace ts::widgets

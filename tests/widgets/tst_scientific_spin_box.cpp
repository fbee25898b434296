#include <QLineEdit>
#include <QtTest>

#include "scientific_spin_box.h"

using ts::widgets::ScientificSpinBox;

class TestScientificSpinBox : public QObject {
    Q_OBJECT
private slots:
    void compactText_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("text");
        QTest::newRow("3e-4") << 3e-4 << "3e-4";
        QTest::newRow("5e-7") << 5e-7 << "5e-7";
        QTest::newRow("2.5e-5") << 2.5e-5 << "2.5e-5";
        QTest::newRow("0.001") << 0.001 << "0.001";
        QTest::newRow("0.02") << 0.02 << "0.02";
        QTest::newRow("1") << 1.0 << "1";
        QTest::newRow("1.5e5") << 1.5e5 << "1.5e5";
    }
    void compactText()
    {
        QFETCH(double, value);
        QFETCH(QString, text);
        QCOMPARE(ScientificSpinBox::compactText(value), text);
    }

    void step125_data()
    {
        QTest::addColumn<double>("from");
        QTest::addColumn<int>("steps");
        QTest::addColumn<double>("to");
        QTest::newRow("1e-3 up") << 1e-3 << 1 << 2e-3;
        QTest::newRow("2e-3 up") << 2e-3 << 1 << 5e-3;
        QTest::newRow("5e-3 up") << 5e-3 << 1 << 1e-2;
        QTest::newRow("1e-3 down") << 1e-3 << -1 << 5e-4;
        QTest::newRow("1e-3 up 3") << 1e-3 << 3 << 1e-2;
        QTest::newRow("3e-4 down: onto the sequence") << 3e-4 << -1 << 2e-4;
        QTest::newRow("3e-4 up") << 3e-4 << 1 << 5e-4;
        QTest::newRow("1 down") << 1.0 << -1 << 0.5;
    }
    void step125()
    {
        QFETCH(double, from);
        QFETCH(int, steps);
        QFETCH(double, to);
        const double got = ScientificSpinBox::step125(from, steps);
        QVERIFY2(std::fabs(got - to) <= 1e-12 * to, qPrintable(QString::number(got, 'g', 17)));
    }

    // Typed into a real widget, key by key, the way a user enters a rate.
    void typedValuesAreKeptExactly()
    {
        ScientificSpinBox box;
        box.setRange(1e-12, 10);
        QLineEdit* edit = box.findChild<QLineEdit*>();  // the box's own editor, as a user types into it
        QVERIFY(edit);
        box.show();
        QVERIFY(QTest::qWaitForWindowExposed(&box));
        auto type = [&](const QString& text) {
            edit->selectAll();
            QTest::keyClicks(edit, text);
            QTest::keyClick(edit, Qt::Key_Return);
        };
        type("3e-4");
        QCOMPARE(box.value(), 3e-4);
        QCOMPARE(box.text(), QString("3e-4"));
        type("0.0000005");  // below what the old box took (1e-6), and below its 6 decimals
        QCOMPARE(box.value(), 5e-7);
        QCOMPARE(box.text(), QString("5e-7"));
        type("1E-7");
        QCOMPARE(box.value(), 1e-7);
        box.setValue(0.000123456);  // no rounding to a number of decimals
        QCOMPARE(box.value(), 0.000123456);

        int pos = 0;
        QString partial = "3e-";
        QCOMPARE(box.validate(partial, pos), QValidator::Intermediate);
        QString letters = "abc";
        QCOMPARE(box.validate(letters, pos), QValidator::Invalid);
        QString negative = "-1";
        QCOMPARE(box.validate(negative, pos), QValidator::Invalid);

        box.setValue(1e-3);
        QTest::keyClick(edit, Qt::Key_Up);
        QCOMPARE(box.value(), 2e-3);
        QTest::keyClick(edit, Qt::Key_Down);
        QTest::keyClick(edit, Qt::Key_Down);
        QCOMPARE(box.value(), 5e-4);
    }
};

QTEST_MAIN(TestScientificSpinBox)
#include "tst_scientific_spin_box.moc"

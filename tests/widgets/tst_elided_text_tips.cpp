// A cell too narrow for its text shows the whole text as a tool tip; a cell that fits shows
// none, and a cell with its own tool tip keeps it. A real QTableView on the offscreen platform.
#include <QtTest>
#include <QtWidgets>

#include "elided_text_tips.h"

class TestElidedTextTips : public QObject {
    Q_OBJECT

    // The tool tip shown after hovering the cell, or an empty string.
    static QString hover(QTableView& view, int row, int column)
    {
        QToolTip::hideText();
        for (int i = 0; i < 50 && QToolTip::isVisible(); ++i) QTest::qWait(20);  // it fades out
        const QRect cell = view.visualRect(view.model()->index(row, column));
        QHelpEvent event(QEvent::ToolTip, cell.center(), view.viewport()->mapToGlobal(cell.center()));
        QApplication::sendEvent(view.viewport(), &event);
        return QToolTip::isVisible() ? QToolTip::text() : QString();
    }

private slots:
    void initTestCase() { ts::widgets::ElidedTextTips::install(); }

    void narrowCellsShowTheirWholeText()
    {
        QStandardItemModel model(3, 2);
        const QString longText = "val acc 88.31 % at step 4,680 <best>";
        model.setItem(0, 0, new QStandardItem(longText));
        model.setItem(1, 0, new QStandardItem("ok"));
        auto* own = new QStandardItem(longText);
        own->setToolTip("its own words");
        model.setItem(2, 0, own);
        QTableView view;
        view.setModel(&model);
        view.setColumnWidth(0, view.fontMetrics().horizontalAdvance(longText) / 3);
        view.resize(400, 200);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));

        const QString tip = hover(view, 0, 0);
        QVERIFY2(tip.contains(QString(longText).toHtmlEscaped()), qPrintable(tip));  // escaped: shown as typed
        QCOMPARE(hover(view, 1, 0), QString());          // fits: nothing to add
        QCOMPARE(hover(view, 2, 0), QString("its own words"));  // the view's own tip wins

        view.setColumnWidth(0, view.fontMetrics().horizontalAdvance(longText) + 40);
        QCOMPARE(hover(view, 0, 0), QString());  // wide enough now
    }
};

QTEST_MAIN(TestElidedTextTips)
#include "tst_elided_text_tips.moc"

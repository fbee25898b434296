// The image grid: where thumbnails go (whole-pixel magnification), that 28x28 images stay
// crisp (nearest neighbour: no grey between a black and a white pixel), zoom by slider and
// Ctrl+wheel, captions broken and elided, and that a 100,000-row model costs only the rows in
// view (decorations asked for). Offscreen platform, real widgets.
#include <QtTest>
#include <QtWidgets>

#include "image_grid.h"

using ts::widgets::ImageGrid;

namespace {

// A 28x28 checkerboard of single pixels: black and white with nothing between.
QImage checkerboard()
{
    QImage image(28, 28, QImage::Format_Grayscale8);
    for (int y = 0; y < 28; ++y)
        for (int x = 0; x < 28; ++x) image.scanLine(y)[x] = (x + y) % 2 ? 255 : 0;
    return image;
}

// Rows without end of the same image; counts how often the view asks for a decoration.
class CountingModel : public QAbstractListModel {
public:
    explicit CountingModel(int rows) : m_rows(rows), m_image(checkerboard()) {}
    int rowCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : m_rows; }
    void setRows(int rows)  // other content, as a filter change gives it
    {
        beginResetModel();
        m_rows = rows;
        endResetModel();
    }
    QVariant data(const QModelIndex& index, int role) const override
    {
        if (role == Qt::DecorationRole) {
            m_asked.insert(index.row());
            return m_image;
        }
        if (role == Qt::DisplayRole) return QStringLiteral("Sample %1").arg(index.row());
        return {};
    }
    mutable QSet<int> m_asked;

private:
    int m_rows;
    QImage m_image;
};

void sendWheel(QWidget* target, int delta, Qt::KeyboardModifiers modifiers)
{
    const QPointF at(target->width() / 2.0, target->height() / 2.0);
    QWheelEvent wheel(at, target->mapToGlobal(at), QPoint(), QPoint(0, delta), Qt::NoButton, modifiers, Qt::NoScrollPhase, false);
    QApplication::sendEvent(target, &wheel);
}

}  // namespace

class TestImageGrid : public QObject {
    Q_OBJECT

private slots:
    void thumbnailsMagnifyByWholePixels()
    {
        // 28 into 84: three screen pixels per image pixel, filling the box.
        QCOMPARE(ts::widgets::thumbnailRect({28, 28}, QRect(10, 20, 84, 84)), QRect(10, 20, 84, 84));
        // 28 into 100: still 3x (84), centred: (100 - 84) / 2 = 8.
        QCOMPARE(ts::widgets::thumbnailRect({28, 28}, QRect(0, 0, 100, 100)), QRect(8, 8, 84, 84));
        // 32x16 into 84: the narrower fit decides, 2x -> 64x32, centred.
        QCOMPARE(ts::widgets::thumbnailRect({32, 16}, QRect(0, 0, 84, 84)), QRect(10, 26, 64, 32));
        // Larger than the box: shrunk with its aspect kept (300x200 -> 84x56).
        QCOMPARE(ts::widgets::thumbnailRect({300, 200}, QRect(0, 0, 84, 84)), QRect(0, 14, 84, 56));
        QVERIFY(ts::widgets::thumbnailRect({}, QRect(0, 0, 84, 84)).isNull());
    }

    void smallImagesStayCrisp()
    {
        QStandardItemModel model;
        auto* item = new QStandardItem(QStringLiteral("checker"));
        item->setData(checkerboard(), Qt::DecorationRole);
        model.appendRow(item);
        ImageGrid grid;
        grid.setModel(&model);
        grid.setThumbnailSize(84);
        grid.resize(400, 300);
        grid.show();
        QVERIFY(QTest::qWaitForWindowExposed(&grid));
        const QRect cell = grid.view()->visualRect(model.index(0, 0));
        QVERIFY(cell.width() >= 84);
        const QImage shot = grid.view()->viewport()->grab().toImage().convertToFormat(QImage::Format_Grayscale8);
        const double ratio = shot.devicePixelRatio();  // QT_SCALE_FACTOR=1.5: 1.5 device pixels per pixel
        // The thumbnail sits centred at the top of the cell, inside a 4-pixel padding.
        const QRect inner = cell.adjusted(4, 4, -4, -4);
        const QRect box(inner.x() + (inner.width() - 84) / 2, inner.y(), 84, 84);
        const QRect device(QPoint(int(std::ceil(box.x() * ratio)), int(std::ceil(box.y() * ratio))),
                           QPoint(int((box.right() + 1) * ratio) - 1, int((box.bottom() + 1) * ratio) - 1));
        int black = 0, white = 0;
        for (int y = device.top(); y <= device.bottom(); ++y)
            for (int x = device.left(); x <= device.right(); ++x) {
                const int v = shot.pixelColor(x, y).value();
                QVERIFY2(v == 0 || v == 255, qPrintable(QStringLiteral("grey %1 at (%2, %3)").arg(v).arg(x).arg(y)));
                (v ? white : black) += 1;
                // At 1:1, 3x3 screen pixels per image pixel: the checker's colour at (x, y).
                if (ratio == 1) QCOMPARE(v, ((x - box.x()) / 3 + (y - box.y()) / 3) % 2 ? 255 : 0);
            }
        if (ratio != 1) {  // a fractional scale makes the squares unequal, never grey; half and half within a row's error
            QVERIFY(std::abs(black - white) <= device.width() * 2);
            return;
        }
        QCOMPARE(black, 84 * 84 / 2);
        QCOMPARE(white, 84 * 84 / 2);
    }

    void zoomBySliderAndCtrlWheel()
    {
        QStandardItemModel model;
        for (int i = 0; i < 50; ++i) {
            auto* item = new QStandardItem(QString::number(i));
            item->setData(checkerboard(), Qt::DecorationRole);
            model.appendRow(item);
        }
        ImageGrid grid;
        grid.setModel(&model);
        grid.resize(500, 400);
        grid.show();
        QVERIFY(QTest::qWaitForWindowExposed(&grid));
        QSignalSpy changed(&grid, &ImageGrid::thumbnailSizeChanged);
        auto* slider = grid.findChild<QSlider*>(QStringLiteral("imageGridZoom"));
        QVERIFY(slider);
        const int start = grid.thumbnailSize();
        QCOMPARE(slider->value(), start);

        sendWheel(grid.view()->viewport(), 120, Qt::ControlModifier);  // one notch in
        QCOMPARE(grid.thumbnailSize(), start + ImageGrid::kThumbnailStep);
        QCOMPARE(slider->value(), grid.thumbnailSize());
        QCOMPARE(grid.view()->gridSize(), grid.cellSize());
        QVERIFY(grid.cellSize().height() > grid.thumbnailSize());  // room for the caption
        sendWheel(grid.view()->viewport(), 60, Qt::ControlModifier);  // half a notch: nothing yet
        QCOMPARE(grid.thumbnailSize(), start + ImageGrid::kThumbnailStep);
        sendWheel(grid.view()->viewport(), 60, Qt::ControlModifier);  // the other half
        QCOMPARE(grid.thumbnailSize(), start + 2 * ImageGrid::kThumbnailStep);
        sendWheel(grid.view()->viewport(), -240, Qt::ControlModifier);
        QCOMPARE(grid.thumbnailSize(), start);
        sendWheel(grid.view()->viewport(), -120, Qt::NoModifier);  // a plain wheel scrolls, never zooms
        QCOMPARE(grid.thumbnailSize(), start);
        QCOMPARE(changed.count(), 3);

        slider->setValue(ImageGrid::kMaxThumbnail);
        QCOMPARE(grid.thumbnailSize(), ImageGrid::kMaxThumbnail);
        sendWheel(grid.view()->viewport(), 120 * 5, Qt::ControlModifier);
        QCOMPARE(grid.thumbnailSize(), ImageGrid::kMaxThumbnail);  // clamped
        grid.setThumbnailSize(1);
        QCOMPARE(grid.thumbnailSize(), ImageGrid::kMinThumbnail);
    }

    void captionsWrapAndElide()
    {
        const QFont font = QApplication::font();
        const QFontMetrics metrics(font);
        const QString short_ = QStringLiteral("Bag → Bag (99 %)");
        QCOMPARE(ts::widgets::captionLines(short_, font, metrics.horizontalAdvance(short_) + 2, 2), QStringList{short_});
        const QString long_ = QStringLiteral("T-shirt/top → Ankle boot (54 %) and a great deal more text than fits");
        const int width = metrics.horizontalAdvance(QStringLiteral("T-shirt/top →"));
        const QStringList lines = ts::widgets::captionLines(long_, font, width, 2);
        QCOMPARE(lines.size(), 2);
        QCOMPARE(lines[0], QStringLiteral("T-shirt/top →"));
        QVERIFY2(lines[1].endsWith(QChar(0x2026)), qPrintable(lines[1]));  // elided
        for (const QString& line : lines) QVERIFY(metrics.horizontalAdvance(line) <= width);
        QVERIFY(ts::widgets::captionLines(long_, font, width, 0).isEmpty());
    }

    // Only the rows in view are asked for their images, however many rows there are.
    void onlyVisibleRowsAreDecoded()
    {
        CountingModel model(100000);
        ImageGrid grid;
        grid.setModel(&model);
        grid.resize(600, 400);
        grid.show();
        QVERIFY(QTest::qWaitForWindowExposed(&grid));
        QTRY_VERIFY(!model.m_asked.isEmpty());
        QTest::qWait(100);  // let batched layout and painting settle
        const QSize cell = grid.cellSize();
        const QSize viewport = grid.view()->viewport()->size();
        const int visible = (viewport.width() / cell.width() + 1) * (viewport.height() / cell.height() + 2);
        QVERIFY2(model.m_asked.size() <= visible,
                 qPrintable(QStringLiteral("%1 rows decoded, %2 cells in view").arg(model.m_asked.size()).arg(visible)));
        QVERIFY(model.m_asked.contains(0));
        QVERIFY(*std::max_element(model.m_asked.begin(), model.m_asked.end()) < visible);

        // Scrolled to the end: the last rows, still no more than a screenful at a time.
        model.m_asked.clear();
        grid.view()->scrollToBottom();
        QTRY_VERIFY(model.m_asked.contains(99999));
        QVERIFY(model.m_asked.size() <= visible);
        if (!qEnvironmentVariableIsEmpty("TS_SCREENSHOT_DIR")) grid.grab().save(qEnvironmentVariable("TS_SCREENSHOT_DIR") + "/image_grid.png");
    }

    // Seen: a list of suspects opened scrolled to where the previous content had been. Other
    // content (a model reset) starts at the top; new thumbnails arriving (dataChanged) do not move it.
    void otherContentStartsAtTheTop()
    {
        CountingModel model(5000);
        ImageGrid grid;
        grid.setModel(&model);
        grid.resize(600, 400);
        grid.show();
        QVERIFY(QTest::qWaitForWindowExposed(&grid));
        QScrollBar* bar = grid.view()->verticalScrollBar();
        QTRY_VERIFY(bar->maximum() > 0);
        grid.view()->scrollToBottom();
        QTRY_VERIFY(bar->value() > 0);
        emit model.dataChanged(model.index(0), model.index(4999), {Qt::DecorationRole});
        QVERIFY(bar->value() > 0);
        model.setRows(4000);
        QTest::qWait(50);  // the batched layout of the new rows
        QCOMPARE(bar->value(), 0);
        QTRY_VERIFY(model.m_asked.contains(0));
    }

    // Pairs (a duplicate and its original) stay side by side at every width: rows hold an even
    // number of cells, and each pair's two cells share a row, the first on the left.
    void pairsStaySideBySide()
    {
        CountingModel model(40);
        ImageGrid grid;
        grid.setModel(&model);
        grid.show();
        QVERIFY(QTest::qWaitForWindowExposed(&grid));
        const int cell = grid.cellSize().width();
        auto pairsTogether = [&] {
            for (int row = 0; row + 1 < model.rowCount(); row += 2) {
                const QRect a = grid.view()->visualRect(model.index(row)), b = grid.view()->visualRect(model.index(row + 1));
                if (a.top() != b.top() || b.left() <= a.left()) return false;
            }
            return true;
        };
        grid.resize(cell * 3 + cell / 2 + 30, 500);  // three cells fit: the third pair would wrap
        QTest::qWait(50);
        QVERIFY(!pairsTogether());  // without pairs the grid breaks a pair across rows: the check can fail
        grid.setPairs(true);
        for (double cells : {3.5, 5.2, 2.1, 7.9, 1.4}) {
            grid.resize(int(cell * cells) + 30, 500);
            QTest::qWait(50);
            QVERIFY2(pairsTogether(), qPrintable(QString("a pair is split at %1 cells' width").arg(cells)));
        }
        grid.setPairs(false);
        QCOMPARE(grid.view()->gridSize(), grid.cellSize());  // the cells' own width again
    }
};

QTEST_MAIN(TestImageGrid)
#include "tst_image_grid.moc"

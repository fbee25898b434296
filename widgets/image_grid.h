// A virtualised grid of thumbnails over any item model: each row's Qt::DecorationRole (a
// QImage or QPixmap) drawn in a square cell with its Qt::DisplayRole caption below (up to three
// lines, elided; Qt::ToolTipRole, or the caption, as the tool tip). One QListView in icon
// mode paints only the rows in view, so a model of 100,000 samples costs what a screenful
// does; there are no widgets per item. Small images (28x28) are magnified by whole pixels
// with nearest-neighbour sampling, so they stay crisp instead of blurring.
//
// Zoom: the slider in the header, or Ctrl+wheel over the grid. A title (what is shown) sits
// left of the slider, a note (why something is missing) under it. When the model is reset
// (other samples listed) the grid starts again at its top: the new content's first rows.
#pragma once

#include <QRect>
#include <QSize>
#include <QStringList>
#include <QWidget>

class QAbstractItemModel;
class QFont;
class QLabel;
class QListView;
class QModelIndex;
class QSlider;

namespace ts::widgets {

class ImageGrid : public QWidget {
    Q_OBJECT
public:
    static constexpr int kMinThumbnail = 28;
    static constexpr int kMaxThumbnail = 280;
    static constexpr int kThumbnailStep = 14;  // one slider step, one wheel notch

    explicit ImageGrid(QWidget* parent = nullptr);

    void setModel(QAbstractItemModel* model);  // not owned
    QAbstractItemModel* model() const;
    QListView* view() const { return m_view; }

    // The thumbnails' edge in pixels, clamped to [kMinThumbnail, kMaxThumbnail].
    void setThumbnailSize(int pixels);
    int thumbnailSize() const { return m_thumbnail; }
    QSize cellSize() const;  // a thumbnail, its caption and the margins

    // Pairs: rows 0-1, 2-3, ... are pairs (a duplicate and its original) and stay side by side:
    // every row of the grid holds an even number of cells (at least two, the cells widened to
    // fill the width), and each pair is framed as one.
    void setPairs(bool on);
    bool pairs() const { return m_pairs; }

    void setTitle(const QString& title);
    QString title() const;
    // One line under the header (empty hides it): e.g. why the images cannot be shown.
    void setNote(const QString& note);
    QString note() const;

signals:
    void thumbnailSizeChanged(int pixels);
    void activated(const QModelIndex& index);  // double click or Enter on a thumbnail

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void updateCells();

    QListView* m_view = nullptr;
    QSlider* m_zoom = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_note = nullptr;
    class Delegate;
    Delegate* m_delegate = nullptr;
    int m_thumbnail = 84;  // three pixels per 28x28 pixel
    bool m_pairs = false;
    QMetaObject::Connection m_resetConnection;
    int m_wheelDelta = 0;  // Ctrl+wheel not yet a whole notch
};

// Where an image of `image` pixels is drawn inside `box`, centred, aspect kept: magnified by
// the largest whole factor that fits (so every source pixel becomes an equal square), or
// shrunk to fit when it is larger than the box.
QRect thumbnailRect(QSize image, const QRect& box);

// `text` broken at spaces into at most `maxLines` lines of `width` pixels, the last line
// (or a word wider than `width`) elided when the text does not fit.
QStringList captionLines(const QString& text, const QFont& font, int width, int maxLines);

}  // namespace ts::widgets

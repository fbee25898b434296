// The Attention tab's two pictures of one head's weights (jobs/attention_maps.h):
// AttentionMatrixView, the [queries x keys] heat map of a text, labelled by its tokens, where
// hovering a row picks the token whose attention is read out; and AttentionImageView, an image
// with the weights of one query patch (or their mean over queries) laid over its grid of
// patches as a translucent colour, where a click picks the query patch. Both paint themselves
// (a few thousand cells at most), darker or more opaque for more weight, on a scale from 0 to
// the largest weight shown (the matrix by its square root), so a head that spreads its
// attention still shows its pattern.
#pragma once

#include <QImage>
#include <QStringList>
#include <QVector>
#include <QWidget>

namespace ts::ui {

class AttentionMatrixView : public QWidget {
    Q_OBJECT
public:
    explicit AttentionMatrixView(QWidget* parent = nullptr);

    // weights: queries x keys, row by row; labels: one per token (at least max(queries, keys)).
    // compact: a small map of a grid (no token labels, smaller cells).
    void setMatrix(const QString& title, const QVector<float>& weights, int queries, int keys, const QStringList& labels,
                   bool compact);
    const QVector<float>& values() const { return m_weights; }  // what is drawn (tests)
    int queries() const { return m_queries; }
    int keys() const { return m_keys; }
    int hoveredRow() const { return m_hovered; }
    QRect cellRect(int query, int key) const;  // where a cell is drawn (tests hover it)

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override { return sizeHint(); }

signals:
    void rowHovered(int query);  // -1: the pointer left the rows

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    int cellSize() const;
    int labelWidth() const;  // the query labels' column (0 when compact)
    int titleHeight() const;
    void setHovered(int row);

    QString m_title;
    QVector<float> m_weights;
    int m_queries = 0, m_keys = 0;
    QStringList m_labels;
    bool m_compact = false;
    float m_top = 0;
    int m_hovered = -1;
};

class AttentionImageView : public QWidget {
    Q_OBJECT
public:
    explicit AttentionImageView(QWidget* parent = nullptr);

    // image shown under a rows x cols grid; weights: one per patch (row by row), empty for the
    // image alone; selected: the query patch outlined (-1: none).
    void setPicture(const QString& title, const QImage& image, int rows, int cols, const QVector<float>& weights,
                    int selected, int side);
    const QVector<float>& values() const { return m_weights; }  // what is drawn (tests)
    QRect patchRect(int patch) const;  // where a patch is drawn (tests click it)

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override { return sizeHint(); }

signals:
    void patchClicked(int patch);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;

private:
    QRect imageRect() const;
    int titleHeight() const;

    QString m_title;
    QImage m_image;
    int m_rows = 1, m_cols = 1, m_selected = -1, m_side = 160;
    QVector<float> m_weights;
};

// A token as a label: spaces, line breaks and tabs made visible.
QString visibleToken(const QString& token);

}  // namespace ts::ui

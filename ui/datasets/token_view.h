// A text as its tokens (the Datasets page's tokenisation view, issue 40): each token in a box,
// neighbours on alternating backgrounds so where one ends and the next begins shows, control
// characters visible (token_text.h), the text's line breaks kept after their tokens. A token
// marked faint (the part of a text cut off at the context) is drawn pale. Hovering a token
// names it and its id in a tool tip and through hovered().
#pragma once

#include <QColor>
#include <QRect>
#include <QString>
#include <QWidget>

#include <cstdint>
#include <vector>

namespace ts::ui {

struct TokenCell {
    std::int64_t id = 0;
    QString text;         // as shown (visibleToken)
    bool lineBreak = false;  // the token ends a line of the text: the next starts a new row
    bool faint = false;
};

class TokenView : public QWidget {
    Q_OBJECT
public:
    explicit TokenView(QWidget* parent = nullptr);

    void setTokens(std::vector<TokenCell> cells);
    const std::vector<TokenCell>& tokens() const { return m_cells; }
    int tokenAt(const QPoint& pos) const;  // -1 when no token is there
    QRect tokenRect(int index) const;      // in widget coordinates, after layout at the current width
    QColor background(int index) const;    // the fill token `index` is drawn on
    QString describe(int index) const;     // "Token 3 of 57: id 42, “e”"
    int hoveredToken() const { return m_hovered; }

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void hovered(int index);  // -1 when the mouse left the tokens

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    std::vector<QRect> layoutFor(int width) const;
    void setHovered(int index);

    std::vector<TokenCell> m_cells;
    std::vector<QRect> m_rects;
    int m_hovered = -1;
};

}  // namespace ts::ui

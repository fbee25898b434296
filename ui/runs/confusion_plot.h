// The confusion matrix as a heat map: rows the true classes, columns the predictions, each
// cell coloured by its share of the row (so a rare class's mistakes show as clearly as a
// common one's), with its count or its row percentage written in where the cell is large
// enough to hold the number (checked at every layout, so resizing shows or hides them).
// Class names on the axes; a click on a cell says which one.
#pragma once

#include <qcustomplot.h>

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace ts::ui {

class ConfusionPlot : public QCustomPlot {
    Q_OBJECT
public:
    enum class CellText { Counts, RowPercent };
    using Cell = std::pair<int, int>;  // (true class, predicted class)

    explicit ConfusionPlot(QWidget* parent = nullptr);

    void setMatrix(std::vector<std::vector<std::int64_t>> counts);  // [truth][predicted]
    void setClassNames(const QStringList& names);  // empty, or too few: class numbers
    void setCellText(CellText text);
    CellText cellText() const { return m_cellText; }
    void setSelectedCell(std::optional<Cell> cell);
    std::optional<Cell> selectedCell() const { return m_selected; }

    std::optional<Cell> cellAt(const QPointF& pixel) const;
    QPointF cellCenter(const Cell& cell) const;  // in pixels, after a replot
    bool cellTextShown() const { return m_textShown; }  // whether the numbers fit at the last layout
    QString tickLabel(int c) const;

signals:
    void cellClicked(int truth, int predicted);

private:
    void rebuild();
    void fitCellText();  // on every layout

    std::vector<std::vector<std::int64_t>> m_counts;
    QStringList m_names;
    CellText m_cellText = CellText::Counts;
    std::optional<Cell> m_selected;
    std::vector<QCPItemText*> m_texts;
    QCPItemRect* m_highlight = nullptr;
    bool m_textShown = false;
};

}  // namespace ts::ui

// A confusion matrix as a heat map, rows the true classes (top to bottom), columns the
// predictions, class names on both axes; the one heat map of the Runs page, in two styles:
//
// - setMatrix(counts), the Evaluation tab's: each cell coloured by its share of the row (so
//   a rare class's mistakes show as clearly as a common one's), its count or row percentage
//   written in; a click on a cell says which one.
// - setDifference(B − A), the Two models tab's: the difference of two row-normalised
//   matrices on a diverging scale symmetric around 0 with a colour legend; blue where B does
//   better, red where it does worse (the diagonal's change as it is, an off-diagonal cell's
//   negated: more of a mistake is worse); the signed change written in, in percentage points.
//
// The numbers are written only where a cell holds the widest of them (checked at every
// layout, so resizing shows or hides them); the colour speaks in cramped cells.
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
    // [truth][predicted]: rowNormalised(B) − rowNormalised(A), in shares of the row (0.05 = 5 points).
    void setDifference(std::vector<std::vector<double>> difference);
    bool showsDifference() const { return m_difference; }
    void setClassNames(const QStringList& names);  // empty, or too few: class numbers
    void setCellText(CellText text);  // of setMatrix's cells
    CellText cellText() const { return m_cellText; }
    void setSelectedCell(std::optional<Cell> cell);  // setMatrix's only: a difference is not clicked
    std::optional<Cell> selectedCell() const { return m_selected; }

    std::optional<Cell> cellAt(const QPointF& pixel) const;
    QPointF cellCenter(const Cell& cell) const;  // in pixels, after a replot
    bool cellTextShown() const { return m_textShown; }  // whether the numbers fit at the last layout
    QString cellLabel(const Cell& cell) const;  // the number written in the cell ("" for none)
    QString tickLabel(int c) const;
    QCPColorMap* colorMap() const { return m_map; }  // the cells' values: key predicted, value n − 1 − truth

signals:
    void cellClicked(int truth, int predicted);

private:
    struct Cells {  // what rebuild() paints, from either style
        std::vector<std::vector<double>> colour;  // [truth][predicted], in the gradient's range
        std::vector<std::vector<QString>> text;
        std::vector<std::vector<bool>> lightText;  // on a dark cell
    };
    Cells countCells() const;
    Cells differenceCells(double largest) const;
    double largestChange() const;
    void rebuild();
    void showLegend(bool shown);  // the difference's title and colour scale
    void fitCellText();           // on every layout
    void fitTickLabels();
    int size() const { return m_difference ? int(m_changes.size()) : int(m_counts.size()); }

    bool m_difference = false;
    std::vector<std::vector<std::int64_t>> m_counts;
    std::vector<std::vector<double>> m_changes;
    QStringList m_names;
    CellText m_cellText = CellText::Counts;
    std::optional<Cell> m_selected;
    QCPColorMap* m_map = nullptr;
    std::vector<std::vector<QString>> m_cellTexts;  // [truth][predicted], what each cell says
    // Row by row, n × n, for at most kMostNumberedClasses classes: past that no number fits its
    // cell (fitCellText would hide it), and a language model's vocabulary of 512 would make
    // 262,144 items, minutes of work on the GUI thread.
    std::vector<QCPItemText*> m_texts;
    static constexpr int kMostNumberedClasses = 40;
    QCPItemRect* m_highlight = nullptr;
    QCPColorScale* m_scale = nullptr;   // while a difference is shown
    QCPTextElement* m_title = nullptr;
    QCPMarginGroup* m_margins = nullptr;
    bool m_textShown = false;
};

// A change of a share in percentage points, signed: "+2.5", "−0.7", "0.0" (the difference's
// cells; the Two models table's deltas).
QString signedPoints(double change);

}  // namespace ts::ui

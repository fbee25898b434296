// Many live charts on one page: one bar for all of them (which charts show, x axis,
// smoothing, follow, fit all) above a grid that reflows its columns to the width and fills
// the height, scrolling (by whole rows) only when the charts would get smaller than readable.
//
// Choices that may outlive the page (hidden charts, each chart's log scale) come out as
// choices() and go back with restoreChoices(); the application decides where they are kept.
#pragma once

#include <QSize>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGridLayout;
class QLabel;
class QScrollArea;
class QToolButton;

namespace ts::widgets {

class LiveChart;

// What a user chose on a grid, by chart id.
struct ChartGridChoices {
    QStringList hidden;
    QStringList logScale;
};

class ChartGrid : public QWidget {
    Q_OBJECT
public:
    explicit ChartGrid(QWidget* parent = nullptr);

    // Adds `chart` (the grid owns it) after the others; its own bar is hidden.
    void addChart(const QString& id, LiveChart* chart);
    void removeAllCharts();  // deletes them
    LiveChart* chart(const QString& id) const;
    QStringList chartIds() const;  // in the order added
    std::vector<LiveChart*> charts() const;

    void setChartVisible(const QString& id, bool on);
    bool isChartVisible(const QString& id) const;
    ChartGridChoices choices() const;
    void restoreChoices(const ChartGridChoices& choices);  // emits nothing: restoring is not choosing

    // The smallest a chart may get before the grid scrolls instead (logical pixels).
    void setMinimumCellSize(const QSize& size);
    int columns() const { return m_columns; }

signals:
    void choicesChanged();  // a chart shown or hidden, a log scale turned on or off

protected:
    void resizeEvent(QResizeEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    struct Entry {
        QString id;
        LiveChart* chart = nullptr;
        bool visible = true;
    };
    const Entry* find(const QString& id) const;
    void relayout();
    void snapToRow();  // a scrolled grid rests at a row's top: no chart cut at the view's edge
    void retranslate();
    void updateFollowBox();
    void rebuildChartsMenu();

    std::vector<Entry> m_entries;
    QSize m_minimumCell{220, 150};
    int m_columns = 0;
    int m_rows = 0;
    int m_rowPitch = 0;  // a row and its spacing while the grid scrolls; 0 when all rows fit
    int m_topRow = 0;    // the row at the top of the view while it scrolls

    QToolButton* m_chartsButton = nullptr;
    QLabel* m_xLabel = nullptr;
    QComboBox* m_xAxis = nullptr;
    QLabel* m_smoothingLabel = nullptr;
    QDoubleSpinBox* m_smoothing = nullptr;
    QCheckBox* m_follow = nullptr;
    QToolButton* m_fit = nullptr;
    QScrollArea* m_scroll = nullptr;
    QWidget* m_cells = nullptr;
    QGridLayout* m_grid = nullptr;
};

}  // namespace ts::widgets

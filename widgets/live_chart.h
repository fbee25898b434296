// A live training chart: a QCustomPlot fed with plain numbers (no engine types), which stays
// smooth at a million points and redraws streamed points 4 times a second however fast they
// come (the user's changes of view ~30 times a second); hidden, it draws nothing.
//
// Data path: append() only stores points and marks the chart dirty; one single-shot timer
// (250 ms after an append, 33 ms after a change of view) asks for a queued replot, painted
// with the window's other changes; just before each replot the chart hands QCustomPlot the visible
// range decimated per pixel column (decimation.h), recomputed only when data, range or size
// changed. User zoom/pan turns "follow" off; the Follow box (or menu) turns it back on.
#pragma once

#include "chart_series.h"
#include "file_writer.h"

#include <QColor>
#include <QSize>
#include <QString>
#include <QTimer>
#include <QStringList>
#include <QWidget>

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

class QCheckBox;
class QCustomPlot;
class QCPGraph;
class QCPItemStraightLine;
class QCPItemText;
class QCPLayoutGrid;
class QCPTextElement;
class QDoubleSpinBox;
class QLabel;
class QMenu;

namespace ts::widgets {

class EnvelopeGraph;

// A PNG export's pixel size and resolution, as chosen in its dialog.
struct PngExportSize {
    QSize pixels{1600, 1000};
    int dpi = 150;
};

class LiveChart : public QWidget {
    Q_OBJECT
    // Its words as properties, so a language switch can translate them anew (ui/live_language.h).
    Q_PROPERTY(QString title READ title WRITE setTitle)
    Q_PROPERTY(QString yLabel READ yLabel WRITE setYLabel)
    Q_PROPERTY(QStringList seriesLabels READ seriesLabels WRITE setSeriesLabels)
public:
    enum class Style {
        Line,    // a normal line
        Faint,   // a thin translucent line (raw values under a smoothed line)
        Points,  // markers only: per-epoch values such as validation accuracy
        Band,    // one edge of a shaded band (fillBetween): no legend entry, no line of its own
    };

    explicit LiveChart(QWidget* parent = nullptr);
    ~LiveChart() override;

    void setTitle(const QString& title);
    QString title() const;
    // The chart's own bar (smoothing, log scale, follow). A page that shows many charts hides
    // it and offers one bar for all (ChartGrid); the context menu keeps every choice.
    void setControlsVisible(bool on);
    // The x axis' title ("Step"); exports always have it.
    void setXLabelVisible(bool on);
    // A page that names the series once for all its charts hides each chart's legend.
    void setLegendShown(bool on);
    bool legendInView() const;  // shown and taking its row: there is something to name
    void setYLabel(const QString& label);
    QString yLabel() const;

    // Series. `id` is the caller's stable key; `label` is what the legend shows.
    bool addSeries(const QString& id, const QString& label, const QColor& color, Style style = Style::Line);
    bool hasSeries(const QString& id) const { return find(id) != nullptr; }
    QStringList seriesIds() const;  // in the order they were added
    QStringList seriesLabels() const;  // what the legend shows, in the same order
    void setSeriesLabels(const QStringList& labels);  // by position; extra labels are ignored
    void removeSeries(const QString& id);
    // Bulk append; false when the id is unknown or the vector sizes disagree.
    bool append(const QString& id, const ChartSamples& samples);
    // Step-only data: the series is then drawn against steps only.
    bool append(const QString& id, std::span<const double> steps, std::span<const double> values);
    // Replaces the series' points with `data`, made elsewhere (SeriesData is plain C++, so a
    // worker thread can build it, block extremes and smoothing included, and hand it over
    // without the UI thread touching every point). The chart's smoothing choice is kept.
    bool setData(const QString& id, SeriesData data);
    // TensorBoard-style smoothing (0 = off, typical 0.6-0.99). The raw points stay, drawn faint.
    void setSmoothing(const QString& id, double weight);
    // Shades the area between two Band series (a mean's +-1 standard deviation).
    void fillBetween(const QString& lowerId, const QString& upperId, const QColor& color);
    double smoothing(const QString& id) const;
    std::size_t pointCount(const QString& id) const;  // raw points stored
    // Drops all points and marks; keeps the series definitions.
    void clear();

    // Axes and view.
    void setLogY(bool on);
    bool logY() const { return m_logY; }
    void setXAxisMode(XAxisMode mode);
    XAxisMode xAxisMode() const { return m_xMode; }
    void setFollow(bool on);  // on: x (and y) track all data as it arrives
    bool follow() const { return m_follow; }
    void resetZoom();  // fit all data once, without touching follow

    // Marks. Checkpoints: a dashed vertical line with a label at the top.
    void addMarker(const ChartX& x, const QString& label);
    void addMarker(double step, const QString& label);
    // The best point (e.g. lowest validation loss): a ring with a label; replaces the previous one.
    void markBest(const ChartX& x, double y, const QString& label);
    // A horizontal line (e.g. the gradient clipping threshold); NaN removes it.
    void setThreshold(double y, const QString& label);
    int markerCount() const { return static_cast<int>(m_markers.size()); }

    // Exports (the context menu calls these after a file dialog; tests call them directly).
    // A file stands alone: it has the x axis' title and the legend even where the page shows
    // them once for all its charts.
    // Width/height 0 mean the plot's current size. A PNG is `width` x `height` pixels and lays
    // its text out for `dpi` (96: as on screen; 192: text twice as large), stored in the file.
    // Written through writeFile (file_writer.h); the result says why when one fails.
    WriteResult exportPng(const QString& path, int width = 0, int height = 0, int dpi = 96);
    WriteResult exportSvg(const QString& path, int width = 0, int height = 0);
    WriteResult exportCsv(const QString& path) const;  // every series' raw points, long format
    static bool svgAvailable();
    // The PNG dialog: it starts from the size stored and stores the one accepted (nothing
    // when cancelled). The store is the process's memory until an application gives its own.
    static std::optional<PngExportSize> askPngSize(QWidget* parent);
    static void setPngSizeStore(std::function<PngExportSize()> load, std::function<void(const PngExportSize&)> save);

    // The context menu, built on demand (public so tests can inspect and trigger it).
    QMenu* createContextMenu(QWidget* parent);

    // For tests and embedding pages: the plot and the graphs drawn for a series.
    QCustomPlot* plot() const { return m_plot; }
    QCPGraph* rawGraph(const QString& id) const;
    QCPGraph* smoothedGraph(const QString& id) const;  // nullptr while smoothing is off
    // Decimates and replots now, bypassing the timer; returns the milliseconds it took.
    double replotNow();
    // True while no series has a point: the chart shows a note instead of an empty 0-5 frame.
    bool isEmpty() const;
    // What that note says instead of "No data yet" ("Loading…", or why the data could not be
    // read); an empty text brings the default back.
    void setEmptyNote(const QString& note);
    QString emptyNote() const;
    // Smoothing weight of every smoothed series at once (what the bar's box sets).
    void setSmoothingWeight(double weight);
    bool hasSmoothedSeries() const;
    // Hovering shows every series' value at the x under the pointer (the nearest point of
    // each, smoothed where smoothed), as a tool tip. For charts that overlay many runs.
    void setHoverReadout(bool on) { m_hoverReadout = on; }
    QString readoutAt(double x) const;  // what the tool tip says at x (tests)

signals:
    void followChanged(bool on);
    void logYChanged(bool on);
    void xAxisModeChanged(ts::widgets::XAxisMode mode);

protected:
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    struct Series {
        QString id;
        QString label;
        QColor color;
        Style style = Style::Line;
        SeriesData data;
        EnvelopeGraph* raw = nullptr;
        EnvelopeGraph* smooth = nullptr;
        std::size_t drawnVersion = static_cast<std::size_t>(-1);  // data version last decimated
        bool dense = false;  // over a point per 4 pixel columns in view: drawn with fast pens
        bool busy = false;   // its smoothed line still zigzags through each column: drawn aliased
        bool lone = false;   // a line of one point draws nothing: it is drawn as a marker
    };
    struct ForExport;
    struct Marker {
        ChartX x;
        QCPItemStraightLine* line = nullptr;
        QCPItemText* text = nullptr;
    };

    Series* find(const QString& id) const;
    void scheduleReplot();
    void onBeforeReplot();
    void onAfterLayout();
    void onUserRange();
    void updateGraphs(int columns);
    void applyFollowRange();
    void fitY();
    void updateXAxisLabel();
    void updateSeriesPens(Series& s);
    void updateMarks();
    void placeMarkerLabels();
    void rebuildLegend();
    void applyPalette();
    void retranslate();
    void updateSmoothingBox();
    void updateEmptyState();
    void setLegendRowInLayout(bool on);
    void layoutAxesAndLegend(int legendWidth = -1);  // -1: the plot's width
    int plotColumns() const;
    void refreshForExport(int width);
    void exportWithDialog(int kind);

    QCustomPlot* m_plot = nullptr;
    QCPTextElement* m_title = nullptr;
    QCheckBox* m_followBox = nullptr;
    QCheckBox* m_logBox = nullptr;
    QLabel* m_smoothingLabel = nullptr;
    QDoubleSpinBox* m_smoothingBox = nullptr;
    QWidget* m_bar = nullptr;
    QCPItemText* m_emptyText = nullptr;
    QCPLayoutGrid* m_legendRow = nullptr;  // the legend between two spacers, above the plot
    QTimer m_replotTimer;

    std::vector<std::unique_ptr<Series>> m_series;  // in insertion order: legend and CSV follow it
    std::vector<Marker> m_markers;
    ChartX m_bestX;
    double m_bestY = ChartX::kNone;
    QCPGraph* m_bestGraph = nullptr;
    QCPItemText* m_bestText = nullptr;
    QCPItemStraightLine* m_thresholdLine = nullptr;
    QCPItemText* m_thresholdText = nullptr;

    XAxisMode m_xMode = XAxisMode::Step;
    bool m_logY = false;
    bool m_follow = true;
    bool m_xLabelVisible = true;
    bool m_hoverReadout = false;
    bool m_legendShown = true;
    QString m_emptyNote;  // the caller's note for an empty chart; empty: "No data yet"
    bool m_viewDirty = true;  // range or size changed since the last decimation
    int m_programmaticRange = 0;  // >0 while the chart itself moves the axes
    double m_lastLower = 0, m_lastUpper = 0;
    int m_lastColumns = 0;
    std::vector<double> m_scratchX, m_scratchY;
    ColumnEnvelope m_scratchEnvelope;
    // Decimation columns for the plot as last laid out in a replot (its axis rect in device
    // pixels), and the viewport that layout was for; 0: not laid out yet.
    int m_layoutColumns = 0;
    QSize m_layoutViewport;
    bool m_inReplot = false;  // between beforeReplot and afterReplot (an export lays out too)
};

}  // namespace ts::widgets

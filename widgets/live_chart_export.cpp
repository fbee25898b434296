// LiveChart's exports (PNG, SVG, CSV) and its context menu. The export functions take a path
// and need no dialog, so tests and batch tools can call them.
#include "live_chart.h"

#include <QActionGroup>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QImage>
#include <QSpinBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QBuffer>

#include <qcustomplot.h>
#ifdef TS_WIDGETS_HAVE_SVG
#include <QSvgGenerator>
#endif

#include <charconv>
#include <cmath>

namespace ts::widgets {

namespace {

enum ExportKind { Png, Svg, Csv };

// Shortest text that reads back as the same double; empty for NaN (an unknown x).
void appendNumber(QByteArray& out, double v) {
    if (std::isnan(v)) return;
    char buf[32];
    const auto res = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, res.ptr - buf);
}

void appendCsvField(QByteArray& out, const QString& text) {
    QByteArray utf8 = text.toUtf8();
    if (utf8.contains(',') || utf8.contains('"') || utf8.contains('\n')) {
        utf8.replace("\"", "\"\"");
        utf8 = '"' + utf8 + '"';
    }
    out.append(utf8);
}

// Where the PNG dialog keeps its choice: this process's memory until an application gives its own.
struct PngSizeStore {
    std::function<PngExportSize()> load;
    std::function<void(const PngExportSize&)> save;
};

PngSizeStore& pngSizeStore() {
    static PngExportSize remembered;
    static PngSizeStore store{[] { return remembered; }, [](const PngExportSize& size) { remembered = size; }};
    return store;
}

}  // namespace

void LiveChart::setPngSizeStore(std::function<PngExportSize()> load, std::function<void(const PngExportSize&)> save) {
    pngSizeStore() = {std::move(load), std::move(save)};
}

std::optional<PngExportSize> LiveChart::askPngSize(QWidget* parent) {
    const PngExportSize stored = pngSizeStore().load();
    QDialog dialog(parent);
    dialog.setWindowTitle(tr("PNG size"));
    auto* width = new QSpinBox;
    auto* height = new QSpinBox;
    auto* resolution = new QSpinBox;
    width->setObjectName(QStringLiteral("pngWidth"));
    height->setObjectName(QStringLiteral("pngHeight"));
    resolution->setObjectName(QStringLiteral("pngDpi"));
    for (QSpinBox* box : {width, height}) {
        box->setRange(64, 20000);
        box->setSuffix(tr(" px"));
    }
    resolution->setRange(48, 1200);
    resolution->setSuffix(tr(" dpi"));
    resolution->setToolTip(tr("Text and lines grow with the DPI: 96 looks as on screen, 192 twice as large."));
    width->setValue(stored.pixels.width());
    height->setValue(stored.pixels.height());
    resolution->setValue(stored.dpi);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto* form = new QFormLayout(&dialog);
    form->addRow(tr("Width:"), width);
    form->addRow(tr("Height:"), height);
    form->addRow(tr("Resolution:"), resolution);
    form->addRow(buttons);
    if (dialog.exec() != QDialog::Accepted) return std::nullopt;
    const PngExportSize chosen{QSize(width->value(), height->value()), resolution->value()};
    pngSizeStore().save(chosen);
    return chosen;
}

bool LiveChart::svgAvailable() {
#ifdef TS_WIDGETS_HAVE_SVG
    return true;
#else
    return false;
#endif
}

// A file stands alone, so it names its x axis and its series even when the page shows the
// axis name and the legend once for all its charts (the Runs page's comparison).
struct LiveChart::ForExport {
    ForExport(LiveChart& c, int width) : chart(c), labelHidden(!c.m_xLabelVisible), legendHidden(!c.m_legendShown) {
        if (labelHidden) chart.setXLabelVisible(true);
        if (legendHidden) chart.setLegendShown(true);
        chart.layoutAxesAndLegend(width);  // the legend wraps at the file's width
    }
    ~ForExport() {
        if (labelHidden) chart.setXLabelVisible(false);
        if (legendHidden) chart.setLegendShown(false);
        chart.layoutAxesAndLegend();
    }
    LiveChart& chart;
    const bool labelHidden, legendHidden;
};

// Exports may be larger than the widget: decimate for the wider of the two so the file keeps
// every column's extremes at its own resolution.
void LiveChart::refreshForExport(int width) {
    m_replotTimer.stop();

    if (m_follow) applyFollowRange();
    m_viewDirty = true;
    updateGraphs(std::max(plotColumns(), width));
    if (m_follow) fitY();
    placeMarkerLabels();
}

// The plot is laid out at the logical size width x height x 96/dpi and drawn scaled to fill
// exactly width x height pixels, so a higher DPI means larger text in the same image.
WriteResult LiveChart::exportPng(const QString& path, int width, int height, int dpi) {
    const int w = width > 0 ? width : m_plot->width();
    const int h = height > 0 ? height : m_plot->height();
    if (w <= 0 || h <= 0 || dpi <= 0) return {false, tr("The image size %1 x %2 at %3 dpi is not valid.").arg(w).arg(h).arg(dpi)};
    const double scale = dpi / 96.0;
    const int logicalW = std::max(1, int(std::lround(w / scale))), logicalH = std::max(1, int(std::lround(h / scale)));
    QImage image(w, h, QImage::Format_ARGB32_Premultiplied);
    image.fill(m_plot->palette().color(QPalette::Base));
    {
        const ForExport standalone(*this, logicalW);
        refreshForExport(w);
        QCPPainter painter(&image);
        painter.scale(double(w) / logicalW, double(h) / logicalH);
        m_plot->toPainter(&painter, logicalW, logicalH);
    }
    const int dotsPerMeter = int(std::lround(dpi / 0.0254));
    image.setDotsPerMeterX(dotsPerMeter);
    image.setDotsPerMeterY(dotsPerMeter);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    if (!buffer.open(QIODevice::WriteOnly) || !image.save(&buffer, "PNG")) return {false, tr("Could not encode the image.")};
    return writeFile(path, bytes);
}

WriteResult LiveChart::exportSvg(const QString& path, int width, int height) {
#ifdef TS_WIDGETS_HAVE_SVG
    const int w = width > 0 ? width : m_plot->width();
    const int h = height > 0 ? height : m_plot->height();
    const ForExport standalone(*this, w);
    refreshForExport(w);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(QSize(w, h));
    svg.setViewBox(QRect(0, 0, w, h));
    svg.setTitle(m_title ? m_title->text() : tr("Chart"));
    QCPPainter painter;
    if (!painter.begin(&svg)) return {false, tr("Could not draw the chart as SVG.")};
    m_plot->toPainter(&painter, w, h);
    painter.end();
    return writeFile(path, bytes);
#else
    Q_UNUSED(path);
    Q_UNUSED(width);
    Q_UNUSED(height);
    return {false, tr("This build has no SVG support (qt6-svg).")};
#endif
}

WriteResult LiveChart::exportCsv(const QString& path) const {
    QByteArray out = "series,label,step,epoch,wall_time_s,value\n";
    for (const auto& s : m_series) {
        const SeriesData& d = s->data;
        const auto step = d.x(XAxisMode::Step), epoch = d.x(XAxisMode::Epoch), time = d.x(XAxisMode::WallTime);
        const auto value = d.values();
        for (std::size_t i = 0; i < d.size(); ++i) {
            appendCsvField(out, s->id);
            out.append(',');
            appendCsvField(out, s->label);
            out.append(',');
            appendNumber(out, step[i]);
            out.append(',');
            appendNumber(out, epoch[i]);
            out.append(',');
            appendNumber(out, time[i]);
            out.append(',');
            if (std::isnan(value[i])) out.append("nan");
            else appendNumber(out, value[i]);
            out.append('\n');
        }
    }
    return writeFile(path, out);
}

void LiveChart::exportWithDialog(int kind) {
    static const char* const suffixes[] = {"png", "svg", "csv"};
    QString caption, filter;
    switch (kind) {
    case Png: caption = tr("Export chart as PNG"); filter = tr("PNG images (*.png)"); break;
    case Svg: caption = tr("Export chart as SVG"); filter = tr("SVG images (*.svg)"); break;
    default: caption = tr("Export chart data as CSV"); filter = tr("CSV files (*.csv)"); break;
    }
    const QString base = m_title && !m_title->text().isEmpty() ? m_title->text() : tr("chart");
    QString path = QFileDialog::getSaveFileName(this, caption,
                                                QDir::home().filePath(base + '.' + suffixes[kind]), filter);
    if (path.isEmpty()) return;
    if (QFileInfo(path).suffix().isEmpty()) path += '.' + QLatin1String(suffixes[kind]);
    WriteResult result;
    if (kind == Png) {
        const std::optional<PngExportSize> size = askPngSize(this);
        if (!size) return;
        result = exportPng(path, size->pixels.width(), size->pixels.height(), size->dpi);
    } else {
        result = kind == Svg ? exportSvg(path) : exportCsv(path);
    }
    if (!result) QMessageBox::warning(this, tr("Export failed"), result.message);
    else if (!result.message.isEmpty()) QMessageBox::information(this, tr("Exported"), result.message);
}

QMenu* LiveChart::createContextMenu(QWidget* parent) {
    auto* menu = new QMenu(parent);
    menu->addAction(tr("Export PNG…"), this, [this] { exportWithDialog(Png); });
    QAction* svg = menu->addAction(tr("Export SVG…"), this, [this] { exportWithDialog(Svg); });
    svg->setEnabled(svgAvailable());
    menu->addAction(tr("Export CSV…"), this, [this] { exportWithDialog(Csv); });
    menu->addSeparator();

    QAction* log = menu->addAction(tr("Log scale"));
    log->setCheckable(true);
    log->setChecked(m_logY);
    connect(log, &QAction::toggled, this, &LiveChart::setLogY);
    QAction* follow = menu->addAction(tr("Follow"));
    follow->setCheckable(true);
    follow->setChecked(m_follow);
    connect(follow, &QAction::toggled, this, &LiveChart::setFollow);
    menu->addAction(tr("Reset zoom"), this, &LiveChart::resetZoom);

    QMenu* xMenu = menu->addMenu(tr("X axis"));
    auto* group = new QActionGroup(xMenu);
    const std::pair<XAxisMode, QString> modes[] = {
        {XAxisMode::Step, tr("Step")}, {XAxisMode::Epoch, tr("Epoch")}, {XAxisMode::WallTime, tr("Wall time")}};
    for (const auto& [mode, text] : modes) {
        QAction* a = xMenu->addAction(text);
        a->setCheckable(true);
        a->setChecked(mode == m_xMode);
        group->addAction(a);
        connect(a, &QAction::triggered, this, [this, m = mode] { setXAxisMode(m); });
    }
    return menu;
}

}  // namespace ts::widgets

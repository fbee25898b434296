// LiveChart's exports (PNG, SVG, CSV) and its context menu. The export functions take a path
// and need no dialog, so tests and batch tools can call them.
#include "live_chart.h"

#include <QActionGroup>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QImage>
#include <QSettings>
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

// The PNG's pixel size and DPI, remembered between exports. False when cancelled.
bool askPngSize(QWidget* parent, QSize& size, int& dpi) {
    QSettings settings;
    QDialog dialog(parent);
    dialog.setWindowTitle(LiveChart::tr("PNG size"));
    auto* width = new QSpinBox;
    auto* height = new QSpinBox;
    auto* resolution = new QSpinBox;
    for (QSpinBox* box : {width, height}) {
        box->setRange(64, 20000);
        box->setSuffix(LiveChart::tr(" px"));
    }
    resolution->setRange(48, 1200);
    resolution->setSuffix(LiveChart::tr(" dpi"));
    resolution->setToolTip(LiveChart::tr("Text and lines grow with the DPI: 96 looks as on screen, 192 twice as large."));
    width->setValue(settings.value(QStringLiteral("charts/pngWidth"), 1600).toInt());
    height->setValue(settings.value(QStringLiteral("charts/pngHeight"), 1000).toInt());
    resolution->setValue(settings.value(QStringLiteral("charts/pngDpi"), 150).toInt());
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto* form = new QFormLayout(&dialog);
    form->addRow(LiveChart::tr("Width:"), width);
    form->addRow(LiveChart::tr("Height:"), height);
    form->addRow(LiveChart::tr("Resolution:"), resolution);
    form->addRow(buttons);
    if (dialog.exec() != QDialog::Accepted) return false;
    size = QSize(width->value(), height->value());
    dpi = resolution->value();
    settings.setValue(QStringLiteral("charts/pngWidth"), size.width());
    settings.setValue(QStringLiteral("charts/pngHeight"), size.height());
    settings.setValue(QStringLiteral("charts/pngDpi"), dpi);
    return true;
}

}  // namespace

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
        QSize size;
        int dpi = 0;
        if (!askPngSize(this, size, dpi)) return;
        result = exportPng(path, size.width(), size.height(), dpi);
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

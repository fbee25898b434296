// LiveChart's exports (PNG, SVG, CSV) and its context menu. The export functions take a path
// and need no dialog, so tests and batch tools can call them.
#include "live_chart.h"

#include <QActionGroup>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QSaveFile>

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

}  // namespace

bool LiveChart::svgAvailable() {
#ifdef TS_WIDGETS_HAVE_SVG
    return true;
#else
    return false;
#endif
}

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

bool LiveChart::exportPng(const QString& path, int width, int height) {
    refreshForExport(width);
    return m_plot->savePng(path, width, height);
}

bool LiveChart::exportSvg(const QString& path, int width, int height) {
#ifdef TS_WIDGETS_HAVE_SVG
    const int w = width > 0 ? width : m_plot->width();
    const int h = height > 0 ? height : m_plot->height();
    refreshForExport(w);
    QSvgGenerator svg;
    svg.setFileName(path);
    svg.setSize(QSize(w, h));
    svg.setViewBox(QRect(0, 0, w, h));
    svg.setTitle(m_title ? m_title->text() : tr("Chart"));
    QCPPainter painter;
    if (!painter.begin(&svg)) return false;
    m_plot->toPainter(&painter, w, h);
    painter.end();
    return QFileInfo(path).size() > 0;
#else
    Q_UNUSED(path);
    Q_UNUSED(width);
    Q_UNUSED(height);
    return false;
#endif
}

bool LiveChart::exportCsv(const QString& path) const {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) return false;
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
        if (out.size() > (1 << 20)) {  // stream a million points instead of holding them twice
            if (file.write(out) != out.size()) return false;
            out.clear();
        }
    }
    if (file.write(out) != out.size()) return false;
    return file.commit();
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
    const bool ok = kind == Png ? exportPng(path) : kind == Svg ? exportSvg(path) : exportCsv(path);
    if (!ok)
        QMessageBox::warning(this, tr("Export failed"),
                             tr("Could not write %1. Check that the folder exists and is writable.")
                                 .arg(QDir::toNativeSeparators(path)));
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

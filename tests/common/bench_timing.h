// What the benchmarks (bench_runs_page, bench_node_canvas, bench_model_page) share: medians,
// waiting on the event loop, the main thread's CPU time, and the frame times of a view. A
// frame is one change (a pan or zoom step) plus a synchronous paint; PaintedArea says how
// much of the viewport each frame painted, so a cheap frame that painted nothing shows as such.
#pragma once

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEvent>
#include <QObject>
#include <QPaintEvent>
#include <QWidget>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <functional>
#include <vector>

namespace bench {

inline double median(std::vector<double> v)
{
    if (v.empty()) return std::nan("");
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

inline double msSince(const QElapsedTimer& t) { return double(t.nsecsElapsed()) / 1e6; }

// Runs the event loop until `done` holds; false after `timeoutMs`.
inline bool waitUntil(const std::function<bool()>& done, int timeoutMs = 120000)
{
    QElapsedTimer timer;
    timer.start();
    while (!done()) {
        if (timer.elapsed() > timeoutMs) return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    }
    return true;
}

// CPU time of the calling thread: unlike wall time it does not grow when other processes
// share the cores (it leaves out the raster engine's helper threads for large fills).
inline double threadCpuMs()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) * 1e-6;
}

// The share of the viewport that paint events covered, summed over a measurement.
class PaintedArea : public QObject {
public:
    explicit PaintedArea(QWidget* viewport) : m_viewport(viewport) { viewport->installEventFilter(this); }
    double take()
    {
        const double share = m_pixels / (double(m_viewport->width()) * m_viewport->height());
        m_pixels = 0;
        return share;
    }

protected:
    bool eventFilter(QObject*, QEvent* event) override
    {
        if (event->type() == QEvent::Paint)
            for (const QRect& r : static_cast<QPaintEvent*>(event)->region()) m_pixels += double(r.width()) * r.height();
        return false;
    }

private:
    QWidget* m_viewport;
    double m_pixels = 0;
};

struct FrameStats {
    double median = 0, max = 0, cpuMedian = 0, painted = 0;  // painted: viewports per frame
};

// `frames` times change(i) followed by paint().
inline FrameStats measureFrames(int frames, const std::function<void(int)>& change, const std::function<void()>& paint,
                                PaintedArea& area)
{
    std::vector<double> ms, cpu;
    area.take();
    for (int i = 0; i < frames; ++i) {
        QElapsedTimer timer;
        timer.start();
        const double cpu0 = threadCpuMs();
        change(i);
        paint();
        cpu.push_back(threadCpuMs() - cpu0);
        ms.push_back(msSince(timer));
    }
    return {median(ms), *std::max_element(ms.begin(), ms.end()), median(cpu), area.take() / frames};
}

// Frame i of a pan: 40 px right and down ten times, then ten back, so the view stays inside
// the drawing however many frames.
inline int panStep(int i) { return (i / 10) % 2 ? -40 : 40; }
// Frame i of a zoom: x1.1, x1.1^2 ... x1.1^5 of the starting zoom and back down.
inline double zoomStep(int i) { return std::pow(1.1, (i / 5) % 2 ? 5 - i % 5 : i % 5 + 1); }

}  // namespace bench

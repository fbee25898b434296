// bench_datasets_page: the Datasets page's sample grid at the size of issue 14. It opens every
// Fashion-MNIST image (60,000 training + 10,000 test, "All samples") in a shown page of
// 1280x800 and scrolls the grid programmatically, one row per frame and then one page per
// frame, while the thumbnails are decoded on the loader's threads and arrive between frames.
// A frame is: move the scroll bar, handle what arrived (processEvents: thumbnail batches,
// relayout), repaint the viewport synchronously. A third pass paces the page steps at 60 Hz,
// so the blank cells it reports are those still missing a frame later. It prints the median and 95th percentile
// frame times beside the target (p95 < 16 ms), and how many cells in view were still blank.
//
//   bench_datasets_page [--frames 300] [--samples N]
//
// --samples N writes a generated IDX dataset of N 28x28 images instead (ctest's smoke run), as
// it does when Fashion-MNIST is not installed. A benchmark, not a test: it fails (exit 1) only
// when the page does not list what was opened.
#include <QApplication>
#include <QDir>
#include <QListView>
#include <QScrollBar>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "bench_timing.h"
#include "scratch_home.h"
#include "ui/datasets/datasets_page.h"
#include "ui/datasets/sample_grid_model.h"
#include "ui/datasets/thumbnail_cache.h"
#include "widgets/image_grid.h"

using namespace ts;
using namespace ts::ui;

namespace {

const char* const kFashion = "/usr/share/datasets/fashion-mnist";

void put32(std::ofstream& out, std::uint32_t v)
{
    const char b[4] = {char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
    out.write(b, 4);
}

void writeIdx(const std::string& dir, const char* images, const char* labels, long n, long seed)
{
    std::ofstream im(dir + "/" + images, std::ios::binary), lb(dir + "/" + labels, std::ios::binary);
    put32(im, 0x803), put32(im, std::uint32_t(n)), put32(im, 28), put32(im, 28);
    put32(lb, 0x801), put32(lb, std::uint32_t(n));
    std::vector<char> pixels(784);
    for (long i = 0; i < n; ++i) {
        for (int p = 0; p < 784; ++p) pixels[std::size_t(p)] = char((i * 31 + seed + p * 7 + (p / 28) * (i % 13)) & 0xFF);
        im.write(pixels.data(), 784);
        lb.put(char(i % 10));
    }
}

double percentile(std::vector<double> v, double p)
{
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t i = std::min(v.size() - 1, std::size_t(std::ceil(p * double(v.size())) - 1));
    return v[i];
}

// Rows in view whose thumbnail is not in the cache yet.
int blankCells(QListView* view, SampleGridModel* model, ThumbnailLoader* loader)
{
    const QRect r = view->viewport()->rect();
    int blank = 0;
    for (int y = 2; y < r.height(); y += std::max(1, view->gridSize().height()))
        for (int x = 2; x < r.width(); x += std::max(1, view->gridSize().width())) {
            const QModelIndex i = view->indexAt(QPoint(x, y));
            if (!i.isValid()) continue;
            const GridSample s = model->sampleAt(i.row());
            if (!loader->cached(int(s.source), s.index, model->thumbnailSize())) ++blank;
        }
    return blank;
}

struct Pass {
    std::vector<double> ms;
    std::vector<double> blank;
};

// `paced`: one frame every 16.7 ms (the event loop runs in between, as at 60 Hz), and the blank
// cells are counted at the end of each interval: what the user sees before the next frame.
Pass scroll(QListView* view, SampleGridModel* model, ThumbnailLoader* loader, int frames, int step, bool paced = false)
{
    Pass pass;
    loader->setSources({loader->source(0), loader->source(1)});  // an empty cache: every pass decodes what it shows
    QScrollBar* bar = view->verticalScrollBar();
    bar->setValue(0);
    QCoreApplication::processEvents();
    int direction = 1;
    for (int f = 0; f < frames; ++f) {
        if (bar->value() + step > bar->maximum()) direction = -1;  // bounce at the end: the view stays in the data
        if (bar->value() - step < 0) direction = 1;
        QElapsedTimer t;
        t.start();
        bar->setValue(bar->value() + direction * step);
        QCoreApplication::processEvents();  // thumbnails that arrived, relayout
        view->viewport()->repaint();
        pass.ms.push_back(bench::msSince(t));
        if (paced)
            while (t.nsecsElapsed() < 16'666'667) QCoreApplication::processEvents(QEventLoop::AllEvents, 1);
        pass.blank.push_back(blankCells(view, model, loader));
    }
    return pass;
}

void report(const char* what, const Pass& p, int frames)
{
    const double p95 = percentile(p.ms, 0.95);
    std::printf("  %-11s %4d frames: median %6.2f ms, p95 %6.2f ms, max %6.2f ms   (target p95 < 16 ms: %s); "
                "blank cells in view per frame: median %.0f\n",
                what, frames, bench::median(p.ms), p95, *std::max_element(p.ms.begin(), p.ms.end()), p95 < 16 ? "met" : "missed",
                bench::median(p.blank));
}

}  // namespace

int main(int argc, char** argv)
{
    long frames = 300, samples = 0;
    for (int i = 1; i < argc; ++i) {
        long* target = !std::strcmp(argv[i], "--frames") ? &frames : !std::strcmp(argv[i], "--samples") ? &samples : nullptr;
        if (!target || i + 1 >= argc || (*target = std::strtol(argv[i + 1], nullptr, 10)) <= 0) {
            std::fprintf(stderr, "usage: bench_datasets_page [--frames N] [--samples N] (positive numbers)\n");
            return 2;
        }
        ++i;
    }
    QTemporaryDir home;
    if (!home.isValid()) return 1;
    useScratchHome(home.path());
    QApplication app(argc, argv);

    DatasetSpec spec;
    spec.format = "idx";
    std::string source = "Fashion-MNIST";
    const bool fashion = samples == 0 && QFile::exists(QString(kFashion) + "/train-images-idx3-ubyte.gz");
    if (fashion) {
        spec.path = kFashion;
    } else {
        if (samples == 0) samples = 70000;
        const std::string dir = (home.path() + "/generated").toStdString();
        QDir().mkpath(QString::fromStdString(dir));
        const long test = samples / 7;
        writeIdx(dir, "train-images-idx3-ubyte", "train-labels-idx1-ubyte", samples - test, 0);
        writeIdx(dir, "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte", test, 99);
        spec.path = dir;
        source = "generated 28x28";
    }

    DatasetsPage page(Workspace::open((home.path() + "/workspace").toStdString()));
    page.resize(1280, 800);
    page.show();
    QElapsedTimer open;
    open.start();
    page.openSpec(spec, {});
    if (!bench::waitUntil([&] { return !page.isOpening(); }) || !page.opened().ok()) {
        std::fprintf(stderr, "bench_datasets_page: the dataset did not open: %s\n", qPrintable(page.opened().error));
        return 1;
    }
    const double openMs = bench::msSince(open);
    SampleFilter all;
    all.split = SplitView::All;
    page.setFilter(all);
    const std::int64_t expected = page.opened().files->train->size() + (page.opened().files->test ? page.opened().files->test->size() : 0);
    SampleGridModel* model = page.gridModel();
    if (model->rowCount() != expected) {
        std::fprintf(stderr, "bench_datasets_page: the grid lists %d samples, the files hold %lld\n", model->rowCount(), (long long)expected);
        return 1;
    }
    QListView* view = page.grid()->view();
    // The grid lays out a big model in batches: wait until the scroll range stops growing.
    int lastMax = -1;
    QElapsedTimer layout;
    layout.start();
    bench::waitUntil([&] {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        const int max = view->verticalScrollBar()->maximum();
        const bool stable = max > 0 && max == lastMax;
        lastMax = max;
        return stable;
    }, 60000);
    const double layoutMs = bench::msSince(layout);
    const int rowStep = page.grid()->cellSize().height();
    const int pageStep = view->viewport()->height();
    const int inView = (view->viewport()->width() / std::max(1, view->gridSize().width())) *
                       (view->viewport()->height() / std::max(1, rowStep) + 1);

    std::printf("bench_datasets_page: %lld samples (%s, all splits), page 1280x800, viewport %dx%d, about %d cells in view, "
                "thumbnails %d px\n",
                (long long)expected, source.c_str(), view->viewport()->width(), view->viewport()->height(), inView,
                page.grid()->thumbnailSize());
    std::printf("  opening: %.0f ms (on a worker thread), grid layout: %.0f ms\n", openMs, layoutMs);
    const Pass rows = scroll(view, model, page.thumbnails(), int(frames), rowStep);
    report("row steps", rows, int(frames));
    const Pass pages = scroll(view, model, page.thumbnails(), int(frames), pageStep);
    report("page steps", pages, int(frames));
    const Pass paced = scroll(view, model, page.thumbnails(), int(frames), pageStep, true);
    report("page @60 Hz", paced, int(frames));
    page.thumbnails()->waitForIdle();
    std::printf("  thumbnails decoded: %d, cached: %.1f MiB of %lld MiB\n", page.thumbnails()->decodedCount(),
                double(page.thumbnails()->cachedBytes()) / (1 << 20), (long long)(ThumbnailLoader::kCacheBytes >> 20));
    return 0;
}

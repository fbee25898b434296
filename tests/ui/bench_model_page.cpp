// bench_model_page: the Model page at the size of issue 13, with real widgets on a real file.
// It writes an experiment (the shipped ResNet's Fashion-MNIST data and settings) whose model
// is N nodes of residual blocks (Conv2d, BatchNorm2d, ReLU, Add over a skip wire, stride-2
// stages with a projected skip), checked by checkGraph; once without a layout (opening lays it
// out with Graphviz) and once with the layout the page saves after Arrange. Then, on one shown
// page: opening each file until the canvas shows every node; one attribute edit until the
// canvas is updated (and the diagnosis alone); frames of panning and zooming the page's canvas
// at 1400x900. It prints the medians beside issue 13's targets, and where opening's time goes.
//
//   bench_model_page [--nodes 300] [--rounds 9] [--frames 60]
//
// A benchmark, not a test: timings swing with the machine's load, so nothing fails on a
// number; it fails (exit 1) only when the page does not show what was written.
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "bench_timing.h"
#include "graph/graph.h"
#include "graph/graph_diagnosis.h"
#include "io/yaml/experiment_text.h"
#include "io/yaml/shipped_experiments.h"
#include "scratch_home.h"
#include "ui/experiment_document.h"
#include "ui/model/model_document.h"
#include "ui/model/model_page.h"
#include "ui/model/model_scene.h"
#include "ui/model/model_summary_panel.h"
#include "widgets/graph_layout.h"
#include "widgets/node_canvas.h"

using namespace ts;
using namespace ts::ui;

namespace {

struct Options {
    long nodes = 300, rounds = 9, frames = 60;
};

constexpr long kMinNodes = 48;  // the least every count from which blocks of 7 and 8 nodes add up
const QSize kCanvasSize(1400, 900);

bool parse(int argc, char** argv, Options& o)
{
    const std::map<std::string, long*> numbers = {{"--nodes", &o.nodes}, {"--rounds", &o.rounds}, {"--frames", &o.frames}};
    for (int i = 1; i < argc; ++i) {
        const auto n = numbers.find(argv[i]);
        if (n != numbers.end() && i + 1 < argc && (*n->second = std::strtol(argv[i + 1], nullptr, 10)) > 0) {
            ++i;
            continue;
        }
        std::fprintf(stderr, "bench_model_page: bad option or value '%s'\nusage: bench_model_page [--nodes N] [--rounds N] "
                             "[--frames N] (positive numbers, N nodes at least %ld)\n", argv[i], kMinNodes);
        return false;
    }
    if (o.nodes < kMinNodes) {
        std::fprintf(stderr, "bench_model_page: --nodes %ld is too few for residual blocks: give %ld or more\n", o.nodes, kMinNodes);
        return false;
    }
    return true;
}

// --- the experiment file ---

// The shipped ResNet experiment without its name, description and model: its dataset
// (Fashion-MNIST, normalised, augmented), optimizer, schedule and training sections.
std::string shippedSettings()
{
    std::ifstream in(shippedExperimentsDirectory() / "fashion_mnist_resnet.yaml");
    std::string line, out, section;
    while (std::getline(in, line)) {
        if (!line.empty() && line[0] != ' ' && line[0] != '#') section = line.substr(0, line.find(':'));
        if (!section.empty() && section != "name" && section != "description" && section != "model") out += line + "\n";
    }
    return out;
}

struct Model {
    std::string yaml;           // the `model:` section
    std::string editedNode;     // the Conv2d whose out_channels the edit changes
    std::int64_t editedChannels = 0;
    int blocks = 0, projected = 0, strided = 0;
};

// `count` nodes: a stem (3), residual blocks of 7 nodes (identity skip) or 8 (a 1x1 Conv2d
// projects the skip where the block widens), and a head (3). The projected blocks are spread
// over the network, and so are the three of them that halve the image (28 -> 14 -> 7 -> 4);
// the others widen it by 16 channels.
Model residualModel(long count)
{
    const long inBlocks = count - 6;
    long projected = -1;
    for (long p : {3L, 4L, 5L, 6L, 7L, 8L, 9L, 0L, 1L, 2L})
        if (projected < 0 && 8 * p <= inBlocks && (inBlocks - 8 * p) % 7 == 0) projected = p;
    const long blocks = projected + (inBlocks - 8 * projected) / 7;
    Model m;
    m.blocks = int(blocks);
    m.projected = int(projected);
    std::ostringstream y;
    auto conv = [&](const std::string& name, std::int64_t channels, int kernel, int stride, const std::string& inputs) {
        y << "    - {name: " << name << ", op: Conv2d" << (inputs.empty() ? "" : ", inputs: [" + inputs + "]")
          << ", out_channels: " << channels << ", kernel_size: " << kernel << (kernel == 3 ? ", padding: 1" : "")
          << (stride > 1 ? ", stride: " + std::to_string(stride) : "") << ", bias: false}\n";
    };
    auto node = [&](const std::string& name, const char* op, const std::string& inputs = {}) {
        y << "    - {name: " << name << ", op: " << op << (inputs.empty() ? "" : ", inputs: [" + inputs + "]") << "}\n";
    };
    y << "model:\n  nodes:\n";
    std::int64_t channels = 16;
    conv("stem", channels, 3, 1, "image");
    node("stem_bn", "BatchNorm2d");
    node("stem_relu", "ReLU");
    std::string previous = "stem_relu";
    long nextProjection = 0;  // the index of the next projected block among the projected ones
    for (long b = 0; b < blocks; ++b) {
        const bool project = nextProjection < projected && b == nextProjection * blocks / projected;
        const bool halve = project && 3 * nextProjection % projected < 3;  // three of them, spread out
        if (project) {
            channels = halve ? channels * 2 : channels + 16;
            ++nextProjection;
            m.strided += halve;
        }
        const std::string p = std::string("b").append(std::to_string(b + 1)).append("_");
        conv(p + "conv1", channels, 3, halve ? 2 : 1, {});
        if (b == blocks / 2) m.editedNode = p + "conv1", m.editedChannels = channels;
        node(p + "bn1", "BatchNorm2d");
        node(p + "relu1", "ReLU");
        conv(p + "conv2", channels, 3, 1, {});
        node(p + "bn2", "BatchNorm2d");
        if (project) conv(p + "skip", channels, 1, halve ? 2 : 1, previous);
        node(p + "add", "Add", p + "bn2, " + (project ? p + "skip" : previous));
        node(p + "out", "ReLU");
        previous = p + "out";
    }
    node("pool", "GlobalAvgPool");
    y << "    - {name: fc, op: Linear, out_features: 10}\n";
    node("loss", "CrossEntropy", "fc, label");
    m.yaml = y.str();
    return m;
}

bool writeText(const QString& path, const std::string& text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text.data(), qint64(text.size())) == qint64(text.size());
}

// --- measuring ---

struct Row {
    std::string what, target;
    double targetMs = 0;  // 0: no target
    std::vector<double> ms;
    std::vector<double> cpu;  // the UI thread's CPU time, where measured: what the load on the machine does not inflate
};

// Says what went wrong; false, for the steps (bool) that end the benchmark with exit 1.
bool fail(const std::string& what)
{
    std::fprintf(stderr, "bench_model_page: %s\n", what.c_str());
    return false;
}

// Untimed: lets the summary's memory plan (a worker) finish, so it does not share the cores
// with the next measurement. Sleeps in the event loop (no busy wait taking a core from it).
void settle(ModelPage& page)
{
    QTimer wake;  // WaitForMoreEvents returns at least this often
    wake.start(50);
    QElapsedTimer waited;
    waited.start();
    while (page.summary()->planning() && waited.elapsed() < 60000) QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    QCoreApplication::processEvents();
}

// The parts of opening and editing, measured apart on a shown canvas of the page's size:
// reading the file, the diagnosis, drawing the nodes (ModelScene::show on an empty canvas),
// the Graphviz layout of the drawn boxes, and drawing again after the edit the page gets.
void parts(const QString& path, const Model& model, std::map<std::string, Row>& rows)
{
    auto record = [&](const char* part, double ms) { rows[part].ms.push_back(ms); };
    QElapsedTimer t;
    t.start();
    const ExperimentDraft draft = loadExperimentDraft(path.toStdString());
    record("partRead", bench::msSince(t));
    t.restart();
    const GraphDiagnosis d = diagnoseGraph(draft.spec.model, draft.spec.training.batchSize);
    record("partDiagnose", bench::msSince(t));
    widgets::NodeCanvas canvas;
    canvas.resize(kCanvasSize);
    canvas.show();
    ModelScene scene(&canvas);
    const ModelState state{draft.spec.model, draft.spec.layout};
    t.restart();
    scene.show(state, d);
    record("partShow", bench::msSince(t));
    QList<widgets::LayoutBox> boxes;
    for (const QString& id : canvas.nodeIds()) boxes.append({id, canvas.nodeSize(id)});
    QList<widgets::LayoutEdge> edges;
    for (const auto& w : canvas.wires()) edges.append({w.from, w.to});
    t.restart();
    widgets::layeredLayout(boxes, edges);
    record("partLayout", bench::msSince(t));
    const ModelState edited = setAttribute(state, QString::fromStdString(model.editedNode), QStringLiteral("out_channels"),
                                           std::int64_t(model.editedChannels + 8));
    const GraphDiagnosis e = diagnoseGraph(edited.model, draft.spec.training.batchSize);
    t.restart();
    scene.show(edited, e);
    record("partReshow", bench::msSince(t));
}

// Sizes the page so that its canvas is kCanvasSize (the splitters share out what the page gains).
void sizeCanvas(ModelPage& page)
{
    for (int i = 0; i < 8 && page.canvas()->size() != kCanvasSize; ++i) {
        page.resize(page.size() + (kCanvasSize - page.canvas()->size()));
        QCoreApplication::processEvents();
    }
}

// The file without a layout, as written: `nodes` nodes that check. The number of graph inputs in `inputs`.
bool writeExperiment(const QString& path, const Options& o, const Model& model, std::size_t* inputs)
{
    const std::string text = "name: bench_resnet_" + std::to_string(o.nodes) + "\ndescription: " + std::to_string(o.nodes) +
                             " nodes of residual blocks for bench_model_page.\n\n" + shippedSettings() + "\n" + model.yaml;
    if (!writeText(path, text)) return fail("cannot write " + path.toStdString());
    try {
        const ExperimentSpec spec = loadExperiment(path.toStdString());
        if (long(spec.model.nodes.size()) != o.nodes) return fail("the model has " + std::to_string(spec.model.nodes.size()) + " nodes");
        if (!spec.layout.positions.empty()) return fail("the file without a layout has one");
        const CheckedGraph checked = checkGraph(spec.model, spec.training.batchSize);
        *inputs = spec.model.inputs.size();
        std::printf("%s: %ld nodes (%d residual blocks, %d with a projected skip, %d of them stride 2), %zu values, checks at batch %lld\n",
                    qPrintable(path), o.nodes, model.blocks, model.projected, model.strided, checked.values.size(),
                    static_cast<long long>(spec.training.batchSize));
    } catch (const std::exception& e) {
        return fail(std::string("the generated model does not check: ") + e.what());
    }
    return true;
}

// Opens `path` in the experiment document the page shows; false (said) when it cannot.
bool open(ExperimentDocument& experiment, const QString& path)
{
    QString error;
    return experiment.open(path, &error) || fail("cannot open " + path.toStdString() + ": " + error.toStdString());
}

// The same model saved through the page with a layout: opened (Graphviz lays it out), one
// node nudged (the layout chosen on opening is implied, not saved, until a node moves), saved.
bool saveLaidOut(ExperimentDocument& experiment, ModelPage& page, const QString& bare, const QString& laidOut, int shownNodes)
{
    if (!open(experiment, bare)) return false;
    settle(page);
    const QString nudged = QStringLiteral("loss");
    page.document()->apply(moveNodes(page.document()->state(), {{nudged, page.canvas()->nodePos(nudged) + QPointF(20, 0)}}),
                           QStringLiteral("bench nudge"));
    QString error;
    if (!experiment.saveAs(laidOut, &error)) return fail("cannot save " + laidOut.toStdString() + ": " + error.toStdString());
    if (const std::size_t placed = loadExperimentDraft(laidOut.toStdString()).spec.layout.positions.size(); placed != std::size_t(shownNodes))
        return fail("the saved file places " + std::to_string(placed) + " of the " + std::to_string(shownNodes) + " nodes");
    settle(page);
    return true;
}

// Opening `path`, until the canvas shows every node and has painted.
bool measureOpen(ExperimentDocument& experiment, ModelPage& page, const QString& path, int shownNodes, long rounds, Row& row)
{
    for (long r = 0; r < rounds; ++r) {
        QElapsedTimer t;
        t.start();
        const double cpu = bench::threadCpuMs();
        if (!open(experiment, path)) return false;
        if (!bench::waitUntil([&] { return page.canvas()->nodeIds().size() == shownNodes; }, 60000))
            return fail("the canvas does not show every node");
        QCoreApplication::processEvents();
        row.ms.push_back(bench::msSince(t));
        row.cpu.push_back(bench::threadCpuMs() - cpu);
        if (!page.document()->diagnosis().ok()) return fail("the opened model has problems");
        settle(page);
    }
    return true;
}

// One attribute edit (a Conv2d's out_channels, back and forth), until the canvas has painted.
bool measureEdit(ModelPage& page, const Model& model, long rounds, Row& whole, Row& check)
{
    const QString edited = QString::fromStdString(model.editedNode);
    for (long r = 0; r < rounds; ++r) {
        const std::int64_t channels = model.editedChannels + (r % 2 ? 0 : 8);
        QElapsedTimer t;
        t.start();
        const double cpu = bench::threadCpuMs();
        page.document()->apply(setAttribute(page.document()->state(), edited, QStringLiteral("out_channels"), channels),
                               QStringLiteral("bench edit"));
        QCoreApplication::processEvents();
        whole.ms.push_back(bench::msSince(t));
        whole.cpu.push_back(bench::threadCpuMs() - cpu);
        check.ms.push_back(page.document()->lastCheckMs());
        const Node* n = findNode(page.document()->state().model, edited);
        if (!n || std::get<std::int64_t>(n->attrs.get("out_channels")) != channels || !page.document()->diagnosis().ok())
            return fail("the edit did not land, or the edited model has problems");
        settle(page);
    }
    return true;
}

struct Frames {
    std::string what;
    bench::FrameStats stats;
};

// Panning (40 px steps) and zooming (x1.1 steps) the page's canvas, a synchronous paint each:
// at zoom 1 and at the zoom the page opened the model with.
std::vector<Frames> measurePanZoom(ModelPage& page, int count)
{
    widgets::NodeCanvas* canvas = page.canvas();
    const double opened = canvas->zoom();
    QScrollBar* h = canvas->horizontalScrollBar();
    QScrollBar* v = canvas->verticalScrollBar();
    auto pan = [&](int i) {
        h->setValue(h->value() + bench::panStep(i));
        v->setValue(v->value() + bench::panStep(i));
    };
    auto shown = [] { QCoreApplication::processEvents(); };
    auto full = [&] {
        canvas->viewport()->repaint();
        QCoreApplication::processEvents();
    };
    bench::PaintedArea area(canvas->viewport());
    std::vector<Frames> frames;
    for (double zoom : {1.0, opened}) {
        canvas->setZoom(zoom);
        canvas->centerOn(canvas->scene()->itemsBoundingRect().center());
        full();
        char at[48];
        std::snprintf(at, sizeof at, " (zoom %.2f%s)", zoom, zoom == opened ? ", as opened" : "");
        frames.push_back({std::string("pan 40 px, shown") + at, bench::measureFrames(count, pan, shown, area)});
        frames.push_back({std::string("pan 40 px, full repaint") + at, bench::measureFrames(count, pan, full, area)});
        const double base = canvas->zoom();
        auto zoomStep = [&](int i) { canvas->setZoom(base * bench::zoomStep(i)); };
        frames.push_back({std::string("zoom x1.1 steps, full repaint") + at, bench::measureFrames(count, zoomStep, full, area)});
        canvas->setZoom(base);
    }
    return frames;
}

void report(const Options& o, const ModelPage& page, int shownNodes, std::map<std::string, Row>& rows, const std::vector<Frames>& frames)
{
    const widgets::NodeCanvas* canvas = page.canvas();
    std::printf("\nModel page, %ld nodes (%d on the canvas, %lld wires), canvas %dx%d in a page of %dx%d, platform %s; "
                "median of %ld rounds (min-max)\n",
                o.nodes, shownNodes, static_cast<long long>(canvas->wires().size()), canvas->width(), canvas->height(), page.width(),
                page.height(), qPrintable(QGuiApplication::platformName()), o.rounds);
    std::printf("%-62s %9s %19s %13s   %s\n", "", "median", "min-max", "UI-thread CPU", "target");
    for (const char* key : {"openBare", "openLaid", "partRead", "partDiagnose", "partShow", "partLayout", "editCheck", "edit", "partReshow"}) {
        const Row& row = rows[key];
        const auto [lo, hi] = std::minmax_element(row.ms.begin(), row.ms.end());
        const double m = bench::median(row.ms);
        char cpu[24] = "-";
        if (!row.cpu.empty()) std::snprintf(cpu, sizeof cpu, "%.1f ms", bench::median(row.cpu));
        std::printf("%-62s %6.1f ms %8.1f-%7.1f ms %13s   %s%s\n", row.what.c_str(), m, *lo, *hi, cpu, row.target.c_str(),
                    row.targetMs <= 0 ? "" : m < row.targetMs ? "  met" : "  MISSED");
    }
    std::printf("frames (%ld each; target < 16 ms)                            median      max  UI-thread CPU   painted\n", o.frames);
    for (const Frames& f : frames)
        std::printf("  %-58s %6.2f ms %6.2f ms   %6.2f ms   %4.2f viewports  %s\n", f.what.c_str(), f.stats.median, f.stats.max,
                    f.stats.cpuMedian, f.stats.painted, f.stats.max < 16 ? "met" : f.stats.median < 16 ? "median met, max MISSED" : "MISSED");
}

}  // namespace

int main(int argc, char** argv)
{
    Options o;
    if (!parse(argc, argv, o)) return 2;
    QTemporaryDir home;  // a scratch HOME before Qt starts: no user settings read or written
    if (!home.isValid()) return 1;
    useScratchHome(home.path());
    QApplication app(argc, argv);

    QTemporaryDir dir;
    const QString bare = dir.filePath(QStringLiteral("resnet_%1.yaml").arg(o.nodes));
    const QString laidOut = dir.filePath(QStringLiteral("resnet_%1_laid_out.yaml").arg(o.nodes));
    const Model model = residualModel(o.nodes);
    std::size_t inputs = 0;
    if (!writeExperiment(bare, o, model, &inputs)) return 1;
    const int shownNodes = int(o.nodes + long(inputs));

    ExperimentDocument experiment;  // outlives the page, its view
    ModelPage page(&experiment);
    page.show();
    sizeCanvas(page);
    if (!saveLaidOut(experiment, page, bare, laidOut, shownNodes)) return 1;

    const std::string n = std::to_string(o.nodes);
    std::map<std::string, Row> rows = {
        {"openBare", {"open " + n + " nodes (no layout: Graphviz lays it out)", "< 500 ms", 500, {}, {}}},
        {"openLaid", {"open " + n + " nodes (with a layout)", "< 500 ms", 500, {}, {}}},
        {"partRead", {"  apart: read the file (lenient draft, checked)", "-", 0, {}, {}}},
        {"partDiagnose", {"  apart: diagnoseGraph", "-", 0, {}, {}}},
        {"partShow", {"  apart: ModelScene::show on an empty canvas", "-", 0, {}, {}}},
        {"partLayout", {"  apart: Graphviz layout of the boxes", "-", 0, {}, {}}},
        {"editCheck", {"check after an edit: diagnosis alone (lastCheckMs)", "< 20 ms", 20, {}, {}}},
        {"edit", {"  the whole edit: apply until the canvas has painted", "< 20 ms", 20, {}, {}}},
        {"partReshow", {"  apart: ModelScene::show after the edit (the drawn canvas)", "-", 0, {}, {}}},
    };
    if (!measureOpen(experiment, page, bare, shownNodes, o.rounds, rows["openBare"]) ||
        !measureOpen(experiment, page, laidOut, shownNodes, o.rounds, rows["openLaid"]))
        return 1;
    for (long r = 0; r < o.rounds; ++r) parts(bare, model, rows);
    if (!measureEdit(page, model, o.rounds, rows["edit"], rows["editCheck"])) return 1;

    sizeCanvas(page);
    const QString shot = QDir::temp().filePath(QStringLiteral("bench_model_page.png"));
    page.grab().save(shot);
    const std::vector<Frames> frames = measurePanZoom(page, int(o.frames));
    report(o, page, shownNodes, rows, frames);
    std::printf("(the page before the frames, as opened: %s)\n", qPrintable(shot));
    return 0;
}

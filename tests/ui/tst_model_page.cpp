// The Model page through its own actions on real widgets: the shipped CNN built from nothing
// (add from the palette's ops, connect, set attributes, rename) equals the model read from
// experiments/fashion_mnist_cnn.yaml; the whole construction undone step by step and redone;
// a refused cycle; an error pinned to its node; blocks grouped and pasted with fresh names;
// the page as a view of the experiment document (its edits on the document's one history,
// files saved losslessly through it, New as a new untitled experiment, shipped files never
// written); and the CNN again with the mouse and keyboard on the canvas (nodes from the Tab
// popup, wires dragged port to port, a node dragged, a rubber band).
#include <QtTest>

#include <QAction>
#include <QDirIterator>
#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QTreeView>
#include <QUndoStack>

#include "graph/templates.h"
#include "io/yaml/experiment_text.h"
#include "ui/experiment_document.h"
#include "ui/model/graph_edits.h"
#include "ui/model/model_document.h"
#include "ui/model/model_scene.h"
#include "ui/model/model_page.h"
#include "ui/model/model_summary_panel.h"
#include "ui/model/node_properties.h"
#include "ui/model/op_palette.h"
#include "ui/model/op_popup.h"
#include "backend/backend.h"
#include "train/memory_advice.h"
#include "train/evaluation.h"
#include "ui/train/training_session.h"
#include "widgets/canvas_minimap.h"
#include "widgets/node_canvas.h"
#include "widgets/node_item.h"

using namespace ts;
using namespace ts::ui;

namespace {

QString experimentsDir() { return QStringLiteral(TS_SOURCE_DIR "/experiments"); }
QString shippedPath(const char* name) { return experimentsDir() + QLatin1Char('/') + QLatin1String(name); }

ExperimentSpec shipped(const char* name) { return loadExperiment(shippedPath(name).toStdString()); }

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Every shipped experiment's bytes (lessons' files included), to show that nothing wrote them.
QMap<QString, QByteArray> shippedFiles()
{
    QMap<QString, QByteArray> files;
    QDirIterator it(experimentsDir(), {QStringLiteral("*.yaml")}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        files[path] = readAll(path);
    }
    return files;
}

// Opens a file in the document, read only here (a shipped one is a template: never saved).
bool openIn(ExperimentDocument& experiment, const QString& path)
{
    QString error;
    const bool opened = experiment.open(path, &error);
    if (!opened) qWarning("%s", qPrintable(error));
    return opened;
}

// The page's heading ("Model: my_cnn.yaml (modified)").
QString pageTitle(const ModelPage& page)
{
    for (const QLabel* label : page.findChildren<QLabel*>())
        if (label->text().startsWith(QStringLiteral("Model: "))) return label->text();
    return {};
}

// An experiment with the CNN's dataset and settings but no model nodes: the page starts empty.
ExperimentSpec emptyCnnExperiment()
{
    ExperimentSpec spec = shipped("fashion_mnist_cnn.yaml");
    spec.model.nodes.clear();
    spec.sourceFile.clear();
    return spec;
}

void setAttr(ModelPage& page, const QString& node, const QString& attr, AttrValue v)
{
    emit page.properties()->attributeChanged(node, attr, v);
}

// The CNN of experiments/fashion_mnist_cnn.yaml, drawn the way a user would.
void buildCnn(ModelPage& page)
{
    struct Layer {
        const char* op;
        std::vector<std::pair<const char*, AttrValue>> attrs;
    };
    const std::vector<Layer> layers = {
        {"Conv2d", {{"out_channels", std::int64_t(32)}, {"kernel_size", std::int64_t(3)}, {"padding", std::int64_t(1)}, {"init", std::string("pytorch")}}},
        {"BatchNorm2d", {}},
        {"ReLU", {}},
        {"MaxPool2d", {{"kernel_size", std::int64_t(2)}}},
        {"Conv2d", {{"out_channels", std::int64_t(64)}, {"kernel_size", std::int64_t(3)}, {"padding", std::int64_t(1)}, {"init", std::string("pytorch")}}},
        {"BatchNorm2d", {}},
        {"ReLU", {}},
        {"MaxPool2d", {{"kernel_size", std::int64_t(2)}}},
        {"Flatten", {}},
        {"Linear", {{"out_features", std::int64_t(128)}, {"init", std::string("pytorch")}}},
        {"ReLU", {}},
        {"Dropout", {{"p", 0.25}}},
        {"Linear", {{"out_features", std::int64_t(10)}, {"init", std::string("pytorch")}}},
        {"CrossEntropy", {}},
    };
    QString previous = QStringLiteral("image");
    double y = 100;
    for (const Layer& l : layers) {
        const QString name = page.addOp(QString::fromLatin1(l.op), QPointF(0, y += 100));
        QVERIFY2(page.connectNodes(previous, name, 0), qPrintable(page.statusText()));
        for (const auto& [attr, value] : l.attrs) setAttr(page, name, QString::fromLatin1(attr), value);
        previous = name;
    }
    QVERIFY(page.connectNodes(QStringLiteral("label"), previous, 1));
    emit page.properties()->renameRequested(QStringLiteral("linear2"), QStringLiteral("classifier"));
}

// The page driven as a user does: the mouse on the canvas's viewport, keys in the op popup.
// Palette drags are not used: QDrag runs its own blocking event loop that QTest cannot feed,
// so nodes come from the Tab popup at the cursor, which a newcomer uses as well.
struct MouseUser {
    ModelPage& page;
    widgets::NodeCanvas* canvas() const { return page.canvas(); }
    QWidget* port() const { return page.canvas()->viewport(); }
    QPoint view(QPointF scene) const { return canvas()->mapFromScene(scene); }

    // Tab with the mouse at `scene`, the op's name typed into the popup, Enter. The new node's name.
    QString add(const QString& op, QPointF scene)
    {
        canvas()->centerOn(scene);
        QTest::mouseMove(port(), view(scene));
        QTest::keyClick(canvas(), Qt::Key_Tab);
        OpPopup* popup = page.findChild<OpPopup*>();
        if (!popup || !popup->isVisible()) return {};
        QTest::keyClicks(popup->searchField(), op);
        if (popup->currentOp() != op) return {};
        QTest::keyClick(popup->searchField(), Qt::Key_Return);
        const QStringList selected = canvas()->selectedNodes();  // the page selects what it added
        return selected.size() == 1 ? selected.front() : QString();
    }
    // A left-button press, moves in steps (past the drag distance) and a release, in view pixels.
    void drag(QPoint from, QPoint to)
    {
        QTest::mousePress(port(), Qt::LeftButton, {}, from);
        const int steps = 8;
        for (int i = 1; i <= steps; ++i) QTest::mouseMove(port(), from + (to - from) * i / steps);
        QTest::mouseRelease(port(), Qt::LeftButton, {}, to);
    }
    // From `from`'s output port to input `input` of `to`, both brought into view first (zoomed
    // out when they are far apart), at zoom 1 again afterwards.
    void wire(const QString& from, const QString& to, int input)
    {
        const QPointF a = canvas()->outputPortScenePos(from), b = canvas()->inputPortScenePos(to, input);
        const QSizeF room = QSizeF(port()->size()) * 0.8;
        canvas()->setZoom(std::min({1.0, room.width() / std::max(1.0, std::abs(b.x() - a.x())),
                                    room.height() / std::max(1.0, std::abs(b.y() - a.y()))}));
        canvas()->centerOn((a + b) / 2);
        drag(view(a), view(b));
        canvas()->setZoom(1);
    }
};

}  // namespace

class TestModelPage : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void buildTheShippedCnnUndoItAllAndRedo()
    {
        ExperimentDocument experiment;
        ModelPage page(&experiment);
        page.resize(1400, 900);
        page.show();
        experiment.openUntitled(emptyCnnExperiment());
        QVERIFY(page.document()->state().model.nodes.empty());
        buildCnn(page);
        const Graph expected = shipped("fashion_mnist_cnn.yaml").model;
        const Graph& built = page.document()->state().model;
        QCOMPARE(built.nodes.size(), expected.nodes.size());
        for (std::size_t i = 0; i < built.nodes.size(); ++i) {
            QCOMPARE(built.nodes[i].name, expected.nodes[i].name);
            QCOMPARE(built.nodes[i].op, expected.nodes[i].op);
            QCOMPARE(built.nodes[i].inputs, expected.nodes[i].inputs);
            QVERIFY2(built.nodes[i].attrs == expected.nodes[i].attrs, built.nodes[i].name.c_str());
        }
        QVERIFY(built == expected);
        QVERIFY(page.document()->diagnosis().ok());
        // The canvas shows a node per graph input and node, and a wire per input.
        QCOMPARE(page.canvas()->nodeIds().size(), qsizetype(2 + expected.nodes.size()));
        QCOMPARE(page.canvas()->wires().size(), qsizetype(expected.nodes.size() + 1));

        // The page's steps are the experiment's: the document holds the model drawn.
        QVERIFY(experiment.spec().model == expected);

        // Every step undone, one at a time, back to nothing, on the experiment's one history
        // (Edit > Undo from any page); then all redone.
        QUndoStack* undo = experiment.undoStack();
        QCOMPARE(page.document()->undoStack(), undo);
        const int steps = undo->count();
        QVERIFY(steps >= 14 * 2);
        QVERIFY2(undo->undoText().contains(QStringLiteral("classifier")), qPrintable(undo->undoText()));  // says what it undoes
        while (undo->canUndo()) undo->undo();
        QVERIFY(page.document()->state().model.nodes.empty());
        QVERIFY(experiment.spec().model.nodes.empty());
        QCOMPARE(page.canvas()->nodeIds().size(), qsizetype(2));
        while (undo->canRedo()) undo->redo();
        QVERIFY(page.document()->state().model == expected);
    }

    void buildTheShippedCnnWithTheMouse()
    {
        ExperimentDocument experiment;
        ModelPage page(&experiment);
        page.resize(1400, 900);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        experiment.openUntitled(emptyCnnExperiment());
        page.canvas()->setZoom(1);
        page.canvas()->setFocus();
        MouseUser user{page};
        const QStringList ops = {"Conv2d", "BatchNorm2d", "ReLU",    "MaxPool2d", "Conv2d", "BatchNorm2d", "ReLU",
                                 "MaxPool2d", "Flatten", "Linear", "ReLU", "Dropout", "Linear", "CrossEntropy"};
        const QPointF image = page.canvas()->nodePos(QStringLiteral("image"));
        QString previous = QStringLiteral("image");
        QStringList names;
        for (int i = 0; i < ops.size(); ++i) {
            const QString name = user.add(ops[i], image + QPointF(0, 160 * (i + 1)));
            QVERIFY2(!name.isEmpty(), qPrintable(QStringLiteral("adding %1 through the popup").arg(ops[i])));
            const int steps = page.document()->undoStack()->count();
            user.wire(previous, name, 0);
            QCOMPARE(page.document()->undoStack()->count(), steps + 1);  // one drag, one step
            const Node* n = findNode(page.document()->state().model, name);
            QVERIFY(n);
            QCOMPARE(n->inputs, std::vector<std::string>{previous.toStdString()});
            names.append(previous = name);
        }
        user.wire(QStringLiteral("label"), previous, 1);
        // The attributes and the name through the properties (their editors have tests of their own).
        const std::vector<std::tuple<QString, const char*, AttrValue>> attrs = {
            {"conv1", "out_channels", std::int64_t(32)}, {"conv1", "kernel_size", std::int64_t(3)},
            {"conv1", "padding", std::int64_t(1)},       {"conv1", "init", std::string("pytorch")},
            {"maxpool1", "kernel_size", std::int64_t(2)}, {"conv2", "out_channels", std::int64_t(64)},
            {"conv2", "kernel_size", std::int64_t(3)},   {"conv2", "padding", std::int64_t(1)},
            {"conv2", "init", std::string("pytorch")},   {"maxpool2", "kernel_size", std::int64_t(2)},
            {"linear1", "out_features", std::int64_t(128)}, {"linear1", "init", std::string("pytorch")},
            {"dropout1", "p", 0.25},                     {"linear2", "out_features", std::int64_t(10)},
            {"linear2", "init", std::string("pytorch")},
        };
        for (const auto& [node, attr, value] : attrs) setAttr(page, node, QString::fromLatin1(attr), value);
        emit page.properties()->renameRequested(QStringLiteral("linear2"), QStringLiteral("classifier"));
        QVERIFY(page.document()->state().model == shipped("fashion_mnist_cnn.yaml").model);
        QVERIFY(page.document()->diagnosis().ok());

        // A node dragged by its body: snapped to the grid, one undo step, only that node moved.
        widgets::NodeCanvas* canvas = page.canvas();
        const QRectF relu = canvas->nodeRect(QStringLiteral("relu2"));
        canvas->centerOn(relu.center());
        const auto before = page.document()->state().layout.positions;
        int steps = page.document()->undoStack()->count();
        canvas->selectNodes({});
        user.drag(user.view(relu.center()), user.view(relu.center() + QPointF(247, 31)));
        QCOMPARE(page.document()->undoStack()->count(), steps + 1);
        const auto after = page.document()->state().layout.positions;
        const int grid = canvas->gridSize();
        const NodePosition moved = after.at("relu2");
        QCOMPARE(moved.x, std::round((relu.left() + 247) / grid) * grid);
        QCOMPARE(moved.y, std::round((relu.top() + 31) / grid) * grid);
        for (const auto& [name, p] : before)
            if (name != "relu2") QCOMPARE(after.at(name), p);
        page.document()->undoStack()->undo();
        QCOMPARE(page.document()->state().layout.positions.at("relu2"), before.at("relu2"));
        const int undoAt = page.document()->undoStack()->index();
        steps = page.document()->undoStack()->count();

        // A rubber band from empty space around three nodes selects exactly them.
        const QRectF band = canvas->nodeRect(QStringLiteral("conv2")) | canvas->nodeRect(QStringLiteral("relu2"));
        canvas->centerOn(band.center());
        user.drag(user.view(band.topLeft() - QPointF(40, 20)), user.view(band.bottomRight() + QPointF(40, 20)));
        QCOMPARE(canvas->selectedNodes(), (QStringList{"conv2", "batchnorm2", "relu2"}));
        QCOMPARE(page.document()->undoStack()->count(), steps);  // selecting is no edit
        QCOMPARE(page.document()->undoStack()->index(), undoAt);

        // A refused drag: add1 -> relu4 -> add1 would be a cycle. Nothing changes, the status says why.
        const QPointF aside = canvas->nodePos(QStringLiteral("classifier")) + QPointF(450, 0);
        const QString add = user.add(QStringLiteral("Add"), aside);
        const QString relu4 = user.add(QStringLiteral("ReLU"), aside + QPointF(0, 200));
        QVERIFY(!add.isEmpty() && !relu4.isEmpty());
        user.wire(QStringLiteral("relu1"), add, 0);
        user.wire(add, relu4, 0);
        QCOMPARE(findNode(page.document()->state().model, relu4)->inputs, std::vector<std::string>{add.toStdString()});
        steps = page.document()->undoStack()->count();
        const ModelState unrefused = page.document()->state();
        user.wire(relu4, add, 1);  // the Add's spare port
        QCOMPARE(page.document()->undoStack()->count(), steps);
        QVERIFY(page.document()->state() == unrefused);
        QVERIFY2(page.statusText().contains(QStringLiteral("cycle")), qPrintable(page.statusText()));
        QVERIFY(!canvas->wires().contains(widgets::CanvasWire{relu4, add, 1}));
    }

    void connectionsTheEngineWouldRefuseAreRefused()
    {
        ExperimentDocument experiment;
        ModelPage page(&experiment);
        experiment.openUntitled(emptyCnnExperiment());
        const QString a = page.addOp(QStringLiteral("Linear"), {});
        const QString b = page.addOp(QStringLiteral("ReLU"), {});
        QVERIFY(page.connectNodes(QStringLiteral("image"), a, 0));
        QVERIFY(page.connectNodes(a, b, 0));
        const int steps = page.document()->undoStack()->count();
        QVERIFY(!page.connectNodes(b, a, 0));  // a cycle (and an occupied port)
        QVERIFY(!page.connectNodes(b, b, 0));
        const QString c = page.addOp(QStringLiteral("ReLU"), {});
        QVERIFY(!page.connectNodes(QStringLiteral("image"), b, 0));  // ReLU takes one input: occupied
        QVERIFY2(page.statusText().contains(QStringLiteral("already fed by linear1")), qPrintable(page.statusText()));
        QVERIFY(page.connectNodes(b, c, 0));
        QVERIFY(!page.connectNodes(c, a, 1));  // Linear has no second input
        QCOMPARE(page.document()->undoStack()->count(), steps + 2);  // the refusals changed nothing
        // A cycle through a free port of a variadic op: Add(relu1, ?) fed back into linear1's chain.
        const QString add = page.addOp(QStringLiteral("Add"), {});
        QVERIFY(page.connectNodes(c, add, 0));
        QVERIFY(!page.connectNodes(add, a, 0));
        QVERIFY2(page.statusText().contains(QStringLiteral("cycle")), qPrintable(page.statusText()));
    }

    void anErrorIsPinnedToItsNodeAndListed()
    {
        ExperimentDocument experiment;
        ModelPage page(&experiment);
        QVERIFY(openIn(experiment, shippedPath("fashion_mnist_cnn.yaml")));
        setAttr(page, QStringLiteral("linear1"), QStringLiteral("in_features"), std::int64_t(1000));
        const GraphDiagnosis& d = page.document()->diagnosis();
        QVERIFY(!d.ok());
        QCOMPARE(d.problems.front().node(), std::string("linear1"));
        // The problem list names it; a click selects the node on the canvas.
        QListWidget* problems = page.problems();
        QVERIFY(problems->count() >= 1);
        QListWidgetItem* item = problems->item(0);
        QCOMPARE(item->data(Qt::UserRole).toString(), QStringLiteral("linear1"));
        QVERIFY(item->text().contains(QStringLiteral("3136")));
        emit problems->itemClicked(item);
        QCOMPARE(page.canvas()->selectedNodes(), QStringList{QStringLiteral("linear1")});
        // Nodes above the mistake keep their shapes; the ones below are blocked.
        QVERIFY(d.find("flatten1")->known);
        QVERIFY(d.find("classifier")->blocked);
    }

    void blocksGroupAndPasteWithFreshNames()
    {
        ExperimentDocument experiment;
        ModelPage page(&experiment);
        QVERIFY(openIn(experiment, shippedPath("fashion_mnist_cnn.yaml")));
        const QStringList block{QStringLiteral("conv2"), QStringLiteral("batchnorm2"), QStringLiteral("relu2")};
        page.canvas()->selectNodes(block);
        page.groupSelection();
        QCOMPARE(page.document()->state().layout.blocks.size(), std::size_t(1));
        QCOMPARE(page.document()->state().layout.blocks[0].name, std::string("block1"));
        page.copySelection();
        const int before = page.document()->undoStack()->count();
        const std::size_t nodes = page.document()->state().model.nodes.size();
        for (int i = 0; i < 3; ++i) page.paste();
        QCOMPARE(page.document()->undoStack()->count(), before + 3);  // a paste of three nodes is one step
        const ModelState& s = page.document()->state();
        QCOMPARE(s.model.nodes.size(), nodes + 9);
        QVERIFY(findNode(s.model, QStringLiteral("conv5")) && findNode(s.model, QStringLiteral("batchnorm5")));
        QCOMPARE(s.layout.blocks.size(), std::size_t(4));
        QCOMPARE(s.layout.blocks[3].name, std::string("block4"));
        // Wires inside the copy follow the fresh names; the copy's input from outside is kept.
        QCOMPARE(findNode(s.model, QStringLiteral("batchnorm5"))->inputs, std::vector<std::string>{"conv5"});
        QCOMPARE(findNode(s.model, QStringLiteral("conv5"))->inputs, std::vector<std::string>{"maxpool1"});
        // Collapsed, a block is one node on the canvas; its members' wires go to it.
        page.canvas()->selectNodes({QStringLiteral("conv2")});
        page.document()->apply(setBlockCollapsed(s, QStringLiteral("block1"), true), QStringLiteral("collapse"));
        QVERIFY(page.canvas()->nodeIds().contains(QStringLiteral("block:block1")));
        QVERIFY(!page.canvas()->nodeIds().contains(QStringLiteral("conv2")));
        page.document()->undoStack()->undo();
        QVERIFY(page.canvas()->nodeIds().contains(QStringLiteral("conv2")));
    }

    // The palette's Transformer block on the shipped char GPT: one undoable step that adds the
    // engine's pre-norm block after the selected node (its width, causal attention), wired
    // into the stack, collapsed; it checks, opens, edits, checkpoints as a whole, and undoes.
    void transformerBlockInsertsAsOneCollapsedGroup()
    {
        ExperimentDocument experiment;
        ModelPage page(&experiment);
        page.resize(1200, 800);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QVERIFY(openIn(experiment, shippedPath("fortunes_char_gpt.yaml")));
        QVERIFY(page.document()->diagnosis().ok());
        const ModelState original = page.document()->state();
        QUndoStack* undo = page.document()->undoStack();
        const int steps = undo->count();

        // Select b4_add2, then Enter on the palette's entry (as a double-click would).
        page.canvas()->selectNodes({QStringLiteral("b4_add2")});
        QTreeView* view = page.palette()->view();
        QModelIndex entry;
        for (int g = 0; g < view->model()->rowCount(); ++g)
            for (int r = 0; r < view->model()->rowCount(view->model()->index(g, 0)); ++r)
                if (view->model()->index(r, 0, view->model()->index(g, 0)).data().toString() == transformerBlockTitle())
                    entry = view->model()->index(r, 0, view->model()->index(g, 0));
        QVERIFY(entry.isValid());
        QCOMPARE(entry.parent().data().toString(), QStringLiteral("Blocks"));
        view->setCurrentIndex(entry);
        QTest::keyClick(view, Qt::Key_Return);

        QCOMPARE(undo->count(), steps + 1);  // one step
        const ModelState& s = page.document()->state();
        QCOMPARE(s.model.nodes.size(), original.model.nodes.size() + 10);
        const QStringList members{"b5_ln1", "b5_attn", "b5_drop1", "b5_add1", "b5_ln2", "b5_fc1", "b5_gelu", "b5_fc2", "b5_drop2", "b5_add2"};
        for (const QString& m : members) QVERIFY2(findNode(s.model, m), qPrintable(m));
        QCOMPARE(findNode(s.model, QStringLiteral("b5_ln1"))->inputs, std::vector<std::string>{"b4_add2"});
        QCOMPARE(findNode(s.model, QStringLiteral("ln_f"))->inputs, std::vector<std::string>{"b5_add2"});  // spliced into the stack
        const Node* attn = findNode(s.model, QStringLiteral("b5_attn"));
        QCOMPARE(attn->attrs.getInt("heads"), std::int64_t(4));
        QVERIFY(attn->attrs.getBool("causal"));  // as the model's other blocks
        QCOMPARE(findNode(s.model, QStringLiteral("b5_fc1"))->attrs.getInt("out_features"), std::int64_t(512));
        QCOMPARE(findNode(s.model, QStringLiteral("b5_fc2"))->attrs.getInt("out_features"), std::int64_t(128));
        QVERIFY2(page.document()->diagnosis().ok(), qPrintable(page.statusText()));
        QCOMPARE(s.layout.blocks.back().name, std::string("transformer1"));
        QVERIFY(s.layout.blocks.back().collapsed);
        QVERIFY(page.canvas()->nodeIds().contains(QStringLiteral("block:transformer1")));
        QVERIFY(!page.canvas()->nodeIds().contains(QStringLiteral("b5_attn")));
        QCOMPARE(page.canvas()->selectedNodes(), QStringList{QStringLiteral("block:transformer1")});
        QVERIFY2(page.statusText().contains(QStringLiteral("transformer1")) && page.statusText().contains(QStringLiteral("b4_add2")),
                 qPrintable(page.statusText()));
        // The collapsed block sits where ln_f was; ln_f moved down, clear of it.
        QVERIFY(!page.canvas()->nodeRect(QStringLiteral("block:transformer1")).intersects(page.canvas()->nodeRect(QStringLiteral("ln_f"))));

        // Checkpoint the whole block from the toolbar: every member is marked.
        QAction* checkpoint = nullptr;
        for (QAction* a : page.actions())
            if (a->text() == QStringLiteral("Checkpoint")) checkpoint = a;
        QVERIFY(checkpoint);
        checkpoint->trigger();
        for (const QString& m : members) QVERIFY2(findNode(page.document()->state().model, m)->checkpoint, qPrintable(m));
        QVERIFY(!findNode(page.document()->state().model, QStringLiteral("b4_add2"))->checkpoint);

        // Open it (a double-click), edit a member, close it again.
        emit page.canvas()->nodeDoubleClicked(QStringLiteral("block:transformer1"));
        QVERIFY(!page.document()->state().layout.blocks.back().collapsed);
        QVERIFY(page.canvas()->nodeIds().contains(QStringLiteral("b5_attn")));
        for (const QString& m : members)  // open, no member sits on another node: what was below moved down
            for (const QString& other : page.canvas()->nodeIds())
                QVERIFY2(m == other || !page.canvas()->nodeRect(m).intersects(page.canvas()->nodeRect(other)), qPrintable(m + " " + other));
        page.canvas()->selectNodes({QStringLiteral("b5_fc1")});
        setAttr(page, QStringLiteral("b5_fc1"), QStringLiteral("out_features"), std::int64_t(256));
        QCOMPARE(findNode(page.document()->state().model, QStringLiteral("b5_fc1"))->attrs.getInt("out_features"), std::int64_t(256));
        QVERIFY(page.document()->diagnosis().ok());  // fc2 takes its in_features from fc1
        page.canvas()->selectNodes({QStringLiteral("b5_fc1")});
        for (QAction* a : page.actions())
            if (a->text() == QStringLiteral("Collapse/Expand")) a->trigger();
        QVERIFY(page.document()->state().layout.blocks.back().collapsed);

        // Undo takes the steps back, the insertion as one.
        for (int i = 0; i < 4; ++i) undo->undo();  // collapse, fc1's width, expand, checkpoint
        QCOMPARE(page.document()->state().model.nodes.size(), original.model.nodes.size() + 10);
        QVERIFY(!findNode(page.document()->state().model, QStringLiteral("b5_attn"))->checkpoint);
        undo->undo();
        QVERIFY(page.document()->state() == original);

        // Dropped on a node: after it. Dropped on the token ids: refused, nothing changes.
        const QRectF b2 = page.canvas()->nodeRect(QStringLiteral("b2_add2"));
        emit page.canvas()->opDropped(QString::fromLatin1(kTransformerBlockEntry), b2.center());
        QCOMPARE(findNode(page.document()->state().model, QStringLiteral("b3_ln1"))->inputs, std::vector<std::string>{"b5_add2"});
        QCOMPARE(findNode(page.document()->state().model, QStringLiteral("b3_add1"))->inputs, (std::vector<std::string>{"b3_attn", "b5_add2"}));
        QVERIFY(page.document()->diagnosis().ok());
        undo->undo();
        emit page.canvas()->opDropped(QString::fromLatin1(kTransformerBlockEntry), page.canvas()->nodeRect(QStringLiteral("tokens")).center());
        QVERIFY(page.document()->state() == original);
        QVERIFY2(page.statusText().contains(QStringLiteral("Embedding")), qPrintable(page.statusText()));

        // A width 4 heads do not divide: 3 heads, and the status says why.
        setAttr(page, QStringLiteral("embed"), QStringLiteral("embedding_dim"), std::int64_t(6));
        page.canvas()->selectNodes({QStringLiteral("pos")});
        emit page.palette()->opActivated(QString::fromLatin1(kTransformerBlockEntry));
        QCOMPARE(findNode(page.document()->state().model, QStringLiteral("b5_attn"))->attrs.getInt("heads"), std::int64_t(3));
        QCOMPARE(findNode(page.document()->state().model, QStringLiteral("b5_fc2"))->attrs.getInt("out_features"), std::int64_t(6));
        QVERIFY2(page.statusText().contains(QStringLiteral("heads 3 (4 heads do not divide")), qPrintable(page.statusText()));

        // Nothing selected: unwired and open, so both of its inputs can be wired.
        page.canvas()->selectNodes({});
        const QString unwired = page.addTransformerBlock(page.canvas()->visibleSceneRect().center(), {});
        QCOMPARE(unwired, QStringLiteral("transformer2"));
        QVERIFY(!page.document()->state().layout.blocks.back().collapsed);
        QVERIFY(findNode(page.document()->state().model, QStringLiteral("b6_ln1"))->inputs.empty());
        QCOMPARE(findNode(page.document()->state().model, QStringLiteral("b6_add1"))->inputs, std::vector<std::string>{"b6_drop1"});
    }

    void openingAndSavingUnchangedKeepsEveryByte_data()
    {
        QTest::addColumn<QString>("file");
        for (const QString& f : QDir(experimentsDir()).entryList({QStringLiteral("*.yaml")}))
            QTest::newRow(qPrintable(f)) << f;
    }
    void openingAndSavingUnchangedKeepsEveryByte()
    {
        QFETCH(QString, file);
        QTemporaryDir dir;
        const QString path = dir.filePath(file);
        QVERIFY(QFile::copy(experimentsDir() + QLatin1Char('/') + file, path));
        const QByteArray original = readAll(path);
        QString error;
        {
            ExperimentDocument experiment;
            ModelDocument doc(&experiment);  // opening a file is one change (the page may then add an implied layout)
            QSignalSpy changed(&doc, &ModelDocument::changed);
            QVERIFY2(experiment.open(path, &error), qPrintable(error));
            QCOMPARE(changed.count(), 1);
        }
        ExperimentDocument experiment;
        ModelPage page(&experiment);
        QVERIFY(openIn(experiment, path));
        QVERIFY(!experiment.isTemplate());  // a copy of the user's: saved in place
        QVERIFY(!page.document()->isModified());
        QVERIFY2(experiment.save(&error), qPrintable(error));
        QCOMPARE(readAll(path), original);

        // One attribute changed: one line of the file changed.
        const Node& first = page.document()->state().model.nodes.front();
        const Op* op = OpRegistry::builtin().find(first.op);
        QVERIFY(op);
        QString attr;
        for (const auto& spec : op->attrSpecs())
            if (spec.type == AttrType::Int && first.attrs.has(spec.name)) attr = QString::fromStdString(spec.name);
        if (attr.isEmpty()) return;  // nothing to change on the first node
        const std::int64_t v = std::get<std::int64_t>(first.attrs.get(attr.toStdString()));
        setAttr(page, QString::fromStdString(first.name), attr, std::int64_t(v + 1));
        QVERIFY(page.document()->isModified());
        QVERIFY(experiment.isModified());
        QVERIFY2(experiment.save(&error), qPrintable(error));
        QVERIFY(!page.document()->isModified());
        const QList<QByteArray> a = original.split('\n'), b = readAll(path).split('\n');
        QCOMPARE(a.size(), b.size());
        int differ = 0;
        for (int i = 0; i < a.size(); ++i) differ += a[i] != b[i];
        QCOMPARE(differ, 1);
        QCOMPARE(loadExperimentDraft(path.toStdString()).spec.model, page.document()->state().model);
        // The edit undone and saved again: the file is the original, byte for byte.
        experiment.undoStack()->undo();
        QVERIFY(experiment.isModified());
        QVERIFY2(experiment.save(&error), qPrintable(error));
        QCOMPARE(readAll(path), original);
    }

    void brokenFileStillOpensWithTheNodeMarked()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("broken.yaml"));
        QByteArray text = readAll(experimentsDir() + QStringLiteral("/fashion_mnist_cnn.yaml"));
        text.replace("- BatchNorm2d\n    - ReLU", "- BatchNorm2d\n    - ReLUU");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text);
        f.close();
        ExperimentDocument experiment;
        ModelPage page(&experiment);
        QVERIFY(openIn(experiment, path));
        const GraphDiagnosis& d = page.document()->diagnosis();
        QVERIFY(!d.ok());
        QCOMPARE(d.problems.front().kind(), GraphError::Kind::UnknownOp);
        QVERIFY(page.canvas()->nodeIds().contains(QString::fromStdString(d.problems.front().node())));
        QString error;
        QVERIFY2(experiment.save(&error), qPrintable(error));
        QCOMPARE(readAll(path), text);  // nothing lost
    }

    // The largest batch leaves the margin the machine keeps (train/memory_advice.h) and says so.
    void summaryPlansTheExecutorsMemory()
    {
        ExperimentDocument experiment;
        ModelPage page(&experiment);
        const ExperimentSpec spec = shipped("fashion_mnist_cnn.yaml");
        QVERIFY(openIn(experiment, shippedPath("fashion_mnist_cnn.yaml")));
        QTRY_VERIFY_WITH_TIMEOUT(page.summary()->largestBatch() > 0, 20000);
        const RunMemory planned = planRunMemory(spec, spec.training.batchSize, cpuBackend());
        QCOMPARE(page.summary()->plannedMemory().total(), planned.total());
        const std::int64_t largest = page.summary()->largestBatch();
        const MemoryBudget budget = memoryBudget(cpuBackend());
        QVERIFY(page.summary()->marginBytes() >= std::size_t(1) << 30);
        QVERIFY(double(page.summary()->marginBytes()) >= 0.2 * double(budget.available) * 0.98);
        // Other processes allocate meanwhile: the budget of now, within 2%.
        QVERIFY(double(planRunMemory(spec, largest, cpuBackend()).total()) <= double(budget.usable) * 1.02);
        QVERIFY(double(planRunMemory(spec, largest + 1, cpuBackend()).total()) > double(budget.usable) * 0.98);
        QVERIFY(largestFittingBatch(spec, cpuBackend(), budget.available) > largest);  // all the free memory would take more
        const QString shown = page.summary()->findChild<QLabel*>(QStringLiteral("summaryLargest"))->text();
        QVERIFY2(shown.contains(QLocale().formattedDataSize(qint64(page.summary()->marginBytes()))) &&
                     shown.contains(QStringLiteral("kept free for the system")),
                 qPrintable(shown));
        QVERIFY(page.summary()->findChild<QLabel*>(QStringLiteral("summaryLargest"))->toolTip().contains(QStringLiteral("20%")));
    }

    // One real step confirms a batch: a job on the session's queue (listed with the others),
    // its peak shown beside the plan.
    void summaryConfirmsABatchWithOneStep()
    {
        TrainingSession session;
        ExperimentDocument experiment;
        ModelPage page(&experiment);
        const ExperimentSpec spec = shipped("fashion_mnist_cnn.yaml");
        QVERIFY(openIn(experiment, shippedPath("fashion_mnist_cnn.yaml")));
        ModelSummaryPanel* summary = page.summary();
        auto* button = summary->findChild<QPushButton*>(QStringLiteral("summaryConfirm"));
        QTRY_VERIFY_WITH_TIMEOUT(summary->largestBatch() > 0 && !summary->planning(), 20000);
        QVERIFY(!button->isEnabled());  // no job queue, no step
        summary->setSession(&session);
        QVERIFY(button->isEnabled());
        QVERIFY2(button->toolTip().contains(QStringLiteral("as a job")), qPrintable(button->toolTip()));
        QVERIFY(!summary->confirming());  // never by itself
        QSignalSpy confirmed(summary, &ModelSummaryPanel::confirmed);
        summary->confirm(24);
        QVERIFY(summary->confirming());
        QVERIFY(!button->isEnabled());
        QVERIFY(summary->findChild<QPushButton*>(QStringLiteral("summaryCancelStep"))->isVisible() ||
                !summary->isVisible());
        QCOMPARE(session.jobs().size(), 1);
        QCOMPARE(session.jobs().front().kind, QStringLiteral("step_probe"));
        QVERIFY(confirmed.wait(30000));
        const StepCheck& check = summary->lastCheck();
        QVERIFY2(check.outcome == StepCheck::Outcome::Ran, qPrintable(check.message));
        QCOMPARE(check.batch, std::int64_t(24));
        const RunMemory plan = planRunMemory(spec, 24, cpuBackend());
        QCOMPARE(check.plannedBytes, double(plan.total()));
        QVERIFY(std::abs(check.peakBytes / double(plan.total()) - 1) <= 0.05);
        const QString shown = summary->findChild<QLabel*>(QStringLiteral("summaryConfirmation"))->text();
        QCOMPARE(shown, summary->confirmationText());
        QVERIFY2(shown.startsWith(QStringLiteral("one step at batch 24: peak ")), qPrintable(shown));
        QVERIFY2(shown.contains(QLocale().formattedDataSize(qint64(plan.total()))), qPrintable(shown));
        QVERIFY(button->isEnabled());
        // An edit makes the measurement stale: it is cleared, not left beside the new plan.
        setAttr(page, QStringLiteral("linear1"), QStringLiteral("out_features"), std::int64_t(64));
        QTRY_VERIFY_WITH_TIMEOUT(!summary->planning(), 20000);
        QVERIFY(summary->findChild<QLabel*>(QStringLiteral("summaryConfirmation"))->text().isEmpty());
    }

    // A batch beyond the budget is refused with the numbers before anything is allocated.
    void theOneStepCheckRefusesABatchThatDoesNotFit()
    {
        TrainingSession session;
        ExperimentDocument experiment;
        ModelPage page(&experiment);
        QVERIFY(openIn(experiment, shippedPath("fashion_mnist_cnn.yaml")));
        ModelSummaryPanel* summary = page.summary();
        summary->setSession(&session);
        QTRY_VERIFY_WITH_TIMEOUT(summary->largestBatch() > 0 && !summary->planning(), 20000);
        QSignalSpy confirmed(summary, &ModelSummaryPanel::confirmed);
        summary->confirm(std::int64_t(1) << 24);
        QVERIFY(confirmed.wait(30000));
        const StepCheck& check = summary->lastCheck();
        QVERIFY2(check.outcome == StepCheck::Outcome::Refused, qPrintable(check.message));
        QVERIFY2(check.message.contains(QStringLiteral("at batch 16777216 it needs")) &&
                     check.message.contains(QStringLiteral("kept free for the system")) &&
                     check.message.contains(QStringLiteral("The largest batch that fits: training.batch_size: ")),
                 qPrintable(check.message));
        QCOMPARE(check.peakBytes, 0.0);
        const QString shown = summary->findChild<QLabel*>(QStringLiteral("summaryConfirmation"))->text();
        QVERIFY2(shown.startsWith(QStringLiteral("refused before it allocated: ")), qPrintable(shown));
    }

    // The check is a job like any other: Cancel stops it (queued or under way).
    void theOneStepCheckIsCancellable()
    {
        TrainingSession session;
        ExperimentDocument experiment;
        ModelPage page(&experiment);
        QVERIFY(openIn(experiment, shippedPath("fashion_mnist_cnn.yaml")));
        ModelSummaryPanel* summary = page.summary();
        summary->setSession(&session);
        QTRY_VERIFY_WITH_TIMEOUT(summary->largestBatch() > 0 && !summary->planning(), 20000);
        QSignalSpy confirmed(summary, &ModelSummaryPanel::confirmed);
        summary->confirm(512);
        auto* cancel = summary->findChild<QPushButton*>(QStringLiteral("summaryCancelStep"));
        QVERIFY(!cancel->isHidden());
        QTest::mouseClick(cancel, Qt::LeftButton);
        QVERIFY(confirmed.wait(30000));
        QVERIFY2(summary->lastCheck().outcome == StepCheck::Outcome::Stopped, qPrintable(summary->lastCheck().message));
        QCOMPARE(summary->lastCheck().peakBytes, 0.0);
        QVERIFY(cancel->isHidden());
        QVERIFY(!summary->confirming());
        const JobRow& row = session.jobs().front();
        QVERIFY(row.state == JobRow::State::Stopped || row.state == JobRow::State::Cancelled);
    }

    // A model without a loss does not check: the problem is listed, Train This Model says why
    // it is disabled (the trainer's own words), and the one-click fix adds the loss that fits
    // the output and the labels as one undoable step.
    void aModelWithoutALossShowsTheProblemAndTheFix()
    {
        ExperimentDocument experiment;
        ModelPage page(&experiment);
        QVERIFY(openIn(experiment, shippedPath("fashion_mnist_cnn.yaml")));
        QVERIFY(page.document()->diagnosis().ok());
        QVERIFY(page.trainAction()->isEnabled());
        QString loss;
        for (const Node& n : page.document()->state().model.nodes)
            if (n.op == "CrossEntropy") loss = QString::fromStdString(n.name);
        page.canvas()->selectNodes({loss});
        page.deleteSelection();
        const GraphDiagnosis& d = page.document()->diagnosis();
        QCOMPARE(d.problems.size(), std::size_t(1));
        QCOMPARE(d.problems.front().kind(), GraphError::Kind::NotTrainable);
        // The trainer refuses with the same rule.
        try {
            GraphBinding::of(*d.checked);
            QFAIL("the trainer took a model without a loss");
        } catch (const std::invalid_argument& e) {
            QCOMPARE(std::string(e.what()), std::string(d.problems.front().what()));
        }
        QVERIFY(!page.trainAction()->isEnabled());
        QVERIFY2(page.trainAction()->toolTip().contains(QStringLiteral("no loss")), qPrintable(page.trainAction()->toolTip()));
        QCOMPARE(page.problems()->count(), 1);
        const QString listed = page.problems()->item(0)->text();
        QVERIFY2(listed.contains(QStringLiteral("no loss")) && listed.contains(QStringLiteral("CrossEntropy after classifier")),
                 qPrintable(listed));
        auto* fix = page.findChild<QPushButton*>(QStringLiteral("modelAddLoss"));
        QVERIFY(fix && !fix->isHidden());
        QCOMPARE(page.fittingLossOp(), QStringLiteral("CrossEntropy"));
        const int steps = page.document()->undoStack()->count();
        QTest::mouseClick(fix, Qt::LeftButton);
        QCOMPARE(page.document()->undoStack()->count(), steps + 1);
        QVERIFY(page.document()->diagnosis().ok());
        QVERIFY(page.trainAction()->isEnabled());
        QVERIFY(fix->isHidden());
        const Node& added = page.document()->state().model.nodes.back();
        QCOMPARE(added.op, std::string("CrossEntropy"));
        QCOMPARE(added.inputs, (std::vector<std::string>{"classifier", "label"}));
        QCOMPARE(page.problems()->item(0)->text(), QStringLiteral("No problems: the model checks."));
        // Drawn below the output, on no other node.
        const QRectF at = page.canvas()->nodeRect(QString::fromStdString(added.name));
        QVERIFY(at.top() > page.canvas()->nodeRect(QStringLiteral("classifier")).bottom());
        for (const QString& id : page.canvas()->nodeIds())
            if (id != QString::fromStdString(added.name)) QVERIFY2(!page.canvas()->nodeRect(id).intersects(at), qPrintable(id));
        page.document()->undoStack()->undo();
        QCOMPARE(page.document()->diagnosis().problems.front().kind(), GraphError::Kind::NotTrainable);
        QVERIFY(!page.trainAction()->isEnabled());
        QVERIFY(!fix->isHidden());
    }

    // Regression: a float target shaped as the output gets MSE.
    void aRegressionModelGetsMse()
    {
        ExperimentSpec spec = emptyCnnExperiment();
        spec.model = Graph{};
        spec.model.inputs = {{"features", Shape{4}, DType::F32}, {"label", Shape{1}, DType::F32}};
        spec.model.add("linear1", "Linear", {"features"}, {{"out_features", std::int64_t(1)}});
        ExperimentDocument experiment;
        ModelPage page(&experiment);
        experiment.openUntitled(spec);
        QCOMPARE(page.fittingLossOp(), QStringLiteral("MSE"));
        const QString name = page.addFittingLoss();
        QVERIFY(!name.isEmpty());
        QVERIFY(page.document()->diagnosis().ok());
        QCOMPARE(findNode(page.document()->state().model, name)->op, std::string("MSE"));
    }

    // The recurrent ops on the canvas: [time, hidden] for a sequence, [hidden x directions] for
    // `last`, and PyTorch's parameter count (4 gates x (in + hidden + 2) x hidden for an LSTM).
    void recurrentNodesShowTheirShapes()
    {
        ExperimentSpec spec = emptyCnnExperiment();
        spec.model = Graph{};
        spec.model.inputs = {{"series", Shape{28, 3}, DType::F32}, {"label", Shape{}, DType::I64}};
        spec.model.add("lstm", "LSTM", {"series"}, {{"hidden_size", std::int64_t(16)}});
        spec.model.add("gru", "GRU", {"lstm"}, {{"hidden_size", std::int64_t(8)}, {"bidirectional", true}, {"return", std::string("last")}});
        ExperimentDocument experiment;
        ModelPage page(&experiment);
        experiment.openUntitled(spec);
        const auto details = [&](const QString& id) {
            for (QGraphicsItem* g : page.canvas()->scene()->items())
                if (auto* n = dynamic_cast<widgets::NodeItem*>(g); n && n->look().title == id) return n->look().details;
            return QStringList();
        };
        QCOMPARE(details(QStringLiteral("lstm")).value(0), QStringLiteral("[28, 16]"));
        QVERIFY2(details(QStringLiteral("lstm")).value(1).startsWith(compactCount(4.0 * (3 + 16 + 2) * 16) + " params"),
                 qPrintable(details(QStringLiteral("lstm")).value(1)));
        QCOMPARE(details(QStringLiteral("gru")).value(0), QStringLiteral("[16]"));
    }

    // Seen: with an error anywhere, every node's FLOPs were per batch (conv1 jumped x128).
    void flopsStayPerSampleWhenAnotherNodeHasAnError()
    {
        ExperimentDocument experiment;
        ModelPage page(&experiment);
        QVERIFY(openIn(experiment, shippedPath("fashion_mnist_cnn.yaml")));
        auto flopsLine = [&](const QString& id) {
            const widgets::NodeItem* item = nullptr;
            for (QGraphicsItem* g : page.canvas()->scene()->items())
                if (auto* n = dynamic_cast<widgets::NodeItem*>(g); n && n->look().title == id) item = n;
            return item ? item->look().details.value(1) : QString();
        };
        const QString before = flopsLine(QStringLiteral("conv1"));
        QVERIFY2(before.endsWith(QStringLiteral("FLOP/sample")), qPrintable(before));
        const CheckedGraph one = checkGraph(page.document()->state().model, 1);
        QVERIFY2(before.contains(compactCount(one.nodes.front().flops, QStringLiteral("FLOP"))), qPrintable(before));
        setAttr(page, QStringLiteral("linear1"), QStringLiteral("in_features"), std::int64_t(5));  // a shape error below
        QVERIFY(!page.document()->diagnosis().ok());
        QCOMPARE(flopsLine(QStringLiteral("conv1")), before);
    }

    // New nodes land in free space near the view's centre: never on a node, never under the minimap.
    // In a small window (960 x 600) the page gives the palette room for every op's whole name,
    // the longest registered one included (ConvTranspose2d), at any scale (ctest runs 1.5x too).
    void thePaletteShowsEveryNameWhole()
    {
        ExperimentDocument experiment;
        ModelPage page(&experiment);
        page.resize(960, 600);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        const ui::OpPalette* palette = page.findChild<ui::OpPalette*>();
        QVERIFY(palette);
        QTreeView* view = palette->view();
        QVERIFY(view->model()->rowCount() > 0);
        for (int g = 0; g < view->model()->rowCount(); ++g) {
            const QModelIndex group = view->model()->index(g, 0);
            for (int r = 0; r < view->model()->rowCount(group); ++r) {
                const QModelIndex op = view->model()->index(r, 0, group);
                const QString name = op.data().toString();
                QVERIFY2(view->visualRect(op).left() + view->fontMetrics().horizontalAdvance(name) < view->viewport()->width(),
                         qPrintable(name));
            }
        }
    }

    void newNodesLandInFreeSpace()
    {
        ExperimentDocument experiment;
        ModelPage page(&experiment);
        page.resize(1200, 800);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QVERIFY(openIn(experiment, shippedPath("fashion_mnist_cnn.yaml")));
        QTest::qWait(50);
        widgets::NodeCanvas* canvas = page.canvas();
        QVERIFY(canvas->minimap()->isVisible());
        const QRectF minimap = canvas->mapToScene(canvas->minimap()->geometry()).boundingRect();
        QStringList added;
        // The palette's way (the view's centre, on the model's column), then right onto the minimap.
        for (int i = 0; i < 4; ++i) added << page.addOp(QStringLiteral("ReLU"), canvas->visibleSceneRect().center());
        added << page.addOp(QStringLiteral("ReLU"), minimap.center());
        QApplication::processEvents();
        const QRectF visible = canvas->visibleSceneRect();
        for (const QString& id : added) {
            const QRectF r = canvas->nodeRect(id);
            QVERIFY2(!r.intersects(minimap), qPrintable(id));
            QVERIFY2(visible.contains(r), qPrintable(id));
            for (const QString& other : canvas->nodeIds())
                if (other != id) QVERIFY2(!canvas->nodeRect(other).intersects(r), qPrintable(id + " on " + other));
        }
        // Near where asked: the first one within a few node sizes of the centre.
        QVERIFY(QLineF(canvas->nodeRect(added.front()).center(), visible.center()).length() < 400);
    }

    // A document destroyed with unsaved edits tells no one: its undo stack's last cleanChanged
    // reached the page's title after the document's strings were freed (valgrind: a read of
    // freed memory, then "double free or corruption" in bench_model_page).
    void destroyingAnEditedDocumentTellsNoOne()
    {
        auto* experiment = new ExperimentDocument;
        QVERIFY(openIn(*experiment, shippedPath("fashion_mnist_cnn.yaml")));
        auto* view = new ModelDocument(experiment, experiment);  // the page's view, gone with the document
        ModelState s = view->state();
        s.layout.positions["conv2"] = {500, 0};
        view->apply(s, QStringLiteral("move"));
        QVERIFY(experiment->isModified() && view->isModified());
        int told = 0;
        connect(experiment, &ExperimentDocument::modifiedChanged, this, [&told] { ++told; });
        connect(view, &ModelDocument::modifiedChanged, this, [&told] { ++told; });
        delete experiment;
        QCOMPARE(told, 0);
    }

    // Arrange with a selection moves only the selected nodes, laid out where they were.
    void arrangingTheSelectionLeavesTheRest()
    {
        ExperimentDocument experiment;
        ModelPage page(&experiment);
        QVERIFY(openIn(experiment, shippedPath("fashion_mnist_cnn.yaml")));
        ModelState s = page.document()->state();
        s.layout.positions["conv2"] = {500, 0};
        s.layout.positions["batchnorm2"] = {700, 300};
        s.layout.positions["relu2"] = {300, 600};
        page.document()->apply(s, QStringLiteral("scatter"));
        const auto before = page.document()->state().layout.positions;
        page.canvas()->selectNodes({QStringLiteral("conv2"), QStringLiteral("batchnorm2"), QStringLiteral("relu2")});
        page.autoLayout();
        const auto after = page.document()->state().layout.positions;
        for (const auto& [name, p] : before)
            if (name != "conv2" && name != "batchnorm2" && name != "relu2") QCOMPARE(after.at(name), p);
        // One column, top to bottom, starting at the selection's old top-left corner (300, 0).
        QVERIFY(after.at("conv2").y < after.at("batchnorm2").y && after.at("batchnorm2").y < after.at("relu2").y);
        QCOMPARE(std::min({after.at("conv2").x, after.at("batchnorm2").x, after.at("relu2").x}), 300.0);
        QCOMPARE(after.at("conv2").y, 0.0);
    }

    // New is a new experiment, not an edit of the open one: the page asks for an untitled
    // experiment with the same data and settings, the template's model (its input shape and
    // classes from the open model) and the template's name; the window opens it. The file
    // that was open keeps its model (and its runs their name); no shipped file is written.
    void newFromATemplateIsANewUntitledExperiment()
    {
        const QMap<QString, QByteArray> shippedBefore = shippedFiles();
        ExperimentDocument experiment;
        ModelPage page(&experiment);
        std::vector<ExperimentSpec> asked;
        connect(&page, &ModelPage::newExperimentRequested, this, [&asked](const ExperimentSpec& s) { asked.push_back(s); });
        QVERIFY(openIn(experiment, shippedPath("fashion_mnist_mlp.yaml")));
        auto newFrom = [&](const QString& name) {
            const ExperimentSpec open = experiment.spec();
            const QString openPath = experiment.path();
            const bool wasModified = experiment.isModified();
            page.newFromTemplate(name);
            if (asked.size() != 1) return ExperimentSpec{};
            ExperimentSpec next = asked.back();
            asked.clear();
            // Asking changed nothing yet: the window asks about unsaved edits first.
            if (!(experiment.spec() == open) || experiment.path() != openPath || experiment.isModified() != wasModified ||
                experiment.undoStack()->count() != 0)
                return ExperimentSpec{};
            // Everything but the model, its drawing and the name is the open experiment's.
            ExperimentSpec rest = next;
            rest.model = open.model;
            rest.layout = open.layout;
            rest.name = open.name;
            return rest == open ? next : ExperimentSpec{};
        };
        for (const char* name : {"mlp", "cnn", "resnet", "lenet5"}) {
            const ExperimentSpec next = newFrom(QString::fromLatin1(name));
            QCOMPARE(next.name, std::string(name));
            QCOMPARE(next.model, templateGraph(name, TemplateInput{{1, 28, 28}, 10}));
            experiment.openUntitled(next);  // the window's part (DocumentActions::openUntitled)
            QVERIFY(experiment.path().isEmpty());
            QVERIFY(experiment.isModified());  // never saved
            QVERIFY(!experiment.undoStack()->canUndo());  // a new experiment starts its own history
            QVERIFY2(page.document()->diagnosis().ok(), name);
            QCOMPARE(page.document()->state().model, next.model);
            QCOMPARE(pageTitle(page), QStringLiteral("Model: %1 (modified)").arg(QLatin1String(name)));
            QString error;
            QVERIFY(!experiment.save(&error));  // Save asks where: nowhere is written meanwhile
        }

        // A shipped experiment's model: named after its file, drawn as it is drawn there.
        const QString resnetFile = shippedPath("fashion_mnist_resnet.yaml");
        const ExperimentSpec resnet = shipped("fashion_mnist_resnet.yaml");
        const ExperimentSpec next = newFrom(QStringLiteral("experiment:") + resnetFile);
        QCOMPARE(next.name, std::string("fashion_mnist_resnet"));
        QCOMPARE(next.model, resnet.model);
        QVERIFY(next.layout == resnet.layout);
        experiment.openUntitled(next);
        QVERIFY(!ExperimentDocument::isTemplateLocation(experiment.suggestedSavePath()));
        QTemporaryDir dir;
        const QString mine = dir.filePath(QStringLiteral("my_resnet.yaml"));
        QString error;
        QVERIFY2(experiment.saveAs(mine, &error), qPrintable(error));
        QCOMPARE(experiment.path(), mine);
        QVERIFY(!experiment.isModified());
        QCOMPARE(pageTitle(page), QStringLiteral("Model: my_resnet.yaml"));
        const ExperimentSpec saved = loadExperiment(mine.toStdString());
        QCOMPARE(saved.model, resnet.model);
        QCOMPARE(saved.dataset.path, shipped("fashion_mnist_mlp.yaml").dataset.path);  // the data of the experiment it came from
        QCOMPARE(shippedFiles(), shippedBefore);
    }

    // An untitled experiment is found from anywhere: a data path relative to the file that was
    // open becomes absolute, and still names the same data once saved in another folder.
    void aNewExperimentKeepsFindingItsData()
    {
        ExperimentDocument experiment;
        ModelPage page(&experiment);
        std::vector<ExperimentSpec> asked;
        connect(&page, &ModelPage::newExperimentRequested, this, [&asked](const ExperimentSpec& s) { asked.push_back(s); });
        QVERIFY(openIn(experiment, shippedPath("tabular_example.yaml")));
        QCOMPARE(experiment.spec().dataset.path, std::string("data/wine_like.csv"));  // relative in the file
        const QString data = QFileInfo(experimentsDir() + QStringLiteral("/data/wine_like.csv")).canonicalFilePath();
        QVERIFY(!data.isEmpty());
        page.newFromTemplate(QStringLiteral("mlp"));
        QCOMPARE(asked.size(), std::size_t(1));
        experiment.openUntitled(asked.front());
        QVERIFY(experiment.spec().sourceFile.empty());
        const QString path = QString::fromStdString(experiment.spec().dataset.path);
        QVERIFY2(QFileInfo(path).isAbsolute(), qPrintable(path));
        QCOMPARE(QFileInfo(path).canonicalFilePath(), data);
        QTemporaryDir dir;
        const QString mine = dir.filePath(QStringLiteral("wine_mlp.yaml"));
        QString error;
        QVERIFY2(experiment.saveAs(mine, &error), qPrintable(error));
        QCOMPARE(QFileInfo(QString::fromStdString(withAbsolutePaths(loadExperiment(mine.toStdString())).dataset.path)).canonicalFilePath(), data);
    }

    // A shipped experiment edited on the page is a template: Save refuses (the window then asks
    // for a new file), Save As writes the user's copy; the shipped file stays byte for byte.
    // The copy differs from it in the edited line alone, and is then saved in place.
    void editingAShippedExperimentNeverWritesIt()
    {
        const QMap<QString, QByteArray> shippedBefore = shippedFiles();
        const QString cnn = shippedPath("fashion_mnist_cnn.yaml");
        ExperimentDocument experiment;
        ModelPage page(&experiment);
        QVERIFY(openIn(experiment, cnn));
        QVERIFY(experiment.isTemplate());
        QCOMPARE(pageTitle(page), QStringLiteral("Model: fashion_mnist_cnn.yaml"));
        setAttr(page, QStringLiteral("linear1"), QStringLiteral("out_features"), std::int64_t(256));
        QVERIFY(experiment.isModified());
        QCOMPARE(pageTitle(page), QStringLiteral("Model: fashion_mnist_cnn.yaml (modified)"));
        QString error;
        QVERIFY(!experiment.save(&error));
        QVERIFY2(error.contains(QStringLiteral("shipped")), qPrintable(error));
        QVERIFY(experiment.isModified());  // the edit is kept for Save As
        QCOMPARE(shippedFiles(), shippedBefore);

        QTemporaryDir dir;
        const QString mine = dir.filePath(QStringLiteral("my_cnn.yaml"));
        QVERIFY2(experiment.saveAs(mine, &error), qPrintable(error));
        QCOMPARE(experiment.path(), mine);
        QVERIFY(!experiment.isTemplate());
        QVERIFY(!experiment.isModified());
        QCOMPARE(pageTitle(page), QStringLiteral("Model: my_cnn.yaml"));
        const QList<QByteArray> a = shippedBefore.value(cnn).split('\n'), b = readAll(mine).split('\n');
        QCOMPARE(a.size(), b.size());
        int differ = 0;
        for (int i = 0; i < a.size(); ++i) differ += a[i] != b[i];
        QCOMPARE(differ, 1);
        const ExperimentSpec saved = loadExperiment(mine.toStdString());
        QCOMPARE(std::get<std::int64_t>(findNode(saved.model, QStringLiteral("linear1"))->attrs.get("out_features")), std::int64_t(256));
        // The user's own file now: Save writes in place; the edit undone and saved, it is the shipped text again.
        experiment.undoStack()->undo();
        QVERIFY2(experiment.save(&error), qPrintable(error));
        QCOMPARE(readAll(mine), shippedBefore.value(cnn));
        QCOMPARE(shippedFiles(), shippedBefore);
    }
};

QTEST_MAIN(TestModelPage)
#include "tst_model_page.moc"

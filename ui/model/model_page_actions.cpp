// The Model page's actions: files, templates, clipboard, blocks, layout, export, training.
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFileDialog>
#include <QMenu>
#include <QMimeData>
#include <QToolBar>
#include <QToolButton>
#include <QUndoStack>

#include <algorithm>
#include <filesystem>

#include "graph/templates.h"
#include "io/yaml/experiment_text.h"
#include "io/yaml/shipped_experiments.h"
#include "model_document.h"
#include "model_page.h"
#include "model_scene.h"
#include "ui/user_files.h"
#include "widgets/graph_layout.h"
#include "widgets/node_canvas.h"

namespace ts::ui {

namespace {

constexpr const char* kNodesMime = "application/x-trainstudio-nodes";

// The input shape and class count the experiment's model has now, for a template.
TemplateInput templateInputOf(const Graph& g)
{
    TemplateInput in;
    for (const auto& i : g.inputs)
        if (i.dtype == DType::F32) in.shape = i.shape.dims();
    if (in.shape.empty()) in.shape = {1, 28, 28};
    // The classes: what feeds the loss, when it is a Linear with out_features.
    for (const auto& n : g.nodes)
        if (n.op == "CrossEntropy" && !n.inputs.empty())
            for (const auto& m : g.nodes)
                if (m.name == n.inputs[0] && m.attrs.has("out_features"))
                    if (const auto* v = std::get_if<std::int64_t>(&m.attrs.get("out_features"))) in.classes = int(*v);
    return in;
}

}  // namespace

void ModelPage::createActions(QToolBar* bar)
{
    auto add = [this, bar](const QString& text, const QKeySequence& key, auto slot, bool onBar = true) {
        auto* a = new QAction(text, this);
        a->setShortcut(key);
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);  // this page's, not the window's
        if (!key.isEmpty()) a->setToolTip(text + QStringLiteral(" (") + key.toString(QKeySequence::NativeText) + QStringLiteral(")"));
        connect(a, &QAction::triggered, this, slot);
        addAction(a);
        if (onBar) bar->addAction(a);
        return a;
    };

    m_templates = new QMenu(tr("New"), this);
    const QStringList names{QStringLiteral("mlp"), QStringLiteral("cnn"), QStringLiteral("resnet"), QStringLiteral("lenet5")};
    const QStringList titles{tr("MLP"), tr("CNN (the shipped Fashion-MNIST model)"), tr("Small ResNet"), tr("LeNet-5")};
    for (int i = 0; i < names.size(); ++i)
        m_templates->addAction(titles[i], this, [this, name = names[i]] { newFromTemplate(name); });
    m_templates->addSeparator();
    const std::filesystem::path shipped = shippedExperimentsDirectory();
    std::vector<std::filesystem::path> files;
    if (!shipped.empty())
        for (const auto& entry : std::filesystem::directory_iterator(shipped))
            if (entry.path().extension() == ".yaml") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    for (const auto& path : files) {
        const QString file = QString::fromStdString(path.string());
        m_templates->addAction(tr("Model of %1").arg(QString::fromStdString(path.stem().string())), this,
                               [this, file] { newFromTemplate(QStringLiteral("experiment:") + file); });
    }
    auto* newButton = new QToolButton;
    newButton->setText(tr("New"));
    newButton->setToolTip(tr("New model from a template; the input shape and class count follow the experiment's data"));
    newButton->setMenu(m_templates);
    newButton->setPopupMode(QToolButton::InstantPopup);
    bar->addWidget(newButton);

    bar->addSeparator();
    // The experiment's Undo and Redo (Edit menu, Ctrl+Z from any page), also on this bar. They
    // keep their short labels (the toolbar must not change width); what they would undo is in
    // their tool tips.
    QUndoStack* stack = m_doc->undoStack();
    QAction* undo = add(tr("Undo"), QKeySequence(), [stack] { stack->undo(); });
    QAction* redo = add(tr("Redo"), QKeySequence(), [stack] { stack->redo(); });
    undo->setEnabled(stack->canUndo());
    redo->setEnabled(stack->canRedo());
    connect(stack, &QUndoStack::canUndoChanged, undo, &QAction::setEnabled);
    connect(stack, &QUndoStack::canRedoChanged, redo, &QAction::setEnabled);
    connect(stack, &QUndoStack::undoTextChanged, undo, [this, undo](const QString& text) {
        undo->setToolTip(text.isEmpty() ? tr("Undo") : tr("Undo %1").arg(text));
    });
    connect(stack, &QUndoStack::redoTextChanged, redo, [this, redo](const QString& text) {
        redo->setToolTip(text.isEmpty() ? tr("Redo") : tr("Redo %1").arg(text));
    });
    add(tr("Cut"), QKeySequence::Cut, [this] { cutSelection(); }, false);
    add(tr("Copy"), QKeySequence::Copy, [this] { copySelection(); }, false);
    add(tr("Paste"), QKeySequence::Paste, [this] { paste(); }, false);
    add(tr("Duplicate"), QKeySequence(Qt::CTRL | Qt::Key_D), [this] { duplicateSelection(); }, false);
    add(tr("Delete"), QKeySequence::Delete, [this] { deleteSelection(); }, false);
    add(tr("Select All"), QKeySequence::SelectAll, [this] { m_canvas->selectNodes(m_canvas->nodeIds()); }, false);
    bar->addSeparator();
    m_group = add(tr("Group"), QKeySequence(Qt::CTRL | Qt::Key_G), [this] { groupSelection(); });
    m_ungroup = add(tr("Ungroup"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_G), [this] {
        const QStringList nodes = selectedModelNodes();
        if (const ModelBlock* b = nodes.isEmpty() ? nullptr : blockOf(m_doc->state(), nodes.front()))
            m_doc->apply(ungroupBlock(m_doc->state(), QString::fromStdString(b->name)), tr("Ungroup %1").arg(QString::fromStdString(b->name)));
    }, false);
    m_collapse = add(tr("Collapse/Expand"), QKeySequence(Qt::CTRL | Qt::Key_E), [this] {
        const QStringList nodes = selectedModelNodes();
        if (const ModelBlock* b = nodes.isEmpty() ? nullptr : blockOf(m_doc->state(), nodes.front())) {
            const QString name = QString::fromStdString(b->name);
            m_doc->apply(b->collapsed ? withBlockOpened(name) : setBlockCollapsed(m_doc->state(), name, true),
                         b->collapsed ? tr("Expand block %1").arg(name) : tr("Collapse block %1").arg(name));
        }
    });
    add(tr("Checkpoint"), QKeySequence(), [this] {
        const QStringList nodes = selectedModelNodes();
        bool all = !nodes.isEmpty();
        for (const QString& n : nodes)
            if (const Node* node = findNode(m_doc->state().model, n)) all = all && node->checkpoint;
        m_doc->apply(setCheckpoint(m_doc->state(), nodes, !all),
                     all ? tr("Stop checkpointing %n node(s)", nullptr, int(nodes.size()))
                         : tr("Checkpoint %n node(s)", nullptr, int(nodes.size())));
    })->setToolTip(tr("Activation checkpointing: drop these nodes' activations after the forward pass and recompute "
                      "them in backward (less memory, about a third more compute for them)"));
    bar->addSeparator();
    add(tr("Arrange"), QKeySequence(Qt::CTRL | Qt::Key_L), [this] { autoLayout(); });
    add(tr("Fit"), QKeySequence(Qt::CTRL | Qt::Key_0), [this] { m_canvas->fitAll(); });
    add(tr("Export Image…"), QKeySequence(), [this] {
        const QString file = QFileDialog::getSaveFileName(this, tr("Export the drawing"), QString(), tr("PNG image (*.png);;SVG drawing (*.svg)"));
        if (!file.isEmpty()) exportImage(file);
    });
    bar->addSeparator();
    m_train = add(tr("Train This Model"), QKeySequence(Qt::CTRL | Qt::Key_Return), [this] {
        if (m_doc->diagnosis().ok()) emit trainRequested();
    });
}

void ModelPage::newFromTemplate(const QString& name)
{
    ModelState s;
    s.model.inputs = m_doc->state().model.inputs;
    QString title = name;
    try {
        if (name.startsWith(QLatin1String("experiment:"))) {
            const ExperimentDraft draft = loadExperimentDraft(name.mid(11).toStdString());
            if (!draft.usable) throw std::invalid_argument(draft.issues.empty() ? "unreadable" : draft.issues.front().message);
            s.model = draft.spec.model;
            s.layout = draft.spec.layout;
            title = QFileInfo(name.mid(11)).completeBaseName();
        } else {
            s.model = templateGraph(name.toStdString(), templateInputOf(m_doc->state().model));
        }
    } catch (const std::exception& e) {
        setStatus(tr("Cannot make that model: %1").arg(QString::fromStdString(e.what())));
        return;
    }
    // A new experiment: the same data and settings, this model, no file yet (Save asks where),
    // so the file that was open keeps its model and its runs keep their name.
    ExperimentSpec spec = m_doc->experiment();
    spec.model = s.model;
    spec.layout = s.layout;
    spec.name = title.toStdString();
    emit newExperimentRequested(spec);
}

void ModelPage::autoLayout()
{
    // Two or more nodes selected: only they are arranged, where they are; else everything.
    const QStringList selected = m_canvas->selectedNodes();
    const bool some = selected.size() >= 2;
    m_doc->apply(ModelState{m_doc->state().model, arrangedLayout(some ? selected : QStringList())},
                 some ? tr("Arrange %n node(s)", nullptr, int(selected.size())) : tr("Arrange"));
}

ModelLayout ModelPage::arrangedLayout(const QStringList& only) const
{
    const QStringList ids = only.isEmpty() ? m_canvas->nodeIds() : only;
    QList<widgets::LayoutBox> boxes;
    QPointF corner(1e300, 1e300);
    for (const QString& id : ids) {
        boxes.append({id, m_canvas->nodeSize(id)});
        corner = QPointF(std::min(corner.x(), m_canvas->nodePos(id).x()), std::min(corner.y(), m_canvas->nodePos(id).y()));
    }
    QList<widgets::LayoutEdge> edges;
    for (const auto& w : m_canvas->wires())
        if (ids.contains(w.from) && ids.contains(w.to)) edges.append({w.from, w.to});
    QHash<QString, QPointF> placed = widgets::layeredLayout(boxes, edges);
    if (!only.isEmpty())
        for (QPointF& p : placed) p += corner;  // the selection stays where it was
    // A collapsed block's members keep their places relative to the block.
    QHash<QString, QPointF> positions;
    const ModelState& s = m_doc->state();
    for (auto it = placed.begin(); it != placed.end(); ++it) {
        if (!ModelScene::isBlockId(it.key())) {
            positions[it.key()] = it.value();
            continue;
        }
        const QPointF origin = m_canvas->nodePos(it.key());
        for (const QString& m : m_scene->modelNodes({it.key()})) {
            const auto p = s.layout.positions.find(m.toStdString());
            const QPointF at = p == s.layout.positions.end() ? origin : QPointF(p->second.x, p->second.y);
            positions[m] = at - origin + it.value();
        }
    }
    return moveNodes(s, positions).layout;
}

void ModelPage::groupSelection()
{
    const QStringList nodes = selectedModelNodes();
    if (nodes.isEmpty()) return;
    const QString name = freshBlockName(m_doc->state());
    m_doc->apply(groupBlock(m_doc->state(), nodes, name), tr("Group %n node(s) as %1", nullptr, int(nodes.size())).arg(name));
}

void ModelPage::copySelection()
{
    const QStringList nodes = selectedModelNodes();
    if (nodes.isEmpty()) return;
    auto* mime = new QMimeData;
    const QByteArray clip = copyNodes(m_doc->state(), nodes);
    mime->setData(QString::fromLatin1(kNodesMime), clip);
    mime->setText(QString::fromUtf8(clip));
    QApplication::clipboard()->setMimeData(mime);
    m_pasteCount = 0;
}

void ModelPage::cutSelection()
{
    copySelection();
    deleteSelection();
}

void ModelPage::paste()
{
    const QMimeData* mime = QApplication::clipboard()->mimeData();
    if (!mime || !mime->hasFormat(QString::fromLatin1(kNodesMime))) return;
    ++m_pasteCount;
    QStringList pasted;
    const ModelState s = pasteNodes(m_doc->state(), mime->data(QString::fromLatin1(kNodesMime)), QPointF(40, 40) * m_pasteCount, &pasted);
    m_doc->apply(s, tr("Paste %n node(s)", nullptr, int(pasted.size())));
    QStringList ids;
    for (const QString& p : pasted) ids << m_scene->canvasId(p);
    ids.removeDuplicates();
    m_canvas->selectNodes(ids);
}

void ModelPage::duplicateSelection()
{
    copySelection();
    paste();
}

void ModelPage::deleteSelection()
{
    const QStringList nodes = selectedModelNodes();
    const ModelState next = removeNodes(m_doc->state(), nodes);
    if (next == m_doc->state()) {
        if (!nodes.isEmpty()) setStatus(tr("Model inputs come from the dataset and cannot be deleted."));
        return;
    }
    m_doc->apply(next, tr("Delete %n node(s)", nullptr, int(m_doc->state().model.nodes.size() - next.model.nodes.size())));
}

bool ModelPage::exportImage(const QString& path)
{
    const bool svg = path.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive);
    const widgets::WriteResult result =
        svg ? m_canvas->exportSvg(path, QFileInfo(m_doc->path()).baseName()) : m_canvas->exportPng(path);
    if (!result) setStatus(result.message);
    else setStatus(tr("Exported the drawing to %1.").arg(path) + (result.message.isEmpty() ? QString() : u' ' + result.message));
    return result.ok;
}

}  // namespace ts::ui

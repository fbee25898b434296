#include "model_page.h"

#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTimer>
#include <QToolBar>
#include <QUndoStack>
#include <QVBoxLayout>

#include "graph/training_check.h"
#include "graph/transformer_block.h"
#include "ops/registry.h"
#include "model_document.h"
#include "ui/experiment_document.h"
#include "model_scene.h"
#include "model_summary_panel.h"
#include "node_properties.h"
#include "op_palette.h"
#include "op_popup.h"
#include "widgets/node_canvas.h"

namespace ts::ui {

namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }
constexpr int kAttributeMergeBase = 0x4d00000;  // typing into one attribute merges into one step
}  // namespace

ModelPage::ModelPage(ExperimentDocument* document, QWidget* parent)
    : QWidget(parent), m_doc(new ModelDocument(document, this)), m_canvas(new widgets::NodeCanvas), m_scene(new ModelScene(m_canvas)),
      m_palette(new OpPalette), m_popup(new OpPopup(this)), m_properties(new NodeProperties), m_summary(new ModelSummaryPanel),
      m_problems(new QListWidget), m_addLoss(new QPushButton), m_title(new QLabel), m_status(new QLabel)
{
    setObjectName(QStringLiteral("page_model"));
    m_canvas->setObjectName(QStringLiteral("modelCanvas"));
    m_problems->setObjectName(QStringLiteral("modelProblems"));
    // Problems wrap to the list's width (the engine's messages are long, Chinese ones too).
    m_problems->setWordWrap(true);
    m_problems->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_problems->setResizeMode(QListView::Adjust);
    m_status->setObjectName(QStringLiteral("modelStatus"));
    m_status->setWordWrap(true);
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    m_title->setFont(titleFont);

    auto* bar = new QToolBar;
    bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    createActions(bar);

    auto* centre = new QSplitter(Qt::Vertical);
    centre->addWidget(m_canvas);
    auto* problemsBox = new QWidget;
    auto* problemsLayout = new QVBoxLayout(problemsBox);
    problemsLayout->setContentsMargins(0, 0, 0, 0);
    auto* problemsHeader = new QHBoxLayout;
    problemsHeader->addWidget(new QLabel(tr("Problems")));
    problemsHeader->addStretch(1);
    m_addLoss->setObjectName(QStringLiteral("modelAddLoss"));
    m_addLoss->hide();
    connect(m_addLoss, &QPushButton::clicked, this, [this] { addFittingLoss(); });
    problemsHeader->addWidget(m_addLoss);
    problemsLayout->addLayout(problemsHeader);
    problemsLayout->addWidget(m_problems);
    centre->addWidget(problemsBox);
    centre->setStretchFactor(0, 5);
    centre->setStretchFactor(1, 1);

    // The attribute editor grows with the op's schema: it scrolls rather than squeezing.
    auto* propertiesScroll = new QScrollArea;
    propertiesScroll->setWidget(m_properties);
    propertiesScroll->setWidgetResizable(true);
    // A scroll bar that came and went with the error banner would narrow and widen every field.
    propertiesScroll->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
    propertiesScroll->setFrameShape(QFrame::NoFrame);
    auto* right = new QSplitter(Qt::Vertical);
    m_right = right;
    right->addWidget(propertiesScroll);
    right->addWidget(m_summary);
    right->setStretchFactor(0, 1);
    right->setStretchFactor(1, 0);
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(m_palette);
    split->addWidget(centre);
    split->addWidget(right);
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);
    split->setStretchFactor(2, 0);
    m_split = split;  // its widths are set when the page is first shown (showEvent)

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 6, 8, 6);
    layout->addWidget(m_title);
    layout->addWidget(bar);
    layout->addWidget(split, 1);
    layout->addWidget(m_status);

    connectCanvas();
    connect(m_doc, &ModelDocument::changed, this, &ModelPage::refresh);
    connect(m_doc, &ModelDocument::modifiedChanged, this, &ModelPage::updateTitle);
    connect(m_doc, &ModelDocument::opened, this, [this] {
        m_canvas->clear();
        refresh();
        // A file without a drawing yet is laid out once, as part of opening it (not a step).
        if (m_doc->state().layout.positions.empty()) m_doc->setImpliedLayout(arrangedLayout());
        // The first view needs the canvas' real size: a page not shown yet has none.
        if (isVisible()) showStart();
        else m_startPending = true;
    });
    connect(m_palette, &OpPalette::opActivated, this, [this](const QString& op) {
        if (op == QLatin1String(kTransformerBlockEntry)) addTransformerBlock(viewCentre(), selectedSource());
        else addOp(op, viewCentre());
    });
    connect(m_popup, &OpPopup::picked, this, &ModelPage::addFromPopup);

    connect(m_properties, &NodeProperties::attributeChanged, this, [this](const QString& node, const QString& attr, const AttrValue& v) {
        m_doc->apply(ui::setAttribute(m_doc->state(), node, attr, v), tr("Set %1 of %2").arg(attr, node),
                     kAttributeMergeBase + int(qHash(node + QLatin1Char('/') + attr) & 0xfffff));
    });
    connect(m_properties, &NodeProperties::attributeReset, this, [this](const QString& node, const QString& attr) {
        m_doc->apply(resetAttribute(m_doc->state(), node, attr), tr("Reset %1 of %2").arg(attr, node));
    });
    connect(m_properties, &NodeProperties::renameRequested, this, [this](const QString& node, const QString& name) {
        if (const QString why = renameRefusal(m_doc->state(), node, name); !why.isEmpty()) {
            setStatus(why);
            showSelection();
            return;
        }
        m_doc->apply(renameNode(m_doc->state(), node, name), tr("Rename %1 to %2").arg(node, name));
        m_canvas->selectNodes({m_scene->canvasId(name)});
    });
    connect(m_properties, &NodeProperties::checkpointChanged, this, [this](const QString& node, bool on) {
        m_doc->apply(setCheckpoint(m_doc->state(), {node}, on), on ? tr("Checkpoint %1").arg(node) : tr("Stop checkpointing %1").arg(node));
    });
    // The loss problem's own fix: a double-click on it adds the loss, as the button does.
    connect(m_problems, &QListWidget::itemDoubleClicked, this, [this](QListWidgetItem* item) {
        if (item->data(Qt::UserRole + 1).toBool()) addFittingLoss();
    });
    connect(m_problems, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) {
        const QString node = item->data(Qt::UserRole).toString();
        if (node.isEmpty()) return;
        m_canvas->selectNodes({m_scene->canvasId(node)});
        m_canvas->ensureNodeVisible(m_scene->canvasId(node));
    });
    refresh();
}

ModelPage::~ModelPage() { delete m_scene; }

void ModelPage::connectCanvas()
{
    m_canvas->setConnectionCheck([this](const widgets::CanvasWire& w) {
        const auto [to, port] = m_scene->inputTarget(w.to, w.port);
        return connectionRefusal(m_doc->state(), m_scene->outputSource(w.from), to, port);
    });
    connect(m_canvas, &widgets::NodeCanvas::connectionRequested, this, [this](const widgets::CanvasWire& w) {
        const auto [to, port] = m_scene->inputTarget(w.to, w.port);
        connectNodes(m_scene->outputSource(w.from), to, port);
    });
    connect(m_canvas, &widgets::NodeCanvas::wireRemovalRequested, this, [this](const widgets::CanvasWire& w) {
        const auto [to, port] = m_scene->inputTarget(w.to, w.port);
        m_doc->apply(ui::disconnect(m_doc->state(), to, port), tr("Disconnect %1 from %2").arg(m_scene->outputSource(w.from), to));
    });
    connect(m_canvas, &widgets::NodeCanvas::nodesMoved, this, [this](const QHash<QString, QPointF>& moved) {
        // A collapsed block moves its members with it.
        QHash<QString, QPointF> positions;
        const ModelState& s = m_doc->state();
        for (auto it = moved.begin(); it != moved.end(); ++it) {
            if (!ModelScene::isBlockId(it.key())) {
                positions[it.key()] = it.value();
                continue;
            }
            const QStringList members = m_scene->modelNodes({it.key()});
            const auto first = s.layout.positions.find(members.value(0).toStdString());
            const QPointF origin = first == s.layout.positions.end() ? QPointF() : QPointF(first->second.x, first->second.y);
            for (const QString& m : members) {
                const auto p = s.layout.positions.find(m.toStdString());
                const QPointF at = p == s.layout.positions.end() ? origin : QPointF(p->second.x, p->second.y);
                positions[m] = at + (it.value() - origin);
            }
        }
        m_doc->apply(moveNodes(s, positions), tr("Move %n node(s)", nullptr, int(positions.size())));
    });
    connect(m_canvas, &widgets::NodeCanvas::selectionChanged, this, &ModelPage::showSelection);
    connect(m_canvas, &widgets::NodeCanvas::hint, this, &ModelPage::setStatus);
    connect(m_canvas, &widgets::NodeCanvas::opDropped, this, [this](const QString& op, QPointF pos) {
        if (op == QLatin1String(kTransformerBlockEntry)) addTransformerBlock(pos, sourceAt(pos));
        else addOp(op, pos);
    });
    connect(m_canvas, &widgets::NodeCanvas::insertRequested, this, [this](QPointF pos) { openPopup(pos, {}, {}, -1); });
    connect(m_canvas, &widgets::NodeCanvas::wireDroppedOnEmpty, this,
            [this](const QString& from, QPointF pos) { openPopup(pos, m_scene->outputSource(from), {}, -1); });
    connect(m_canvas, &widgets::NodeCanvas::inputDroppedOnEmpty, this, [this](const QString& to, int port, QPointF pos) {
        const auto [node, p] = m_scene->inputTarget(to, port);
        openPopup(pos, {}, node, p);
    });
    connect(m_canvas, &widgets::NodeCanvas::nodeDoubleClicked, this, [this](const QString& id) {
        if (ModelScene::isBlockId(id)) m_doc->apply(withBlockOpened(id.mid(6)), tr("Expand block %1").arg(id.mid(6)));
    });
}

QString ModelPage::addOp(const QString& op, QPointF scenePos)
{
    QString name;
    const ModelState next = ui::addNode(m_doc->state(), op, freeSpot(scenePos), &name);
    m_doc->apply(next, tr("Add %1").arg(name));
    m_canvas->selectNodes({name});
    return name;
}

QString ModelPage::addTransformerBlock(QPointF scenePos, const QString& from)
{
    const ModelState& s = m_doc->state();
    TransformerBlockOptions options;
    QStringList notes;
    // The width: the last dimension of what feeds it, which must be a sequence [tokens, width].
    std::optional<Shape> shape;
    if (isGraphInput(s.model, from)) {
        for (const auto& in : s.model.inputs)
            if (in.name == from.toStdString()) {
                std::vector<std::int64_t> dims{1};  // with a batch, as the diagnosis' shapes
                dims.insert(dims.end(), in.shape.dims().begin(), in.shape.dims().end());
                shape = Shape(dims);
            }
    } else if (const NodeDiagnosis* d = from.isEmpty() ? nullptr : m_doc->diagnosis().find(from.toStdString()); d && d->known) {
        shape = d->output.shape;
    }
    if (!from.isEmpty() && isIntegerInput(s.model, from)) {
        setStatus(tr("A Transformer block reads vectors, and %1 holds token ids: put an Embedding between them.").arg(from));
        return {};
    }
    if (shape && shape->rank() != 3) {
        setStatus(tr("A Transformer block reads a sequence of vectors [tokens, width]; %1 gives %2.").arg(from, sampleShapeText(*shape)));
        return {};
    }
    if (shape) options.width = shape->dims().back();
    else notes << tr("the input's width is unknown: set fc2's out_features to the model's width");
    options.heads = fittingHeads(options.width, 4);
    if (options.heads != 4) notes << tr("4 heads do not divide the width");
    for (const auto& n : s.model.nodes)
        if (n.op == "MultiHeadAttention" && n.attrs.has("causal") && n.attrs.getBool("causal")) options.causal = true;
    if (options.causal) notes << tr("causal, as the model's attention is");

    // Below `from`, pushing what follows down; else where it was dropped.
    const QSizeF size = m_canvas->typicalNodeSize();
    const double row = size.height() + 40;
    QPointF at = freeSpot(scenePos);
    const QRectF source = from.isEmpty() ? QRectF() : m_canvas->nodeRect(m_scene->canvasId(from));
    bool read = false;
    for (const auto& n : s.model.nodes) read = read || std::count(n.inputs.begin(), n.inputs.end(), from.toStdString());
    if (!source.isNull())
        at = read ? QPointF(source.left(), source.bottom() + 40)
                  : m_canvas->freeSpotNear(QPointF(source.center().x(), source.bottom() + 40 + size.height() / 2), size, false);

    QString block;
    ModelState next;
    try {
        next = insertTransformerBlock(s, from, options, at, row, &block);
    } catch (const std::exception& e) {
        setStatus(tr("Cannot add a Transformer block: %1").arg(QString::fromStdString(e.what())));
        return {};
    }
    m_doc->apply(next, from.isEmpty() ? tr("Add %1").arg(block) : tr("Add %1 after %2").arg(block, from));
    const ModelBlock& b = next.layout.blocks.back();
    const QString id = ModelScene::blockId(block);
    m_canvas->selectNodes(b.collapsed ? QStringList{id} : m_scene->modelNodes({id}));
    m_canvas->ensureNodeVisible(b.collapsed ? id : QString::fromStdString(b.nodes.front()));
    const QString what = tr("Added %1, a Transformer block of %2 nodes: width %3, heads %4").arg(block).arg(b.nodes.size()).arg(options.width).arg(options.heads);
    const QString details = notes.isEmpty() ? QString() : tr(" (%1)").arg(notes.join(tr("; ")));
    setStatus(from.isEmpty() ? tr("%1%2. Wire its inputs: ln1 and the residual add1 take the same vectors.").arg(what, details)
                             : tr("%1%2, after %3. Double-click it to open it.").arg(what, details, from));
    return block;
}

bool ModelPage::connectNodes(const QString& from, const QString& to, int port)
{
    if (const QString why = connectionRefusal(m_doc->state(), from, to, port); !why.isEmpty()) {
        setStatus(why);
        return false;
    }
    m_doc->apply(ui::connectNodes(m_doc->state(), from, to, port), tr("Connect %1 to %2").arg(from, to));
    setStatus({});
    return true;
}

void ModelPage::openPopup(QPointF scenePos, const QString& fromNode, const QString& toNode, int toPort)
{
    m_popupPos = scenePos;
    m_popupFrom = fromNode;
    m_popupTo = toNode;
    m_popupPort = toPort;
    std::function<bool(const Op&)> accepts;
    if (!fromNode.isEmpty()) {
        // Ops that can take this output: integer labels only feed ports without a gradient.
        const bool integer = ui::isIntegerInput(m_doc->state().model, fromNode);
        accepts = [integer](const Op& op) {
            const int ports = op.maxInputs() < 0 ? op.minInputs() : op.maxInputs();
            for (int i = 0; i < ports; ++i)
                if (op.inputDifferentiable(i) != integer) return true;
            return false;
        };
    } else if (!toNode.isEmpty()) {
        accepts = [](const Op& op) { return !op.isLoss(); };  // a loss gives a scalar, not a tensor to feed on
    }
    m_popup->open(m_canvas->viewport()->mapToGlobal(m_canvas->mapFromScene(scenePos)), accepts);
}

void ModelPage::addFromPopup(const QString& op)
{
    if (op == QLatin1String(kTransformerBlockEntry)) {
        addTransformerBlock(m_popupPos, m_popupFrom);
        m_popupFrom.clear(), m_popupTo.clear();
        return;
    }
    QString name;
    ModelState s = ui::addNode(m_doc->state(), op, freeSpot(m_popupPos), &name);
    QString what = tr("Add %1").arg(name);
    if (!m_popupFrom.isEmpty()) {
        // Inputs are positional: an integer label can only go first where the op's first
        // input takes no gradient (Embedding); otherwise the user wires it to its port later.
        const Op* o = OpRegistry::builtin().find(op.toStdString());
        if (o && o->inputDifferentiable(0) != ui::isIntegerInput(s.model, m_popupFrom)) s = ui::connectNodes(s, m_popupFrom, name, 0);
        what = tr("Add %1 after %2").arg(name, m_popupFrom);
    } else if (!m_popupTo.isEmpty() && connectionRefusal(s, name, m_popupTo, m_popupPort).isEmpty()) {
        s = ui::connectNodes(s, name, m_popupTo, m_popupPort);
        what = tr("Add %1 before %2").arg(name, m_popupTo);
    }
    m_doc->apply(s, what);
    m_canvas->selectNodes({name});
    m_popupFrom.clear();
    m_popupTo.clear();
}

void ModelPage::refresh()
{
    m_scene->show(m_doc->state(), m_doc->diagnosis());
    showProblems();
    showSelection();
    m_summary->setModel(m_doc->experiment(), m_doc->diagnosis());
    const GraphDiagnosis& d = m_doc->diagnosis();
    const bool ok = d.ok() && m_doc->hasExperiment();
    if (m_train) {
        // The reason why not, the same one training would give (graph/training_check.h).
        QString why = tr("Fix the problems first: the model does not check");
        for (const auto& p : d.problems)
            if (p.kind() == GraphError::Kind::NotTrainable) why = tr("The model cannot train: %1").arg(problemText(p));
        m_train->setEnabled(ok);
        m_train->setToolTip(ok ? tr("Hand this model to the Train page") : why);
    }
    updateTitle();
}

void ModelPage::showProblems()
{
    m_problems->clear();
    const QString lossOp = fittingLossOp();
    if (!lossOp.isEmpty()) {
        m_addLoss->setText(tr("Add %1 Loss").arg(lossOp));
        m_addLoss->setToolTip(tr("Adds a %1 node fed by the model's output and the labels (undo removes it)").arg(lossOp));
    }
    for (const auto& p : m_doc->diagnosis().problems) {
        const bool fixable = p.kind() == GraphError::Kind::NotTrainable && !lossOp.isEmpty();
        auto* item = new QListWidgetItem(problemText(p), m_problems);
        item->setToolTip(item->text());
        item->setData(Qt::UserRole, q(p.node()));
        item->setData(Qt::UserRole + 1, fixable);
        item->setIcon(style()->standardIcon(QStyle::SP_MessageBoxWarning));
        if (fixable) item->setToolTip(item->text() + QLatin1Char('\n') + tr("Double-click, or press %1, to add it").arg(m_addLoss->text()));
    }
    m_addLoss->setVisible(!lossOp.isEmpty());
    for (const auto& issue : m_doc->fileIssues()) {
        auto* item = new QListWidgetItem(tr("line %1:%2: %3").arg(issue.line).arg(issue.column).arg(q(issue.message)), m_problems);
        item->setIcon(style()->standardIcon(QStyle::SP_MessageBoxInformation));
    }
    if (m_problems->count() == 0 && m_doc->hasExperiment()) new QListWidgetItem(tr("No problems: the model checks."), m_problems);
}

QString ModelPage::fittingLossOp() const
{
    const GraphDiagnosis& d = m_doc->diagnosis();
    if (!d.checked) return {};
    const auto loss = fittingLoss(m_doc->state().model, *d.checked);
    return loss ? q(loss->op) : QString();
}

QString ModelPage::problemText(const GraphError& p) const
{
    const GraphDiagnosis& d = m_doc->diagnosis();
    if (p.kind() != GraphError::Kind::NotTrainable || !d.checked || d.checked->lossValue >= 0) return q(p.what());
    const auto loss = fittingLoss(m_doc->state().model, *d.checked);
    if (!loss)
        return tr("The model has no loss, so it cannot train. Add a loss node fed by the output and the label input: "
                  "CrossEntropy for class scores against class indices, MSE for regression.");
    return tr("The model has no loss, so it cannot train. Add %1 after %2: it compares the output with the labels.")
        .arg(q(loss->op), q(loss->inputs.front()));
}

QString ModelPage::addFittingLoss()
{
    const GraphDiagnosis& d = m_doc->diagnosis();
    if (!d.checked) return {};
    const auto loss = fittingLoss(m_doc->state().model, *d.checked);
    if (!loss) return {};
    ModelState s = m_doc->state();
    const std::string& output = loss->inputs.front();
    const QRectF out = m_canvas->nodeRect(m_scene->canvasId(q(output)));
    const QPointF below = out.isNull() ? viewCentre() : QPointF(out.center().x(), out.bottom() + 40 + m_canvas->typicalNodeSize().height() / 2);
    const QPointF at = m_canvas->freeSpotNear(below, m_canvas->typicalNodeSize(), /*preferVisible=*/false);  // scrolled to below
    s.model.nodes.push_back(*loss);
    s.layout.positions[loss->name] = {at.x(), at.y()};
    const QString name = q(loss->name);
    m_doc->apply(s, tr("Add the loss %1").arg(name));
    m_canvas->selectNodes({name});
    m_canvas->ensureNodeVisible(name);
    setStatus(tr("Added the loss %1 (%2).").arg(name, q(loss->op)));
    return name;
}

void ModelPage::showSelection()
{
    const QStringList ids = m_canvas->selectedNodes();
    const QStringList nodes = selectedModelNodes();
    if (m_group) m_group->setEnabled(nodes.size() >= 1);
    bool inBlock = false;
    for (const QString& n : nodes) inBlock = inBlock || blockOf(m_doc->state(), n);
    if (m_ungroup) m_ungroup->setEnabled(inBlock);
    if (m_collapse) m_collapse->setEnabled(inBlock);
    if (ids.size() != 1 || ModelScene::isBlockId(ids.front())) {
        m_properties->showNothing(ids.isEmpty() ? tr("Select a node to edit it.") : tr("%n nodes selected.", nullptr, int(nodes.size())));
        return;
    }
    const Node* node = findNode(m_doc->state().model, ids.front());
    if (!node) {
        m_properties->showNothing(tr("%1 is a model input: its shape comes from the dataset.").arg(ids.front()));
        return;
    }
    m_properties->showNode(*node);
    const NodeDiagnosis* d = m_doc->diagnosis().find(node->name);
    m_properties->setError(d ? q(d->problem) : QString());
}

void ModelPage::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (!m_sized) {  // the summary as tall as it needs, the attribute editor the rest
        m_sized = true;
        const int summary = m_summary->sizeHint().height();
        m_right->setSizes({std::max(100, m_right->height() - summary), summary});
        // The canvas is the page: the palette as wide as its longest op name two tree levels in
        // ("ConvTranspose2d"), the inspector as its fields need, the canvas the rest, in a small
        // window (960 x 600) too. Not minimums: the window may still be made narrower.
        int widestName = 0;
        for (const std::string& type : OpRegistry::builtin().types())
            widestName = std::max(widestName, fontMetrics().horizontalAdvance(QString::fromStdString(type)));
        const int palette = widestName + fontMetrics().averageCharWidth() * 12;
        const int inspector = m_right->minimumSizeHint().width();
        const int total = m_split->width() - 2 * m_split->handleWidth();
        if (total > palette + inspector) m_split->setSizes({palette, total - palette - inspector, inspector});
    }
    if (!m_startPending) return;
    m_startPending = false;
    QTimer::singleShot(0, this, &ModelPage::showStart);  // after the layout has sized the canvas
}

void ModelPage::showStart()
{
    // The whole model when it is readable that way; else readable, from the inputs down.
    m_canvas->fitAll();
    if (m_canvas->zoom() >= 0.6 || m_canvas->nodeIds().isEmpty()) return;
    m_canvas->setZoom(0.8);
    QString top = m_canvas->nodeIds().front();
    for (const QString& id : m_canvas->nodeIds())
        if (m_canvas->nodePos(id).y() < m_canvas->nodePos(top).y()) top = id;
    const QRectF r = m_canvas->nodeRect(top);
    m_canvas->centerOn(r.center().x(), r.top() - 20 + m_canvas->visibleSceneRect().height() / 2);
}

QStringList ModelPage::selectedModelNodes() const { return m_scene->modelNodes(m_canvas->selectedNodes()); }

ModelState ModelPage::withBlockOpened(const QString& block) const
{
    ModelState s = setBlockCollapsed(m_doc->state(), block, false);
    const QRectF shut = m_canvas->nodeRect(ModelScene::blockId(block));
    const ModelBlock* b = nullptr;
    for (const auto& x : s.layout.blocks)
        if (x.name == block.toStdString()) b = &x;
    if (!b || shut.isNull()) return s;
    // The members' area, open (their sizes are not drawn yet: a typical node's).
    const QSizeF size = m_canvas->typicalNodeSize();
    QRectF open;
    for (const auto& m : b->nodes)
        if (auto p = s.layout.positions.find(m); p != s.layout.positions.end())
            open |= QRectF(QPointF(p->second.x, p->second.y), size);
    // The nearest node below the block, beside its members: the room needed above it.
    const double gap = 40;
    double below = 1e300;
    for (const auto& [name, p] : s.layout.positions) {
        if (std::find(b->nodes.begin(), b->nodes.end(), name) != b->nodes.end() || p.y <= shut.center().y()) continue;
        if (!findNode(s.model, QString::fromStdString(name)) && !isGraphInput(s.model, QString::fromStdString(name))) continue;
        if (p.x < open.right() && p.x + size.width() > open.left()) below = std::min(below, p.y);
    }
    const double push = open.bottom() + gap - below;
    if (below == 1e300 || push <= 0) return s;
    for (auto& [name, p] : s.layout.positions)
        if (p.y >= below && std::find(b->nodes.begin(), b->nodes.end(), name) == b->nodes.end()) p.y += push;
    return s;
}

QString ModelPage::selectedSource() const
{
    const QStringList ids = m_canvas->selectedNodes();
    return ids.size() == 1 ? m_scene->outputSource(ids.front()) : QString();
}

QString ModelPage::sourceAt(QPointF scenePos) const
{
    for (const QString& id : m_canvas->nodeIds())
        if (m_canvas->nodeRect(id).contains(scenePos)) return m_scene->outputSource(id);
    return {};
}

QPointF ModelPage::viewCentre() const { return m_canvas->visibleSceneRect().center(); }

QPointF ModelPage::freeSpot(QPointF near) const { return m_canvas->freeSpotNear(near, m_canvas->typicalNodeSize()); }

void ModelPage::setStatus(const QString& text) { m_status->setText(text); }

QString ModelPage::statusText() const { return m_status->text(); }

void ModelPage::updateTitle()
{
    const ExperimentDocument* experiment = m_doc->experimentDocument();
    m_title->setText(tr("Model: %1%2").arg(experiment->displayName(), m_doc->isModified() ? tr(" (modified)") : QString()));
    m_title->setToolTip(QDir::toNativeSeparators(experiment->path()));
}

}  // namespace ts::ui

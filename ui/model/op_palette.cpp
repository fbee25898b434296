#include "op_palette.h"

#include <QHeaderView>
#include <QKeyEvent>
#include <QLineEdit>
#include <QMimeData>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

#include "attr_help.h"
#include "ops/registry.h"

namespace ts::ui {

namespace {

constexpr int kOpTypeRole = Qt::UserRole + 1;  // the op's type; empty on a group row and a block entry
constexpr int kSearchRole = Qt::UserRole + 2;  // what the search box matches: type and description
constexpr int kEntryRole = Qt::UserRole + 3;   // what a drag carries and activation emits: the op type or a block entry

constexpr ts::OpCategory kCategories[] = {ts::OpCategory::Layer,     ts::OpCategory::Recurrent, ts::OpCategory::Activation,
                                          ts::OpCategory::Normalization, ts::OpCategory::Pooling,
                                          ts::OpCategory::Structure, ts::OpCategory::Loss};

// Ops drag out as their type under kOpMimeType; groups do not drag.
class PaletteModel final : public QStandardItemModel {
public:
    using QStandardItemModel::QStandardItemModel;
    QStringList mimeTypes() const override { return {QString::fromLatin1(kOpMimeType)}; }
    Qt::DropActions supportedDragActions() const override { return Qt::CopyAction; }
    QMimeData* mimeData(const QModelIndexList& indexes) const override
    {
        for (const QModelIndex& index : indexes) {
            const QString type = index.data(kEntryRole).toString();
            if (type.isEmpty()) continue;
            auto* mime = new QMimeData;
            mime->setData(QString::fromLatin1(kOpMimeType), type.toUtf8());
            mime->setText(type);  // a drop into a text field writes the op's name
            return mime;
        }
        return nullptr;
    }
};

}  // namespace

QString transformerBlockTitle() { return OpPalette::tr("Transformer block"); }

QString opCategoryTitle(ts::OpCategory category)
{
    switch (category) {
    case ts::OpCategory::Layer: return OpPalette::tr("Layers");
    case ts::OpCategory::Recurrent: return OpPalette::tr("Recurrent");
    case ts::OpCategory::Activation: return OpPalette::tr("Activations");
    case ts::OpCategory::Normalization: return OpPalette::tr("Normalization");
    case ts::OpCategory::Pooling: return OpPalette::tr("Pooling");
    case ts::OpCategory::Structure: return OpPalette::tr("Structure");
    case ts::OpCategory::Loss: return OpPalette::tr("Losses");
    }
    return OpPalette::tr("Other");
}

QStringList opTypesInDisplayOrder()
{
    const ts::OpRegistry& registry = ts::OpRegistry::builtin();
    QStringList out;
    for (ts::OpCategory category : kCategories)
        for (const std::string& type : registry.types())  // alphabetical (a std::map)
            if (registry.find(type)->category() == category) out << QString::fromStdString(type);
    return out;
}

bool opMatchesSearch(const QString& opType, const QString& text)
{
    return opType.contains(text, Qt::CaseInsensitive) || opDescription(opType).contains(text, Qt::CaseInsensitive);
}

OpPalette::OpPalette(QWidget* parent) : QWidget(parent)
{
    m_search = new QLineEdit(this);
    m_search->setPlaceholderText(tr("Search ops"));
    m_search->setClearButtonEnabled(true);
    m_search->setToolTip(tr("Filters by name and description. Enter adds the first op found; Down moves into the list."));
    m_search->installEventFilter(this);

    m_model = new PaletteModel(this);
    const ts::OpRegistry& registry = ts::OpRegistry::builtin();
    const QStringList ordered = opTypesInDisplayOrder();
    for (ts::OpCategory category : kCategories) {
        auto* group = new QStandardItem(opCategoryTitle(category));
        group->setFlags(Qt::ItemIsEnabled);  // neither selectable nor draggable
        QFont bold = group->font();
        bold.setBold(true);
        group->setFont(bold);
        group->setData(QString(), kSearchRole);  // a group is shown only for a matching op
        for (const QString& type : ordered) {
            const ts::Op* op = registry.find(type.toStdString());
            if (op->category() != category) continue;
            auto* item = new QStandardItem(type);
            item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsDragEnabled);
            item->setData(type, kOpTypeRole);
            item->setData(type, kEntryRole);
            item->setData(type + QLatin1Char('\n') + opDescription(type), kSearchRole);
            item->setToolTip(opToolTip(*op));
            group->appendRow(item);
        }
        if (group->rowCount() > 0) m_model->appendRow(group);
        else delete group;
    }
    auto* blocks = new QStandardItem(tr("Blocks"));
    blocks->setFlags(Qt::ItemIsEnabled);
    QFont bold = blocks->font();
    bold.setBold(true);
    blocks->setFont(bold);
    blocks->setData(QString(), kSearchRole);
    auto* transformer = new QStandardItem(transformerBlockTitle());
    transformer->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsDragEnabled);
    transformer->setData(QString::fromLatin1(kTransformerBlockEntry), kEntryRole);
    transformer->setData(QString::fromLatin1(kTransformerBlockEntry) + QLatin1Char('\n') + transformerBlockTitle(), kSearchRole);
    transformer->setToolTip(tr("<p><b>Transformer block</b> (pre-norm): LayerNorm, multi-head attention, dropout and a residual "
                               "connection, then LayerNorm, an MLP (Linear four times as wide, GELU, Linear), dropout and a "
                               "second residual.</p><p>Drop it on a node, or select one and double-click here: the block takes "
                               "that node's output and width, and what read that node reads the block. It arrives as one "
                               "collapsed group; double-click the group to open and edit any part.</p>"));
    blocks->appendRow(transformer);
    m_model->appendRow(blocks);

    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setRecursiveFilteringEnabled(true);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setFilterRole(kSearchRole);

    m_view = new QTreeView(this);
    m_view->setModel(m_proxy);
    m_view->setHeaderHidden(true);
    m_view->setUniformRowHeights(true);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setDragEnabled(true);
    m_view->setDragDropMode(QAbstractItemView::DragOnly);
    m_view->setDefaultDropAction(Qt::CopyAction);
    m_view->setToolTip(QString());  // each op has its own
    m_view->installEventFilter(this);
    m_view->expandAll();
    connect(m_view, &QTreeView::doubleClicked, this, &OpPalette::activate);
    // Filtering re-inserts rows, collapsed: keep every group open.
    connect(m_proxy, &QAbstractItemModel::rowsInserted, m_view, &QTreeView::expandAll);
    connect(m_proxy, &QAbstractItemModel::layoutChanged, m_view, &QTreeView::expandAll);
    connect(m_search, &QLineEdit::textChanged, this, &OpPalette::setFilterText);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_search);
    layout->addWidget(m_view, 1);
}

QStringList OpPalette::opTypes() const
{
    QStringList out;
    for (int g = 0; g < m_model->rowCount(); ++g)
        for (int r = 0; r < m_model->item(g)->rowCount(); ++r) out << m_model->item(g)->child(r)->data(kOpTypeRole).toString();
    out.removeAll(QString());  // block entries
    return out;
}

void OpPalette::setFilterText(const QString& text)
{
    if (m_search->text() != text) m_search->setText(text);  // comes back here through textChanged
    m_proxy->setFilterFixedString(text.trimmed());
    m_view->expandAll();
}

QStringList OpPalette::visibleOpTypes() const
{
    QStringList out;
    for (int g = 0; g < m_proxy->rowCount(); ++g) {
        const QModelIndex group = m_proxy->index(g, 0);
        for (int r = 0; r < m_proxy->rowCount(group); ++r) out << m_proxy->index(r, 0, group).data(kOpTypeRole).toString();
    }
    out.removeAll(QString());  // block entries
    return out;
}

QString OpPalette::groupOf(const QString& opType) const
{
    for (int g = 0; g < m_model->rowCount(); ++g)
        for (int r = 0; r < m_model->item(g)->rowCount(); ++r)
            if (m_model->item(g)->child(r)->data(kOpTypeRole).toString() == opType) return m_model->item(g)->text();
    return {};
}

void OpPalette::activate(const QModelIndex& proxyIndex)
{
    const QString type = proxyIndex.data(kEntryRole).toString();
    if (!type.isEmpty()) emit opActivated(type);
}

QModelIndex OpPalette::firstVisibleOp() const
{
    // As the op popup: the op whose name starts with what was typed, else the first one found.
    const QString text = m_search->text().trimmed();
    QModelIndex first;
    for (int g = 0; g < m_proxy->rowCount(); ++g) {
        const QModelIndex group = m_proxy->index(g, 0);
        for (int r = 0; r < m_proxy->rowCount(group); ++r) {
            const QModelIndex op = m_proxy->index(r, 0, group);
            if (!text.isEmpty() && (op.data(kEntryRole).toString().startsWith(text, Qt::CaseInsensitive) ||
                                    op.data().toString().startsWith(text, Qt::CaseInsensitive)))
                return op;
            if (!first.isValid()) first = op;
        }
    }
    return first;
}

bool OpPalette::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() != QEvent::KeyPress) return QWidget::eventFilter(watched, event);
    const int key = static_cast<QKeyEvent*>(event)->key();
    const bool enter = key == Qt::Key_Return || key == Qt::Key_Enter;
    if (watched == m_view && enter) {
        activate(m_view->currentIndex());
        return true;
    }
    if (watched == m_search && (enter || key == Qt::Key_Down)) {
        const QModelIndex first = firstVisibleOp();
        if (!first.isValid()) return true;
        if (enter) {
            activate(first);
        } else {
            m_view->setCurrentIndex(first);
            m_view->setFocus();
        }
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

}  // namespace ts::ui

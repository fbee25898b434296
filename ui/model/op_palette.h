// The Model page's op palette: every op of the engine's registry, grouped by its category
// (Layers, Activations, Normalization, Pooling, Structure, Losses: translated group names),
// with a search box. Nothing is listed by hand: an op registered in the engine appears here.
// Below them, Blocks: groups of ops the engine builds in one go (a Transformer block).
#pragma once

#include <QStringList>
#include <QWidget>

#include "ops/op.h"

class QLineEdit;
class QModelIndex;
class QSortFilterProxyModel;
class QStandardItemModel;
class QTreeView;

namespace ts::ui {

// The palette's drag payload: mime type "application/x-trainstudio-op", data the op type as UTF-8.
inline constexpr const char* kOpMimeType = "application/x-trainstudio-op";

// The Blocks group's entry for a pre-norm Transformer block: dragged under kOpMimeType with
// this payload (no op has the name) and activated as opActivated(kTransformerBlockEntry); the
// page inserts the engine's recipe (graph/transformer_block.h) as a group of nodes.
inline constexpr const char* kTransformerBlockEntry = "TransformerBlock";
QString transformerBlockTitle();  // "Transformer block", translated

// The palette's group title for a category ("Layers", ...), translated.
QString opCategoryTitle(ts::OpCategory category);
// Every registered op, grouped by category in the enum's order, alphabetical within a group:
// the order the palette and the op popup list them in.
QStringList opTypesInDisplayOrder();
// Whether `text` finds the op: its type or its one-line description contains it (any case).
bool opMatchesSearch(const QString& opType, const QString& text);

class OpPalette : public QWidget {
    Q_OBJECT
public:
    explicit OpPalette(QWidget* parent = nullptr);

    QStringList opTypes() const;                 // every op listed, in display order (not the Blocks group)
    void setFilterText(const QString& text);     // the search box's text
    QStringList visibleOpTypes() const;          // the ops the search leaves, in display order
    QString groupOf(const QString& opType) const;  // the group title an op is listed under

    QTreeView* view() const { return m_view; }
    QLineEdit* searchField() const { return m_search; }

signals:
    void opActivated(const QString& opType);     // double-click or Enter: the page adds it at the view's centre (or a block entry)

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void activate(const QModelIndex& proxyIndex);
    QModelIndex firstVisibleOp() const;

    QLineEdit* m_search = nullptr;
    QTreeView* m_view = nullptr;
    QStandardItemModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
};

}  // namespace ts::ui

#include "op_popup.h"

#include <QGuiApplication>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QScreen>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

#include "attr_help.h"
#include "op_palette.h"
#include "ops/registry.h"

namespace ts::ui {

namespace {
constexpr int kOpTypeRole = Qt::UserRole + 1;
constexpr int kVisibleRows = 12;
}  // namespace

OpPopup::OpPopup(QWidget* parent) : QFrame(parent, Qt::Popup)
{
    setFrameStyle(QFrame::StyledPanel | QFrame::Raised);

    m_search = new QLineEdit(this);
    m_search->setPlaceholderText(tr("Type to search ops"));
    m_search->installEventFilter(this);
    connect(m_search, &QLineEdit::textChanged, this, &OpPopup::refilter);

    // Two columns: the op's type, and what it is (so a search by meaning is understood).
    m_list = new QTreeWidget(this);
    m_list->setColumnCount(2);
    m_list->setHeaderHidden(true);
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setAllColumnsShowFocus(true);
    m_list->setFocusPolicy(Qt::NoFocus);  // the line edit keeps the keyboard
    m_list->setTextElideMode(Qt::ElideRight);
    m_list->header()->setStretchLastSection(true);
    const ts::OpRegistry& registry = ts::OpRegistry::builtin();
    for (const QString& type : opTypesInDisplayOrder()) {
        auto* item = new QTreeWidgetItem(m_list, {type, opDescription(type)});
        item->setData(0, kOpTypeRole, type);
        item->setForeground(1, palette().brush(QPalette::Disabled, QPalette::Text));
        const QString tip = opToolTip(*registry.find(type.toStdString()));
        item->setToolTip(0, tip);
        item->setToolTip(1, tip);
    }
    {  // the one block: added as a whole group (ModelPage::addTransformerBlock)
        auto* item = new QTreeWidgetItem(m_list, {transformerBlockTitle(), tr("pre-norm attention and MLP with residuals, as a group")});
        item->setData(0, kOpTypeRole, QString::fromLatin1(kTransformerBlockEntry));
        item->setForeground(1, palette().brush(QPalette::Disabled, QPalette::Text));
    }
    m_list->resizeColumnToContents(0);
    m_list->setColumnWidth(0, m_list->columnWidth(0) + fontMetrics().horizontalAdvance(QStringLiteral("xx")));  // a gap before the description
    connect(m_list, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* item) { pick(item); });

    auto* none = new QLabel(tr("No op matches."), this);
    none->setObjectName(QStringLiteral("noMatch"));
    none->setEnabled(false);
    none->hide();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    layout->addWidget(m_search);
    layout->addWidget(m_list, 1);
    layout->addWidget(none);

    const QFontMetrics fm = fontMetrics();
    const int rowHeight = std::max(m_list->sizeHintForRow(0), fm.height());
    resize(std::max(fm.horizontalAdvance(QLatin1Char('x')) * 60, m_list->columnWidth(0) * 3),
           m_search->sizeHint().height() + rowHeight * kVisibleRows + 16);
}

void OpPopup::open(QPoint globalPos, std::function<bool(const ts::Op&)> accepts)
{
    m_excluded.clear();
    const ts::OpRegistry& registry = ts::OpRegistry::builtin();
    if (accepts) {
        for (const std::string& type : registry.types())
            if (!accepts(*registry.find(type))) m_excluded << QString::fromStdString(type);
        // The block is offered where its first op, a LayerNorm, would be.
        if (!accepts(*registry.find("LayerNorm"))) m_excluded << QString::fromLatin1(kTransformerBlockEntry);
    }
    m_search->clear();
    refilter();

    // Opens at the cursor, kept on the screen.
    QRect frame(globalPos, size());
    if (const QScreen* screen = QGuiApplication::screenAt(globalPos)) {
        const QRect avail = screen->availableGeometry();
        if (frame.right() > avail.right()) frame.moveRight(avail.right());
        if (frame.bottom() > avail.bottom()) frame.moveBottom(avail.bottom());
        frame.moveTopLeft(QPoint(std::max(frame.left(), avail.left()), std::max(frame.top(), avail.top())));
    }
    move(frame.topLeft());
    show();
    raise();
    activateWindow();
    m_search->setFocus(Qt::PopupFocusReason);
}

void OpPopup::refilter()
{
    const QString text = m_search->text().trimmed();
    QTreeWidgetItem* prefixMatch = nullptr;
    QTreeWidgetItem* firstShown = nullptr;
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        QTreeWidgetItem* item = m_list->topLevelItem(i);
        const QString type = item->data(0, kOpTypeRole).toString();
        const bool block = type == QLatin1String(kTransformerBlockEntry);  // found by its title too
        const bool shown = !m_excluded.contains(type) &&
                           (opMatchesSearch(type, text) || (block && item->text(0).contains(text, Qt::CaseInsensitive)));
        item->setHidden(!shown);
        if (!shown) continue;
        if (!firstShown) firstShown = item;
        if (!prefixMatch && !text.isEmpty() && type.startsWith(text, Qt::CaseInsensitive)) prefixMatch = item;
    }
    // Enter picks the op whose name starts with what was typed, else the first one found.
    QTreeWidgetItem* current = prefixMatch ? prefixMatch : firstShown;
    m_list->setCurrentItem(current);
    if (current) m_list->scrollToItem(current);
    findChild<QLabel*>(QStringLiteral("noMatch"))->setVisible(!current);
}

QStringList OpPopup::visibleOps() const
{
    QStringList out;
    for (int i = 0; i < m_list->topLevelItemCount(); ++i)
        if (!m_list->topLevelItem(i)->isHidden()) out << m_list->topLevelItem(i)->data(0, kOpTypeRole).toString();
    return out;
}

QString OpPopup::currentOp() const
{
    const QTreeWidgetItem* item = m_list->currentItem();
    return item && !item->isHidden() ? item->data(0, kOpTypeRole).toString() : QString();
}

void OpPopup::moveCurrent(int steps)
{
    std::vector<QTreeWidgetItem*> shown;
    int at = -1;
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        QTreeWidgetItem* item = m_list->topLevelItem(i);
        if (item->isHidden()) continue;
        if (item == m_list->currentItem()) at = static_cast<int>(shown.size());
        shown.push_back(item);
    }
    if (shown.empty()) return;
    const int next = std::clamp(at + steps, 0, static_cast<int>(shown.size()) - 1);
    m_list->setCurrentItem(shown[static_cast<std::size_t>(next)]);
    m_list->scrollToItem(shown[static_cast<std::size_t>(next)]);
}

void OpPopup::pick(QTreeWidgetItem* item)
{
    if (!item || item->isHidden()) return;
    const QString type = item->data(0, kOpTypeRole).toString();
    hide();
    emit picked(type);
}

bool OpPopup::eventFilter(QObject* watched, QEvent* event)
{
    if (watched != m_search || event->type() != QEvent::KeyPress) return QFrame::eventFilter(watched, event);
    switch (static_cast<QKeyEvent*>(event)->key()) {
    case Qt::Key_Up: moveCurrent(-1); return true;
    case Qt::Key_Down: moveCurrent(1); return true;
    case Qt::Key_PageUp: moveCurrent(-kVisibleRows); return true;
    case Qt::Key_PageDown: moveCurrent(kVisibleRows); return true;
    case Qt::Key_Return:
    case Qt::Key_Enter: pick(m_list->currentItem()); return true;
    case Qt::Key_Escape: hide(); return true;
    default: return QFrame::eventFilter(watched, event);
    }
}

}  // namespace ts::ui

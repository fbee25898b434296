// A searchable list of ops opened at the cursor (Tab on the canvas, or a wire dropped on empty
// space); `accepts` filters it (for a wire, ops that can take it). Enter or a click picks,
// Esc closes. Type-to-search: the line edit has focus when it opens, and Up/Down move in the
// list while it keeps the focus.
#pragma once

#include <QFrame>
#include <QStringList>

#include <functional>

#include "ops/op.h"

class QLineEdit;
class QTreeWidget;
class QTreeWidgetItem;

namespace ts::ui {

class OpPopup : public QFrame {
    Q_OBJECT
public:
    explicit OpPopup(QWidget* parent = nullptr);

    void open(QPoint globalPos, std::function<bool(const ts::Op&)> accepts = {});
    QStringList visibleOps() const;
    QString currentOp() const;  // what Enter would pick; empty when nothing is left

    QLineEdit* searchField() const { return m_search; }
    QTreeWidget* list() const { return m_list; }

signals:
    void picked(const QString& opType);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void refilter();
    void moveCurrent(int steps);
    void pick(QTreeWidgetItem* item);

    QLineEdit* m_search = nullptr;
    QTreeWidget* m_list = nullptr;
    QStringList m_excluded;  // refused by `accepts`, whatever is typed
};

}  // namespace ts::ui

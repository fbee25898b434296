// The selected node's editor, generated from its op's attribute schema (AttrSpec): name,
// op (read-only), one editor per attribute (Int/Float/String/lists: a line edit, lists typed
// "3, 3"; Bool: a check box; String with choices: a combo box), the default shown when the
// value differs from it, a reset-to-default button per attribute, and "Checkpoint activations".
// Edits apply live: each accepted change emits one signal; a refused value (normaliseAttrs's
// error, or text that does not parse) is not emitted, the field turns red and the reason is
// shown under it. The document stays the source of truth: the page calls showNode again after
// every edit, which keeps the focused field's text and cursor, and rebuilds nothing while the
// node's op stays the same. (Put it in a QScrollArea where the panel may be short.)
#pragma once

#include <QWidget>

#include <optional>
#include <vector>

#include "types/attrs.h"
#include "types/model_graph.h"

class QAbstractButton;
class QCheckBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QToolButton;

namespace ts {
class Op;
}

namespace ts::ui {

class NodeProperties : public QWidget {
    Q_OBJECT
public:
    explicit NodeProperties(QWidget* parent = nullptr);

    void showNode(const ts::Node& node);        // the op looked up in OpRegistry::builtin(); unknown op: attributes shown read-only as text with a note
    void showNothing(const QString& why);       // "Select a node to edit it" / "3 nodes selected"
    void setError(const QString& message);      // the engine's message for this node (red, below the fields, which it never moves); empty clears

    // For tests and the page: the widgets of attribute `attr` (null when not shown), the reason
    // shown under it, and the "Default: ..." line (empty when the value is the default).
    QWidget* field(const QString& attr) const;
    QAbstractButton* resetButton(const QString& attr) const;
    QString problem(const QString& attr) const;
    QString defaultHint(const QString& attr) const;
    QStringList attributes() const;  // the rows shown, in the schema's order (unknown ones last)
    QLineEdit* nameField() const { return m_name; }
    QCheckBox* checkpointBox() const { return m_checkpoint; }
    QString errorText() const;
    QString message() const;  // showNothing's text; empty while a node is shown

signals:
    void attributeChanged(const QString& node, const QString& attr, const ts::AttrValue& value);
    void attributeReset(const QString& node, const QString& attr);      // back to the default: the attribute is removed from Node::attrs
    void renameRequested(const QString& node, const QString& newName);  // on editingFinished, only when different and non-empty
    void checkpointChanged(const QString& node, bool on);

private:
    struct Row {
        QString name;
        std::optional<ts::AttrSpec> spec;  // none: an attribute the op does not take, or an unknown op's
        QLabel* label = nullptr;
        QWidget* editor = nullptr;  // QLineEdit, QCheckBox or QComboBox
        QToolButton* reset = nullptr;
        QLabel* hint = nullptr;    // "Default: 1"
        QLabel* reason = nullptr;  // red, under the field
    };

    void rebuild(const QString& opType, const ts::Op* op, const QStringList& extraAttrs);
    Row makeRow(const QString& opType, const QString& name, const std::optional<ts::AttrSpec>& spec);
    void fill(Row& row, bool sameNode);
    // What is typed or picked, as the node's new value: parsed, checked, emitted when accepted.
    void commit(const QString& attr, const ts::AttrValue& value);
    void commitText(const QString& attr, const QString& text);
    void commitName();
    void showReason(Row& row, const QString& reason);
    Row* rowOf(const QString& attr);
    const Row* rowOf(const QString& attr) const;
    // The attribute's value in the node: its own (normalised) or the default; none when required and unset.
    std::optional<ts::AttrValue> currentValue(const Row& row, QString* problem = nullptr) const;

    QLabel* m_message = nullptr;  // showNothing
    QLabel* m_error = nullptr;    // setError
    QWidget* m_body = nullptr;    // everything about the node
    QLineEdit* m_name = nullptr;
    QLabel* m_nameReason = nullptr;
    QLabel* m_op = nullptr;
    QLabel* m_opNote = nullptr;   // the description, or why an unknown op is read-only
    QFormLayout* m_form = nullptr;  // name, op, the attribute rows (rebuilt when the op changes), checkpoint
    QCheckBox* m_checkpoint = nullptr;

    std::vector<Row> m_rows;
    QString m_rowsKey;
    bool m_opKnown = false;  // which op (and unknown attributes) the rows were built for
    std::optional<ts::Node> m_node;
    QString m_requestedName;  // the last rename asked for: showNode with that name is the same node
};

}  // namespace ts::ui

// attributeChanged carries one (a queued connection or a QSignalSpy stores it in a QVariant).
Q_DECLARE_METATYPE(ts::AttrValue)

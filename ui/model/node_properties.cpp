#include "node_properties.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>

#include "attr_help.h"
#include "full_height_label.h"
#include "ops/registry.h"

namespace ts::ui {

namespace {

const QColor kProblemColour(0xc6, 0x28, 0x28);
const QColor kProblemBase(0xfd, 0xec, 0xea);

// The form's fixed rows: name, op and its description above the attributes, checkpoint below them.
constexpr int kRowsAbove = 3;
constexpr int kRowsBelow = 1;

void colourText(QLabel* label, const QColor& colour)
{
    QPalette p = label->palette();
    p.setColor(QPalette::WindowText, colour);
    label->setPalette(p);
}

QLabel* wrappedLabel(QWidget* parent)
{
    auto* label = new QLabel(parent);
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    return label;
}

// The field's text as a value of the spec's type; the reason (translated) when it does not parse.
// A list takes "3, 3", "3 3" or "[3, 3]"; one number is left single so the engine repeats it.
QString parseText(const ts::AttrSpec& spec, const QString& typed, ts::AttrValue& out)
{
    QString text = typed.trimmed();
    const auto asInt = [](const QString& t, bool& ok) { return static_cast<std::int64_t>(t.toLongLong(&ok)); };
    const auto asFloat = [](const QString& t, bool& ok) {
        const double x = t.toDouble(&ok);  // C locale: "0.5", "1e-5"
        ok = ok && std::isfinite(x);
        return x;
    };
    switch (spec.type) {
    case ts::AttrType::Int: {
        bool ok = false;
        out = asInt(text, ok);
        return ok ? QString() : NodeProperties::tr("\"%1\" is not a whole number").arg(text);
    }
    case ts::AttrType::Float: {
        bool ok = false;
        out = asFloat(text, ok);
        return ok ? QString() : NodeProperties::tr("\"%1\" is not a number").arg(text);
    }
    case ts::AttrType::Bool:
        if (text == QLatin1String("true") || text == QLatin1String("false")) {
            out = text == QLatin1String("true");
            return {};
        }
        return NodeProperties::tr("\"%1\" is neither true nor false").arg(text);
    case ts::AttrType::String: out = text.toStdString(); return {};
    case ts::AttrType::Ints:
    case ts::AttrType::Floats: {
        if (text.startsWith(QLatin1Char('[')) && text.endsWith(QLatin1Char(']'))) text = text.mid(1, text.size() - 2);
        const QStringList parts = text.split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts);
        const bool ints = spec.type == ts::AttrType::Ints;
        std::vector<std::int64_t> is;
        std::vector<double> ds;
        for (const QString& part : parts) {
            bool ok = false;
            if (ints) is.push_back(asInt(part, ok));
            else ds.push_back(asFloat(part, ok));
            if (!ok)
                return ints ? NodeProperties::tr("\"%1\" is not a whole number").arg(part)
                            : NodeProperties::tr("\"%1\" is not a number").arg(part);
        }
        if (ints) out = is.size() == 1 ? ts::AttrValue(is[0]) : ts::AttrValue(is);
        else out = ds.size() == 1 ? ts::AttrValue(ds[0]) : ts::AttrValue(ds);
        return {};
    }
    }
    return {};
}

// The value checked by the engine's own rule, alone (another attribute's problem must not block
// this one); the engine's reason when refused.
QString normalise(const ts::AttrSpec& spec, const std::optional<ts::AttrValue>& given, ts::AttrValue& out)
{
    ts::Attrs in, normalised;
    if (given) in.set(spec.name, *given);
    const std::string error = ts::normaliseAttrs({spec}, in, normalised);
    if (!error.empty()) return QString::fromStdString(error);
    out = normalised.get(spec.name);
    return {};
}

std::optional<ts::AttrValue> normalisedDefault(const ts::AttrSpec& spec)
{
    ts::AttrValue v;
    if (!spec.defaultValue || !normalise(spec, std::nullopt, v).isEmpty()) return std::nullopt;
    return v;
}

ts::Attrs without(const ts::Attrs& attrs, const std::string& name)
{
    ts::Attrs out;
    for (const auto& [key, value] : attrs.values())
        if (key != name) out.set(key, value);
    return out;
}

}  // namespace

NodeProperties::NodeProperties(QWidget* parent) : QWidget(parent)
{
    m_message = wrappedLabel(this);
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setEnabled(false);  // greyed: a state, not content
    m_error = wrappedLabel(this);
    FullHeightLabel::keep(m_error);
    colourText(m_error, kProblemColour);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->hide();

    m_body = new QWidget(this);
    // Never squeezed below its size hint (the scroll area scrolls instead): squeezed rows were
    // re-rounded, and moved, whenever the banner below changed the total.
    m_body->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
    m_form = new QFormLayout(m_body);
    m_form->setContentsMargins(0, 0, 0, 0);
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_form->setRowWrapPolicy(QFormLayout::DontWrapRows);

    auto* nameCell = new QWidget(m_body);
    auto* nameLayout = new QVBoxLayout(nameCell);
    nameLayout->setContentsMargins(0, 0, 0, 0);
    nameLayout->setSpacing(2);
    m_name = new QLineEdit(nameCell);
    m_name->setToolTip(tr("The node's name, unique in the model; other nodes name it as their input."));
    m_nameReason = wrappedLabel(nameCell);
    colourText(m_nameReason, kProblemColour);
    m_nameReason->hide();
    nameLayout->addWidget(m_name);
    nameLayout->addWidget(m_nameReason);
    connect(m_name, &QLineEdit::editingFinished, this, &NodeProperties::commitName);
    m_form->addRow(tr("Name"), nameCell);

    m_op = new QLabel(m_body);
    m_op->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont bold = m_op->font();
    bold.setBold(true);
    m_op->setFont(bold);
    m_opNote = wrappedLabel(m_body);
    FullHeightLabel::keep(m_opNote);
    m_opNote->setObjectName(QStringLiteral("opDescription"));
    m_opNote->setEnabled(false);
    m_form->addRow(tr("Op"), m_op);
    // Its own row across both columns: nested in the op's cell, the form gave a wrapped
    // description one line's height and cut the rest (MaxPool2d, CrossEntropy).
    m_form->addRow(m_opNote);

    m_checkpoint = new QCheckBox(tr("Checkpoint activations"), m_body);
    m_checkpoint->setToolTip(tr("Memory for time: this node's activations are dropped after the forward pass and computed "
                                "again in backward (about a third more compute for the marked nodes). Mark a run of "
                                "consecutive nodes, such as a block of a deep network, when activations do not fit."));
    connect(m_checkpoint, &QCheckBox::toggled, this, [this](bool on) {
        if (!m_node) return;  // showNode sets the box with its signals blocked
        m_node->checkpoint = on;
        emit checkpointChanged(QString::fromStdString(m_node->name), on);
    });
    m_form->addRow(m_checkpoint);

    // The error goes below the fields: shown or hidden, it never moves them (a click aimed at
    // padding while the banner appeared once landed on dilation).
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_message);
    layout->addWidget(m_body);
    layout->addWidget(m_error);
    layout->addStretch(1);

    showNothing(tr("Select a node to edit it"));
}

void NodeProperties::showNothing(const QString& why)
{
    m_node.reset();
    m_requestedName.clear();
    m_message->setText(why);
    m_message->show();
    m_body->hide();
    setError({});
}

void NodeProperties::setError(const QString& message)
{
    m_error->setText(message);
    FullHeightLabel::fit(m_error);
    m_error->setVisible(!message.isEmpty());
}

void NodeProperties::showNode(const ts::Node& node)
{
    const QString name = QString::fromStdString(node.name);
    const bool sameNode = m_node && m_node->op == node.op &&
                          (node.name == m_node->name || (!m_requestedName.isEmpty() && name == m_requestedName));
    if (!sameNode) {
        m_requestedName.clear();
        setError({});
    } else if (name == m_requestedName) {
        m_requestedName.clear();  // the rename went through
    }

    const ts::Op* op = ts::OpRegistry::builtin().find(node.op);
    const std::vector<ts::AttrSpec> specs = op ? op->attrSpecs() : std::vector<ts::AttrSpec>{};
    QStringList extras;  // attributes the op does not take (all of an unknown op's)
    for (const auto& [key, value] : node.attrs.values()) {
        bool known = false;
        for (const ts::AttrSpec& s : specs) known = known || s.name == key;
        if (!known) extras << QString::fromStdString(key);
    }
    const QString key = QString::fromStdString(node.op) + (op ? QString() : QStringLiteral("?")) + QLatin1Char('|') +
                        extras.join(QLatin1Char(','));
    const bool rebuilt = key != m_rowsKey;
    if (rebuilt) {
        m_rowsKey = key;
        rebuild(QString::fromStdString(node.op), op, extras);
    }

    m_node = node;
    m_opKnown = op != nullptr;
    m_message->hide();
    m_body->show();
    // A name being typed (not yet finished) stays; once asked for, the node's name shows: the new
    // one when the page renamed it, the old one when it refused.
    if (!(sameNode && m_name->hasFocus() && m_name->isModified())) {
        m_name->setText(name);
        m_nameReason->hide();
    }
    m_op->setText(QString::fromStdString(node.op));
    const QString opType = QString::fromStdString(node.op);
    m_opNote->setText(op ? opDescription(opType)
                         : tr("The engine has no op \"%1\": its attributes are shown as written, read-only. Change the "
                              "op in the experiment file, or delete the node and add one from the palette.")
                               .arg(opType));
    FullHeightLabel::fit(m_opNote);  // a new text at the same width: no resize to do it
    m_op->setToolTip(op ? opToolTip(*op) : QString());
    {
        const QSignalBlocker blocker(m_checkpoint);
        m_checkpoint->setChecked(node.checkpoint);
    }
    for (Row& row : m_rows) fill(row, sameNode && !rebuilt);
}

void NodeProperties::rebuild(const QString& opType, const ts::Op* op, const QStringList& extraAttrs)
{
    // Old rows go later, not now: this may run inside one of their own signals.
    while (m_form->rowCount() > kRowsAbove + kRowsBelow) {
        const QFormLayout::TakeRowResult taken = m_form->takeRow(kRowsAbove);
        for (QLayoutItem* item : {taken.labelItem, taken.fieldItem}) {
            if (!item) continue;
            if (QWidget* w = item->widget()) {
                for (QObject* child : w->findChildren<QObject*>()) child->disconnect(this);
                w->hide();
                w->deleteLater();
            }
            delete item;
        }
    }
    m_rows.clear();
    if (op)
        for (const ts::AttrSpec& spec : op->attrSpecs()) m_rows.push_back(makeRow(opType, QString::fromStdString(spec.name), spec));
    for (const QString& name : extraAttrs) m_rows.push_back(makeRow(opType, name, std::nullopt));
    if (op && m_rows.empty()) {
        auto* none = new QLabel(tr("This op has no attributes."), m_body);
        none->setEnabled(false);
        m_form->insertRow(kRowsAbove, none);
    }
    int at = kRowsAbove;
    for (const Row& row : m_rows) {
        QWidget* cell = row.editor->parentWidget();
        m_form->insertRow(at++, row.label, cell);
    }
}

NodeProperties::Row NodeProperties::makeRow(const QString& opType, const QString& name,
                                            const std::optional<ts::AttrSpec>& spec)
{
    Row row;
    row.name = name;
    row.spec = spec;
    auto* cell = new QWidget(m_body);
    auto* cellLayout = new QVBoxLayout(cell);
    cellLayout->setContentsMargins(0, 0, 0, 0);
    cellLayout->setSpacing(2);
    auto* line = new QHBoxLayout;
    line->setSpacing(4);
    cellLayout->addLayout(line);

    QString tip = QStringLiteral("<p><code>%1</code></p>").arg(name.toHtmlEscaped());
    if (spec) {
        tip += QStringLiteral("<p>%1</p><p>%2</p>")
                   .arg(attributeHelp(opType, name).toHtmlEscaped(),
                        (attrTypeText(*spec) + QStringLiteral(". ") + attrDefaultText(*spec)).toHtmlEscaped());
    }

    if (spec && spec->type == ts::AttrType::Bool) {
        auto* box = new QCheckBox(cell);
        box->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
        // fill sets the box with its signals blocked: a toggle seen here is the user's.
        connect(box, &QCheckBox::toggled, this, [this, name](bool on) { commit(name, ts::AttrValue(on)); });
        row.editor = box;
    } else if (spec && !spec->choices.empty()) {
        auto* box = new QComboBox(cell);
        for (const std::string& c : spec->choices) box->addItem(QString::fromStdString(c));
        connect(box, &QComboBox::activated, this,
                [this, name, box](int i) { commit(name, ts::AttrValue(box->itemText(i).toStdString())); });
        row.editor = box;
    } else {
        auto* edit = new QLineEdit(cell);
        if (!spec) {
            edit->setReadOnly(true);
        } else {
            if (!spec->defaultValue) edit->setPlaceholderText(tr("required"));
            else if (spec->type == ts::AttrType::Ints || spec->type == ts::AttrType::Floats)
                edit->setPlaceholderText(spec->listLength > 0 ? tr("e.g. 3, 3") : tr("e.g. 1, 2, 3"));
            // Applied as typed (each accepted value once), so the canvas follows the keyboard.
            connect(edit, &QLineEdit::textEdited, this, [this, name](const QString& text) { commitText(name, text); });
        }
        row.editor = edit;
    }
    line->addWidget(row.editor, row.editor->sizePolicy().horizontalPolicy() == QSizePolicy::Fixed ? 0 : 1);
    if (qobject_cast<QCheckBox*>(row.editor)) line->addStretch(1);

    row.reset = new QToolButton(cell);
    row.reset->setText(QStringLiteral("↺"));
    row.reset->setAutoRaise(true);
    row.reset->setToolTip(spec ? tr("Reset %1 to its default").arg(name) : tr("Remove %1 from the node").arg(name));
    connect(row.reset, &QToolButton::clicked, this, [this, name] {
        if (!m_node) return;
        m_node->attrs = without(m_node->attrs, name.toStdString());
        const QString node = QString::fromStdString(m_node->name);
        if (Row* r = rowOf(name)) fill(*r, false);
        emit attributeReset(node, name);
    });
    line->addWidget(row.reset);

    row.hint = wrappedLabel(cell);
    row.hint->setEnabled(false);
    row.hint->hide();
    row.reason = wrappedLabel(cell);
    colourText(row.reason, kProblemColour);
    row.reason->hide();
    cellLayout->addWidget(row.hint);
    cellLayout->addWidget(row.reason);

    row.label = new QLabel(name, m_body);
    row.label->setBuddy(row.editor);
    row.label->setToolTip(tip);
    row.editor->setToolTip(tip);
    return row;
}

std::optional<ts::AttrValue> NodeProperties::currentValue(const Row& row, QString* problem) const
{
    const std::string name = row.name.toStdString();
    const bool given = m_node && m_node->attrs.has(name);
    if (!row.spec) return given ? std::optional<ts::AttrValue>(m_node->attrs.get(name)) : std::nullopt;
    if (!given && !row.spec->defaultValue) return std::nullopt;
    ts::AttrValue value;
    const QString error = normalise(*row.spec, given ? std::optional<ts::AttrValue>(m_node->attrs.get(name)) : std::nullopt, value);
    if (error.isEmpty()) return value;
    if (problem) *problem = error;
    return m_node->attrs.get(name);  // as the file has it, with the reason shown
}

void NodeProperties::fill(Row& row, bool sameNode)
{
    QString problem;
    const std::optional<ts::AttrValue> value = currentValue(row, &problem);
    if (!row.spec && m_opKnown && m_node)
        problem = tr("%1 takes no attribute \"%2\"; remove it with ↺.").arg(QString::fromStdString(m_node->op), row.name);
    const QString text = value ? attrValueText(*value) : QString();
    const QSignalBlocker blocker(row.editor);
    if (auto* box = qobject_cast<QCheckBox*>(row.editor)) {
        const bool* on = value ? std::get_if<bool>(&*value) : nullptr;
        box->setChecked(on && *on);
        showReason(row, problem);
    } else if (auto* combo = qobject_cast<QComboBox*>(row.editor)) {
        if (combo->findText(text) < 0) combo->addItem(text);  // a value the file has but the op refuses
        combo->setCurrentIndex(combo->findText(text));
        showReason(row, problem);
    } else if (auto* edit = qobject_cast<QLineEdit*>(row.editor)) {
        // The field being typed in keeps its text and cursor while it says the same, or is not
        // yet a value at all; anything else shows the node's value.
        bool keep = false;
        if (sameNode && edit->hasFocus() && row.spec) {
            ts::AttrValue typed, normalised;
            keep = !parseText(*row.spec, edit->text(), typed).isEmpty() || !normalise(*row.spec, typed, normalised).isEmpty() ||
                   (value && normalised == *value);
        }
        if (!keep) {
            edit->setText(text);
            edit->setCursorPosition(0);
            showReason(row, problem);
        }
    }

    const bool given = m_node && m_node->attrs.has(row.name.toStdString());
    const std::optional<ts::AttrValue> fallback = row.spec ? normalisedDefault(*row.spec) : std::nullopt;
    row.reset->setEnabled(given && (!row.spec || fallback));
    const bool differs = fallback && value && *value != *fallback;
    const QString defaultText = fallback ? attrValueText(*fallback) : QString();
    row.hint->setText(tr("Default: %1").arg(defaultText.isEmpty() ? tr("empty") : defaultText));
    row.hint->setVisible(differs);
}

void NodeProperties::commitText(const QString& attr, const QString& text)
{
    Row* row = rowOf(attr);
    if (!row || !row->spec || !m_node) return;
    ts::AttrValue typed;
    if (const QString reason = parseText(*row->spec, text, typed); !reason.isEmpty()) {
        showReason(*row, reason);
        return;
    }
    commit(attr, typed);
}

void NodeProperties::commit(const QString& attr, const ts::AttrValue& given)
{
    Row* row = rowOf(attr);
    if (!row || !row->spec || !m_node) return;
    ts::AttrValue value;
    if (const QString reason = normalise(*row->spec, given, value); !reason.isEmpty()) {
        showReason(*row, reason);
        return;
    }
    showReason(*row, {});
    if (currentValue(*row) == value) return;  // "3" after "3, 3": the same value, nothing to announce
    m_node->attrs.set(attr.toStdString(), value);
    fill(*row, true);  // the default hint and the reset button
    // Last: the page answers with showNode, which may replace the rows.
    emit attributeChanged(QString::fromStdString(m_node->name), attr, value);
}

void NodeProperties::commitName()
{
    // Enter and then the focus leaving both finish an edit: only an edited text is asked for
    // (setText, showing the node's name, clears isModified).
    if (!m_node || !m_name->isModified()) return;
    m_name->setModified(false);
    const QString typed = m_name->text().trimmed();
    const QString current = QString::fromStdString(m_node->name);
    if (typed.isEmpty()) {
        m_name->setText(current);
        m_nameReason->setText(tr("A node needs a name; kept \"%1\".").arg(current));
        m_nameReason->show();
        return;
    }
    m_nameReason->hide();
    if (typed == current) return;
    m_requestedName = typed;
    emit renameRequested(current, typed);
}

void NodeProperties::showReason(Row& row, const QString& reason)
{
    row.reason->setText(reason);
    row.reason->setVisible(!reason.isEmpty());
    QPalette p;  // empty: the inherited colours
    if (!reason.isEmpty()) {
        p = row.editor->palette();
        p.setColor(QPalette::Base, kProblemBase);
        p.setColor(QPalette::Text, kProblemColour);
        p.setColor(QPalette::ButtonText, kProblemColour);
        p.setColor(QPalette::WindowText, kProblemColour);
    }
    row.editor->setPalette(p);
}

NodeProperties::Row* NodeProperties::rowOf(const QString& attr)
{
    for (Row& row : m_rows)
        if (row.name == attr) return &row;
    return nullptr;
}

const NodeProperties::Row* NodeProperties::rowOf(const QString& attr) const
{
    for (const Row& row : m_rows)
        if (row.name == attr) return &row;
    return nullptr;
}

QWidget* NodeProperties::field(const QString& attr) const
{
    const Row* row = rowOf(attr);
    return row && m_node ? row->editor : nullptr;
}

QAbstractButton* NodeProperties::resetButton(const QString& attr) const
{
    const Row* row = rowOf(attr);
    return row && m_node ? row->reset : nullptr;
}

QString NodeProperties::problem(const QString& attr) const
{
    const Row* row = rowOf(attr);
    return row ? row->reason->text() : QString();
}

QString NodeProperties::defaultHint(const QString& attr) const
{
    const Row* row = rowOf(attr);
    return row && !row->hint->isHidden() ? row->hint->text() : QString();
}

QStringList NodeProperties::attributes() const
{
    QStringList out;
    if (m_node)
        for (const Row& row : m_rows) out << row.name;
    return out;
}

QString NodeProperties::errorText() const { return m_error->isHidden() ? QString() : m_error->text(); }

QString NodeProperties::message() const { return m_message->isHidden() ? QString() : m_message->text(); }

}  // namespace ts::ui

#include "option_editor.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCompleter>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>
#include <cmath>

#include "io/yaml/experiment_yaml.h"
#include "option_help.h"
#include "help_tip.h"
#include "ui/glossary/glossary_browser.h"

namespace ts::ui {

namespace {

using ts::OptionKind;

const QColor kProblemColour(0xc6, 0x28, 0x28);

bool isList(const ts::ExperimentOption& o) { return o.kind == OptionKind::NumberList || o.kind == OptionKind::IntegerList; }

// Integers an int spin box can hold; seeds (64-bit unsigned) are typed instead.
bool usesSpinBox(const ts::ExperimentOption& o) { return o.kind == OptionKind::Integer && !o.unsignedInteger; }

std::vector<std::string> offeredChoices(const ts::ExperimentOption& o)
{
    std::vector<std::string> offered;
    for (const std::string& c : o.choices)
        if (std::find(o.notOffered.begin(), o.notOffered.end(), c) == o.notOffered.end()) offered.push_back(c);
    return offered;
}

// The value as a person types it: "3, 6" for a list, "0" rather than "0.0", a name unquoted.
QString fieldText(const ts::ExperimentSpec& spec, const ts::ExperimentOption& o)
{
    const ts::OptionValue v = ts::optionValue(spec, o);
    if (const auto* s = std::get_if<std::string>(&v)) return QString::fromStdString(*s);
    QString text = QString::fromStdString(ts::optionValueText(spec, o));
    if (isList(o)) return text.mid(1, text.size() - 2);
    if (o.kind == OptionKind::Number && text.endsWith(QLatin1String(".0"))) text.chop(2);
    return text;
}

QString allowedText(const ts::ExperimentOption& o)
{
    const QString range = QString::fromStdString(o.range.text());
    switch (o.kind) {
    case OptionKind::Choice: {
        QStringList names;
        for (const std::string& c : offeredChoices(o)) names << QString::fromStdString(c);
        return OptionEditor::tr("One of: %1").arg(names.join(QStringLiteral(", ")));
    }
    case OptionKind::Text: {
        QStringList names;
        for (const std::string& c : o.choices) names << QString::fromStdString(c);
        return names.isEmpty() ? QString() : OptionEditor::tr("For example: %1").arg(names.join(QStringLiteral(", ")));
    }
    case OptionKind::NumberList:
    case OptionKind::IntegerList:
        if (o.increasing) return OptionEditor::tr("Values separated by commas, increasing, each %1").arg(range);
        return range.isEmpty() ? OptionEditor::tr("Values separated by commas")
                               : OptionEditor::tr("Values separated by commas, each %1").arg(range);
    case OptionKind::Boolean: return {};
    default: return range.isEmpty() ? QString() : OptionEditor::tr("Allowed: %1").arg(range);
    }
}

}  // namespace

OptionEditor::OptionEditor(QWidget* parent) : QWidget(parent)
{
    const auto& options = ts::experimentOptions();
    m_rows.reserve(options.size());  // the editors' connections hold row indices

    // One section per group, in the table's order; two columns, balanced by rows.
    std::vector<ts::OptionGroup> groups;
    for (const auto& o : options)
        if (std::find(groups.begin(), groups.end(), o.group) == groups.end()) groups.push_back(o.group);
    auto* columns = new QHBoxLayout(this);
    for (QVBoxLayout*& c : m_columns) {
        c = new QVBoxLayout;
        c->addStretch(1);
        columns->addLayout(c, 1);
    }
    std::size_t placed = 0;
    for (ts::OptionGroup g : groups) {
        auto* box = new QGroupBox(optionGroupTitle(g), this);
        auto* form = new QFormLayout(box);
        form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
        for (const auto& o : options) {
            if (o.group != g) continue;
            Row row;
            row.option = &o;
            row.form = form;
            row.section = box;
            row.label = new QLabel(optionLabel(o.key), box);
            row.cell = new QWidget(box);
            auto* cellLayout = new QVBoxLayout(row.cell);
            cellLayout->setContentsMargins(0, 0, 0, 0);
            cellLayout->setSpacing(2);
            m_rows.push_back(row);
            Row& r = m_rows.back();
            r.editor = makeEditor(r);
            r.reason = new QLabel(r.cell);
            r.reason->setWordWrap(true);
            QPalette palette = r.reason->palette();
            palette.setColor(QPalette::WindowText, kProblemColour);
            r.reason->setPalette(palette);
            r.reason->hide();
            cellLayout->addWidget(r.editor, 0, r.option->kind == OptionKind::Boolean ? Qt::AlignLeft : Qt::Alignment());
            cellLayout->addWidget(r.reason);
            r.note = new QLabel(r.cell);
            r.note->setObjectName(QString::fromStdString("optionNote_" + o.key));
            r.note->setWordWrap(true);
            r.note->hide();
            cellLayout->addWidget(r.note);
            r.label->setBuddy(r.editor);
            r.label->setToolTip(tooltip(r));
            r.editor->setToolTip(tooltip(r));
            linkGlossary(r);
            form->addRow(r.label, r.cell);
            ++placed;
        }
        m_sections.push_back(box);
        // Two columns balanced by rows: the sections after half the options go right.
        if (m_splitAt == 0 && placed * 2 >= options.size()) m_splitAt = m_sections.size();
    }
    setColumnCount(2);
    setEnabled(false);
}

void OptionEditor::setColumnCount(int columns)
{
    columns = columns >= 2 ? 2 : 1;
    if (columns == m_columnCount) return;
    m_columnCount = columns;
    for (std::size_t i = 0; i < m_sections.size(); ++i) {
        QVBoxLayout* target = columns == 2 && i >= m_splitAt ? m_columns[1] : m_columns[0];
        for (QVBoxLayout* c : m_columns) c->removeWidget(m_sections[i]);
        target->insertWidget(target->count() - 1, m_sections[i]);  // before the stretch
    }
}

int OptionEditor::widthForColumns(int columns) const
{
    int widest = 0;
    for (QGroupBox* box : m_sections) widest = std::max(widest, box->minimumSizeHint().width());
    const QMargins m = layout()->contentsMargins();
    return m.left() + m.right() + widest * columns + layout()->spacing() * (columns - 1);
}

QWidget* OptionEditor::makeEditor(Row& row)
{
    const ts::ExperimentOption& o = *row.option;
    const std::size_t index = m_rows.size() - 1;
    if (o.kind == OptionKind::Boolean) {
        auto* box = new QCheckBox(row.cell);
        box->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);  // clickable where it is drawn
        connect(box, &QCheckBox::toggled, this, [this, index](bool on) { apply(m_rows[index], on ? "true" : "false"); });
        return box;
    }
    if (o.kind == OptionKind::Choice) {
        auto* box = new QComboBox(row.cell);
        for (const std::string& c : offeredChoices(o)) box->addItem(QString::fromStdString(c));
        connect(box, &QComboBox::activated, this, [this, index, box](int i) { apply(m_rows[index], box->itemText(i)); });
        return box;
    }
    if (usesSpinBox(o)) {
        auto* spin = new QSpinBox(row.cell);
        const double lo = o.range.min ? *o.range.min + (o.range.minOpen ? 1 : 0) : INT_MIN;
        const double hi = o.range.max ? *o.range.max - (o.range.maxOpen ? 1 : 0) : INT_MAX;
        spin->setRange(static_cast<int>(std::max<double>(lo, INT_MIN)), static_cast<int>(std::min<double>(hi, INT_MAX)));
        spin->setKeyboardTracking(false);  // one edit when the number is complete, not one per digit
        connect(spin, &QSpinBox::valueChanged, this, [this, index](int v) { apply(m_rows[index], QString::number(v)); });
        return spin;
    }
    // Numbers, seeds, lists and names are typed: checked as typed, applied when finished.
    // (A QValidator would silently swallow a wrong key; here the reason is shown.)
    auto* edit = new QLineEdit(row.cell);
    if (o.kind == OptionKind::Text && !o.choices.empty()) {
        QStringList names;
        for (const std::string& c : o.choices) names << QString::fromStdString(c);
        edit->setCompleter(new QCompleter(names, edit));
    }
    if (isList(o)) edit->setPlaceholderText(tr("e.g. %1").arg(o.increasing ? QStringLiteral("3, 6, 8") : QStringLiteral("1, 2")));
    connect(edit, &QLineEdit::textEdited, this, [this, index](const QString& text) { check(m_rows[index], text); });
    connect(edit, &QLineEdit::editingFinished, this, [this, index, edit] { apply(m_rows[index], edit->text()); });
    return edit;
}

void OptionEditor::setExperiment(const ts::ExperimentSpec& spec)
{
    if (m_spec && *m_spec == spec) return;  // this editor's own edit, back from the document: shown already
    m_spec = spec;
    for (const Row& row : m_rows) showReason(row, {});
    refresh();
    setEnabled(true);
}

void OptionEditor::apply(const Row& row, const QString& typed)
{
    if (!m_spec) return;
    const std::string yaml = ts::optionYamlText(*row.option, typed.toStdString());
    try {
        ts::ExperimentSpec edited = ts::withOption(*m_spec, row.option->key, yaml);
        if (edited == *m_spec) {  // the same value written another way (or focus left a reverted field)
            fill(row);
            return;
        }
        m_spec = std::move(edited);
        showReason(row, {});
        refresh();
        // "Set Learning rate to 3e-4": the label the user sees, the value as typed.
        emit optionEdited(*m_spec, tr("Set %1 to %2").arg(optionLabel(row.option->key), typed.trimmed()));
    } catch (const ts::ExperimentError& e) {
        QStringList reasons;
        for (const ts::ExperimentIssue& i : e.issues()) reasons << QString::fromStdString(i.message);
        fill(row);
        showReason(row, reasons.join(QLatin1Char('\n')));
    }
}

void OptionEditor::check(const Row& row, const QString& typed)
{
    const std::string yaml = ts::optionYamlText(*row.option, typed.toStdString());
    showReason(row, QString::fromStdString(ts::checkOptionText(*row.option, yaml)));
}

void OptionEditor::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        for (const Row& row : m_rows) {
            row.label->setToolTip(tooltip(row, row.reason->text()));
            row.editor->setToolTip(tooltip(row, row.reason->text()));
        }
    QWidget::changeEvent(event);
}

void OptionEditor::showReason(const Row& row, const QString& reason)
{
    row.reason->setText(reason);
    row.reason->setVisible(!reason.isEmpty());
    row.label->setToolTip(tooltip(row, reason));
    row.editor->setToolTip(tooltip(row, reason));
}

void OptionEditor::fill(const Row& row)
{
    if (!m_spec) return;
    const ts::ExperimentOption& o = *row.option;
    const QSignalBlocker blocker(row.editor);  // showing a value is not an edit
    const ts::OptionValue v = ts::optionValue(*m_spec, o);
    if (auto* box = qobject_cast<QCheckBox*>(row.editor)) {
        box->setChecked(std::get<bool>(v));
    } else if (auto* combo = qobject_cast<QComboBox*>(row.editor)) {
        const QString value = QString::fromStdString(std::get<std::string>(v));
        if (combo->findText(value) < 0) combo->addItem(value);  // a choice not offered (range_test), as the file has it
        combo->setCurrentIndex(combo->findText(value));
    } else if (auto* spin = qobject_cast<QSpinBox*>(row.editor)) {
        spin->setValue(static_cast<int>(std::clamp<std::int64_t>(std::get<std::int64_t>(v), spin->minimum(), spin->maximum())));
    } else if (auto* edit = qobject_cast<QLineEdit*>(row.editor)) {
        if (const QString text = fieldText(*m_spec, o); edit->text() != text) {  // unchanged: the cursor stays
            edit->setText(text);
            edit->setCursorPosition(0);
        }
    }
}

void OptionEditor::refresh()
{
    if (!m_spec) return;
    std::vector<std::pair<QWidget*, bool>> sections;
    for (const Row& row : m_rows) {
        fill(row);
        const bool shown = row.option->appliesTo(*m_spec);
        row.form->setRowVisible(row.cell, shown);
        if (sections.empty() || sections.back().first != row.section) sections.emplace_back(row.section, false);
        sections.back().second = sections.back().second || shown;
    }
    for (const auto& [section, shown] : sections) section->setVisible(shown);
}

// The option's glossary entry, when it has one: "more…" in its tooltip, and F1 on its field.
void OptionEditor::linkGlossary(const Row& row)
{
    const QString entry = Glossary::studio().entryForOption(QString::fromStdString(row.option->key));
    if (entry.isEmpty()) return;
    for (QWidget* w : {static_cast<QWidget*>(row.label), row.editor}) {
        w->setProperty("glossaryEntry", entry);
        installHelpTip(w, tr("more…"), [w, entry] { GlossaryBrowser::open(w, entry); });
    }
}

const OptionEditor::Row* OptionEditor::rowOf(const std::string& key) const
{
    for (const Row& row : m_rows)
        if (row.option->key == key) return &row;
    return nullptr;
}

QWidget* OptionEditor::field(const std::string& key) const
{
    const Row* row = rowOf(key);
    return row ? row->editor : nullptr;
}

QLabel* OptionEditor::label(const std::string& key) const
{
    const Row* row = rowOf(key);
    return row ? row->label : nullptr;
}

QString OptionEditor::problem(const std::string& key) const
{
    const Row* row = rowOf(key);
    return row ? row->reason->text() : QString();
}

void OptionEditor::setNote(const std::string& key, const QString& note)
{
    if (const Row* row = rowOf(key)) {
        row->note->setText(note);
        row->note->setVisible(!note.isEmpty());
    }
}

QString OptionEditor::note(const std::string& key) const
{
    const Row* row = rowOf(key);
    return row ? row->note->text() : QString();
}

bool OptionEditor::isShown(const std::string& key) const
{
    const Row* row = rowOf(key);
    return row && m_spec && row->option->appliesTo(*m_spec);
}

QString OptionEditor::tooltip(const Row& row, const QString& reason) const
{
    const ts::ExperimentOption& o = *row.option;
    QString html = QStringLiteral("<p><b>%1</b> &nbsp;<code>%2</code></p><p>%3</p>")
                       .arg(optionLabel(o.key).toHtmlEscaped(), QString::fromStdString(o.key).toHtmlEscaped(),
                            optionHelp(o.key).toHtmlEscaped());
    if (const QString allowed = allowedText(o); !allowed.isEmpty()) html += QStringLiteral("<p>%1</p>").arg(allowed.toHtmlEscaped());
    if (!reason.isEmpty())
        html += QStringLiteral("<p style=\"color:%1\">%2</p>").arg(kProblemColour.name(), reason.toHtmlEscaped().replace('\n', "<br>"));
    return html;
}

}  // namespace ts::ui

// Every option of the experiment, editable: built only from the option table
// (io/experiment_options.h), one titled section per group, a field per option chosen by its
// kind. An edit goes through ts::withOption, so it is validated exactly as a file's value; a
// refused one is reverted and the reason shown in red under the field (never a dialog).
// Options that do not apply to the experiment as it now is are hidden, label and field.
// An option the glossary explains has a "more…" in its tooltip (HelpTip) and F1 on it opens
// the entry (property "glossaryEntry").
#pragma once

#include <QWidget>

#include <optional>
#include <string>
#include <vector>

#include "io/yaml/experiment_options.h"
#include "types/experiment_spec.h"

class QFormLayout;
class QGroupBox;
class QVBoxLayout;
class QLabel;

namespace ts::ui {

class OptionEditor : public QWidget {
    Q_OBJECT
public:
    explicit OptionEditor(QWidget* parent = nullptr);

    // Fills every field; the editor is disabled until it has an experiment.
    void setExperiment(const ts::ExperimentSpec& spec);
    const std::optional<ts::ExperimentSpec>& experiment() const { return m_spec; }

    // The widget editing `key` (QLineEdit, QSpinBox, QCheckBox or QComboBox), its label and
    // the reason last shown under it; null/empty for a key the table lacks.
    QWidget* field(const std::string& key) const;
    QLabel* label(const std::string& key) const;
    QString problem(const std::string& key) const;
    // A note under the field of `key`, in the window's text colour (what the value means for
    // this experiment: weight decay's parameter groups); empty hides it.
    void setNote(const std::string& key, const QString& note);
    QString note(const std::string& key) const;
    // Whether the option applies now, so its row is shown.
    bool isShown(const std::string& key) const;
    // The sections in one column or two (balanced by rows); the page picks by its width.
    void setColumnCount(int columns);
    int columnCount() const { return m_columnCount; }
    int widthForColumns(int columns) const;  // the least width that shows them whole

protected:
    void changeEvent(QEvent* event) override;  // a new language: the composed tool tips again

signals:
    // After every accepted edit, with the whole experiment as it now is and what the edit did.
    void optionEdited(const ts::ExperimentSpec& spec, const QString& what);

private:
    struct Row {
        const ts::ExperimentOption* option = nullptr;
        QLabel* label = nullptr;
        QWidget* editor = nullptr;   // the field
        QWidget* cell = nullptr;     // field and reason, the row's field in the form
        QLabel* reason = nullptr;    // red, under the field; hidden when empty
        QLabel* note = nullptr;      // under the reason; hidden when empty
        QFormLayout* form = nullptr;
        QWidget* section = nullptr;  // the group box
    };

    QWidget* makeEditor(Row& row);
    // Applies what was typed or picked (as the field's text); reverts and explains a refusal.
    void apply(const Row& row, const QString& typed);
    // As typed, before it is applied: the table's check, shown at once.
    void check(const Row& row, const QString& typed);
    void showReason(const Row& row, const QString& reason);
    void fill(const Row& row);  // the field from the experiment
    void refresh();             // every field, and which rows are shown
    void linkGlossary(const Row& row);
    const Row* rowOf(const std::string& key) const;
    QString tooltip(const Row& row, const QString& reason = {}) const;

    std::vector<Row> m_rows;
    std::vector<QGroupBox*> m_sections;
    std::size_t m_splitAt = 0;  // the first section of the second column
    QVBoxLayout* m_columns[2] = {nullptr, nullptr};
    int m_columnCount = 0;
    std::optional<ts::ExperimentSpec> m_spec;
};

}  // namespace ts::ui

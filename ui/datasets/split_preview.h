// The Datasets page's split preview (issue 14 item 4, first half): the validation fraction,
// the split seed and (CSV) the group column, with the class counts per split they give,
// shown at once while typing. Counts come from the labels with the engine's own split
// functions (split_counts.h: splitIndices / splitGroups, as openDataset carves), so they are
// the counts a training run gets. A new group column needs the CSV read again for its
// groups: that happens on a worker thread, through the engine's reader.
//
// Invalid values (a fraction outside [0, 1), a seed that is not a whole number) are refused
// with the reason shown; nothing is emitted for them. A valid edit is emitted when it is
// committed (Return or leaving the field; a group column when chosen), as specEdited: the
// page writes it into the experiment.
#pragma once

#include <QFutureWatcher>
#include <QStringList>
#include <QWidget>

#include <memory>
#include <vector>

#include "data/dataset.h"
#include "split_counts.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QTableWidget;

namespace ts::ui {

class SplitPreview : public QWidget {
    Q_OBJECT
public:
    explicit SplitPreview(QWidget* parent = nullptr);
    ~SplitPreview() override;

    // The experiment's dataset settings and the files they opened (openDatasetFiles with the
    // same spec, so files->groups belong to spec.groupColumn). Null files clear the counts.
    // A spec equal to the one shown changes nothing (the page echoing an edit back).
    void setSpec(const ts::DatasetSpec& spec, std::shared_ptr<const ts::DatasetFiles> files);

    // The settings as edited (the last valid values of each field).
    const ts::DatasetSpec& spec() const { return m_spec; }
    const std::vector<SplitClassCounts>& counts() const { return m_counts; }
    // Why the last edit was refused (empty: it was not).
    QString refusal() const;
    bool isReading() const { return m_reading; }  // a group column is being read (until applied)

    QLineEdit* fractionField() const { return m_fraction; }
    QLineEdit* seedField() const { return m_seed; }
    QComboBox* groupField() const { return m_group; }
    QTableWidget* table() const { return m_table; }

signals:
    void specEdited(const ts::DatasetSpec& spec);

protected:
    void changeEvent(QEvent* event) override;

private:
    struct Reopened {
        std::shared_ptr<const ts::DatasetFiles> files;
        QString error;
        int generation = 0;
    };
    bool readFields();  // fields -> m_spec; false (and the reason shown) when one is refused
    void recount();
    void commit();
    void chooseGroup();
    void onReopened();
    void fillGroupColumns();
    void showCounts();
    void retranslate();

    ts::DatasetSpec m_spec, m_emitted;
    std::shared_ptr<const ts::DatasetFiles> m_files;
    // The files read again for a new group column, and what they were read from: when the page
    // echoes the edit back with its old files, the preview keeps the regrouped ones.
    std::shared_ptr<const ts::DatasetFiles> m_reopenSource, m_reopened;
    std::string m_reopenColumn;
    std::vector<SplitClassCounts> m_counts;
    QStringList m_classNames;
    QString m_countError;
    int m_generation = 0;
    bool m_reading = false;
    QFutureWatcher<Reopened> m_watcher;

    QLineEdit* m_fraction;
    QLineEdit* m_seed;
    QLabel* m_groupLabel;
    QComboBox* m_group;
    QLabel* m_refusal;
    QLabel* m_summary;
    QTableWidget* m_table;
    QLabel* m_fractionLabel;
    QLabel* m_seedLabel;
};

}  // namespace ts::ui

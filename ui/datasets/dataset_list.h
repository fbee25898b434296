// The datasets a workspace has seen (the store's catalog, store/dataset_catalog.h), newest
// first, with their format, size and splits; a double click (or Enter) asks to open one. The
// page remembers every dataset it opens (DatasetCatalog::remember) and hands the list here.
#pragma once

#include <QWidget>

#include <optional>
#include <vector>

#include "store/dataset_catalog.h"

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace ts::ui {

// The spec a record was opened with: its key holds the format, the path and the options that
// choose samples and labels (CSV columns, an image folder's shape: data/dataset.h's
// datasetKey); the path alone when the key cannot be read.
ts::DatasetSpec specOfRecord(const ts::DatasetRecord& record);

class DatasetList : public QWidget {
    Q_OBJECT
public:
    explicit DatasetList(QWidget* parent = nullptr);

    void setRecords(std::vector<ts::DatasetRecord> records);
    const std::vector<ts::DatasetRecord>& records() const { return m_records; }
    // Marks the dataset with this key as the one shown (none: empty).
    void setCurrentKey(const std::string& key);
    // Why the list cannot be read or written (the store's message); empty hides it.
    void setError(const QString& error);

    QTreeWidget* tree() const { return m_tree; }

signals:
    void openRequested(const ts::DatasetRecord& record);

private:
    std::vector<ts::DatasetRecord> m_records;
    std::string m_current;
    QTreeWidget* m_tree;
    QLabel* m_error;
};

}  // namespace ts::ui

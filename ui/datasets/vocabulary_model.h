// The vocabulary of a text dataset as a table (the Datasets page's Vocabulary tab, issue 40):
// one row per token id with its text (control characters visible), its id, how often it occurs
// in the training split and its share of the training tokens. Sorting (a QSortFilterProxyModel
// over it) uses the numbers, not their spelling: SortRole gives them raw.
#pragma once

#include <QAbstractTableModel>

#include <cstdint>
#include <vector>

namespace ts {
class Tokenizer;
}

namespace ts::ui {

class VocabularyModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { TokenColumn, IdColumn, CountColumn, ShareColumn, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit VocabularyModel(QObject* parent = nullptr);

    // The tokenizer's pieces (padding left out) with `counts` per id (empty: not counted yet).
    void setVocabulary(const ts::Tokenizer* tokenizer, std::vector<std::int64_t> counts);
    void clear();
    std::int64_t idAt(int row) const { return m_ids.at(std::size_t(row)); }
    std::int64_t countOf(std::int64_t id) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<std::int64_t> m_ids;     // the rows: every id but padding
    std::vector<QString> m_pieces;       // per row, as shown
    std::vector<std::int64_t> m_counts;  // per id
    std::int64_t m_total = 0;
};

}  // namespace ts::ui

#include "vocabulary_model.h"

#include "count_text.h"

#include <QLocale>

#include "data/tokenizer.h"
#include "token_text.h"

namespace ts::ui {

VocabularyModel::VocabularyModel(QObject* parent) : QAbstractTableModel(parent) {}

void VocabularyModel::setVocabulary(const ts::Tokenizer* tokenizer, std::vector<std::int64_t> counts)
{
    beginResetModel();
    m_ids.clear();
    m_pieces.clear();
    m_counts = std::move(counts);
    m_total = 0;
    for (const std::int64_t n : m_counts) m_total += n;
    if (tokenizer)
        for (std::int64_t id = 0; id < tokenizer->size(); ++id) {
            if (id == tokenizer->paddingId()) continue;
            m_ids.push_back(id);
            m_pieces.push_back(visibleToken(tokenizer->piece(id)));
        }
    endResetModel();
}

void VocabularyModel::clear() { setVocabulary(nullptr, {}); }

std::int64_t VocabularyModel::countOf(std::int64_t id) const
{
    return id >= 0 && id < std::int64_t(m_counts.size()) ? m_counts[std::size_t(id)] : 0;
}

int VocabularyModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(m_ids.size()); }

int VocabularyModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant VocabularyModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const std::size_t row = std::size_t(index.row());
    const std::int64_t id = m_ids[row];
    const bool counted = !m_counts.empty();
    const double share = m_total > 0 ? 100.0 * double(countOf(id)) / double(m_total) : 0.0;
    if (role == SortRole) {
        switch (index.column()) {
        case TokenColumn: return m_pieces[row];
        case IdColumn: return qlonglong(id);
        case CountColumn: return qlonglong(countOf(id));
        case ShareColumn: return share;
        default: return {};
        }
    }
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case TokenColumn: return m_pieces[row];
        case IdColumn: return countText(id);
        case CountColumn: return counted ? countText(countOf(id)) : QString();
        case ShareColumn: return counted ? QLocale().toString(share, 'f', share < 0.1 && share > 0 ? 3 : 2) + QLatin1Char('%') : QString();
        default: return {};
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() != TokenColumn) return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && index.column() == TokenColumn && counted && countOf(id) == 0)
        return tr("Never in the training split");
    return {};
}

QVariant VocabularyModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case TokenColumn: return tr("Token");
    case IdColumn: return tr("Id");
    case CountColumn: return tr("Count (train)");
    case ShareColumn: return tr("Share");
    default: return {};
    }
}

}  // namespace ts::ui

#include "text_sample_model.h"

#include "count_text.h"

#include "data/text_dataset.h"
#include "data/text_statistics.h"
#include "data/tokenizer.h"
#include "token_text.h"

namespace ts::ui {

TextSampleModel::TextSampleModel(SampleGridModel* samples, QObject* parent) : QAbstractTableModel(parent), m_samples(samples)
{
    connect(m_samples, &QAbstractItemModel::modelAboutToBeReset, this, [this] { beginResetModel(); });
    connect(m_samples, &QAbstractItemModel::modelReset, this, &TextSampleModel::onReset);
    connect(m_samples, &QAbstractItemModel::dataChanged, this, [this](const QModelIndex& from, const QModelIndex& to) {
        if (rowCount() > 0) emit dataChanged(index(from.row(), 0), index(to.row(), ColumnCount - 1));
    });
    refresh();
}

void TextSampleModel::refresh()
{
    m_cache.clear();
    const ts::Dataset* train = m_samples->dataset(SampleSource::Train);
    m_tokenizer = train ? ts::textTokenizer(*train) : nullptr;
    m_blocks = dynamic_cast<const ts::TextDataset*>(train) != nullptr;
}

void TextSampleModel::onReset()
{
    refresh();
    endResetModel();
}

const ts::Dataset* TextSampleModel::dataset(const GridSample& s) const { return m_samples->dataset(s.source); }

const TextSampleModel::Decoded& TextSampleModel::decoded(int row) const
{
    const GridSample s = m_samples->sampleAt(row);
    const qint64 key = qint64(s.source) * (qint64(1) << 40) + s.index;
    if (const Decoded* hit = m_cache.object(key)) return *hit;
    auto* d = new Decoded;
    try {
        const std::vector<std::int64_t> ids = ts::sampleTokens(*dataset(s), s.index, m_tokenizer->paddingId());
        d->tokens = std::int64_t(ids.size());
        d->text = QString::fromStdString(m_tokenizer->decode(ids));
    } catch (const std::exception& e) {
        d->text = QString::fromStdString(e.what());
    }
    m_cache.insert(key, d);
    return *m_cache.object(key);
}

QString TextSampleModel::text(int row) const { return hasText() ? decoded(row).text : QString(); }

std::int64_t TextSampleModel::tokenCount(int row) const { return hasText() ? decoded(row).tokens : 0; }

int TextSampleModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !hasText() ? 0 : m_samples->rowCount();
}

int TextSampleModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant TextSampleModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const GridSample s = m_samples->sampleAt(index.row());
    const int column = index.column();
    if (role == Qt::TextAlignmentRole && (column == SampleColumn || column == TokensColumn))
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::DisplayRole) {
        switch (column) {
        case SampleColumn: return countText(s.index);
        case SplitColumn: {
            const QString split = m_samples->splitOf(s);
            return split == QLatin1String("validation") ? tr("validation") : split == QLatin1String("test") ? tr("test") : tr("train");
        }
        case ClassColumn:
            if (m_blocks) {  // where the block starts: the file's name and line
                const QString source = QString::fromStdString(dataset(s)->sampleSource(s.index));
                return source.mid(source.lastIndexOf(QLatin1Char('/')) + 1);
            }
            return m_samples->className(m_samples->labelOf(s));
        case TokensColumn: return countText(decoded(index.row()).tokens);
        case TextColumn: return oneLineText(decoded(index.row()).text.left(1000));
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole && column == TextColumn) return decoded(index.row()).text.left(2000);
    if (role == Qt::ToolTipRole && column == ClassColumn && m_blocks)
        return QString::fromStdString(dataset(s)->sampleSource(s.index));
    return {};
}

QVariant TextSampleModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case SampleColumn: return tr("Sample");
    case SplitColumn: return tr("Split");
    case ClassColumn: return m_blocks ? tr("Starts at") : tr("Class");
    case TokensColumn: return tr("Tokens");
    case TextColumn: return tr("Text");
    default: return {};
    }
}

}  // namespace ts::ui

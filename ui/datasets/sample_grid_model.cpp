#include "sample_grid_model.h"

#include <QPainter>

#include <algorithm>

#include "thumbnail_cache.h"

namespace ts::ui {

QString sourceName(SampleSource source) { return source == SampleSource::Test ? QStringLiteral("test") : QStringLiteral("train"); }

std::optional<SampleSource> sourceFromName(const QString& name)
{
    if (name == QLatin1String("train")) return SampleSource::Train;
    if (name == QLatin1String("test")) return SampleSource::Test;
    return std::nullopt;
}

QString splitViewKey(SplitView view)
{
    switch (view) {
    case SplitView::All: return QStringLiteral("all");
    case SplitView::TrainingFiles: return QStringLiteral("files");
    case SplitView::Train: return QStringLiteral("train");
    case SplitView::Validation: return QStringLiteral("validation");
    case SplitView::Test: return QStringLiteral("test");
    }
    return {};
}

std::optional<SplitView> splitViewFromKey(const QString& key)
{
    for (SplitView v : {SplitView::All, SplitView::TrainingFiles, SplitView::Train, SplitView::Validation, SplitView::Test})
        if (splitViewKey(v) == key) return v;
    return std::nullopt;
}

SampleGridModel::SampleGridModel(ThumbnailLoader* loader, QObject* parent) : QAbstractListModel(parent), m_loader(loader)
{
    connect(m_loader, &ThumbnailLoader::thumbnailsReady, this, &SampleGridModel::onThumbnails);
}

void SampleGridModel::setDataset(std::shared_ptr<const ts::DatasetFiles> files, const ts::SplitIndices& split)
{
    m_files = std::move(files);
    m_names.clear();
    m_validation.clear();
    m_marks[0].clear();
    m_marks[1].clear();
    if (m_files && m_files->train) {
        for (const std::string& n : m_files->train->classNames()) m_names << QString::fromStdString(n);
        m_validation.assign(std::size_t(m_files->train->size()), 0);
        for (std::int64_t i : split.validation)
            if (i >= 0 && i < m_files->train->size()) m_validation[std::size_t(i)] = 1;
    }
    m_loader->setSources({m_files ? m_files->train : nullptr, m_files ? m_files->test : nullptr});
    m_filter = SampleFilter{};
    rebuild();
}

void SampleGridModel::clear() { setDataset(nullptr, {}); }

void SampleGridModel::setValidation(const ts::SplitIndices& split)
{
    if (!m_files || !m_files->train) return;
    m_validation.assign(std::size_t(m_files->train->size()), 0);
    for (std::int64_t i : split.validation)
        if (i >= 0 && i < m_files->train->size()) m_validation[std::size_t(i)] = 1;
    rebuild();
}

const ts::Dataset* SampleGridModel::dataset(SampleSource source) const
{
    if (!m_files) return nullptr;
    return source == SampleSource::Test ? m_files->test.get() : m_files->train.get();
}

QString SampleGridModel::className(std::int64_t c) const
{
    return c >= 0 && c < m_names.size() && !m_names[int(c)].isEmpty() ? m_names[int(c)] : QString::number(c);
}

bool SampleGridModel::isValidation(std::int64_t trainIndex) const
{
    return trainIndex >= 0 && std::size_t(trainIndex) < m_validation.size() && m_validation[std::size_t(trainIndex)];
}

bool SampleGridModel::inView(SplitView view, const GridSample& s) const
{
    switch (view) {
    case SplitView::All: return true;
    case SplitView::TrainingFiles: return s.source == SampleSource::Train;
    case SplitView::Train: return s.source == SampleSource::Train && !isValidation(s.index);
    case SplitView::Validation: return s.source == SampleSource::Train && isValidation(s.index);
    case SplitView::Test: return s.source == SampleSource::Test;
    }
    return false;
}

QString SampleGridModel::splitOf(const GridSample& s) const
{
    if (s.source == SampleSource::Test) return QStringLiteral("test");
    return isValidation(s.index) ? QStringLiteral("validation") : QStringLiteral("train");
}

std::int64_t SampleGridModel::labelOf(const GridSample& s) const
{
    const ts::Dataset* d = dataset(s.source);
    return d && s.index >= 0 && s.index < d->size() ? d->labels()[std::size_t(s.index)] : -1;
}

void SampleGridModel::rebuild()
{
    beginResetModel();
    m_rows.clear();
    m_rowOf.assign(2, {});
    const ts::Dataset* sources[2] = {dataset(SampleSource::Train), dataset(SampleSource::Test)};
    for (int s = 0; s < 2; ++s)
        if (sources[s]) m_rowOf[std::size_t(s)].assign(std::size_t(sources[s]->size()), -1);
    auto exists = [&](const GridSample& g) {
        const ts::Dataset* d = sources[int(g.source)];
        return d && g.index >= 0 && g.index < d->size();  // else a stale finding: nothing to show
    };
    auto add = [&](const GridSample& g) {
        if (!exists(g)) return;
        int& row = m_rowOf[std::size_t(g.source)][std::size_t(g.index)];
        if (row < 0) row = int(m_rows.size());  // listed twice (in two pairs): the first row is its row
        m_rows.push_back(g);
    };
    if (m_filter.samples && m_filter.pairs) {
        const auto& list = *m_filter.samples;
        for (std::size_t i = 0; i + 1 < list.size(); i += 2)
            if (exists(list[i]) && exists(list[i + 1])) add(list[i]), add(list[i + 1]);
    } else if (m_filter.samples) {
        for (const GridSample& g : *m_filter.samples) add(g);
    } else {
        for (int s = 0; s < 2; ++s) {
            if (!sources[s]) continue;
            const auto& labels = sources[s]->labels();
            for (std::int64_t i = 0; i < sources[s]->size(); ++i) {
                const GridSample g{SampleSource(s), i};
                if (inView(m_filter.split, g) && (m_filter.classIndex < 0 || labels[std::size_t(i)] == m_filter.classIndex)) add(g);
            }
        }
    }
    endResetModel();
}

void SampleGridModel::setFilter(const SampleFilter& filter)
{
    if (filter == m_filter) return;
    m_filter = filter;
    rebuild();
}

std::vector<std::int64_t> SampleGridModel::classCounts(SplitView view) const
{
    std::vector<std::int64_t> counts(std::size_t(m_names.size()), 0);
    for (int s = 0; s < 2; ++s) {
        const ts::Dataset* d = dataset(SampleSource(s));
        if (!d) continue;
        const auto& labels = d->labels();
        for (std::int64_t i = 0; i < d->size(); ++i) {
            const std::int64_t c = labels[std::size_t(i)];
            if (c >= 0 && std::size_t(c) < counts.size() && inView(view, {SampleSource(s), i})) ++counts[std::size_t(c)];
        }
    }
    return counts;
}

std::int64_t SampleGridModel::splitSize(SplitView view) const
{
    const auto counts = classCounts(view);
    std::int64_t n = 0;
    for (auto c : counts) n += c;
    return n;
}

void SampleGridModel::setMarks(std::unordered_map<std::int64_t, SampleMark> train, std::unordered_map<std::int64_t, SampleMark> test)
{
    m_marks[0] = std::move(train);
    m_marks[1] = std::move(test);
    if (!m_rows.empty()) emit dataChanged(index(0), index(rowCount() - 1), {Qt::DisplayRole, Qt::ToolTipRole, MarkedRole});
}

const SampleMark* SampleGridModel::mark(const GridSample& s) const
{
    const auto& marks = m_marks[int(s.source) & 1];
    const auto it = marks.find(s.index);
    return it == marks.end() ? nullptr : &it->second;
}

void SampleGridModel::setThumbnailSize(int pixels)
{
    if (pixels == m_edge) return;
    m_edge = pixels;
    if (!m_rows.empty()) emit dataChanged(index(0), index(rowCount() - 1), {Qt::DecorationRole});
}

int SampleGridModel::rowOf(const GridSample& s) const
{
    const auto src = std::size_t(s.source);
    if (src >= m_rowOf.size() || s.index < 0 || std::size_t(s.index) >= m_rowOf[src].size()) return -1;
    return m_rowOf[src][std::size_t(s.index)];
}

QString SampleGridModel::caption(const GridSample& s) const
{
    // No-break spaces keep "#1234" and "→ Coat" whole when the caption wraps.
    QString text = className(labelOf(s)) + QStringLiteral(" #") + QString::number(s.index);
    // Where training and test files mix (all samples, a leaked pair), say which file a test one is in.
    if (s.source == SampleSource::Test && (m_filter.samples || m_filter.split == SplitView::All))
        text += QLatin1Char(' ') + tr("(test)");
    if (const SampleMark* m = mark(s)) {
        if (m->excluded)
            text += QLatin1Char(' ') + tr("(excluded)");
        else if (m->relabel >= 0)
            text += QStringLiteral(" →\u00a0") + className(m->relabel);
        else if (m->predicted >= 0)
            text += QStringLiteral(" ?\u00a0") + className(m->predicted);
    }
    return text;
}

int SampleGridModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(m_rows.size()); }

QVariant SampleGridModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const GridSample& s = m_rows[std::size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole: return caption(s);
    case Qt::DecorationRole: {
        const Thumbnail* t = m_loader->find(int(s.source), s.index, m_edge);
        if (!t) return {};  // on its way: a blank cell until thumbnailsReady
        if (t->image.isNull()) return t->error.isEmpty() ? QVariant() : QVariant(brokenImage(m_loader->cacheEdge(int(s.source), m_edge)));
        return t->image;
    }
    case Qt::ToolTipRole: {
        QString tip = tr("Sample %1 of the %2 files (%3 split)\nClass: %4")
                          .arg(s.index)
                          .arg(sourceName(s.source), splitOf(s), className(labelOf(s)));
        if (const SampleMark* m = mark(s)) {
            if (m->predicted >= 0)
                tip += QLatin1Char('\n') + tr("The model predicts %1 (%2 %)").arg(className(m->predicted)).arg(qRound(m->confidence * 100));
            if (m->excluded) tip += QLatin1Char('\n') + tr("Excluded from training");
            if (m->relabel >= 0) tip += QLatin1Char('\n') + tr("Relabelled to %1").arg(className(m->relabel));
        }
        if (const ts::Dataset* d = dataset(s.source); d && s.index >= 0 && s.index < d->size())
            if (const std::string from = d->sampleSource(s.index); !from.empty())  // the image file, or the IDX file and item
                tip += QLatin1Char('\n') + tr("From: %1").arg(QString::fromStdString(from));
        if (const Thumbnail* t = m_loader->cached(int(s.source), s.index, m_edge); t && !t->error.isEmpty())
            tip += QLatin1Char('\n') + t->error;
        return tip;
    }
    case SourceRole: return int(s.source);
    case IndexRole: return qint64(s.index);
    case LabelRole: return qint64(labelOf(s));
    case SplitRole: return splitOf(s);
    case ErrorRole: {
        const Thumbnail* t = m_loader->cached(int(s.source), s.index, m_edge);
        return t ? t->error : QString();
    }
    case MarkedRole: {
        const SampleMark* m = mark(s);
        return m && (m->excluded || m->relabel >= 0);
    }
    default: return {};
    }
}

void SampleGridModel::onThumbnails(const QVector<QPair<int, qint64>>& samples)
{
    int lo = -1, hi = -1;
    for (const auto& [source, sample] : samples) {
        const int row = rowOf({SampleSource(source), sample});
        if (row < 0) continue;
        lo = lo < 0 ? row : std::min(lo, row);
        hi = std::max(hi, row);
    }
    if (lo < 0) return;
    if (m_filter.samples) lo = 0, hi = rowCount() - 1;  // a given list may hold a sample twice (two pairs)
    emit dataChanged(index(lo), index(hi), {Qt::DecorationRole});
}

QImage SampleGridModel::brokenImage(int edge)
{
    edge = std::max(edge, 12);
    QImage image(edge, edge, QImage::Format_RGB888);
    image.fill(QColor(250, 235, 235));
    QPainter p(&image);
    p.setPen(QPen(QColor(200, 40, 40), std::max(1, edge / 14)));
    const int m = edge / 4;
    p.drawLine(m, m, edge - m, edge - m);
    p.drawLine(edge - m, m, m, edge - m);
    p.drawRect(0, 0, edge - 1, edge - 1);
    return image;
}

}  // namespace ts::ui

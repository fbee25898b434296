#include "statistics_panel.h"

#include "count_text.h"

#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <cmath>

#include "data/csv_dataset.h"
#include "data/image_folder_dataset.h"
#include "statistics_histogram.h"

namespace ts::ui {

namespace {


const ImageFolderDataset* imageFolder(const std::shared_ptr<const Dataset>& d)
{
    return dynamic_cast<const ImageFolderDataset*>(d.get());
}

// Text data: samples of token ids, whose per-channel mean and deviation mean nothing.
bool tokens(const DatasetFiles& files)
{
    return files.train && files.train->inputDType() == DType::I64;
}

}  // namespace

StatisticsPanel::StatisticsPanel(QWidget* parent) : QWidget(parent)
{
    m_title = new QLabel(this);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_histogram = new StatisticsHistogram(this);
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_channelsTitle = new QLabel(this);
    m_channelsTitle->setWordWrap(true);
    m_channels = new QTableWidget(0, 3, this);
    m_channels->verticalHeader()->setVisible(false);
    m_channels->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_channels->setSelectionMode(QAbstractItemView::NoSelection);
    m_channels->setFocusPolicy(Qt::NoFocus);
    m_channels->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_channels->horizontalHeader()->setStretchLastSection(true);
    m_channels->setMaximumHeight(160);
    m_sizesLabel = new QLabel(this);
    m_sizesLabel->setObjectName(QStringLiteral("imageSizes"));
    m_sizesLabel->setWordWrap(true);
    m_sizesLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addWidget(m_histogram, 1);
    layout->addWidget(m_summary);
    layout->addWidget(m_channelsTitle);
    layout->addWidget(m_channels);
    layout->addWidget(m_sizesLabel);
    layout->addWidget(m_status);

    connect(m_histogram, &StatisticsHistogram::barClicked, this, [this](int split, int c) {
        if (split >= 0 && split < int(m_counts.size()))
            emit classClicked(QString::fromStdString(m_counts[std::size_t(split)].split), c);
    });
    connect(&m_watcher, &QFutureWatcher<Computed>::finished, this, &StatisticsPanel::onComputed);
    retranslate();
}

StatisticsPanel::~StatisticsPanel() = default;  // a running worker keeps its own copies and ends alone

QStringList StatisticsPanel::splits() const
{
    QStringList out;
    for (const auto& s : m_counts) out << QString::fromStdString(s.split);
    return out;
}

namespace {
// What changes the splits' samples or the training statistics (not augmentation or the loader).
bool sameSplits(const DatasetSpec& a, const DatasetSpec& b)
{
    return a.format == b.format && a.path == b.path && a.validationFraction == b.validationFraction &&
           a.splitSeed == b.splitSeed && a.groupColumn == b.groupColumn && a.labelColumn == b.labelColumn &&
           a.featureColumns == b.featureColumns && a.imageShape == b.imageShape && a.resize == b.resize;
}
}  // namespace

void StatisticsPanel::setData(std::shared_ptr<const DatasetFiles> files, const DatasetSpec& spec)
{
    if (files && files == m_files && sameSplits(spec, m_spec)) {  // an augmentation edit: nothing to count again
        m_spec = spec;
        return;
    }
    ++m_generation;
    m_computing = false;
    m_files = std::move(files);
    m_spec = spec;
    m_stats.reset();
    m_sizes.reset();
    m_statsError.clear();
    m_countError.clear();
    m_counts.clear();
    m_classNames.clear();
    m_featureNames.clear();
    if (m_files && m_files->train) {
        for (const auto& n : m_files->train->classNames()) m_classNames << QString::fromStdString(n);
        if (const auto* csv = dynamic_cast<const CsvDataset*>(m_files->train.get()))
            for (const auto& n : csv->featureNames()) m_featureNames << QString::fromStdString(n);
        try {
            m_counts = splitClassCounts(*m_files, m_spec);
        } catch (const std::exception& e) {
            m_countError = QString::fromStdString(e.what());
        }
        startWorker();
    }
    showCounts();
    showStatistics();
    showImageSizes();
}

void StatisticsPanel::setTrainStatistics(const DatasetStatistics& stats)
{
    m_stats = stats;
    m_statsError.clear();
    showStatistics();
}

void StatisticsPanel::startWorker()
{
    const bool wantSizes = imageFolder(m_files->train) != nullptr;
    if (!m_countError.isEmpty() && !wantSizes) return;  // openDataset would refuse the same spec
    if (tokens(*m_files)) return;  // a token id's mean says nothing: the Lengths and Vocabulary tabs count text
    m_status->setText(tr("Computing statistics…"));
    m_computing = true;
    const std::string cacheDir = m_cacheDir.isEmpty() ? defaultCacheDirectory() : m_cacheDir.toStdString();
    const bool wantStats = m_countError.isEmpty();
    m_watcher.setFuture(QtConcurrent::run([files = m_files, spec = m_spec, cacheDir, wantStats, wantSizes,
                                           generation = m_generation]() {
        Computed out;
        out.generation = generation;
        if (wantStats) {
            try {
                DatasetSpec s = spec;
                s.path = files->path;  // already resolved
                s.cache = false;       // the decoded-sample cache is training's
                out.stats = openDataset(s, std::string(), cacheDir).trainStatistics;
            } catch (const std::exception& e) {
                out.error = QString::fromStdString(e.what());
            }
        }
        if (wantSizes) {
            std::vector<std::string> all = imageFolder(files->train)->files();
            if (const auto* test = imageFolder(files->test)) all.insert(all.end(), test->files().begin(), test->files().end());
            out.sizes = imageSizeDistribution(all);
        }
        return out;
    }));
}

void StatisticsPanel::onComputed()
{
    const Computed result = m_watcher.result();
    if (result.generation != m_generation) return;  // for data replaced since
    m_computing = false;
    if (!m_stats) m_stats = result.stats;
    m_statsError = result.error;
    m_sizes = result.sizes;
    m_status->clear();
    showStatistics();
    showImageSizes();
    emit statisticsChanged();
}

void StatisticsPanel::showCounts()
{
    if (!m_files || !m_files->train) {
        m_histogram->clearCounts();
        m_title->setText(tr("No dataset open"));
        m_summary->clear();
        return;
    }
    m_title->setText(tr("Class distribution of %1").arg(QString::fromStdString(m_files->name)));
    m_histogram->setCounts(m_counts, m_classNames);
    if (!m_countError.isEmpty()) {
        m_summary->setText(m_countError);
        return;
    }
    QStringList lines;
    for (const auto& s : m_counts) {
        const QString split = StatisticsHistogram::splitTitle(s.split);
        const double ratio = imbalanceRatio(s.counts);
        const auto name = [&](std::size_t c) { return int(c) < m_classNames.size() ? m_classNames[int(c)] : QString::number(c); };
        std::size_t lo = 0, hi = 0;
        for (std::size_t c = 0; c < s.counts.size(); ++c) {
            if (s.counts[c] < s.counts[lo]) lo = c;
            if (s.counts[c] > s.counts[hi]) hi = c;
        }
        if (std::isnan(ratio))
            lines << tr("%1: %2 samples").arg(split, countText(s.total));
        else if (std::isinf(ratio))
            lines << tr("%1: %2 samples; class %3 has none (imbalance ratio infinite)").arg(split, countText(s.total), name(lo));
        else
            lines << tr("%1: %2 samples; imbalance ratio %3 (largest class %4: %5, smallest %6: %7)")
                         .arg(split, countText(s.total), QLocale().toString(ratio, 'f', 2), name(hi), countText(s.counts[hi]),
                              name(lo), countText(s.counts[lo]));
    }
    m_summary->setText(lines.join('\n'));
}

void StatisticsPanel::showStatistics()
{
    m_channels->setRowCount(0);
    const bool any = m_files && m_files->train;
    m_channels->setVisible(any && m_stats.has_value());
    if (!any || tokens(*m_files)) {
        m_channels->hide();
        m_channelsTitle->clear();
        return;
    }
    if (!m_stats) {
        m_channelsTitle->setText(m_statsError.isEmpty() ? tr("Per-channel mean and standard deviation: computing…")
                                                        : tr("No statistics: %1").arg(m_statsError));
        return;
    }
    const std::int64_t trainSamples = m_counts.empty() ? 0 : m_counts.front().total;
    const bool table = !m_featureNames.isEmpty();
    m_channelsTitle->setText(
        (table ? tr("Per-feature mean and standard deviation of the training split (%1 samples), as "
                    "normalize_from_statistics uses them")
               : tr("Per-channel mean and standard deviation of the training split (%1 samples), as "
                    "normalize_from_statistics uses them"))
            .arg(countText(trainSamples)));
    const auto& st = *m_stats;
    m_channels->setHorizontalHeaderLabels({table ? tr("Feature") : tr("Channel"), tr("Mean"), tr("Standard deviation")});
    m_channels->setRowCount(int(st.mean.size()));
    static const char* const kRgb[] = {QT_TR_NOOP("Red"), QT_TR_NOOP("Green"), QT_TR_NOOP("Blue")};
    for (int c = 0; c < int(st.mean.size()); ++c) {
        QString name = table && c < m_featureNames.size() ? m_featureNames[c]
                     : st.mean.size() == 3                 ? tr(kRgb[c])
                     : st.mean.size() == 1                 ? tr("Gray")
                                                           : QString::number(c);
        const double sd = c < int(st.stddev.size()) ? st.stddev[std::size_t(c)] : std::nan("");
        m_channels->setItem(c, 0, new QTableWidgetItem(name));
        m_channels->setItem(c, 1, new QTableWidgetItem(QLocale().toString(st.mean[std::size_t(c)], 'f', 4)));
        m_channels->setItem(c, 2, new QTableWidgetItem(QLocale().toString(sd, 'f', 4)));
    }
    // Tall enough for three channels without a scroll bar; a table's features scroll.
    const int rows = std::min<int>(int(st.mean.size()), 5);
    m_channels->setFixedHeight(m_channels->horizontalHeader()->sizeHint().height() +
                               rows * m_channels->verticalHeader()->defaultSectionSize() + 2 * m_channels->frameWidth() + 2);
}

void StatisticsPanel::showImageSizes()
{
    // Not isVisible(): that is false while the tab is not shown, and the text was then never set
    // (issue 44: the Statistics tab showed no sizes for an image folder opened from another tab).
    const bool folder = m_files && imageFolder(m_files->train);
    m_sizesLabel->setVisible(folder);
    if (!folder) return;
    if (!m_sizes) {
        m_sizesLabel->setText(tr("Original image sizes: reading…"));
        return;
    }
    const auto& d = *m_sizes;
    QString text = d.looked == d.files ? tr("Original image sizes of all %1 files:").arg(countText(d.files))
                                       : tr("Original image sizes of %1 of the %2 files, evenly spread:")
                                             .arg(countText(d.looked), countText(d.files));
    std::vector<std::pair<std::int64_t, std::pair<int, int>>> bySize;
    for (const auto& [size, n] : d.counts) bySize.push_back({n, size});
    std::sort(bySize.begin(), bySize.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    QStringList parts;
    for (std::size_t i = 0; i < bySize.size() && i < 6; ++i)
        parts << tr("%1×%2: %3").arg(bySize[i].second.first).arg(bySize[i].second.second).arg(countText(bySize[i].first));
    if (bySize.size() > 6) parts << tr("%1 other sizes").arg(countText(std::int64_t(bySize.size() - 6)));
    text += ' ' + parts.join(QStringLiteral("; "));
    if (!d.counts.empty())
        text += '\n' + tr("Widths %1 to %2, heights %3 to %4 pixels; an image of another size becomes %5 for training "
                           "(dataset.resize: %6).")
                           .arg(d.minWidth).arg(d.maxWidth).arg(d.minHeight).arg(d.maxHeight)
                           .arg(QString::fromStdString(m_files->train->sampleShape().str()), QString::fromStdString(m_spec.resize));
    if (d.unreadable > 0)
        text += '\n' + tr("%1 files are not readable images (PNG, JPEG, WebP, TIFF, BMP or GIF).").arg(countText(d.unreadable));
    m_sizesLabel->setText(text);
}

void StatisticsPanel::retranslate()
{
    showCounts();
    showStatistics();
    showImageSizes();
    if (m_computing) m_status->setText(tr("Computing statistics…"));
}

void StatisticsPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) retranslate();
}

}  // namespace ts::ui

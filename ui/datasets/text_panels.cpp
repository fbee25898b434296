#include "text_panels.h"

#include "count_text.h"

#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPromise>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

#include "data/text_dataset.h"
#include "data/tokenizer.h"
#include "statistics_histogram.h"
#include "text_sample_detail.h"
#include "vocabulary_model.h"

namespace ts::ui {

namespace {

QProgressBar* newProgressBar()
{
    auto* bar = new QProgressBar;
    bar->setTextVisible(false);
    bar->hide();
    return bar;
}

QLabel* newWrappedLabel()
{
    auto* label = new QLabel;
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

std::int64_t median(std::vector<std::int64_t> v)
{
    if (v.empty()) return 0;
    auto mid = v.begin() + std::ptrdiff_t(v.size() / 2);
    std::nth_element(v.begin(), mid, v.end());
    return *mid;
}

// Counts one split part: its tokens, then its lengths; progress in samples, both passes.
void countPart(QPromise<TextCounted>& promise, const ts::Dataset& data, const std::vector<std::int64_t>& indices,
               std::int64_t vocabulary, std::int64_t padding, std::int64_t& done, ts::TokenCounts& counts,
               std::vector<std::int64_t>& lengths)
{
    const std::int64_t before = done;
    auto progress = [&](std::int64_t n) {
        promise.setProgressValue(int(before + n));
        return !promise.isCanceled();
    };
    counts = ts::countTokens(data, indices, vocabulary, padding, progress);
    done += std::int64_t(indices.size());
    const std::int64_t middle = done;
    lengths = ts::textLengths(data, indices, [&](std::int64_t n) {
        promise.setProgressValue(int(middle + n));
        return !promise.isCanceled();
    });
    done += std::int64_t(indices.size());
}

}  // namespace

TextPanels::TextPanels(QObject* parent) : QObject(parent)
{
    m_detail = new TextSampleDetail;

    m_lengths = new QWidget;
    m_lengths->setObjectName(QStringLiteral("textLengths"));
    m_lengthsTitle = new QLabel;
    QFont bold = m_lengthsTitle->font();
    bold.setBold(true);
    m_lengthsTitle->setFont(bold);
    m_lengthsTitle->setWordWrap(true);
    m_histogram = new StatisticsHistogram;
    m_histogram->setObjectName(QStringLiteral("lengthHistogram"));
    m_lengthsSummary = newWrappedLabel();
    m_lengthsSummary->setObjectName(QStringLiteral("lengthsSummary"));
    m_progress = newProgressBar();
    auto* lengths = new QVBoxLayout(m_lengths);
    lengths->addWidget(m_lengthsTitle);
    lengths->addWidget(m_progress);
    lengths->addWidget(m_histogram, 1);
    lengths->addWidget(m_lengthsSummary);

    m_vocabulary = new QWidget;
    m_vocabulary->setObjectName(QStringLiteral("vocabulary"));
    m_vocabularySummary = newWrappedLabel();
    m_vocabularySummary->setObjectName(QStringLiteral("vocabularySummary"));
    m_vocabularyModel = new VocabularyModel(this);
    m_vocabularySorted = new QSortFilterProxyModel(this);
    m_vocabularySorted->setSourceModel(m_vocabularyModel);
    m_vocabularySorted->setSortRole(VocabularyModel::SortRole);
    m_vocabularyView = new QTableView;
    m_vocabularyView->setObjectName(QStringLiteral("vocabularyTable"));
    m_vocabularyView->setModel(m_vocabularySorted);
    m_vocabularyView->setSortingEnabled(true);
    m_vocabularyView->sortByColumn(VocabularyModel::IdColumn, Qt::AscendingOrder);
    m_vocabularyView->verticalHeader()->hide();
    m_vocabularyView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_vocabularyView->verticalHeader()->setDefaultSectionSize(m_vocabularyView->fontMetrics().lineSpacing() + 6);
    m_vocabularyView->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_vocabularyView->setToolTip(tr("Click a column's header to sort by it"));
    auto* vocabulary = new QVBoxLayout(m_vocabulary);
    vocabulary->addWidget(m_vocabularySummary);
    vocabulary->addWidget(m_vocabularyView, 1);

    connect(&m_watcher, &QFutureWatcher<TextCounted>::finished, this, &TextPanels::onCounted);
    connect(&m_watcher, &QFutureWatcher<TextCounted>::progressRangeChanged, m_progress, &QProgressBar::setRange);
    connect(&m_watcher, &QFutureWatcher<TextCounted>::progressValueChanged, m_progress, &QProgressBar::setValue);
    connect(m_histogram, &StatisticsHistogram::barClicked, this, &TextPanels::onBarClicked);
    retranslate();
}

// A worker still running keeps its own copies and ends alone; its result is dropped.
TextPanels::~TextPanels()
{
    m_watcher.cancel();
}

void TextPanels::setData(std::shared_ptr<const ts::DatasetFiles> files, const ts::SplitIndices& split, const ts::DatasetSpec& spec)
{
    if (files == m_files && split.train == m_split.train && split.validation == m_split.validation) return;
    ++m_generation;
    m_watcher.cancel();
    m_files = std::move(files);
    m_split = split;
    m_spec = spec;
    m_counted.reset();
    m_counting = false;
    m_tokenizer = m_files && m_files->train ? ts::textTokenizer(*m_files->train) : nullptr;
    m_blocks = m_tokenizer && dynamic_cast<const ts::TextDataset*>(m_files->train.get()) != nullptr;
    m_detail->clear();
    m_vocabularyModel->setVocabulary(m_tokenizer, {});
    m_histogram->setCounted(m_blocks ? StatisticsHistogram::Counted::Lines : StatisticsHistogram::Counted::Samples);
    if (m_tokenizer) startCounting();
    retranslate();
}

void TextPanels::startCounting()
{
    m_counting = true;
    const std::int64_t total = 2 * std::int64_t(m_split.train.size() + m_split.validation.size());
    m_progress->setRange(0, int(std::max<std::int64_t>(total, 1)));
    m_progress->setValue(0);
    m_progress->show();
    const std::int64_t vocabulary = m_tokenizer->size(), padding = m_tokenizer->paddingId();
    m_watcher.setFuture(QtConcurrent::run(
        [files = m_files, split = m_split, vocabulary, padding, total, generation = m_generation](QPromise<TextCounted>& promise) {
            TextCounted out;
            out.generation = generation;
            promise.setProgressRange(0, int(std::max<std::int64_t>(total, 1)));
            std::int64_t done = 0;
            try {
                countPart(promise, *files->train, split.train, vocabulary, padding, done, out.train, out.trainLengths);
                countPart(promise, *files->train, split.validation, vocabulary, padding, done, out.validation,
                          out.validationLengths);
            } catch (const std::exception& e) {
                out.error = QString::fromStdString(e.what());
            }
            promise.addResult(std::move(out));
        }));
}

void TextPanels::onCounted()
{
    if (m_watcher.isCanceled() || m_watcher.future().resultCount() == 0) return;
    TextCounted result = m_watcher.result();
    if (result.generation != m_generation) return;  // for data replaced since
    m_counting = false;
    m_progress->hide();
    m_counted = std::move(result);
    m_vocabularyModel->setVocabulary(m_tokenizer, m_counted->train.perId);
    retranslate();
    emit countsChanged();
}

void TextPanels::retranslate()
{
    showLengths();
    showVocabulary();
}

void TextPanels::showLengths()
{
    if (!m_tokenizer) {
        m_lengthsTitle->setText(tr("No text dataset open"));
        m_histogram->clearCounts();
        m_lengthsSummary->clear();
        return;
    }
    const std::int64_t context = m_files->train->sampleShape().numel();
    m_lengthsTitle->setText(m_blocks ? tr("Lengths of the text's lines in tokens") : tr("Lengths of the texts in tokens"));
    if (!m_counted) {
        m_histogram->clearCounts();
        m_lengthsSummary->setText(tr("Counting tokens…"));
        return;
    }
    if (!m_counted->error.isEmpty()) {
        m_histogram->clearCounts();
        m_lengthsSummary->setText(tr("The tokens cannot be counted: %1").arg(m_counted->error));
        return;
    }
    // Bins up to the context, and one more for what is longer: the texts the context cuts (a
    // language model's lines that no block holds whole).
    m_bins = ts::binLengths(m_counted->trainLengths, context, ts::lengthBinWidth(context, 16));
    const ts::LengthBins validation = ts::binLengths(m_counted->validationLengths, context, m_bins.width);
    QStringList names;
    for (std::size_t b = 0; b < m_bins.counts.size(); ++b)
        names << (m_bins.first(b) == m_bins.last(b) ? countText(m_bins.last(b))
                                                    : QStringLiteral("%1–%2").arg(countText(m_bins.first(b)), countText(m_bins.last(b))));
    names << tr("> %1").arg(countText(context));
    auto part = [&](const char* name, const ts::LengthBins& bins, std::size_t total) {
        SplitClassCounts c;
        c.split = name;
        c.counts = bins.counts;
        c.counts.push_back(bins.over);
        c.total = std::int64_t(total);
        return c;
    };
    std::vector<SplitClassCounts> parts{part("train", m_bins, m_counted->trainLengths.size())};
    if (!m_counted->validationLengths.empty()) parts.push_back(part("validation", validation, m_counted->validationLengths.size()));
    m_histogram->setCounts(parts, names);
    // The context, between the last bin it holds and the bin of what it cuts.
    m_histogram->clearItems();
    auto* line = new QCPItemStraightLine(m_histogram);
    const double at = double(m_bins.counts.size()) - 0.5;
    line->point1->setCoords(at, 0);
    line->point2->setCoords(at, 1);
    line->setPen(QPen(m_histogram->palette().color(QPalette::WindowText), 1, Qt::DashLine));
    auto* label = new QCPItemText(m_histogram);
    label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    label->position->setCoords(at, 0.02);
    label->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
    label->setPadding(QMargins(0, 0, 4, 0));
    label->setColor(m_histogram->palette().color(QPalette::WindowText));
    label->setText(tr("context %1").arg(countText(context)));
    m_histogram->replot();

    QStringList lines;
    auto describe = [&](const QString& split, const std::vector<std::int64_t>& lengths, std::int64_t over) {
        if (lengths.empty()) return;
        const auto [lo, hi] = std::minmax_element(lengths.begin(), lengths.end());
        const double share = 100.0 * double(over) / double(lengths.size());
        if (m_blocks)
            lines << tr("%1: %2 lines of %3 to %4 tokens (median %5); %6 (%7%) are longer than a block.")
                         .arg(split, countText(std::int64_t(lengths.size())), countText(*lo), countText(*hi),
                              countText(median(lengths)), countText(over), QLocale().toString(share, 'f', 1));
        else
            lines << tr("%1: %2 texts of %3 to %4 tokens (median %5); %6 (%7%) are longer than the context and cut.")
                         .arg(split, countText(std::int64_t(lengths.size())), countText(*lo), countText(*hi),
                              countText(median(lengths)), countText(over), QLocale().toString(share, 'f', 1));
    };
    if (m_blocks) {
        const auto* lm = static_cast<const ts::TextDataset*>(m_files->train.get());
        lines << tr("Every block has %1 tokens (dataset.context): the text's %2 tokens make %3 blocks, each read whole; the "
                    "histogram shows how long its lines are.")
                     .arg(countText(context), countText(lm->tokenCount()), countText(lm->size()));
    } else {
        lines << tr("Every text is padded with token 0 or cut to %1 tokens (dataset.context).").arg(countText(context));
    }
    describe(StatisticsHistogram::splitTitle("train"), m_counted->trainLengths, m_bins.over);
    describe(StatisticsHistogram::splitTitle("validation"), m_counted->validationLengths, validation.over);
    if (!m_blocks) lines << tr("Click a bar to list its texts.");
    m_lengthsSummary->setText(lines.join(QLatin1Char('\n')));
}

void TextPanels::showVocabulary()
{
    if (!m_tokenizer) {
        m_vocabularySummary->setText(tr("No text dataset open"));
        return;
    }
    const std::int64_t ids = m_tokenizer->size() - (m_tokenizer->paddingId() >= 0 ? 1 : 0);
    const QString kind = QString::fromStdString(m_tokenizer->kind());
    QString text = m_tokenizer->paddingId() >= 0
                       ? tr("%1 tokens in the vocabulary (tokenizer: %2), and id %3 for padding.")
                             .arg(countText(ids), kind, countText(m_tokenizer->paddingId()))
                       : tr("%1 tokens in the vocabulary (tokenizer: %2).").arg(countText(ids), kind);
    if (!m_counted || !m_counted->error.isEmpty()) {
        m_vocabularySummary->setText(text + QLatin1Char('\n') + (m_counted ? m_counted->error : tr("Counting tokens…")));
        return;
    }
    const ts::TokenCounts& train = m_counted->train;
    std::int64_t used = 0;
    for (const std::int64_t n : train.perId) used += n > 0;
    text += QLatin1Char('\n') + tr("The training split has %1 tokens; %2 of the %3 tokens occur in it, and the %4 most "
                                   "frequent make up 90% of it.")
                                    .arg(countText(train.tokens), countText(used), countText(ids),
                                         countText(ts::idsCovering(train.perId, 0.9)));
    const ts::TokenCounts& validation = m_counted->validation;
    if (validation.tokens > 0) {
        std::int64_t unseen = 0;
        for (std::size_t id = 0; id < validation.perId.size(); ++id)
            if (id < train.perId.size() && train.perId[id] == 0) unseen += validation.perId[id];
        text += QLatin1Char('\n') + tr("Of the validation split's %1 tokens, %2 (%3%) never occur in training.")
                                       .arg(countText(validation.tokens), countText(unseen),
                                            QLocale().toString(100.0 * double(unseen) / double(validation.tokens), 'f', 2));
    }
    m_vocabularySummary->setText(text);
}

void TextPanels::onBarClicked(int split, int bin)
{
    if (m_blocks || !m_counted || split < 0 || split > 1) return;  // a line is no sample to list
    const std::vector<std::int64_t>& indices = split == 0 ? m_split.train : m_split.validation;
    const std::vector<std::int64_t>& lengths = split == 0 ? m_counted->trainLengths : m_counted->validationLengths;
    const bool over = bin >= int(m_bins.counts.size());
    const std::int64_t first = over ? m_bins.limit + 1 : m_bins.first(std::size_t(bin));
    const std::int64_t last = over ? std::numeric_limits<std::int64_t>::max() : m_bins.last(std::size_t(bin));
    std::vector<GridSample> samples;
    for (std::size_t i = 0; i < lengths.size() && i < indices.size(); ++i)
        if (lengths[i] >= first && lengths[i] <= last) samples.push_back({SampleSource::Train, indices[i]});
    const QString splitName = StatisticsHistogram::splitTitle(split == 0 ? "train" : "validation");
    const QString title = over ? tr("%1 texts longer than %2 tokens").arg(splitName, countText(m_bins.limit))
                               : tr("%1 texts of %2 to %3 tokens").arg(splitName, countText(first), countText(last));
    emit showSamples(title, std::move(samples));
}

}  // namespace ts::ui

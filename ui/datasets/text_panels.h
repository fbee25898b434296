// The Datasets page's panels for text data (issue 40): Tokens (one sample's tokenisation,
// TextSampleDetail), Lengths (a histogram of text lengths in tokens per split, the context
// marked and the texts it cuts counted; for a language model, whose blocks all have `context`
// tokens, the lengths of the text's lines) and Vocabulary (every token with its id and count in
// the training split, sortable, with the vocabulary's size and how much of it the training split
// covers).
//
// Counting reads every sample (2.5 MB of fortunes: a fraction of a second, longer for bigger
// texts), so it runs on QtConcurrent's pool with a progress bar, like the statistics panel's
// worker; the UI never waits, and a result for data replaced since is dropped.
#pragma once

#include <QFutureWatcher>
#include <QObject>

#include <memory>
#include <vector>

#include "data/dataset.h"
#include "data/subset_dataset.h"
#include "data/text_statistics.h"
#include "sample_grid_model.h"

class QLabel;
class QProgressBar;
class QSortFilterProxyModel;
class QTableView;
class QWidget;

namespace ts::ui {

class StatisticsHistogram;
class TextSampleDetail;
class VocabularyModel;

// What the worker counted, per split part of the training files.
struct TextCounted {
    ts::TokenCounts train, validation;
    // Per text of the split (text_folder, in the order of the split's indices), or per line of
    // its blocks (text).
    std::vector<std::int64_t> trainLengths, validationLengths;
    QString error;
    int generation = 0;
};

class TextPanels : public QObject {
    Q_OBJECT
public:
    explicit TextPanels(QObject* parent = nullptr);
    ~TextPanels() override;

    // The opened files and their split (validation carved as training will). Data that is not
    // text clears the panels. Counting starts at once.
    void setData(std::shared_ptr<const ts::DatasetFiles> files, const ts::SplitIndices& split, const ts::DatasetSpec& spec);
    bool hasText() const { return m_tokenizer != nullptr; }
    bool isLanguageModel() const { return m_blocks; }
    bool isCounting() const { return m_counting; }
    const std::optional<TextCounted>& counted() const { return m_counted; }

    // The tabs' widgets (the page adds them; they are deleted with it).
    TextSampleDetail* detail() const { return m_detail; }
    QWidget* lengthsPanel() const { return m_lengths; }
    QWidget* vocabularyPanel() const { return m_vocabulary; }
    StatisticsHistogram* histogram() const { return m_histogram; }
    const ts::LengthBins& bins() const { return m_bins; }  // the histogram's bins (limit: the context)
    QLabel* lengthsSummary() const { return m_lengthsSummary; }
    QLabel* vocabularySummary() const { return m_vocabularySummary; }
    QTableView* vocabularyView() const { return m_vocabularyView; }
    VocabularyModel* vocabularyModel() const { return m_vocabularyModel; }
    QProgressBar* progress() const { return m_progress; }

    void retranslate();

signals:
    void countsChanged();  // counting finished (or failed)
    // A length bar was clicked: the texts of that split in that bin, for the page's list.
    void showSamples(const QString& title, std::vector<GridSample> samples);

private:
    void startCounting();
    void onCounted();
    void showLengths();
    void showVocabulary();
    void onBarClicked(int split, int bin);

    std::shared_ptr<const ts::DatasetFiles> m_files;
    ts::SplitIndices m_split;
    ts::DatasetSpec m_spec;
    const ts::Tokenizer* m_tokenizer = nullptr;
    bool m_blocks = false;
    std::optional<TextCounted> m_counted;
    ts::LengthBins m_bins;
    int m_generation = 0;
    bool m_counting = false;
    QFutureWatcher<TextCounted> m_watcher;

    TextSampleDetail* m_detail;
    QWidget* m_lengths;
    QWidget* m_vocabulary;
    QLabel* m_lengthsTitle;
    StatisticsHistogram* m_histogram;
    QLabel* m_lengthsSummary;
    QProgressBar* m_progress;
    QLabel* m_vocabularySummary;
    QTableView* m_vocabularyView;
    VocabularyModel* m_vocabularyModel;
    QSortFilterProxyModel* m_vocabularySorted;
};

}  // namespace ts::ui

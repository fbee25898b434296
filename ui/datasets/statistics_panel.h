// The Datasets page's Statistics panel (issue 14 item 3): the class histogram per split
// (train / validation as the experiment carves it / test; a click on a bar emits
// classClicked, the page filters the grid), the imbalance ratio per split (largest class /
// smallest class), the training split's per-channel mean and standard deviation, and for
// image folders the distribution of the files' original sizes.
//
// Class counts come from the labels at once (split_counts.h). The statistics are the
// engine's cached ones, the very numbers normalize_from_statistics trains with: a worker
// thread opens the dataset with openDataset (which loads them from the cache, or computes
// and caches them on a first open), unless the page hands them over with
// setTrainStatistics. Image sizes are read from file headers on the same worker.
#pragma once

#include <QFutureWatcher>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

#include "data/dataset.h"
#include "split_counts.h"
#include "statistics_image_sizes.h"

class QLabel;
class QTableWidget;

namespace ts::ui {

class StatisticsHistogram;

class StatisticsPanel : public QWidget {
    Q_OBJECT
public:
    explicit StatisticsPanel(QWidget* parent = nullptr);
    ~StatisticsPanel() override;

    // The opened dataset (openDatasetFiles) and the experiment's dataset settings (its split
    // decides validation). Counts show at once; statistics and image sizes arrive later
    // (statisticsChanged). Null files clear the panel.
    void setData(std::shared_ptr<const ts::DatasetFiles> files, const ts::DatasetSpec& spec);
    // Statistics the page already has (DatasetSplits::trainStatistics of the same spec): no
    // worker opens the dataset for them. Call after setData.
    void setTrainStatistics(const ts::DatasetStatistics& stats);
    // Where openDataset finds and keeps cached statistics; empty: defaultCacheDirectory().
    void setCacheDirectory(const QString& dir) { m_cacheDir = dir; }

    const std::vector<SplitClassCounts>& counts() const { return m_counts; }
    const std::optional<ts::DatasetStatistics>& trainStatistics() const { return m_stats; }
    const std::optional<ImageSizeDistribution>& imageSizes() const { return m_sizes; }
    bool isComputing() const { return m_computing; }  // until the result is applied
    // The split names in the histogram's order ("train", "validation", "test").
    QStringList splits() const;

    StatisticsHistogram* histogram() const { return m_histogram; }
    QLabel* summaryLabel() const { return m_summary; }
    QTableWidget* channelTable() const { return m_channels; }

signals:
    void classClicked(const QString& split, int classIndex);
    void statisticsChanged();  // statistics (or their error) and image sizes arrived

protected:
    void changeEvent(QEvent* event) override;

private:
    struct Computed {
        std::optional<ts::DatasetStatistics> stats;
        std::optional<ImageSizeDistribution> sizes;
        QString error;
        int generation = 0;
    };
    void startWorker();
    void onComputed();
    void showCounts();
    void showStatistics();
    void showImageSizes();
    void retranslate();

    std::shared_ptr<const ts::DatasetFiles> m_files;
    ts::DatasetSpec m_spec;
    QString m_cacheDir;
    QStringList m_classNames, m_featureNames;
    std::vector<SplitClassCounts> m_counts;
    QString m_countError;
    std::optional<ts::DatasetStatistics> m_stats;
    std::optional<ImageSizeDistribution> m_sizes;
    QString m_statsError;
    int m_generation = 0;
    bool m_computing = false;
    QFutureWatcher<Computed> m_watcher;

    QLabel* m_title;
    StatisticsHistogram* m_histogram;
    QLabel* m_summary;
    QLabel* m_channelsTitle;
    QTableWidget* m_channels;
    QLabel* m_sizesLabel;
    QLabel* m_status;
};

}  // namespace ts::ui

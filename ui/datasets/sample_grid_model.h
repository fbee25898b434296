// Every sample of an opened dataset as a list model for the image grid (widgets/image_grid.h):
// one row per sample of the split in view, captioned with its class name and index, its image
// a thumbnail from the ThumbnailLoader (decoded off the UI thread, only for the rows the view
// paints; a blank cell until it arrives, a broken-image cell when the sample cannot be decoded).
//
// Samples are addressed as the reader produced them (the health check and the label overlay do
// the same): source 0 is the training files (validation is carved out of them), source 1 the
// test files, and the index is the sample's index in them.
//
// What is listed is a SampleFilter: a split view (everything, the training files, the train or
// validation part as the experiment's split carves it, the test files) and a class; or a given
// list of samples (a health finding's, pairs one after the other; suspect labels), in its order.
//
//   model->setFilter({SplitView::Train, 3});                       // class 3 of the train part
//   model->setFilter(SampleFilter::list(tr("12 leaked pairs"), samples));
#pragma once

#include <QAbstractListModel>
#include <QImage>
#include <QStringList>

#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "data/dataset.h"
#include "data/subset_dataset.h"

namespace ts::ui {

class ThumbnailLoader;

enum class SampleSource : int { Train = 0, Test = 1 };

struct GridSample {
    SampleSource source = SampleSource::Train;
    std::int64_t index = 0;
    bool operator==(const GridSample&) const = default;
};

// "train" | "test" (the store's and the health check's split names) and back; nullopt for others.
QString sourceName(SampleSource source);
std::optional<SampleSource> sourceFromName(const QString& name);

enum class SplitView { All, TrainingFiles, Train, Validation, Test };
// "all", "files", "train", "validation", "test"; a StatisticsPanel's split name maps here too.
QString splitViewKey(SplitView view);
std::optional<SplitView> splitViewFromKey(const QString& key);

struct SampleFilter {
    SplitView split = SplitView::TrainingFiles;
    int classIndex = -1;  // -1: every class
    std::optional<std::vector<GridSample>> samples;  // a given list: replaces split and class
    QString title;  // what a given list is ("12 leaked pairs")
    // The list is pairs, one after the other: kept whole (a pair with a stale side is left
    // out) so the grid can show them two by two.
    bool pairs = false;

    static SampleFilter list(const QString& title, std::vector<GridSample> samples, bool pairs = false)
    {
        SampleFilter f;
        f.samples = std::move(samples);
        f.title = title;
        f.pairs = pairs;
        return f;
    }
    bool operator==(const SampleFilter&) const = default;
};

// A user's correction of a sample (the label overlay): relabelled to a class, or excluded.
struct SampleMark {
    std::int64_t relabel = -1;  // the new class, or -1
    bool excluded = false;
    // A suspect label's verdict, when the list came from a label check (-1: none).
    std::int64_t predicted = -1;
    double confidence = 0;
};

class SampleGridModel : public QAbstractListModel {
    Q_OBJECT
public:
    enum Role {
        SourceRole = Qt::UserRole + 1,  // int: SampleSource
        IndexRole,                      // qint64: the index in its source
        LabelRole,                      // qint64: the class index (as the files say)
        SplitRole,                      // QString: "train", "validation" or "test"
        ErrorRole,                      // QString: why the sample cannot be decoded (empty: it can, or not known yet)
        MarkedRole,                     // bool: relabelled or excluded
    };

    explicit SampleGridModel(ThumbnailLoader* loader, QObject* parent = nullptr);

    // The opened files and the validation carved out of the training files; resets the filter.
    void setDataset(std::shared_ptr<const ts::DatasetFiles> files, const ts::SplitIndices& split);
    void clear();
    // Another validation carved out of the same files (split settings edited): keeps the filter.
    void setValidation(const ts::SplitIndices& split);
    const std::shared_ptr<const ts::DatasetFiles>& files() const { return m_files; }
    const ts::Dataset* dataset(SampleSource source) const;
    QStringList classNames() const { return m_names; }
    QString className(std::int64_t c) const;

    void setFilter(const SampleFilter& filter);
    const SampleFilter& filter() const { return m_filter; }
    // How many samples of the view have each class (the class filter's counts).
    std::vector<std::int64_t> classCounts(SplitView view) const;
    std::int64_t splitSize(SplitView view) const;

    // The marks of the training and test files (label overlay, suspect verdicts) for captions.
    void setMarks(std::unordered_map<std::int64_t, SampleMark> train, std::unordered_map<std::int64_t, SampleMark> test = {});
    const SampleMark* mark(const GridSample& s) const;

    void setThumbnailSize(int pixels);  // the edge asked of the loader
    int thumbnailSize() const { return m_edge; }

    GridSample sampleAt(int row) const { return m_rows[std::size_t(row)]; }
    int rowOf(const GridSample& s) const;  // -1 when not listed
    bool isValidation(std::int64_t trainIndex) const;
    QString splitOf(const GridSample& s) const;  // "train", "validation" or "test"
    std::int64_t labelOf(const GridSample& s) const;
    QString caption(const GridSample& s) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

    static QImage brokenImage(int edge);  // what a sample that cannot be decoded shows

private:
    void rebuild();
    void onThumbnails(const QVector<QPair<int, qint64>>& samples);
    bool inView(SplitView view, const GridSample& s) const;

    ThumbnailLoader* m_loader;
    std::shared_ptr<const ts::DatasetFiles> m_files;
    std::vector<std::uint8_t> m_validation;  // per training sample: 1 when in the validation part
    QStringList m_names;
    SampleFilter m_filter;
    std::vector<GridSample> m_rows;
    std::vector<std::vector<int>> m_rowOf;  // per source, per sample: its row or -1
    std::unordered_map<std::int64_t, SampleMark> m_marks[2];
    int m_edge = 84;
};

}  // namespace ts::ui

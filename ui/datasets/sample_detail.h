// The Datasets page's detail view of one sample: the image at full size, magnified by whole
// pixels with nearest-neighbour sampling (a 28x28 image stays crisp), its split and index, its
// file (image folders), its label, and per channel the min, max, mean and standard deviation of
// the values get() writes (images in [0, 1]); a table's sample shows its feature values. The
// sample is decoded on a worker thread (a large photo takes a while); one that cannot be decoded
// shows the reader's message instead (it names the file).
#pragma once

#include <QFutureWatcher>
#include <QImage>
#include <QString>
#include <QWidget>

#include <cstdint>
#include <memory>
#include <vector>

#include "data/dataset.h"

class QLabel;
class QTableWidget;

namespace ts::ui {

struct ChannelStatistics {
    double min = 0, max = 0, mean = 0, stddev = 0;  // stddev: population
};

// Per channel (dim 0 of a [C, H, W] sample) of `values`; one "channel" over every value for
// other shapes. Empty for no values.
std::vector<ChannelStatistics> pixelStatistics(const float* values, const ts::Shape& shape);

struct DecodedSample {
    QImage image;                        // null for tables, or when it cannot be decoded
    std::vector<float> values;           // what get() wrote
    std::vector<ChannelStatistics> channels;
    std::int64_t label = -1;
    QString error;                       // the reader's message
    int generation = 0;
};
// Never throws.
DecodedSample decodeSample(const ts::Dataset& data, std::int64_t index);

class SampleDetail : public QWidget {
    Q_OBJECT
public:
    explicit SampleDetail(QWidget* parent = nullptr);
    ~SampleDetail() override;

    // Shows sample `index` of `data`: `where` says which ("test #12", with "validation" and the
    // like), `file` its file when it has one, `classNames` the label's name.
    void showSample(std::shared_ptr<const ts::Dataset> data, std::int64_t index, const QString& where, const QString& file,
                    const QStringList& classNames, const QStringList& featureNames = {});
    void clear();

    bool isDecoding() const { return m_watcher.isRunning(); }
    const DecodedSample& decoded() const { return m_decoded; }
    QString text() const;  // the heading and the facts, as shown (tests)
    QImage shownImage() const;  // the magnified image, as drawn
    QTableWidget* statisticsTable() const { return m_table; }
    QLabel* errorLabel() const { return m_error; }

signals:
    void decodedChanged();  // the sample shown has been decoded (or failed)

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void onDecoded();
    void showImage();

    QFutureWatcher<DecodedSample> m_watcher;
    int m_generation = 0;
    DecodedSample m_decoded;
    QStringList m_classNames, m_featureNames;
    QLabel* m_heading;
    QLabel* m_image;
    QLabel* m_facts;
    QLabel* m_error;
    QTableWidget* m_table;
};

}  // namespace ts::ui

// Samples of an evaluated split as an item model for the image grid (widgets/image_grid.h):
// each row one sample, its caption "true label → predicted (confidence %)" in class names,
// its image decoded from the split's Dataset only when the view asks for that row (the rows
// in view), and cached. Grayscale ([1, H, W]) and RGB ([3, H, W]) images; other shapes
// (tables) have captions only. Also which samples to list: a confusion cell's, or all of
// them worst first.
#pragma once

#include <QAbstractListModel>
#include <QCache>
#include <QImage>
#include <QStringList>

#include <cstdint>
#include <memory>
#include <vector>

#include "data/dataset.h"
#include "types/evaluation_records.h"

namespace ts::ui {

// One listed sample with what the evaluation said about it.
struct EvaluatedSample {
    std::int64_t sample = 0;  // index in the evaluated split
    std::int64_t label = 0, predicted = 0;
    double confidence = 0;  // the probability of the prediction
    double loss = 0;        // -log p(label): how wrong, for ranking
};

// -log p(label), with p clipped to >= 2.22e-16 as the calibration's NLL clips it, so a
// probability that underflowed to 0 costs 36.04 instead of infinity.
double sampleLoss(const ts::Prediction& prediction);
EvaluatedSample evaluatedSample(const ts::Prediction& prediction);
// The samples whose label is `truth` and prediction `predicted` (a confusion cell), in sample order.
std::vector<EvaluatedSample> confusionCellSamples(const std::vector<ts::Prediction>& predictions, std::int64_t truth,
                                                  std::int64_t predicted);
// Every sample, highest loss first (ties: lower sample index first).
std::vector<EvaluatedSample> worstSamples(const std::vector<ts::Prediction>& predictions);
// The given samples (indices of the split) with their predictions, in the order given;
// indices with no prediction are left out.
std::vector<EvaluatedSample> samplesAt(const std::vector<ts::Prediction>& predictions,
                                       const std::vector<std::int64_t>& sampleIndices);

// [C, H, W] floats in [0, 1] as an 8-bit image: C = 1 grayscale, C = 3 RGB; null otherwise.
QImage sampleImage(const ts::Dataset& data, std::int64_t index);

class EvaluationSamples : public QAbstractListModel {
    Q_OBJECT
public:
    enum Role { SampleRole = Qt::UserRole + 1, LabelRole, PredictedRole, ConfidenceRole, LossRole };

    explicit EvaluationSamples(QObject* parent = nullptr);

    // The split the samples index (null: captions only). Drops the decoded images.
    void setSplit(std::shared_ptr<const ts::Dataset> data);
    const std::shared_ptr<const ts::Dataset>& split() const { return m_data; }
    // Names by class index; a class without one is shown as its number.
    void setClassNames(const QStringList& names);
    QString className(std::int64_t c) const;
    void setSamples(std::vector<EvaluatedSample> samples);
    const std::vector<EvaluatedSample>& samples() const { return m_samples; }
    QString caption(const EvaluatedSample& s) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

    // Images decoded so far (tests: only the rows shown are).
    int decodedImages() const { return m_decoded; }

private:
    QImage image(std::int64_t sample) const;

    std::shared_ptr<const ts::Dataset> m_data;
    QStringList m_names;
    std::vector<EvaluatedSample> m_samples;
    mutable QCache<qint64, QImage> m_images{64 << 20};  // cost: bytes (28x28 gray: 784, so 85,000 of them)
    mutable int m_decoded = 0;
};

}  // namespace ts::ui

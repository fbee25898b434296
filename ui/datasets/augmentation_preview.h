// The Datasets page's augmentation preview (issue 14 item 4, second half): random resized
// crop, random crop padding, horizontal flip and normalisation, with one training sample shown 16 times as
// training will see it. Each view is the sample's next appearance in training: the epoch's
// order from the experiment's own sampler (makeSampler with training.seed, as the Loader
// builds it; a position in the ragged last batch that training drops is skipped), and the
// sample transformed by the engine's Transforms with draw(training.seed, epoch, position),
// the very calls data/loader.cpp makes. So the preview is what the first epochs feed the
// model, not an illustration. Above the views, an image file's own size and what
// dataset.resize made of it (issue 44 point 2).
//
// How normalised values are shown: by default the normalisation is undone for display
// (x * std + mean per channel, which is the sample after crop and flip; normalising is a
// per-channel linear map and changes nothing a picture shows), and the caption gives the
// range of the values the model gets. "Show normalised values" instead draws those values
// through a fixed window, -3 (black) to +3 (white), clamped: a badly chosen mean or std then
// shows as a washed-out or saturated image.
//
// Edits are emitted as specEdited (crop, flip and the normalisation mode at once; mean and
// std when committed and accepted by the engine's Transforms, else refused with the reason).
#pragma once

#include <QFutureWatcher>
#include <QImage>
#include <QWidget>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "data/dataset.h"
#include "data/transforms.h"
#include "types/experiment_spec.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace ts::ui {

class AugmentationGrid;

class AugmentationPreview : public QWidget {
    Q_OBJECT
public:
    static constexpr int kViews = 16;
    static constexpr std::int64_t kMaxEpochs = 256;  // a sampler that rarely draws the sample: stop looking

    // One appearance of the sample in training.
    struct View {
        std::int64_t epoch = 0, position = 0;  // the loader's (epoch, position in the epoch)
        ts::Augmentation augmentation;         // Transforms::draw(seed, epoch, position)
        std::vector<float> values;             // what the model gets, [C, H, W]
        QImage image;                          // as displayed
    };

    explicit AugmentationPreview(QWidget* parent = nullptr);
    ~AugmentationPreview() override;

    // The dataset settings and the training options that decide what a sample looks like in
    // training (the seed; the batch size, for the dropped ragged batch).
    void setExperiment(const ts::ExperimentSpec& spec);
    void setSpec(const ts::DatasetSpec& spec, std::uint64_t trainingSeed = 0, std::int64_t batchSize = 0);
    // The training split's statistics (DatasetSplits::trainStatistics): normalize_from_statistics.
    void setStatistics(const ts::DatasetStatistics& stats);
    // The training split as training sees it (DatasetSplits::train) and a sample's index in it.
    void setSample(std::shared_ptr<const ts::Dataset> trainSplit, std::int64_t index);
    void setShowNormalized(bool on);

    const ts::DatasetSpec& spec() const { return m_spec; }
    const std::vector<View>& views() const { return m_views; }
    bool isComputing() const { return m_computing; }  // until the views are applied
    QString refusal() const;  // why the last edit was refused, or why nothing is shown
    QSpinBox* paddingField() const { return m_padding; }
    QDoubleSpinBox* resizedCropField() const { return m_resizedCrop; }
    QString resizeText() const;  // the sample file's size and what dataset.resize did; empty for other data
    QCheckBox* flipField() const { return m_flip; }
    QComboBox* normalizationField() const { return m_normalization; }
    QLineEdit* meanField() const { return m_mean; }
    QLineEdit* stdField() const { return m_std; }

signals:
    void specEdited(const ts::DatasetSpec& spec);
    void previewChanged();  // views() holds a new set (or was cleared)

protected:
    void changeEvent(QEvent* event) override;

private:
    struct Computed {
        std::vector<View> views;
        QString error;
        int generation = 0;
    };
    void fieldsFromSpec();
    void editControl();       // crop, flip, mode: commit at once
    void commitNumbers();     // mean / std: on Return or leaving the field
    std::optional<ts::DatasetSpec> specFromFields(QString* why) const;
    void recompute();
    void onComputed();
    void updateCaption();
    void retranslate();

    ts::DatasetSpec m_spec;
    std::uint64_t m_seed = 0;
    std::int64_t m_batchSize = 0;
    std::optional<ts::DatasetStatistics> m_stats;
    std::shared_ptr<const ts::Dataset> m_dataset;
    std::int64_t m_index = -1;
    bool m_showNormalized = false;
    std::vector<View> m_views;
    QString m_error;
    int m_generation = 0;
    bool m_computing = false;
    QFutureWatcher<Computed> m_watcher;

    QLabel* m_resizedCropLabel;
    QDoubleSpinBox* m_resizedCrop;
    QLabel* m_resize;
    QLabel* m_paddingLabel;
    QSpinBox* m_padding;
    QCheckBox* m_flip;
    QLabel* m_normalizationLabel;
    QComboBox* m_normalization;
    QLabel* m_meanLabel;
    QLineEdit* m_mean;
    QLabel* m_stdLabel;
    QLineEdit* m_std;
    QCheckBox* m_showValues;
    QLabel* m_refusal;
    QLabel* m_caption;
    AugmentationGrid* m_grid;
};

}  // namespace ts::ui

#include "augmentation_preview.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QHelpEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPainter>
#include <QRegularExpression>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>

#include "data/image_decode.h"
#include "data/sampler.h"
#include "image_grid.h"

namespace ts::ui {

// The 16 views, each magnified by the largest whole factor that fits its cell, a one-line
// caption under it (the details in its tool tip); everything scales with the widget so the grid fits any page.
class AugmentationGrid : public QWidget {
public:
    explicit AugmentationGrid(QWidget* parent) : QWidget(parent)
    {
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    }
    void setViews(QVector<QImage> images, QStringList captions, QStringList tips)
    {
        m_images = std::move(images);
        m_captions = std::move(captions);
        m_tips = std::move(tips);
        update();
    }
    QSize sizeHint() const override { return {4 * (84 + 8), 4 * (84 + captionHeight() + 8)}; }
    QSize minimumSizeHint() const override { return {4 * (28 + 6), 4 * (28 + captionHeight() + 6)}; }
    QRect cell(int i) const
    {
        const int w = width() / 4, h = height() / 4;
        return {(i % 4) * w, (i / 4) * h, w, h};
    }

protected:
    int captionHeight() const { return fontMetrics().height(); }
    void paintEvent(QPaintEvent*) override
    {
        QPainter p(this);
        for (int i = 0; i < m_images.size(); ++i) {
            const QRect c = cell(i).adjusted(3, 3, -3, -3);
            const QRect box(c.left(), c.top(), c.width(), std::max(1, c.height() - captionHeight()));
            const QRect target = widgets::thumbnailRect(m_images[i].size(), box);
            p.drawImage(target, m_images[i]);
            p.setPen(palette().color(QPalette::Mid));
            p.drawRect(target.adjusted(0, 0, -1, -1));
            p.setPen(palette().color(QPalette::WindowText));
            const QRect text(c.left(), box.bottom() + 1, c.width(), captionHeight());
            p.drawText(text, Qt::AlignHCenter | Qt::AlignTop, fontMetrics().elidedText(m_captions.value(i), Qt::ElideRight, c.width()));
        }
    }
    bool event(QEvent* e) override
    {
        if (e->type() == QEvent::ToolTip) {
            const auto* help = static_cast<QHelpEvent*>(e);
            for (int i = 0; i < m_tips.size(); ++i)
                if (cell(i).contains(help->pos())) setToolTip(m_tips[i]);
        }
        return QWidget::event(e);
    }

private:
    QVector<QImage> m_images;
    QStringList m_captions, m_tips;
};

namespace {

// [C, H, W] floats as an 8-bit image (C = 1 grey, C = 3 RGB), each value through `shade`
// (to [0, 1], then clamped); null for other channel counts.
template <class Shade>
QImage planarImage(const float* chw, std::int64_t channels, std::int64_t height, std::int64_t width, Shade shade)
{
    if ((channels != 1 && channels != 3) || height <= 0 || width <= 0) return {};
    QImage image(int(width), int(height), channels == 1 ? QImage::Format_Grayscale8 : QImage::Format_RGB888);
    const std::int64_t plane = height * width;
    for (std::int64_t y = 0; y < height; ++y) {
        uchar* line = image.scanLine(int(y));
        for (std::int64_t x = 0; x < width; ++x)
            for (std::int64_t c = 0; c < channels; ++c) {
                const float v = shade(chw[c * plane + y * width + x]);
                line[x * channels + c] = uchar(std::lround(std::clamp(std::isfinite(v) ? v : 0.f, 0.f, 1.f) * 255));
            }
    }
    return image;
}

DatasetSpec withoutNormalization(DatasetSpec spec)
{
    spec.normalizeMean.clear();
    spec.normalizeStd.clear();
    spec.normalizeFromStatistics = false;
    return spec;
}

struct Inputs {
    std::shared_ptr<const Dataset> data;
    std::int64_t index = -1;
    DatasetSpec spec;
    DatasetStatistics stats;
    std::uint64_t seed = 0;
    std::int64_t batchSize = 0;
    bool showNormalized = false;
};

// The loader's own steps for one sample (data/loader.cpp: makeSampler with the training
// seed, then Transforms::draw(seed, epoch, position) and apply), for its first kViews
// appearances in training.
std::vector<AugmentationPreview::View> trainingViews(const Inputs& in)
{
    const Shape shape = in.data->sampleShape();
    const Transforms transforms(in.spec, in.stats, shape, /*augment=*/true);
    // The same crop and flip without the normalisation: what the picture shows by default.
    const Transforms undone(withoutNormalization(in.spec), in.stats, shape, /*augment=*/true);
    const std::int64_t numel = shape.numel();
    std::vector<float> raw(static_cast<std::size_t>(numel)), scratch;
    in.data->get(in.index, raw.data());
    const auto sampler = makeSampler(in.spec.sampler, in.data->labels(), in.data->numClasses(), in.spec.classWeights,
                                     in.spec.replacement, in.seed);
    // Training drops the ragged last batch (LoaderOptions::dropLast): those positions never train.
    const std::int64_t used = in.batchSize > 0 ? sampler->size() / in.batchSize * in.batchSize : sampler->size();
    std::vector<AugmentationPreview::View> views;
    for (std::int64_t epoch = 0; epoch < AugmentationPreview::kMaxEpochs && int(views.size()) < AugmentationPreview::kViews; ++epoch) {
        const std::vector<std::int64_t> order = sampler->epochOrder(epoch);
        const std::int64_t end = std::min<std::int64_t>(used, std::int64_t(order.size()));
        for (std::int64_t p = 0; p < end && int(views.size()) < AugmentationPreview::kViews; ++p) {
            if (order[std::size_t(p)] != in.index) continue;
            AugmentationPreview::View v;
            v.epoch = epoch;
            v.position = p;
            v.augmentation = transforms.draw(in.seed, epoch, p);
            v.values = raw;
            transforms.apply(v.values.data(), v.augmentation, scratch);
            if (in.showNormalized) {
                v.image = planarImage(v.values.data(), shape[0], shape[1], shape[2], [](float x) { return (x + 3.f) / 6.f; });
            } else {
                std::vector<float> shown = raw;
                undone.apply(shown.data(), v.augmentation, scratch);
                v.image = planarImage(shown.data(), shape[0], shape[1], shape[2], [](float x) { return x; });
            }
            views.push_back(std::move(v));
        }
    }
    return views;
}

QString numberList(const std::vector<double>& values)
{
    QStringList parts;
    for (double v : values) parts << QLocale::c().toString(v, 'g', 4);
    return parts.join(QStringLiteral(", "));
}

// "0.5", "0.49, 0.48, 0.45": false when a part is not a number.
bool parseList(const QString& text, std::vector<double>& out)
{
    out.clear();
    for (const QString& part : text.split(QRegularExpression(QStringLiteral("[,;\\s]+")), Qt::SkipEmptyParts)) {
        bool ok = false;
        const double v = QLocale::c().toDouble(part, &ok);
        if (!ok || !std::isfinite(v)) return false;
        out.push_back(v);
    }
    return true;
}

QString signedNumber(std::int64_t v) { return v > 0 ? QStringLiteral("+%1").arg(v) : QString::number(v); }

}  // namespace

AugmentationPreview::AugmentationPreview(QWidget* parent) : QWidget(parent)
{
    m_resizedCropLabel = new QLabel(this);
    m_resizedCrop = new QDoubleSpinBox(this);
    m_resizedCrop->setObjectName(QStringLiteral("randomResizedCrop"));
    m_resizedCrop->setRange(0, 1);
    m_resizedCrop->setSingleStep(0.05);
    m_resizedCrop->setDecimals(2);
    m_resize = new QLabel(this);
    m_resize->setObjectName(QStringLiteral("resizeText"));
    m_resize->setWordWrap(true);
    m_paddingLabel = new QLabel(this);
    m_padding = new QSpinBox(this);
    m_padding->setObjectName(QStringLiteral("randomCropPadding"));
    m_padding->setRange(0, 64);
    m_flip = new QCheckBox(this);
    m_flip->setObjectName(QStringLiteral("horizontalFlip"));
    m_normalizationLabel = new QLabel(this);
    m_normalization = new QComboBox(this);
    m_normalization->setObjectName(QStringLiteral("normalization"));
    m_normalization->addItems({QString(), QString(), QString()});
    m_normalization->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_meanLabel = new QLabel(this);
    m_mean = new QLineEdit(this);
    m_mean->setObjectName(QStringLiteral("normalizeMean"));
    m_stdLabel = new QLabel(this);
    m_std = new QLineEdit(this);
    m_std->setObjectName(QStringLiteral("normalizeStd"));
    m_showValues = new QCheckBox(this);
    m_refusal = new QLabel(this);
    m_refusal->setWordWrap(true);
    m_refusal->setStyleSheet(QStringLiteral("color: #c0392b;"));
    m_refusal->hide();
    m_caption = new QLabel(this);
    m_caption->setWordWrap(true);
    m_grid = new AugmentationGrid(this);

    // One setting a row (mean and std share one), each row sized by its own contents, so the
    // panel fits a narrow side area.
    auto* controls = new QVBoxLayout;
    auto* resizedCrop = new QHBoxLayout;
    resizedCrop->addWidget(m_resizedCropLabel);
    resizedCrop->addWidget(m_resizedCrop);
    resizedCrop->addStretch();
    controls->addLayout(resizedCrop);
    auto* padding = new QHBoxLayout;
    padding->addWidget(m_paddingLabel);
    padding->addWidget(m_padding);
    padding->addStretch();
    auto* normalization = new QHBoxLayout;
    normalization->addWidget(m_normalizationLabel);
    normalization->addWidget(m_normalization, 1);
    auto* numbers = new QHBoxLayout;
    numbers->addWidget(m_meanLabel);
    numbers->addWidget(m_mean, 1);
    numbers->addWidget(m_stdLabel);
    numbers->addWidget(m_std, 1);
    controls->addLayout(padding);
    controls->addWidget(m_flip);
    controls->addLayout(normalization);
    controls->addLayout(numbers);
    controls->addWidget(m_showValues);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(m_refusal);
    layout->addWidget(m_resize);
    layout->addWidget(m_caption);
    layout->addWidget(m_grid, 1);

    connect(m_resizedCrop, &QDoubleSpinBox::valueChanged, this, &AugmentationPreview::editControl);
    connect(m_padding, &QSpinBox::valueChanged, this, &AugmentationPreview::editControl);
    connect(m_flip, &QCheckBox::toggled, this, &AugmentationPreview::editControl);
    connect(m_normalization, &QComboBox::activated, this, &AugmentationPreview::editControl);
    connect(m_mean, &QLineEdit::editingFinished, this, &AugmentationPreview::commitNumbers);
    connect(m_std, &QLineEdit::editingFinished, this, &AugmentationPreview::commitNumbers);
    connect(m_showValues, &QCheckBox::toggled, this, &AugmentationPreview::setShowNormalized);
    connect(&m_watcher, &QFutureWatcher<Computed>::finished, this, &AugmentationPreview::onComputed);
    retranslate();
    fieldsFromSpec();
}

AugmentationPreview::~AugmentationPreview() = default;  // a running worker keeps its own copies

QString AugmentationPreview::refusal() const { return m_refusal->isHidden() ? QString() : m_refusal->text(); }

void AugmentationPreview::setExperiment(const ExperimentSpec& spec)
{
    setSpec(spec.dataset, spec.training.seed, spec.training.batchSize);
}

void AugmentationPreview::setSpec(const DatasetSpec& spec, std::uint64_t trainingSeed, std::int64_t batchSize)
{
    if (spec == m_spec && trainingSeed == m_seed && batchSize == m_batchSize) return;
    m_spec = spec;
    m_seed = trainingSeed;
    m_batchSize = batchSize;
    m_refusal->hide();
    fieldsFromSpec();
    recompute();
}

void AugmentationPreview::setStatistics(const DatasetStatistics& stats)
{
    m_stats = stats;
    if (m_spec.normalizeFromStatistics) recompute();
}

void AugmentationPreview::setSample(std::shared_ptr<const Dataset> trainSplit, std::int64_t index)
{
    m_dataset = std::move(trainSplit);
    m_index = index;
    recompute();
}

void AugmentationPreview::setShowNormalized(bool on)
{
    if (on == m_showNormalized) return;
    m_showNormalized = on;
    const QSignalBlocker block(m_showValues);
    m_showValues->setChecked(on);
    recompute();
}

void AugmentationPreview::fieldsFromSpec()
{
    const QSignalBlocker b1(m_padding), b2(m_flip), b3(m_normalization), b4(m_resizedCrop);
    m_resizedCrop->setValue(m_spec.randomResizedCrop);
    m_padding->setValue(int(std::clamp<std::int64_t>(m_spec.randomCropPadding, 0, m_padding->maximum())));
    m_flip->setChecked(m_spec.horizontalFlip);
    const int mode = m_spec.normalizeFromStatistics ? 1 : (m_spec.normalizeMean.empty() && m_spec.normalizeStd.empty() ? 0 : 2);
    m_normalization->setCurrentIndex(mode);
    m_mean->setText(numberList(m_spec.normalizeMean));
    m_std->setText(numberList(m_spec.normalizeStd));
    m_mean->setEnabled(mode == 2);
    m_std->setEnabled(mode == 2);
}

std::optional<DatasetSpec> AugmentationPreview::specFromFields(QString* why) const
{
    DatasetSpec spec = m_spec;
    spec.randomResizedCrop = m_resizedCrop->value();
    spec.randomCropPadding = m_padding->value();
    spec.horizontalFlip = m_flip->isChecked();
    const int mode = m_normalization->currentIndex();
    spec.normalizeFromStatistics = mode == 1;
    spec.normalizeMean.clear();
    spec.normalizeStd.clear();
    if (mode == 2) {
        if (!parseList(m_mean->text(), spec.normalizeMean)) {
            *why = tr("The mean \"%1\" is not a list of numbers: write one per channel, such as 0.5 or 0.49, 0.48, 0.45.")
                       .arg(m_mean->text());
            return std::nullopt;
        }
        if (!parseList(m_std->text(), spec.normalizeStd)) {
            *why = tr("The standard deviation \"%1\" is not a list of numbers: write one per channel, such as 0.25.")
                       .arg(m_std->text());
            return std::nullopt;
        }
        for (double s : spec.normalizeStd)
            if (s <= 0) {
                *why = tr("A standard deviation must be above 0, not %1.").arg(s);
                return std::nullopt;
            }
    }
    if (m_dataset) {  // the engine decides what fits the samples (one value, or one per channel)
        try {
            Transforms(spec, m_stats.value_or(DatasetStatistics{}), m_dataset->sampleShape(), /*augment=*/true);
        } catch (const std::exception& e) {
            if (!(spec.normalizeFromStatistics && !m_stats)) {  // no statistics yet is not the user's fault
                *why = tr("The engine refuses these settings: %1").arg(QString::fromStdString(e.what()));
                return std::nullopt;
            }
        }
    }
    return spec;
}

void AugmentationPreview::editControl()
{
    const int mode = m_normalization->currentIndex();
    m_mean->setEnabled(mode == 2);
    m_std->setEnabled(mode == 2);
    // Fixed numbers start from the dataset's own, so switching mode changes nothing at first.
    if (mode == 2 && m_mean->text().trimmed().isEmpty() && m_std->text().trimmed().isEmpty() && m_stats) {
        m_mean->setText(numberList(m_stats->mean));
        m_std->setText(numberList(m_stats->stddev));
    }
    commitNumbers();
}

void AugmentationPreview::commitNumbers()
{
    QString why;
    const auto spec = specFromFields(&why);
    m_refusal->setText(why);
    m_refusal->setVisible(!why.isEmpty());
    if (!spec || *spec == m_spec) return;
    m_spec = *spec;
    recompute();
    emit specEdited(m_spec);
}

void AugmentationPreview::recompute()
{
    ++m_generation;
    m_computing = false;
    m_views.clear();
    m_error.clear();
    if (!m_dataset || m_index < 0 || m_index >= m_dataset->size()) {
        m_grid->setViews({}, {}, {});
        updateCaption();
        emit previewChanged();
        return;
    }
    if (m_dataset->sampleShape().rank() != 3) {
        m_error = tr("Crop and flip apply to images; these samples are %1 (a table): only normalisation applies.")
                      .arg(QString::fromStdString(m_dataset->sampleShape().str()));
        m_grid->setViews({}, {}, {});
        updateCaption();
        emit previewChanged();
        return;
    }
    if (m_spec.normalizeFromStatistics && !m_stats) {
        m_error = tr("Waiting for the dataset's statistics to normalise with.");
        updateCaption();
        return;
    }
    Inputs in;
    in.data = m_dataset;
    in.index = m_index;
    in.spec = m_spec;
    in.stats = m_stats.value_or(DatasetStatistics{});
    in.seed = m_seed;
    in.batchSize = m_batchSize;
    in.showNormalized = m_showNormalized;
    m_caption->setText(tr("Drawing sample %1 as training will see it…").arg(m_index));
    m_computing = true;
    m_watcher.setFuture(QtConcurrent::run([in, generation = m_generation]() {
        Computed out;
        out.generation = generation;
        try {
            out.views = trainingViews(in);
            if (out.views.empty())
                out.error = tr("Training never draws this sample in its first %1 epochs (the sampler leaves it out, or it "
                               "falls in the dropped last batch).").arg(kMaxEpochs);
        } catch (const std::exception& e) {
            out.error = QString::fromStdString(e.what());
        }
        return out;
    }));
}

void AugmentationPreview::onComputed()
{
    Computed result = m_watcher.result();
    if (result.generation != m_generation) return;
    m_computing = false;
    m_views = std::move(result.views);
    m_error = result.error;
    QVector<QImage> images;
    QStringList captions, tips;
    for (const View& v : m_views) {
        images << v.image;
        // Short under the image (the shift shows in it); the draw in full in the tool tip.
        captions << (v.augmentation.flip ? tr("Epoch %1, flipped") : tr("Epoch %1")).arg(v.epoch + 1);
        tips << tr("Epoch %1, position %2 in the epoch: shifted by %3, %4 pixels (crop offset %5, %6 in the image "
                   "padded by %7)%8")
                    .arg(v.epoch + 1).arg(v.position)
                    .arg(signedNumber(m_spec.randomCropPadding - v.augmentation.cropX),
                         signedNumber(m_spec.randomCropPadding - v.augmentation.cropY))
                    .arg(v.augmentation.cropX).arg(v.augmentation.cropY).arg(m_spec.randomCropPadding)
                    .arg(v.augmentation.flip ? tr(", flipped") : QString());
    }
    m_grid->setViews(images, captions, tips);
    updateCaption();
    emit previewChanged();
}

QString AugmentationPreview::resizeText() const
{
    if (!m_dataset || m_index < 0 || m_index >= m_dataset->size() || m_dataset->sampleShape().rank() != 3) return {};
    const std::string file = m_dataset->sampleSource(m_index);
    if (!ts::isImageFileName(file)) return {};
    ts::ImageSize size;
    try {
        size = ts::imageFileSize(file);  // the header only
    } catch (const std::exception&) {
        return {};  // the views say what is wrong with the file
    }
    const ts::Shape shape = m_dataset->sampleShape();
    const int height = int(shape[1]), width = int(shape[2]);
    if (size.width == width && size.height == height)
        return tr("This image is %1×%2 pixels, the size the model takes: not resized.").arg(width).arg(height);
    const QString how = m_spec.resize == "pad"       ? tr("resized keeping its aspect ratio and padded with black (dataset.resize: pad)")
                        : m_spec.resize == "stretch" ? tr("stretched, which changes its aspect ratio (dataset.resize: stretch)")
                                                     : tr("resized keeping its aspect ratio and centre-cropped (dataset.resize: crop)");
    return tr("This image is %1×%2 pixels in its file; the model takes %3×%4: %5.")
        .arg(size.width).arg(size.height).arg(width).arg(height).arg(how);
}

void AugmentationPreview::updateCaption()
{
    const QString resize = resizeText();
    m_resize->setText(resize);
    m_resize->setVisible(!resize.isEmpty());
    if (!m_error.isEmpty()) {
        m_caption->setText(m_error);
        return;
    }
    if (m_views.empty()) {
        m_caption->setText(m_dataset ? QString() : tr("Choose a sample to see it as training will."));
        return;
    }
    float lo = INFINITY, hi = -INFINITY;
    for (const View& v : m_views)
        for (float x : v.values) {
            lo = std::min(lo, x);
            hi = std::max(hi, x);
        }
    QString text = tr("Sample %1 at its first %2 appearances in training (training seed %3).")
                       .arg(m_index).arg(m_views.size()).arg(qulonglong(m_seed));
    const bool normalizing = m_spec.normalizeFromStatistics || !m_spec.normalizeMean.empty() || !m_spec.normalizeStd.empty();
    if (normalizing)
        text += ' ' + (m_showNormalized ? tr("The model gets values from %1 to %2, drawn from -3 (black) to +3 (white).")
                                        : tr("The model gets values from %1 to %2; shown with the normalisation undone."))
                          .arg(QLocale().toString(lo, 'f', 2), QLocale().toString(hi, 'f', 2));
    m_caption->setText(text);
}

void AugmentationPreview::retranslate()
{
    m_resizedCropLabel->setText(tr("Random resized crop, smallest area:"));
    m_resizedCrop->setSpecialValueText(tr("off"));
    m_resizedCrop->setToolTip(tr("Take a random part of the image, at least this fraction of its area with an aspect ratio "
                                 "between 3:4 and 4:3, and resize it back to the whole (dataset.augment.random_resized_crop; "
                                 "torchvision uses 0.08; 0 turns it off). Training only."));
    m_paddingLabel->setText(tr("Random crop padding:"));
    m_padding->setToolTip(tr("Pad the image by this many pixels (zeros) and crop it back at a random offset "
                             "(dataset.random_crop_padding; 0 turns it off)."));
    m_padding->setSuffix(tr(" px"));
    m_flip->setText(tr("Random horizontal flip"));
    m_flip->setToolTip(tr("Mirror half of the samples left to right (dataset.horizontal_flip). Right for photos, "
                          "wrong for text and digits."));
    m_normalizationLabel->setText(tr("Normalisation:"));
    m_normalization->setItemText(0, tr("None"));
    m_normalization->setItemText(1, tr("From the dataset's statistics"));
    m_normalization->setItemText(2, tr("Fixed mean and standard deviation"));
    m_meanLabel->setText(tr("Mean:"));
    m_stdLabel->setText(tr("Std:"));
    m_mean->setToolTip(tr("One value per channel, or one for all (dataset.normalize_mean)."));
    m_std->setToolTip(tr("One value per channel, or one for all, above 0 (dataset.normalize_std)."));
    m_showValues->setText(tr("Show normalised values (-3 black to +3 white)"));
    updateCaption();
}

void AugmentationPreview::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) retranslate();
}

}  // namespace ts::ui

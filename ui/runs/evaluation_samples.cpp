#include "evaluation_samples.h"

#include <QLocale>

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace ts::ui {

double sampleLoss(const Prediction& prediction)
{
    constexpr double kEps = 2.220446049250313e-16;  // float64 epsilon, as Calibration::nll clips
    const auto label = std::size_t(prediction.label);
    const double p = label < prediction.probabilities.size() ? double(prediction.probabilities[label]) : 0.0;
    return -std::log(std::clamp(std::isfinite(p) ? p : 0.0, kEps, 1.0));
}

EvaluatedSample evaluatedSample(const Prediction& prediction)
{
    return {prediction.sample, prediction.label, prediction.predicted, double(prediction.confidence), sampleLoss(prediction)};
}

std::vector<EvaluatedSample> confusionCellSamples(const std::vector<Prediction>& predictions, std::int64_t truth,
                                                  std::int64_t predicted)
{
    std::vector<EvaluatedSample> out;
    for (const Prediction& p : predictions)
        if (p.label == truth && p.predicted == predicted) out.push_back(evaluatedSample(p));
    std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.sample < b.sample; });
    return out;
}

std::vector<EvaluatedSample> worstSamples(const std::vector<Prediction>& predictions)
{
    std::vector<EvaluatedSample> out;
    out.reserve(predictions.size());
    for (const Prediction& p : predictions) out.push_back(evaluatedSample(p));
    std::sort(out.begin(), out.end(),
              [](const auto& a, const auto& b) { return a.loss != b.loss ? a.loss > b.loss : a.sample < b.sample; });
    return out;
}

std::vector<EvaluatedSample> samplesAt(const std::vector<Prediction>& predictions, const std::vector<std::int64_t>& sampleIndices)
{
    std::unordered_map<std::int64_t, const Prediction*> bySample;
    bySample.reserve(predictions.size());
    for (const Prediction& p : predictions) bySample.emplace(p.sample, &p);
    std::vector<EvaluatedSample> out;
    out.reserve(sampleIndices.size());
    for (std::int64_t index : sampleIndices)
        if (const auto it = bySample.find(index); it != bySample.end()) out.push_back(evaluatedSample(*it->second));
    return out;
}

QImage sampleImage(const Dataset& data, std::int64_t index)
{
    const Shape shape = data.sampleShape();
    if (shape.rank() != 3 || index < 0 || index >= data.size()) return {};
    const auto channels = shape[0], height = shape[1], width = shape[2];
    if ((channels != 1 && channels != 3) || height <= 0 || width <= 0) return {};
    std::vector<float> chw(std::size_t(channels * height * width));
    try {
        data.get(index, chw.data());
    } catch (const std::exception&) {  // a file damaged since the evaluation: no image, the caption stays
        return {};
    }
    const auto byte = [](float v) { return uchar(std::lround(std::clamp(std::isfinite(v) ? v : 0.f, 0.f, 1.f) * 255)); };
    QImage image(int(width), int(height), channels == 1 ? QImage::Format_Grayscale8 : QImage::Format_RGB888);
    const std::int64_t plane = height * width;
    for (std::int64_t y = 0; y < height; ++y) {
        uchar* line = image.scanLine(int(y));
        for (std::int64_t x = 0; x < width; ++x)
            for (std::int64_t c = 0; c < channels; ++c) line[x * channels + c] = byte(chw[std::size_t(c * plane + y * width + x)]);
    }
    return image;
}

EvaluationSamples::EvaluationSamples(QObject* parent) : QAbstractListModel(parent) {}

void EvaluationSamples::setSplit(std::shared_ptr<const Dataset> data)
{
    m_data = std::move(data);
    m_images.clear();
    if (!m_samples.empty()) emit dataChanged(index(0), index(rowCount() - 1), {Qt::DecorationRole});
}

void EvaluationSamples::setClassNames(const QStringList& names)
{
    m_names = names;
    if (!m_samples.empty()) emit dataChanged(index(0), index(rowCount() - 1), {Qt::DisplayRole, Qt::ToolTipRole});
}

QString EvaluationSamples::className(std::int64_t c) const
{
    return c >= 0 && c < m_names.size() && !m_names[int(c)].isEmpty() ? m_names[int(c)] : QString::number(c);
}

void EvaluationSamples::setSamples(std::vector<EvaluatedSample> samples)
{
    beginResetModel();
    m_samples = std::move(samples);
    endResetModel();
}

QString EvaluationSamples::caption(const EvaluatedSample& s) const
{
    // No-break spaces: a wrapped caption keeps "→ Coat" and "54 %" together.
    return tr("%1 →\u00a0%2 (%3\u00a0%)").arg(className(s.label), className(s.predicted), QLocale().toString(s.confidence * 100, 'f', 0));
}

int EvaluationSamples::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(m_samples.size()); }

QVariant EvaluationSamples::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const EvaluatedSample& s = m_samples[std::size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole: return caption(s);
    case Qt::DecorationRole: {
        QImage decoded = image(s.sample);
        return decoded.isNull() ? QVariant() : QVariant(decoded);
    }
    case Qt::ToolTipRole:
        return tr("Sample %1\nTrue class: %2\nPredicted: %3 (%4 %)\nLoss −log p(true class): %5")
            .arg(s.sample)
            .arg(className(s.label), className(s.predicted), QLocale().toString(s.confidence * 100, 'f', 1),
                 QLocale().toString(s.loss, 'f', 3));
    case SampleRole: return qint64(s.sample);
    case LabelRole: return qint64(s.label);
    case PredictedRole: return qint64(s.predicted);
    case ConfidenceRole: return s.confidence;
    case LossRole: return s.loss;
    default: return {};
    }
}

QImage EvaluationSamples::image(std::int64_t sample) const
{
    if (!m_data) return {};
    if (const QImage* cached = m_images.object(sample)) return *cached;
    QImage decoded = sampleImage(*m_data, sample);
    ++m_decoded;
    // A sample that cannot be decoded is remembered too, so a repaint does not retry it.
    m_images.insert(sample, new QImage(decoded), std::max<qsizetype>(decoded.sizeInBytes(), 1));
    return decoded;
}

}  // namespace ts::ui

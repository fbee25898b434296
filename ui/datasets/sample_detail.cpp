#include "sample_detail.h"

#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPixmap>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>

#include "sample_grid_model.h"
#include "thumbnail_cache.h"

namespace ts::ui {

std::vector<ChannelStatistics> pixelStatistics(const float* values, const ts::Shape& shape)
{
    const std::int64_t n = shape.numel();
    if (n <= 0) return {};
    const std::int64_t channels = shape.rank() == 3 ? shape[0] : 1;
    const std::int64_t plane = n / channels;
    std::vector<ChannelStatistics> out(static_cast<std::size_t>(channels));
    for (std::int64_t c = 0; c < channels; ++c) {
        const float* v = values + c * plane;
        double sum = 0, lo = v[0], hi = v[0];
        for (std::int64_t i = 0; i < plane; ++i) {
            sum += v[i];
            lo = std::min(lo, double(v[i]));
            hi = std::max(hi, double(v[i]));
        }
        const double mean = sum / double(plane);
        double squares = 0;  // two passes: no cancellation for near-constant channels
        for (std::int64_t i = 0; i < plane; ++i) squares += (v[i] - mean) * (v[i] - mean);
        out[std::size_t(c)] = {lo, hi, mean, std::sqrt(squares / double(plane))};
    }
    return out;
}

DecodedSample decodeSample(const ts::Dataset& data, std::int64_t index)
{
    DecodedSample d;
    if (index < 0 || index >= data.size()) {
        d.error = SampleDetail::tr("Sample %1 is not in this split (it has %2 samples).").arg(index).arg(data.size());
        return d;
    }
    const ts::Shape shape = data.sampleShape();
    d.label = data.labels()[std::size_t(index)];
    try {
        d.values.resize(std::size_t(shape.numel()));
        data.get(index, d.values.data());
    } catch (const std::exception& e) {
        d.values.clear();
        d.error = QString::fromLocal8Bit(e.what());
        return d;
    }
    d.channels = pixelStatistics(d.values.data(), shape);
    if (shape.rank() == 3) d.image = imageFromPlanar(d.values.data(), shape[0], shape[1], shape[2]);
    return d;
}

SampleDetail::SampleDetail(QWidget* parent) : QWidget(parent)
{
    m_heading = new QLabel;
    m_heading->setObjectName(QStringLiteral("sampleHeading"));
    QFont bold = m_heading->font();
    bold.setBold(true);
    m_heading->setFont(bold);
    m_heading->setWordWrap(true);
    m_image = new QLabel;
    m_image->setObjectName(QStringLiteral("sampleImage"));
    m_image->setAlignment(Qt::AlignCenter);
    m_image->setMinimumSize(56, 56);
    m_image->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored);  // the pixmap follows the panel, not the reverse
    m_facts = new QLabel;
    m_facts->setObjectName(QStringLiteral("sampleFacts"));
    m_facts->setWordWrap(true);
    m_facts->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error = new QLabel;
    m_error->setObjectName(QStringLiteral("sampleError"));
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->setStyleSheet(QStringLiteral("color: #b00020"));
    m_error->hide();
    // One column per channel, one row per statistic: three channels fit a narrow panel.
    m_table = new QTableWidget(4, 0);
    m_table->setObjectName(QStringLiteral("sampleStatistics"));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->setVerticalHeaderLabels({tr("Min"), tr("Max"), tr("Mean"), tr("Std")});
    m_table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_table->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    m_table->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_heading);
    layout->addWidget(m_image, 1);
    layout->addWidget(m_facts);
    layout->addWidget(m_error);
    layout->addWidget(m_table);
    connect(&m_watcher, &QFutureWatcher<DecodedSample>::finished, this, &SampleDetail::onDecoded);
    clear();
}

SampleDetail::~SampleDetail() { m_watcher.waitForFinished(); }

void SampleDetail::clear()
{
    ++m_generation;
    m_decoded = DecodedSample{};
    m_heading->setText(tr("No sample selected"));
    m_facts->setText(tr("Click a sample in the grid to see it here at full size, with its pixel statistics."));
    m_image->clear();
    m_error->hide();
    m_table->setColumnCount(0);
}

void SampleDetail::showSample(std::shared_ptr<const ts::Dataset> data, std::int64_t index, const QString& where,
                              const QString& file, const QStringList& classNames, const QStringList& featureNames)
{
    clear();
    if (!data) return;
    m_classNames = classNames;
    m_featureNames = featureNames;
    const std::int64_t label = index >= 0 && index < data->size() ? data->labels()[std::size_t(index)] : -1;
    const QString name = label >= 0 && label < classNames.size() ? classNames[int(label)] : QString::number(label);
    m_heading->setText(where);
    QStringList facts;
    facts << tr("Label: %1 (class %2)").arg(name).arg(label);
    facts << tr("Shape: %1").arg(QString::fromStdString(data->sampleShape().str()));
    if (!file.isEmpty()) facts << tr("File: %1").arg(file);
    m_facts->setText(facts.join(QLatin1Char('\n')));
    m_image->setText(tr("Decoding…"));
    const int generation = m_generation;
    m_watcher.setFuture(QtConcurrent::run([data, index, generation] {
        DecodedSample d = decodeSample(*data, index);
        d.generation = generation;
        return d;
    }));
}

void SampleDetail::onDecoded()
{
    DecodedSample d = m_watcher.result();
    if (d.generation != m_generation) return;  // another sample was chosen meanwhile
    m_decoded = std::move(d);
    m_image->clear();
    if (!m_decoded.error.isEmpty()) {
        m_error->setText(tr("This sample cannot be read: %1").arg(m_decoded.error));
        m_error->show();
        m_image->setPixmap(QPixmap::fromImage(SampleGridModel::brokenImage(84)));
    }
    const bool image = !m_decoded.image.isNull();
    const bool channels = m_decoded.channels.size() > 1;
    m_table->setColumnCount(int(m_decoded.channels.size()));
    const QLocale locale;
    const auto number = [&](double v) { return locale.toString(v, 'f', 4); };
    QStringList names;
    for (std::size_t c = 0; c < m_decoded.channels.size(); ++c) {
        const ChannelStatistics& s = m_decoded.channels[c];
        names << (!image ? tr("all values") : !channels ? tr("gray") : (c < 3 ? QStringList{tr("red"), tr("green"), tr("blue")}[int(c)] : QString::number(c)));
        const QStringList cells{number(s.min), number(s.max), number(s.mean), number(s.stddev)};
        for (int i = 0; i < cells.size(); ++i) {
            auto* item = new QTableWidgetItem(cells[i]);
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(i, int(c), item);
        }
    }
    m_table->setHorizontalHeaderLabels(names);
    if (!image && !m_decoded.values.empty()) {  // a table's row: its features, by name
        QStringList values;
        for (std::size_t i = 0; i < m_decoded.values.size() && i < 40; ++i)
            values << (i < std::size_t(m_featureNames.size()) ? m_featureNames[int(i)] + QStringLiteral(" = ") : QString()) +
                          locale.toString(double(m_decoded.values[i]), 'g', 6);
        if (m_decoded.values.size() > 40) values << tr("… %1 more").arg(m_decoded.values.size() - 40);
        m_image->setText(values.join(QLatin1Char('\n')));
        m_image->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    } else {
        m_image->setAlignment(Qt::AlignCenter);
    }
    showImage();
    emit decodedChanged();
}

QImage SampleDetail::shownImage() const { return m_image->pixmap().toImage(); }

void SampleDetail::showImage()
{
    const QImage& image = m_decoded.image;
    if (image.isNull()) return;
    const QSize room = m_image->size().boundedTo(QSize(4096, 4096));
    const int factor = std::max(1, std::min(room.width() / std::max(1, image.width()), room.height() / std::max(1, image.height())));
    QImage shown = factor > 1 ? image.scaled(image.size() * factor, Qt::IgnoreAspectRatio, Qt::FastTransformation)  // nearest neighbour
                              : image.width() > room.width() || image.height() > room.height()
                                  ? image.scaled(room.expandedTo(QSize(1, 1)), Qt::KeepAspectRatio, Qt::SmoothTransformation)
                                  : image;
    m_image->setPixmap(QPixmap::fromImage(shown));
}

void SampleDetail::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    showImage();
}

QString SampleDetail::text() const
{
    return m_heading->text() + QLatin1Char('\n') + m_facts->text() + (!m_error->isHidden() ? QLatin1Char('\n') + m_error->text() : QString());
}

}  // namespace ts::ui

// Thumbnails of a dataset's samples, decoded off the UI thread and kept in a bounded cache.
//
//   loader->setSources({files.train, files.test});          // source 0, source 1
//   if (const Thumbnail* t = loader->find(0, 1234, 84)) ... // cached: draw it
//   else ...                                                // queued: thumbnailsReady says when
//
// find() is called from a model's data() for the rows the view paints, so only rows in view
// are ever requested. Requests wait in a stack, newest first (what the user scrolled to now is
// decoded before what scrolled past), at most kMaxQueued of them (the oldest are dropped; a row
// that comes back into view asks again). Two worker threads decode with Dataset::get() (which
// is thread-safe) and hand the images back in batches: one queued call per batch, not per image.
//
// The cache is keyed by (source, sample, edge): the edge is the thumbnail's size, clamped to the
// image's own larger edge, so a 28x28 image has one entry at every zoom (the grid magnifies it
// by whole pixels) while a large photo is kept at the size shown. Bounded by kCacheBytes of
// pixels (64 MiB: every one of Fashion-MNIST's 70,000 images, or 2,000 RGB 84x84 thumbnails).
// A sample that fails to decode is cached as its error, so a repaint does not retry it.
#pragma once

#include <QCache>
#include <QImage>
#include <QObject>
#include <QString>
#include <QThreadPool>
#include <QVector>

#include <cstdint>
#include <memory>
#include <vector>

#include "data/dataset.h"

namespace ts::ui {

struct Thumbnail {
    QImage image;   // null when the sample could not be decoded (or is not an image)
    QString error;  // the reader's message (names the file)
};

// One sample of a dataset as an 8-bit image: [1, H, W] grayscale or [3, H, W] RGB floats in
// [0, 1] (the values get() writes). Tables and other shapes give a null image and no error.
// When `maxEdge` > 0 and the image is larger, it is scaled down (smoothly) to fit it.
Thumbnail decodeThumbnail(const ts::Dataset& data, std::int64_t index, int maxEdge);
// The [C, H, W] floats as an image (C 1 or 3), nothing else.
QImage imageFromPlanar(const float* chw, std::int64_t channels, std::int64_t height, std::int64_t width);

class ThumbnailLoader : public QObject {
    Q_OBJECT
public:
    static constexpr qsizetype kCacheBytes = qsizetype(64) << 20;
    static constexpr int kMaxQueued = 4096;
    static constexpr int kWorkers = 2;

    explicit ThumbnailLoader(QObject* parent = nullptr);
    ~ThumbnailLoader() override;  // stops the workers and waits for them

    // The datasets the source numbers index (null: a source with no images). Drops the cache
    // and the queue; images still being decoded for the old sources are thrown away.
    void setSources(std::vector<std::shared_ptr<const ts::Dataset>> sources);
    const std::shared_ptr<const ts::Dataset>& source(int source) const;

    // The cached thumbnail, or null after queueing its decoding (once while queued).
    const Thumbnail* find(int source, std::int64_t sample, int edge);
    // Only the cached one, queueing nothing.
    const Thumbnail* cached(int source, std::int64_t sample, int edge) const;
    // The edge a thumbnail of `edge` pixels is cached at (the image's own larger edge when smaller).
    int cacheEdge(int source, int edge) const;

    int decodedCount() const { return m_decoded; }  // images decoded so far (tests)
    int queuedCount() const;
    qsizetype cachedBytes() const { return m_cache.totalCost(); }
    void waitForIdle();  // tests and benchmarks: until the queue is empty and the workers idle

signals:
    // A batch of thumbnails has arrived in the cache: (source, sample) pairs.
    void thumbnailsReady(const QVector<QPair<int, qint64>>& samples);

private:
    struct Shared;
    void startWorkers();
    void deliver();  // UI thread: moves finished images into the cache

    std::shared_ptr<Shared> m_shared;
    std::vector<std::shared_ptr<const ts::Dataset>> m_sources;
    std::vector<int> m_nativeEdge;  // per source: the image's larger edge (0: not an image)
    QCache<quint64, Thumbnail> m_cache{kCacheBytes};
    QThreadPool m_pool;
    int m_decoded = 0;
};

}  // namespace ts::ui

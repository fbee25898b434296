#include "thumbnail_cache.h"

#include <QMetaObject>

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <unordered_set>

namespace ts::ui {

namespace {

// (source, edge, sample) in one number: 4 bits, 12 bits, 48 bits.
quint64 keyOf(int source, std::int64_t sample, int edge)
{
    return (quint64(source & 0xF) << 60) | (quint64(std::clamp(edge, 0, 0xFFF)) << 48) | (quint64(sample) & 0xFFFFFFFFFFFFull);
}

int nativeEdge(const ts::Dataset* data)
{
    if (!data) return 0;
    const ts::Shape s = data->sampleShape();
    if (s.rank() != 3 || (s[0] != 1 && s[0] != 3)) return 0;
    return int(std::min<std::int64_t>(std::max(s[1], s[2]), 0xFFF));
}

}  // namespace

QImage imageFromPlanar(const float* chw, std::int64_t channels, std::int64_t height, std::int64_t width)
{
    if ((channels != 1 && channels != 3) || height <= 0 || width <= 0) return {};
    const auto byte = [](float v) { return uchar(std::lround(std::clamp(std::isfinite(v) ? v : 0.f, 0.f, 1.f) * 255)); };
    QImage image(int(width), int(height), channels == 1 ? QImage::Format_Grayscale8 : QImage::Format_RGB888);
    const std::int64_t plane = height * width;
    for (std::int64_t y = 0; y < height; ++y) {
        uchar* line = image.scanLine(int(y));
        for (std::int64_t x = 0; x < width; ++x)
            for (std::int64_t c = 0; c < channels; ++c) line[x * channels + c] = byte(chw[c * plane + y * width + x]);
    }
    return image;
}

Thumbnail decodeThumbnail(const ts::Dataset& data, std::int64_t index, int maxEdge)
{
    Thumbnail t;
    const ts::Shape shape = data.sampleShape();
    if (shape.rank() != 3 || (shape[0] != 1 && shape[0] != 3) || index < 0 || index >= data.size()) return t;
    std::vector<float> chw(std::size_t(shape.numel()));
    try {
        data.get(index, chw.data());
    } catch (const std::exception& e) {  // a damaged file: the cell shows it broken, the detail says why
        t.error = QString::fromLocal8Bit(e.what());
        return t;
    }
    t.image = imageFromPlanar(chw.data(), shape[0], shape[1], shape[2]);
    if (maxEdge > 0 && std::max(t.image.width(), t.image.height()) > maxEdge)
        t.image = t.image.scaled(maxEdge, maxEdge, Qt::KeepAspectRatio, Qt::SmoothTransformation);
    return t;
}

struct ThumbnailLoader::Shared {
    struct Request {
        quint64 key;
        int source;
        std::int64_t sample;
        int edge;
    };
    struct Done {
        quint64 key, generation;
        Thumbnail thumbnail;
    };
    std::mutex mutex;
    std::condition_variable idle;
    std::deque<Request> stack;           // newest at the back
    std::unordered_set<quint64> queued;  // queued or being decoded: not asked for twice
    std::vector<Done> done;              // decoded, not yet delivered
    std::vector<std::shared_ptr<const ts::Dataset>> sources;
    quint64 generation = 0;  // setSources() bumps it: results of older sources are dropped
    int running = 0;
    bool stopping = false;
    ThumbnailLoader* owner = nullptr;  // alive while workers run: its destructor waits for them

    void work()
    {
        for (;;) {
            Request r;
            std::shared_ptr<const ts::Dataset> data;
            quint64 gen;
            {
                std::lock_guard lock(mutex);
                if (stopping || stack.empty()) {
                    --running;
                    idle.notify_all();
                    return;
                }
                r = stack.back();
                stack.pop_back();
                data = std::size_t(r.source) < sources.size() ? sources[std::size_t(r.source)] : nullptr;
                gen = generation;
            }
            Thumbnail t = data ? decodeThumbnail(*data, r.sample, r.edge) : Thumbnail{};
            std::lock_guard lock(mutex);
            const bool first = done.empty();
            done.push_back({r.key, gen, std::move(t)});
            if (first && !stopping)  // one queued call per batch: later images join this one
                QMetaObject::invokeMethod(owner, [o = owner] { o->deliver(); }, Qt::QueuedConnection);
        }
    }
};

ThumbnailLoader::ThumbnailLoader(QObject* parent) : QObject(parent), m_shared(std::make_shared<Shared>())
{
    m_shared->owner = this;
    m_pool.setMaxThreadCount(kWorkers);
    m_pool.setExpiryTimeout(5000);
}

ThumbnailLoader::~ThumbnailLoader()
{
    {
        std::lock_guard lock(m_shared->mutex);
        m_shared->stopping = true;
        m_shared->stack.clear();
    }
    m_pool.waitForDone();
}

void ThumbnailLoader::setSources(std::vector<std::shared_ptr<const ts::Dataset>> sources)
{
    m_nativeEdge.clear();
    for (const auto& s : sources) m_nativeEdge.push_back(nativeEdge(s.get()));
    m_sources = sources;
    {
        std::lock_guard lock(m_shared->mutex);
        m_shared->sources = std::move(sources);
        m_shared->stack.clear();
        m_shared->queued.clear();
        m_shared->done.clear();
        ++m_shared->generation;
    }
    m_cache.clear();
}

const std::shared_ptr<const ts::Dataset>& ThumbnailLoader::source(int source) const
{
    static const std::shared_ptr<const ts::Dataset> none;
    return source >= 0 && std::size_t(source) < m_sources.size() ? m_sources[std::size_t(source)] : none;
}

int ThumbnailLoader::cacheEdge(int source, int edge) const
{
    const int native = source >= 0 && std::size_t(source) < m_nativeEdge.size() ? m_nativeEdge[std::size_t(source)] : 0;
    return native > 0 ? std::min(edge, native) : edge;
}

const Thumbnail* ThumbnailLoader::cached(int source, std::int64_t sample, int edge) const
{
    return m_cache.object(keyOf(source, sample, cacheEdge(source, edge)));
}

const Thumbnail* ThumbnailLoader::find(int source, std::int64_t sample, int edge)
{
    edge = cacheEdge(source, edge);
    const quint64 key = keyOf(source, sample, edge);
    if (const Thumbnail* t = m_cache.object(key)) return t;
    if (!this->source(source)) return nullptr;
    {
        std::lock_guard lock(m_shared->mutex);
        if (!m_shared->queued.insert(key).second) return nullptr;  // already on its way
        m_shared->stack.push_back({key, source, sample, edge});
        if (int(m_shared->stack.size()) > kMaxQueued) {  // scrolled past long ago: forget it
            m_shared->queued.erase(m_shared->stack.front().key);
            m_shared->stack.pop_front();
        }
    }
    startWorkers();
    return nullptr;
}

void ThumbnailLoader::startWorkers()
{
    std::lock_guard lock(m_shared->mutex);
    while (m_shared->running < kWorkers && std::size_t(m_shared->running) < m_shared->stack.size()) {
        ++m_shared->running;
        m_pool.start([shared = m_shared] { shared->work(); });
    }
}

int ThumbnailLoader::queuedCount() const
{
    std::lock_guard lock(m_shared->mutex);
    return int(m_shared->stack.size());
}

void ThumbnailLoader::deliver()
{
    std::vector<Shared::Done> done;
    quint64 generation;
    {
        std::lock_guard lock(m_shared->mutex);
        done.swap(m_shared->done);
        generation = m_shared->generation;
        for (const auto& d : done)
            if (d.generation == generation) m_shared->queued.erase(d.key);
    }
    QVector<QPair<int, qint64>> arrived;
    arrived.reserve(qsizetype(done.size()));
    for (auto& d : done) {
        if (d.generation != generation) continue;
        ++m_decoded;
        const qsizetype cost = std::max<qsizetype>(d.thumbnail.image.sizeInBytes(), 64);
        m_cache.insert(d.key, new Thumbnail(std::move(d.thumbnail)), cost);
        arrived.append({int(d.key >> 60), qint64(d.key & 0xFFFFFFFFFFFFull)});
    }
    if (!arrived.isEmpty()) emit thumbnailsReady(arrived);
}

void ThumbnailLoader::waitForIdle()
{
    {
        std::unique_lock lock(m_shared->mutex);
        m_shared->idle.wait(lock, [&] { return m_shared->running == 0 && m_shared->stack.empty(); });
    }
    deliver();
}

}  // namespace ts::ui

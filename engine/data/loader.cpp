// Worker threads claim batch numbers in order, assemble whole batches (get, transform,
// label) into pooled buffers and park them in a map keyed by batch number; next() hands
// them out strictly in order. Claims stop `window` batches ahead of the consumer, so memory
// is bounded by the prefetch depth, never by the dataset. startEpoch() and the destructor
// bump a generation counter that in-flight assemblies check between samples: stale work is
// dropped, nobody waits on it.
#include "data/loader.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "data/sampler.h"
#include "data/transforms.h"

namespace ts {

namespace {

std::size_t align64(std::size_t n) { return (n + 63) & ~std::size_t(63); }

// Batch buffers, one storage per batch (inputs, then labels at a 64-byte boundary). A buffer
// is free again when the pool holds its only reference, i.e. the consumer dropped every
// Tensor of that batch; a batch the consumer keeps is never overwritten.
class BufferPool {
public:
    BufferPool(Allocator& allocator, std::size_t bytes, std::size_t capacity)
        : allocator_(allocator), bytes_(bytes), capacity_(capacity)
    {
    }

    std::shared_ptr<Storage> acquire()
    {
        std::lock_guard lock(mutex_);
        for (const auto& buffer : buffers_)
            if (buffer.use_count() == 1) {
                // use_count() is a relaxed load; the fence orders our writes after the
                // consumer's last reads (its release of the reference).
                std::atomic_thread_fence(std::memory_order_acquire);
                return buffer;
            }
        auto buffer = std::make_shared<Storage>(allocator_, bytes_);
        // Past capacity the consumer is hoarding batches: hand out unpooled buffers.
        if (buffers_.size() < capacity_) buffers_.push_back(buffer);
        return buffer;
    }

private:
    Allocator& allocator_;
    std::size_t bytes_, capacity_;
    std::mutex mutex_;
    std::vector<std::shared_ptr<Storage>> buffers_;
};

struct Slot {
    Batch batch;
    std::exception_ptr error;  // from the dataset or a transform; rethrown by next()
};

struct Cancelled {};  // an assembly whose epoch was replaced or whose loader is closing

using Clock = std::chrono::steady_clock;

}  // namespace

struct Loader::Impl {
    Impl(std::shared_ptr<Dataset> ds, const DatasetSpec& spec, const DatasetStatistics& stats, LoaderOptions opt)
        : dataset(std::move(ds)), options(opt), shape(dataset->sampleShape()), numel(shape.numel()),
          tokens(dataset->inputDType() == DType::I64), values(hasValueTargets(*dataset)), targetShape(dataset->targetShape()),
          labelNumel(targetShape.rank() == 0 ? 1 : targetShape.numel()),
          localCapacity((opt.batchSize + std::max(opt.shardCount, 1) - 1) / std::max(opt.shardCount, 1)),
          transforms(spec, stats, shape, opt.augment),
          sampler(makeSampler(opt.shuffle ? spec.sampler : "sequential", dataset->labels(), dataset->numClasses(),
                              spec.classWeights, spec.replacement, opt.seed)),
          labelOffset(align64(static_cast<std::size_t>(localCapacity * numel) * (tokens ? sizeof(std::int64_t) : sizeof(float)))),
          numWorkers(std::max(spec.numWorkers, 0)),
          window(std::max<std::int64_t>({spec.prefetchBatches, numWorkers, 1})),
          pool(opt.batchAllocator ? *opt.batchAllocator : CpuAllocator::instance(),
               labelOffset + static_cast<std::size_t>(localCapacity * labelNumel) * sizeof(std::int64_t),
               static_cast<std::size_t>(window + numWorkers + 2))
    {
    }

    std::int64_t batchCount() const
    {
        const std::int64_t n = sampler->size(), b = options.batchSize;
        return options.dropLast ? n / b : (n + b - 1) / b;
    }

    // Batch k of `order`: samples, labels, transforms. Throws Cancelled when `gen` goes stale.
    Batch assemble(std::int64_t k, const std::vector<std::int64_t>& order, std::int64_t ep, std::uint64_t gen,
                   std::vector<float>& scratch) const
    {
        // This rank's shard of global batch k (loader.h, shardIndex).
        const std::int64_t globalStart = k * options.batchSize;
        const std::int64_t global = std::min<std::int64_t>(options.batchSize, static_cast<std::int64_t>(order.size()) - globalStart);
        const std::int64_t ranks = std::max(options.shardCount, 1), r = options.shardIndex;
        const std::int64_t start = globalStart + global * r / ranks;
        const std::int64_t n = globalStart + global * (r + 1) / ranks - start;
        auto storage = pool.acquire();
        std::vector<std::int64_t> dims{n};
        dims.insert(dims.end(), shape.dims().begin(), shape.dims().end());
        Batch b;
        b.inputs = Tensor::view(storage, 0, Shape(std::move(dims)), tokens ? DType::I64 : DType::F32);
        std::vector<std::int64_t> labelDims{n};
        labelDims.insert(labelDims.end(), targetShape.dims().begin(), targetShape.dims().end());
        b.labels = Tensor::view(storage, labelOffset, Shape(std::move(labelDims)), values ? DType::F32 : DType::I64);
        b.size = n;
        b.index = k;
        std::int64_t* y = values ? nullptr : b.labels.data<std::int64_t>();
        const std::int64_t classes = dataset->numClasses();
        if (tokens) scratch.resize(static_cast<std::size_t>(numel));
        for (std::int64_t i = 0; i < n; ++i) {
            if (generation.load(std::memory_order_relaxed) != gen) throw Cancelled{};
            const std::int64_t index = order[static_cast<std::size_t>(start + i)];
            if (tokens) {  // token ids, exact in the floats get() writes; no transforms apply
                const std::int64_t label = dataset->get(index, scratch.data());
                std::int64_t* ids = b.inputs.data<std::int64_t>() + i * numel;
                for (std::int64_t t = 0; t < numel; ++t) ids[t] = static_cast<std::int64_t>(scratch[static_cast<std::size_t>(t)]);
                if (values) dataset->getValues(index, b.labels.data<float>() + i * labelNumel);
                else if (targetShape.rank() == 0) y[i] = label;  // a text to classify: one class
                else dataset->getTargets(index, y + i * labelNumel);
                continue;
            }
            float* sample = b.inputs.data<float>() + i * numel;
            if (values) {  // regression targets: floats of targetShape (data/dataset.h TargetKind)
                dataset->get(index, sample);
                dataset->getValues(index, b.labels.data<float>() + i * labelNumel);
            } else {
                y[i] = dataset->get(index, sample);
            }
            if (!values && classes > 0 && (y[i] < 0 || y[i] >= classes))
                throw DataError(dataset->description(), index,
                                "sample " + std::to_string(index) + " has label " + std::to_string(y[i]) +
                                    ", outside the " + std::to_string(classes) + " classes");
            if (!transforms.identity())
                transforms.apply(sample, transforms.draw(options.seed, ep, start + i), scratch);
        }
        if (tokens && dataset->paddingId() >= 0 && shape.rank() == 1) cutPadding(b, dataset->paddingId());
        return b;
    }

    // Cuts the padding after a batch's longest sample: rows move to a stride of that length,
    // in place (each moves towards the front of its storage, never over a row still unread).
    static void cutPadding(Batch& b, std::int64_t padding)
    {
        const std::int64_t n = b.inputs.shape()[0], full = b.inputs.shape()[1];
        std::int64_t* ids = b.inputs.data<std::int64_t>();
        std::int64_t longest = 1;
        for (std::int64_t i = 0; i < n; ++i) {
            std::int64_t t = full;
            while (t > longest && ids[i * full + t - 1] == padding) --t;
            longest = std::max(longest, t);
        }
        b.paddingId = padding;
        if (longest == full) return;
        for (std::int64_t i = 1; i < n; ++i) std::copy_n(ids + i * full, longest, ids + i * longest);
        b.inputs = Tensor::view(b.inputs.storage(), b.inputs.offset(), Shape{n, longest}, DType::I64);
    }

    void workerLoop()
    {
        std::vector<float> scratch;
        std::unique_lock lock(mutex);
        for (;;) {
            workCv.wait(lock, [&] {
                return stopping || (started && !failed && nextClaim < numBatches && nextClaim < nextDeliver + window);
            });
            if (stopping) return;
            const std::int64_t k = nextClaim++;
            const std::uint64_t gen = generation.load();
            const std::shared_ptr<const std::vector<std::int64_t>> ord = order;
            const std::int64_t ep = epoch;
            lock.unlock();
            Slot slot;
            bool cancelled = false;
            try {
                slot.batch = assemble(k, *ord, ep, gen, scratch);
            } catch (const Cancelled&) {
                cancelled = true;
            } catch (...) {
                slot.error = std::current_exception();
            }
            lock.lock();
            if (cancelled || gen != generation.load()) continue;  // its epoch is gone
            if (slot.error) failed = true;  // no further claims; next() rethrows at batch k
            ready.emplace(k, std::move(slot));
            readyCv.notify_all();
        }
    }

    std::shared_ptr<Dataset> dataset;
    LoaderOptions options;
    Shape shape;
    std::int64_t numel;
    bool tokens;          // i64 token ids in, targets per position out (data/text_dataset.h)
    bool values;          // f32 targets of targetShape (regression, forecasts) instead of i64 classes
    Shape targetShape;    // one sample's targets; empty: one label
    std::int64_t labelNumel;
    std::int64_t localCapacity;  // the largest shard of a batch (the batch itself without sharding)
    Transforms transforms;
    std::unique_ptr<Sampler> sampler;
    std::size_t labelOffset;
    int numWorkers;
    std::int64_t window;  // most batches claimed but not yet delivered
    mutable BufferPool pool;

    std::mutex mutex;
    std::condition_variable workCv, readyCv;
    std::atomic<std::uint64_t> generation{0};  // changed only under `mutex`
    bool started = false, stopping = false, failed = false;
    std::int64_t epoch = 0, numBatches = 0, nextClaim = 0, nextDeliver = 0;
    std::shared_ptr<const std::vector<std::int64_t>> order;
    std::map<std::int64_t, Slot> ready;
    std::atomic<double> waited{0.0};  // written by the consumer only
    std::vector<float> callerScratch;  // numWorkers == 0
    std::vector<std::thread> workers;
};

Loader::Loader(std::shared_ptr<Dataset> dataset, const DatasetSpec& spec, const DatasetStatistics& stats,
               LoaderOptions options)
{
    if (!dataset) throw std::invalid_argument("Loader: no dataset");
    if (options.batchSize < 1) throw std::invalid_argument("Loader: batch size must be >= 1");
    if (options.shardCount < 1 || options.shardIndex < 0 || options.shardIndex >= options.shardCount)
        throw std::invalid_argument("Loader: shard " + std::to_string(options.shardIndex) + " of " +
                                    std::to_string(options.shardCount) + " does not exist");
    impl_ = std::make_unique<Impl>(std::move(dataset), spec, stats, options);
    for (int i = 0; i < impl_->numWorkers; ++i) impl_->workers.emplace_back([d = impl_.get()] { d->workerLoop(); });
}

Loader::~Loader()
{
    {
        std::lock_guard lock(impl_->mutex);
        impl_->stopping = true;
        ++impl_->generation;  // in-flight assemblies stop at their next sample
    }
    impl_->workCv.notify_all();
    for (auto& t : impl_->workers) t.join();
}

void Loader::startEpoch(std::int64_t epoch, std::int64_t firstBatch)
{
    Impl& d = *impl_;
    auto order = std::make_shared<const std::vector<std::int64_t>>(d.sampler->epochOrder(epoch));
    std::map<std::int64_t, Slot> stale;  // released after the lock
    {
        std::lock_guard lock(d.mutex);
        ++d.generation;
        d.epoch = epoch;
        d.order = std::move(order);
        d.numBatches = d.batchCount();
        d.nextClaim = d.nextDeliver = std::clamp<std::int64_t>(firstBatch, 0, d.numBatches);
        stale.swap(d.ready);
        d.failed = false;
        d.started = true;
        d.waited = 0.0;
    }
    d.workCv.notify_all();
}

bool Loader::next(Batch& batch)
{
    Impl& d = *impl_;
    const auto t0 = Clock::now();
    auto addWait = [&] { d.waited = d.waited + std::chrono::duration<double>(Clock::now() - t0).count(); };
    if (d.workers.empty()) {  // assemble in the caller's thread; all of it counts as waiting
        if (!d.started) throw std::logic_error("Loader::next() before startEpoch()");
        if (d.nextDeliver >= d.numBatches) return false;
        Batch b;
        try {
            b = d.assemble(d.nextDeliver, *d.order, d.epoch, d.generation.load(), d.callerScratch);
        } catch (...) {
            addWait();
            throw;
        }
        addWait();
        batch = std::move(b);
        ++d.nextDeliver;
        return true;
    }
    std::unique_lock lock(d.mutex);
    if (!d.started) throw std::logic_error("Loader::next() before startEpoch()");
    if (d.nextDeliver >= d.numBatches) return false;
    d.readyCv.wait(lock, [&] { return d.ready.count(d.nextDeliver) > 0; });
    addWait();
    auto it = d.ready.find(d.nextDeliver);
    if (it->second.error) std::rethrow_exception(it->second.error);  // kept: the epoch stays failed
    batch = std::move(it->second.batch);
    d.ready.erase(it);
    ++d.nextDeliver;
    lock.unlock();
    d.workCv.notify_all();
    return true;
}

std::int64_t Loader::batchesPerEpoch() const { return impl_->batchCount(); }

double Loader::waitSeconds() const { return impl_->waited.load(); }

}  // namespace ts

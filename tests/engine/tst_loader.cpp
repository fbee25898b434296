// Samplers, transforms, the loader (ordering, workers, errors, shutdown, waiting, buffers)
// and the memory-mapped sample cache. Statistical checks use fixed seeds, so they are
// deterministic; their bounds are stated so a broken sampler fails them by a wide margin.
#include <QtTest>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <numeric>
#include <set>
#include <thread>

#include "data/loader.h"
#include "data/sample_cache.h"
#include "data/sampler.h"
#include "data/transforms.h"

using namespace ts;

namespace {

// Sample i holds i * 1000 + j at element j (exact in float), so a batch names its samples.
class MemoryDataset : public Dataset {
public:
    MemoryDataset(Shape shape, std::vector<std::int64_t> labels, std::int64_t classes)
        : shape_(std::move(shape)), labels_(std::move(labels)), classes_(classes)
    {
    }
    std::int64_t size() const override { return static_cast<std::int64_t>(labels_.size()); }
    Shape sampleShape() const override { return shape_; }
    std::int64_t numClasses() const override { return classes_; }
    std::vector<std::string> classNames() const override
    {
        std::vector<std::string> names;
        for (std::int64_t c = 0; c < classes_; ++c) names.push_back("class" + std::to_string(c));
        return names;
    }
    std::int64_t get(std::int64_t index, float* out) const override
    {
        ++gets;
        if (sleepMicros > 0) std::this_thread::sleep_for(std::chrono::microseconds(sleepMicros));
        if (slowEvenTens && index / 10 % 2 == 0) std::this_thread::sleep_for(std::chrono::microseconds(300));
        if (index == throwAt) throw DataError("memory", index, "sample " + std::to_string(index) + " is damaged");
        if (!raw.empty()) {
            std::memcpy(out, raw.data() + index * shape_.numel(), static_cast<std::size_t>(shape_.numel()) * 4);
        } else {
            for (std::int64_t j = 0; j < shape_.numel(); ++j) out[j] = static_cast<float>(index * 1000 + j);
        }
        return labels_[static_cast<std::size_t>(index)];
    }
    const std::vector<std::int64_t>& labels() const override { return labels_; }
    std::string description() const override { return "memory (" + std::to_string(size()) + " x " + shape_.str() + ")"; }

    mutable std::atomic<std::int64_t> gets{0};
    int sleepMicros = 0;
    bool slowEvenTens = false;  // samples 0-9, 20-29, ... are slow: workers finish out of order
    std::int64_t throwAt = -1;
    std::vector<float> raw;  // when set, the samples' values

private:
    Shape shape_;
    std::vector<std::int64_t> labels_;
    std::int64_t classes_;
};

std::vector<std::int64_t> cyclicLabels(std::int64_t n, std::int64_t classes)
{
    std::vector<std::int64_t> l(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) l[static_cast<std::size_t>(i)] = i % classes;
    return l;
}

std::vector<std::int64_t> classCounts(const std::vector<std::int64_t>& order, const std::vector<std::int64_t>& labels,
                                      std::int64_t classes, std::size_t prefix = SIZE_MAX)
{
    std::vector<std::int64_t> counts(static_cast<std::size_t>(classes), 0);
    const auto end = order.begin() + static_cast<std::ptrdiff_t>(std::min(prefix, order.size()));
    for (auto it = order.begin(); it != end; ++it) ++counts[static_cast<std::size_t>(labels[static_cast<std::size_t>(*it)])];
    return counts;
}

// Pearson's chi-square of observed counts against expected probabilities.
double chiSquare(const std::vector<std::int64_t>& counts, const std::vector<double>& p)
{
    double n = 0, chi = 0;
    for (auto c : counts) n += double(c);
    for (std::size_t i = 0; i < counts.size(); ++i) chi += std::pow(double(counts[i]) - n * p[i], 2) / (n * p[i]);
    return chi;
}

bool isPermutation(std::vector<std::int64_t> order, std::int64_t n)
{
    std::sort(order.begin(), order.end());
    std::vector<std::int64_t> iota(static_cast<std::size_t>(n));
    std::iota(iota.begin(), iota.end(), 0);
    return order == iota;
}

DatasetSpec plainSpec(int workers, int prefetch = 2)
{
    DatasetSpec s;
    s.sampler = "sequential";
    s.numWorkers = workers;
    s.prefetchBatches = prefetch;
    return s;
}

// Counts allocations, so tests can see the loader uses it and reuses its buffers.
class CountingAllocator final : public Allocator {
public:
    Device device() const override { return CpuAllocator::instance().device(); }
    void* allocate(std::size_t bytes) override
    {
        ++allocations;
        return CpuAllocator::instance().allocate(bytes);
    }
    void deallocate(void* p, std::size_t bytes) override { CpuAllocator::instance().deallocate(p, bytes); }
    AllocatorStats stats() const override { return {}; }
    void resetPeak() override {}
    void releaseCached() override {}
    std::atomic<int> allocations{0};
};

// Every batch of one epoch, flattened (inputs then labels), for bit-exact comparison.
std::vector<std::vector<char>> epochBytes(Loader& loader, std::int64_t epoch)
{
    loader.startEpoch(epoch);
    std::vector<std::vector<char>> out;
    Batch b;
    while (loader.next(b)) {
        std::vector<char> bytes(b.inputs.bytes() + b.labels.bytes());
        std::memcpy(bytes.data(), b.inputs.raw(), b.inputs.bytes());
        std::memcpy(bytes.data() + b.inputs.bytes(), b.labels.raw(), b.labels.bytes());
        out.push_back(std::move(bytes));
    }
    return out;
}

}  // namespace

class TestLoader : public QObject {
    Q_OBJECT
private slots:
    // ---- samplers ----
    void sequentialSampler()
    {
        auto s = makeSampler("sequential", cyclicLabels(7, 2), 2, {}, true, 1);
        const std::vector<std::int64_t> expected{0, 1, 2, 3, 4, 5, 6};
        QCOMPARE(s->epochOrder(0), expected);
        QCOMPARE(s->epochOrder(9), expected);
    }

    void randomSamplerIsSeededPermutation()
    {
        const auto labels = cyclicLabels(1000, 10);
        auto a = makeSampler("random", labels, 10, {}, true, 42);
        auto b = makeSampler("random", labels, 10, {}, true, 42);
        auto c = makeSampler("random", labels, 10, {}, true, 43);
        const auto e0 = a->epochOrder(0), e1 = a->epochOrder(1);
        QVERIFY(isPermutation(e0, 1000));
        QVERIFY(isPermutation(e1, 1000));
        QCOMPARE(b->epochOrder(0), e0);        // same seed and epoch: same order (resume)
        QCOMPARE(a->epochOrder(1), e1);        // and repeatable
        QVERIFY(e0 != e1);                     // epochs differ
        QVERIFY(c->epochOrder(0) != e0);       // seeds differ
        QVERIFY(!isPermutation(std::vector<std::int64_t>(e0.begin(), e0.begin() + 10), 10));  // really shuffled
    }

    void weightedWithReplacementFollowsWeights()
    {
        // 3 balanced classes, so class probabilities are the weights normalised: 0.1, 0.2, 0.7.
        // Bound: chi-square with 2 degrees of freedom below 13.82 (p = 0.001).
        const auto labels = cyclicLabels(30000, 3);
        const std::vector<double> p{0.1, 0.2, 0.7};
        for (const auto& weights : {std::vector<double>{10, 20, 70}, std::vector<double>{0.1, 0.2, 0.7}}) {
            auto s = makeSampler("weighted", labels, 3, weights, true, 7);
            for (std::int64_t epoch : {0, 1}) {
                const auto order = s->epochOrder(epoch);
                QCOMPARE(order.size(), labels.size());  // epoch length = dataset size
                const auto counts = classCounts(order, labels, 3);
                const double chi = chiSquare(counts, p);
                QVERIFY2(chi < 13.82, qPrintable(QString("chi2 %1, counts %2 %3 %4").arg(chi).arg(counts[0])
                                                     .arg(counts[1]).arg(counts[2])));
            }
            QVERIFY(s->epochOrder(0) != s->epochOrder(1));
            // A broken sampler (uniform) would be far outside the bound.
            QVERIFY(chiSquare({10000, 10000, 10000}, p) > 1000);
        }
        // Inverse class frequencies balance an imbalanced dataset (the seeds' recipe).
        std::vector<std::int64_t> imbalanced(9000, 0);
        imbalanced.insert(imbalanced.end(), 1000, 1);
        auto s = makeSampler("weighted", imbalanced, 2, {1.0 / 9000, 1.0 / 1000}, true, 3);
        const auto counts = classCounts(s->epochOrder(0), imbalanced, 2);
        QVERIFY2(chiSquare(counts, {0.5, 0.5}) < 10.83, qPrintable(QString::number(counts[1])));  // 1 dof, p = 0.001
    }

    void weightedWithoutReplacement()
    {
        // Without replacement the epoch is a weighted permutation: no index repeats, and the
        // front of the epoch follows the weights (600 draws from 20000 per class, so depletion
        // is under 2.1%; same chi-square bound as above).
        const auto labels = cyclicLabels(60000, 3);
        for (const auto& weights : {std::vector<double>{10, 20, 70}, std::vector<double>{0.1, 0.2, 0.7}}) {
            auto s = makeSampler("weighted", labels, 3, weights, false, 11);
            const auto order = s->epochOrder(0);
            QVERIFY(isPermutation(order, 60000));
            const auto counts = classCounts(order, labels, 3, 600);
            QVERIFY2(chiSquare(counts, {0.1, 0.2, 0.7}) < 13.82,
                     qPrintable(QString("%1 %2 %3").arg(counts[0]).arg(counts[1]).arg(counts[2])));
            QVERIFY(s->epochOrder(1) != order);
        }
    }

    void weightedRejectsBadWeights()
    {
        const auto labels = cyclicLabels(10, 3);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeSampler("weighted", labels, 3, {1, 2}, true, 0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeSampler("weighted", labels, 3, {1, -2, 1}, true, 0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeSampler("weighted", labels, 3, {0, 0, 0}, true, 0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeSampler("bogus", labels, 3, {}, true, 0));
        // A zero weight removes a class when drawing with replacement.
        auto s = makeSampler("weighted", labels, 3, {0, 1, 1}, true, 0);
        QCOMPARE(classCounts(s->epochOrder(0), labels, 3)[0], std::int64_t(0));
    }

    void classBalancedEqualCounts()
    {
        // 600 : 300 (divisible): exactly 450 each.
        std::vector<std::int64_t> labels(600, 0);
        labels.insert(labels.end(), 300, 1);
        auto s = makeSampler("class_balanced", labels, 2, {}, true, 5);
        auto order = s->epochOrder(0);
        QCOMPARE(order.size(), std::size_t(900));
        QCOMPARE(classCounts(order, labels, 2), (std::vector<std::int64_t>{450, 450}));
        // Minority samples cycle: each of the 300 appears once or twice (450 draws).
        std::vector<int> seen(900, 0);
        for (auto i : order) ++seen[i];
        for (int i = 600; i < 900; ++i) QVERIFY(seen[i] == 1 || seen[i] == 2);
        QCOMPARE(s->epochOrder(0), order);
        QVERIFY(s->epochOrder(1) != order);

        // 700 : 200 : 100 with an empty fourth class: 334/333/333 (differ by at most one).
        std::vector<std::int64_t> three(700, 0);
        three.insert(three.end(), 200, 1);
        three.insert(three.end(), 100, 2);
        auto t = makeSampler("class_balanced", three, 4, {}, true, 5);
        const auto counts = classCounts(t->epochOrder(3), three, 4);
        QCOMPARE(counts[3], std::int64_t(0));
        QVERIFY(*std::max_element(counts.begin(), counts.begin() + 3) - *std::min_element(counts.begin(), counts.begin() + 3) <= 1);
        QCOMPARE(counts[0] + counts[1] + counts[2], std::int64_t(1000));
    }

    // ---- transforms ----
    void normaliseHandComputed()
    {
        DatasetSpec spec;
        spec.normalizeMean = {0.5, 1.0};
        spec.normalizeStd = {0.25, 2.0};
        Transforms t(spec, {}, Shape{2, 1, 2}, true);
        std::vector<float> x{0.0f, 1.0f, 1.0f, 5.0f}, scratch;
        t.apply(x.data(), t.draw(0, 0, 0), scratch);
        QCOMPARE(x, (std::vector<float>{-2.0f, 2.0f, 0.0f, 2.0f}));

        // From the dataset statistics instead (a table: one "channel" per feature).
        DatasetSpec fromStats;
        fromStats.normalizeFromStatistics = true;
        DatasetStatistics stats;
        stats.mean = {1.0, 2.0, 3.0};
        stats.stddev = {2.0, 0.0, 4.0};  // a constant feature: centred, not divided by zero
        Transforms u(fromStats, stats, Shape{3}, true);
        std::vector<float> f{3.0f, 5.0f, 1.0f};
        u.apply(f.data(), {}, scratch);
        QCOMPARE(f, (std::vector<float>{1.0f, 3.0f, -0.5f}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Transforms(spec, {}, Shape{3, 2, 2}, true));  // 2 means, 3 channels
    }

    void cropWithPaddingHandComputed()
    {
        DatasetSpec spec;
        spec.randomCropPadding = 1;
        Transforms t(spec, {}, Shape{1, 3, 3}, true);
        const std::vector<float> image{1, 2, 3, 4, 5, 6, 7, 8, 9};
        std::vector<float> scratch;
        // Pad to 5x5, crop 3x3 at (y 0, x 2): out[y][x] = in[y - 1][x + 1].
        std::vector<float> x = image;
        t.apply(x.data(), Augmentation{0, 2, false}, scratch);
        QCOMPARE(x, (std::vector<float>{0, 0, 0, 2, 3, 0, 5, 6, 0}));
        // (2, 0): out[y][x] = in[y + 1][x - 1].
        x = image;
        t.apply(x.data(), Augmentation{2, 0, false}, scratch);
        QCOMPARE(x, (std::vector<float>{0, 4, 5, 0, 7, 8, 0, 0, 0}));
        // (1, 1) is the identity.
        x = image;
        t.apply(x.data(), Augmentation{1, 1, false}, scratch);
        QCOMPARE(x, image);
        // Offsets stay in [0, 2P] and vary.
        std::set<std::pair<std::int64_t, std::int64_t>> offsets;
        for (int i = 0; i < 200; ++i) {
            const Augmentation a = t.draw(9, 0, i);
            QVERIFY(a.cropY >= 0 && a.cropY <= 2 && a.cropX >= 0 && a.cropX <= 2);
            QVERIFY(!a.flip);  // flip is off
            offsets.insert({a.cropY, a.cropX});
        }
        QCOMPARE(offsets.size(), std::size_t(9));
    }

    void flipAndOrderHandComputed()
    {
        DatasetSpec spec;
        spec.horizontalFlip = true;
        spec.randomCropPadding = 1;
        spec.normalizeMean = {1.0};
        spec.normalizeStd = {2.0};
        Transforms t(spec, {}, Shape{2, 2, 3}, true);
        std::vector<float> x{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, scratch;
        // Crop (1, 2): shift left by one; then flip each row; then (x - 1) / 2.
        // Channel 0 rows [2 3 0] [5 6 0] -> flipped [0 3 2] [0 6 5].
        t.apply(x.data(), Augmentation{1, 2, true}, scratch);
        const std::vector<float> expected{-0.5f, 1, 0.5f, -0.5f, 2.5f, 2, -0.5f, 4, 3.5f, -0.5f, 5.5f, 5};
        QCOMPARE(x, expected);
        // p = 0.5: both outcomes occur, about half each (200 draws, +-4 sigma = +-28).
        int flips = 0;
        for (int i = 0; i < 200; ++i) flips += t.draw(1, 2, i).flip;
        QVERIFY2(flips > 72 && flips < 128, qPrintable(QString::number(flips)));
        // Reproducible from (seed, epoch, position) alone.
        QCOMPARE(t.draw(1, 2, 17).flip, t.draw(1, 2, 17).flip);
        QCOMPARE(t.draw(1, 2, 17).cropX, t.draw(1, 2, 17).cropX);
    }

    void evaluationSkipsAugmentation()
    {
        DatasetSpec spec;
        spec.horizontalFlip = true;
        spec.randomCropPadding = 2;
        spec.normalizeMean = {1.0};
        spec.normalizeStd = {1.0};
        Transforms t(spec, {}, Shape{1, 1, 3}, false);
        QVERIFY(!t.cropping() && !t.flipping() && t.normalizing());
        std::vector<float> x{1, 2, 3}, scratch;
        for (int i = 0; i < 20; ++i) {
            std::vector<float> y = x;
            t.apply(y.data(), t.draw(0, 0, i), scratch);
            QCOMPARE(y, (std::vector<float>{0, 1, 2}));
        }
        // Crop/flip need images, but an evaluation loader of a table does not care.
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Transforms(spec, {}, Shape{4}, true));
        Transforms table(spec, {}, Shape{4}, false);
        QVERIFY(!table.cropping());
    }

    // ---- loader ----
    void deliversEverySampleOnce_data()
    {
        QTest::addColumn<int>("workers");
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("batch");
        QTest::addColumn<bool>("dropLast");
        for (int w : {0, 1, 2})
            for (int n : {50, 53})
                for (bool drop : {true, false})
                    QTest::addRow("w%d n%d b10 %s", w, n, drop ? "drop" : "keep") << w << n << 10 << drop;
        QTest::addRow("w2 n5 b10 keep") << 2 << 5 << 10 << false;
        QTest::addRow("w2 n5 b10 drop") << 2 << 5 << 10 << true;
        QTest::addRow("w2 n7 b1") << 2 << 7 << 1 << true;
    }

    void deliversEverySampleOnce()
    {
        QFETCH(int, workers);
        QFETCH(int, n);
        QFETCH(int, batch);
        QFETCH(bool, dropLast);
        auto ds = std::make_shared<MemoryDataset>(Shape{1, 2, 2}, cyclicLabels(n, 3), 3);
        ds->slowEvenTens = true;
        LoaderOptions opt;
        opt.batchSize = batch;
        opt.dropLast = dropLast;
        opt.shuffle = false;
        Loader loader(ds, plainSpec(workers), {}, opt);
        const std::int64_t expectedSamples = dropLast ? n / batch * batch : n;
        QCOMPARE(loader.batchesPerEpoch(), dropLast ? n / batch : (n + batch - 1) / batch);
        for (std::int64_t epoch : {0, 1}) {
            loader.startEpoch(epoch);
            Batch b;
            std::int64_t next = 0, k = 0;
            while (loader.next(b)) {
                QCOMPARE(b.index, k++);
                QCOMPARE(b.inputs.shape(), (Shape{b.size, 1, 2, 2}));
                QCOMPARE(b.labels.shape(), (Shape{b.size}));
                QVERIFY(b.size == batch || (!dropLast && b.size == n % batch));
                for (std::int64_t i = 0; i < b.size; ++i, ++next) {
                    QCOMPARE(b.inputs.data<float>()[i * 4], float(next * 1000));  // sample `next`, in order
                    QCOMPARE(b.inputs.data<float>()[i * 4 + 3], float(next * 1000 + 3));
                    QCOMPARE(b.labels.data<std::int64_t>()[i], next % 3);
                }
            }
            QCOMPARE(next, expectedSamples);
            QCOMPARE(k, loader.batchesPerEpoch());
            QVERIFY(!loader.next(b));  // stays at the end
        }
    }

    void sameBatchesRegardlessOfWorkers()
    {
        auto ds = std::make_shared<MemoryDataset>(Shape{2, 4, 4}, cyclicLabels(37, 4), 4);
        DatasetSpec spec;
        spec.sampler = "random";
        spec.randomCropPadding = 2;
        spec.horizontalFlip = true;
        spec.normalizeMean = {100.0, 200.0};
        spec.normalizeStd = {10.0, 20.0};
        LoaderOptions opt;
        opt.batchSize = 8;
        opt.dropLast = false;
        opt.seed = 1234;
        std::vector<std::vector<std::vector<char>>> runs;
        for (auto [workers, prefetch] : {std::pair{0, 1}, {1, 1}, {2, 1}, {2, 4}}) {
            spec.numWorkers = workers;
            spec.prefetchBatches = prefetch;
            Loader loader(ds, spec, {}, opt);
            runs.push_back(epochBytes(loader, 0));
            auto e1 = epochBytes(loader, 1);
            QVERIFY(e1 != runs.back());  // another epoch, another shuffle and augmentation
            runs.push_back(epochBytes(loader, 0));  // epoch 0 again: the same batches (resume)
        }
        QCOMPARE(runs[0].size(), std::size_t(5));
        for (std::size_t i = 1; i < runs.size(); ++i) QVERIFY2(runs[i] == runs[0], qPrintable(QString::number(i)));
    }

    void exceptionSurfacesAtNext()
    {
        for (int workers : {0, 2}) {
            auto ds = std::make_shared<MemoryDataset>(Shape{3}, cyclicLabels(50, 2), 2);
            ds->throwAt = 23;
            LoaderOptions opt;
            opt.batchSize = 10;
            opt.shuffle = false;
            Loader loader(ds, plainSpec(workers), {}, opt);
            loader.startEpoch(0);
            Batch b;
            QVERIFY(loader.next(b));
            QVERIFY(loader.next(b));
            try {
                loader.next(b);
                QFAIL("no exception from the damaged sample");
            } catch (const DataError& e) {
                QCOMPARE(e.position(), std::int64_t(23));
                QCOMPARE(e.file(), std::string("memory"));
            }
            QVERIFY_THROWS_EXCEPTION(DataError, loader.next(b));  // the epoch stays failed
            ds->throwAt = -1;  // repaired: a new epoch runs through
            loader.startEpoch(1);
            int batches = 0;
            while (loader.next(b)) ++batches;
            QCOMPARE(batches, 5);
        }
        // Out-of-range labels are a data error too.
        auto bad = std::make_shared<MemoryDataset>(Shape{1}, std::vector<std::int64_t>{0, 1, 5}, 2);
        LoaderOptions opt;
        opt.batchSize = 3;
        opt.shuffle = false;
        Loader loader(bad, plainSpec(1), {}, opt);
        loader.startEpoch(0);
        Batch b;
        QVERIFY_THROWS_EXCEPTION(DataError, loader.next(b));
    }

    void nextBeforeStartEpochThrows()
    {
        auto ds = std::make_shared<MemoryDataset>(Shape{1}, cyclicLabels(4, 2), 2);
        for (int workers : {0, 1}) {
            Loader loader(ds, plainSpec(workers), {}, LoaderOptions{});
            Batch b;
            QVERIFY_THROWS_EXCEPTION(std::logic_error, loader.next(b));
        }
    }

    void destroyMidEpochDoesNotHang()
    {
        // A slow dataset, a consumer that stops early, then the destructor on another thread:
        // it must return (generous timeout; a deadlock never does).
        for (int stage = 0; stage < 3; ++stage) {
            auto ds = std::make_shared<MemoryDataset>(Shape{8}, cyclicLabels(400, 2), 2);
            ds->sleepMicros = 2000;
            LoaderOptions opt;
            opt.batchSize = 4;
            auto* loader = new Loader(ds, plainSpec(2, 4), {}, opt);
            Batch b;
            if (stage >= 1) loader->startEpoch(0);
            if (stage >= 2) QVERIFY(loader->next(b));
            std::atomic<bool> done{false};
            std::thread closer([&] {
                delete loader;
                done = true;
            });
            QTRY_VERIFY_WITH_TIMEOUT(done.load(), 20000);
            closer.join();
            QVERIFY(ds->gets < 400);  // it stopped early rather than finishing the epoch
        }
    }

    void startEpochMidEpochRestartsCleanly()
    {
        auto ds = std::make_shared<MemoryDataset>(Shape{2}, cyclicLabels(60, 3), 3);
        ds->sleepMicros = 200;
        DatasetSpec spec = plainSpec(2, 3);
        spec.sampler = "random";
        LoaderOptions opt;
        opt.batchSize = 6;
        opt.seed = 3;
        Loader reference(ds, spec, {}, opt);
        const auto expected = epochBytes(reference, 1);
        Loader loader(ds, spec, {}, opt);
        loader.startEpoch(0);
        Batch b;
        QVERIFY(loader.next(b));
        QVERIFY(loader.next(b));
        QCOMPARE(epochBytes(loader, 1), expected);  // abandons epoch 0, delivers epoch 1 whole
    }

    void waitSecondsGrowsWhenDatasetIsSlow()
    {
        // Every get() sleeps >= 5 ms; 40 samples. With no workers all of it is waiting
        // (>= 0.2 s); with two workers, two batches ahead at most, the consumer still waits
        // about half of it (asserted: a tenth).
        // Lower bounds only: a loaded machine makes waits longer, never shorter.
        for (auto [workers, bound] : {std::pair{0, 0.2}, {2, 0.02}}) {
            auto ds = std::make_shared<MemoryDataset>(Shape{4}, cyclicLabels(40, 2), 2);
            ds->sleepMicros = 5000;
            LoaderOptions opt;
            opt.batchSize = 4;
            Loader loader(ds, plainSpec(workers, 2), {}, opt);
            loader.startEpoch(0);
            QCOMPARE(loader.waitSeconds(), 0.0);
            Batch b;
            double last = 0;
            while (loader.next(b)) {
                QVERIFY(loader.waitSeconds() >= last);
                last = loader.waitSeconds();
            }
            QVERIFY2(loader.waitSeconds() >= bound, qPrintable(QString::number(loader.waitSeconds())));
            loader.startEpoch(1);
            QCOMPARE(loader.waitSeconds(), 0.0);  // reset per epoch
        }
    }

    void batchBuffersComeFromAllocatorAndAreReused()
    {
        auto ds = std::make_shared<MemoryDataset>(Shape{1, 3, 3}, cyclicLabels(100, 5), 5);
        CountingAllocator allocator;
        LoaderOptions opt;
        opt.batchSize = 5;
        opt.shuffle = false;
        opt.batchAllocator = &allocator;
        Loader loader(ds, plainSpec(2, 2), {}, opt);
        Batch kept;
        for (std::int64_t epoch = 0; epoch < 3; ++epoch) {
            loader.startEpoch(epoch);
            Batch b;
            while (loader.next(b)) {
                QVERIFY(b.inputs.storage() == b.labels.storage());
                if (epoch == 0 && b.index == 0) kept = b;  // the consumer keeps one batch
            }
        }
        // 60 batches delivered; the pool holds at most window + workers + 2 = 6 buffers
        // (plus the one batch kept outside it).
        QVERIFY(allocator.allocations > 0);
        QVERIFY2(allocator.allocations <= 7, qPrintable(QString::number(allocator.allocations.load())));
        // The kept batch was never recycled under the consumer's feet.
        for (std::int64_t i = 0; i < 5; ++i) QCOMPARE(kept.inputs.data<float>()[i * 9], float(i * 1000));
    }

    // ---- the sample cache ----
    void cacheRoundTripsBitExactly()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string file = dir.filePath("sub/train.cache").toStdString();
        auto src = makeRandomDataset(300);
        auto cached = cachedDataset(src, file);
        QCOMPARE(src->gets.load(), std::int64_t(300));
        QVERIFY(sampleCacheValid(*src, file));
        checkSame(*src, *cached);
        QCOMPARE(cached->description(), src->description());
        QCOMPARE(cached->classNames(), src->classNames());
        QCOMPARE(cached->numClasses(), std::int64_t(4));

        const std::int64_t before = src->gets;
        auto again = cachedDataset(src, file);  // valid: mapped, not decoded again
        QCOMPARE(src->gets.load(), before);
        checkSame(*src, *again);

        // A loader over the cache gives the same batches as over the source.
        DatasetSpec spec = plainSpec(2);
        spec.sampler = "random";
        LoaderOptions opt;
        opt.batchSize = 32;
        Loader a(src, spec, {}, opt), b(again, spec, {}, opt);
        QVERIFY(epochBytes(a, 2) == epochBytes(b, 2));
    }

    void damagedOrStaleCacheIsRebuilt()
    {
        QTemporaryDir dir;
        const std::string file = dir.filePath("c.cache").toStdString();
        auto src = makeRandomDataset(50);
        cachedDataset(src, file);
        QCOMPARE(src->gets.load(), std::int64_t(50));
        auto corrupt = [&](std::streamoff offset) {
            std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
            f.seekg(offset);
            char c = 0;
            f.read(&c, 1);
            c = static_cast<char>(c ^ 0x5A);
            f.seekp(offset);
            f.write(&c, 1);
        };
        for (std::streamoff offset : {0, 16, 40, 130}) {  // magic, count, numClasses, description
            corrupt(offset);
            QVERIFY(!sampleCacheValid(*src, file));
            const std::int64_t before = src->gets;
            auto cached = cachedDataset(src, file);
            QCOMPARE(src->gets - before, std::int64_t(50));  // rebuilt
            QVERIFY(sampleCacheValid(*src, file));
            checkSame(*src, *cached);
        }
        // Truncated.
        std::filesystem::resize_file(file, std::filesystem::file_size(file) - 8);
        QVERIFY(!sampleCacheValid(*src, file));
        checkSame(*src, *cachedDataset(src, file));
        // Stale: the source changed (other labels, same size and shape).
        auto other = makeRandomDataset(50, 99);
        QVERIFY(!sampleCacheValid(*other, file));
        auto rebuilt = cachedDataset(other, file);
        QCOMPARE(other->gets.load(), std::int64_t(50));
        checkSame(*other, *rebuilt);
        // A build error propagates and leaves no file behind.
        auto broken = makeRandomDataset(20, 5);
        broken->throwAt = 7;
        const std::string brokenFile = dir.filePath("broken.cache").toStdString();
        QVERIFY_THROWS_EXCEPTION(DataError, cachedDataset(broken, brokenFile));
        QVERIFY(!std::filesystem::exists(brokenFile));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), qsizetype(1));  // no stray temporary
    }

private:
    // Random bit patterns (NaN payloads, -0, denormals included) and random labels.
    static std::shared_ptr<MemoryDataset> makeRandomDataset(std::int64_t n, std::uint64_t seed = 1)
    {
        std::mt19937_64 rng(seed);
        std::vector<std::int64_t> labels;
        for (std::int64_t i = 0; i < n; ++i) labels.push_back(static_cast<std::int64_t>(rng() % 4));
        auto ds = std::make_shared<MemoryDataset>(Shape{2, 3, 3}, labels, 4);
        ds->raw.resize(static_cast<std::size_t>(n * 18));
        for (auto& v : ds->raw) {
            const auto bits = static_cast<std::uint32_t>(rng());
            std::memcpy(&v, &bits, 4);
        }
        ds->raw[0] = -0.0f;
        return ds;
    }

    static void checkSame(const Dataset& a, const Dataset& b)
    {
        QCOMPARE(b.size(), a.size());
        QCOMPARE(b.sampleShape(), a.sampleShape());
        QCOMPARE(b.labels(), a.labels());
        const auto numel = static_cast<std::size_t>(a.sampleShape().numel());
        std::vector<float> x(numel), y(numel);
        for (std::int64_t i = 0; i < a.size(); ++i) {
            QCOMPARE(b.get(i, y.data()), a.get(i, x.data()));
            QVERIFY(std::memcmp(x.data(), y.data(), numel * 4) == 0);
        }
    }
};

QTEST_GUILESS_MAIN(TestLoader)
#include "tst_loader.moc"

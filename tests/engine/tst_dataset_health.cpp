// The dataset health check (data/dataset_health.h) on small generated data with planted
// problems: every planted duplicate, near duplicate, leak and damaged file is found, and clean
// random data gives no finding. The near-duplicate index is checked against all pairs.
#include <QTemporaryDir>
#include <QtTest>

#include <png.h>
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>

#include "data/dataset_health.h"
#include "data/dataset_health_index.h"
#include "data/image_folder_dataset.h"
#include "data/perceptual_hash.h"
#include "data/text_dataset.h"

using namespace ts;
namespace fs = std::filesystem;

namespace {

using Image = std::vector<std::uint8_t>;
constexpr int kSide = 28;

// A smooth random image: a few Gaussian blobs over a dark background, like a photographed
// object, so a perturbed copy behaves as it would on real data (pure noise would not).
Image smoothImage(std::mt19937& rng)
{
    std::uniform_real_distribution<double> pos(3, kSide - 3), size(2, 7), level(80, 250);
    std::vector<double> v(kSide * kSide, 0.0);
    for (int b = 0; b < 4; ++b) {
        const double cx = pos(rng), cy = pos(rng), s = size(rng), a = level(rng);
        for (int y = 0; y < kSide; ++y)
            for (int x = 0; x < kSide; ++x)
                v[y * kSide + x] += a * std::exp(-((x - cx) * (x - cx) + (y - cy) * (y - cy)) / (2 * s * s));
    }
    Image img(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) img[i] = std::uint8_t(std::clamp(v[i], 0.0, 255.0));
    return img;
}

Image brighter(Image img, int by)
{
    for (auto& p : img) p = std::uint8_t(std::clamp(int(p) + by, 0, 255));
    return img;
}

Image fewPixelsChanged(Image img, int count, std::mt19937& rng)
{
    std::uniform_int_distribution<int> at(0, kSide * kSide - 1);
    for (int i = 0; i < count; ++i) {
        auto& p = img[std::size_t(at(rng))];
        p = std::uint8_t(p > 127 ? p - 60 : p + 60);
    }
    return img;
}

// Images in memory as a Dataset; `throwAt` samples throw DataError as a damaged file would.
class MemoryImages : public Dataset {
public:
    MemoryImages(std::vector<Image> images, std::vector<std::int64_t> labels, int classes, std::string name,
                 std::set<std::int64_t> throwAt = {})
        : images_(std::move(images)), labels_(std::move(labels)), classes_(classes), name_(std::move(name)),
          throwAt_(std::move(throwAt))
    {
    }
    std::int64_t size() const override { return std::int64_t(images_.size()); }
    Shape sampleShape() const override { return Shape{1, kSide, kSide}; }
    std::int64_t numClasses() const override { return classes_; }
    std::vector<std::string> classNames() const override
    {
        std::vector<std::string> n;
        for (int c = 0; c < classes_; ++c) n.push_back("c" + std::to_string(c));
        return n;
    }
    std::int64_t get(std::int64_t index, float* out) const override
    {
        if (throwAt_.count(index)) throw DataError(name_ + ".bin", 1000 + index, name_ + ".bin: byte " + std::to_string(1000 + index) + ": damaged");
        for (std::size_t i = 0; i < images_[std::size_t(index)].size(); ++i) out[i] = images_[std::size_t(index)][i] / 255.0f;
        return labels_[std::size_t(index)];
    }
    const std::vector<std::int64_t>& labels() const override { return labels_; }
    std::string description() const override { return name_; }

private:
    std::vector<Image> images_;
    std::vector<std::int64_t> labels_;
    int classes_;
    std::string name_;
    std::set<std::int64_t> throwAt_;
};

std::uint64_t hashOf(const Image& img)
{
    std::vector<float> f(img.size());
    for (std::size_t i = 0; i < img.size(); ++i) f[i] = img[i] / 255.0f;
    return perceptualHash(f.data(), 1, kSide, kSide);
}

// Findings of a kind as (split, sample, other split, other sample).
using Pair = std::tuple<std::string, std::int64_t, std::string, std::int64_t>;
std::set<Pair> pairsOf(const HealthReport& r, FindingKind kind)
{
    std::set<Pair> out;
    for (const HealthFinding& f : r.findings)
        if (f.kind == kind) out.insert({f.split, f.sample, f.otherSplit, f.otherSample});
    return out;
}

std::int64_t countOf(const HealthReport& r, FindingKind kind, const std::string& split)
{
    std::int64_t n = 0;
    for (const HealthCount& c : r.counts)
        if (c.kind == kind && c.split == split) n += c.count;
    return n;
}

void writePng(const std::string& path, int channels, const Image& grey)
{
    fs::create_directories(fs::path(path).parent_path());
    Image pixels;
    for (auto p : grey)
        for (int c = 0; c < channels; ++c) pixels.push_back(p);
    png_image image{};
    image.version = PNG_IMAGE_VERSION;
    image.width = kSide;
    image.height = kSide;
    image.format = channels == 1 ? PNG_FORMAT_GRAY : PNG_FORMAT_RGB;
    QVERIFY(png_image_write_to_file(&image, path.c_str(), 0, pixels.data(), 0, nullptr));
}

std::string fileBytes(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

void writeText(const std::string& path, const std::string& text)
{
    std::ofstream(path, std::ios::binary) << text;
}

}  // namespace

class TestDatasetHealth : public QObject {
    Q_OBJECT
private slots:
    // Brightness shifts and a few changed pixels: 95% within the default 4 bits (the median
    // split sets 32 bits, so distances are even), 99% within 8, and their thumbnails
    // agree; unrelated images whose hashes come close have thumbnails far apart.
    void perceptualHashIsStableUnderSmallChanges()
    {
        std::mt19937 rng(1);
        int within4 = 0, within8 = 0, worstNear = 0, perturbed = 0;
        double worstThumb = 0, closestUnrelatedThumb = 255;
        std::vector<std::uint64_t> hashes;
        std::vector<std::vector<std::uint8_t>> thumbs;
        auto hashWithThumb = [](const Image& img, std::vector<std::uint8_t>& t) {
            std::vector<float> f(img.size());
            for (std::size_t i = 0; i < img.size(); ++i) f[i] = img[i] / 255.0f;
            t.resize(kThumbnailSide * kThumbnailSide);
            return perceptualHash(f.data(), 1, kSide, kSide, t.data());
        };
        for (int i = 0; i < 300; ++i) {
            const Image img = smoothImage(rng);
            std::vector<std::uint8_t> t, tb, tp;
            const std::uint64_t h = hashWithThumb(img, t);
            for (const Image& copy : {brighter(img, 12), fewPixelsChanged(img, 3, rng)}) {
                std::vector<std::uint8_t> tc;
                const int d = hammingDistance(h, hashWithThumb(copy, tc));
                within4 += d <= 4;
                within8 += d <= 8;
                ++perturbed;
                worstNear = std::max(worstNear, d);
                worstThumb = std::max(worstThumb, thumbnailDifference(t.data(), tc.data()));
            }
            for (std::size_t o = 0; o < hashes.size(); ++o)
                if (hammingDistance(h, hashes[o]) <= 8)
                    closestUnrelatedThumb = std::min(closestUnrelatedThumb, thumbnailDifference(t.data(), thumbs[o].data()));
            hashes.push_back(h);
            thumbs.push_back(t);
        }
        qInfo("perturbed copies: %d of %d within 4 bits, worst %d bits, thumbnails within %.2f; unrelated pairs within "
              "8 bits: thumbnails differ by %.2f or more", within4, perturbed, worstNear, worstThumb, closestUnrelatedThumb);
        QVERIFY(within4 >= perturbed * 9 / 10);
        QVERIFY(within8 >= perturbed * 99 / 100);
        QVERIFY(worstThumb <= HealthOptions{}.nearThumbnailDifference);
        QVERIFY(closestUnrelatedThumb > HealthOptions{}.nearThumbnailDifference);
        // A flat shift of every pixel moves only the DC term, which the hash leaves out.
        std::vector<float> flat(kSide * kSide), shifted(kSide * kSide);
        for (int i = 0; i < kSide * kSide; ++i) flat[i] = float((i * 37) % 101) / 200.0f, shifted[i] = flat[i] + 0.25f;
        QCOMPARE(perceptualHash(shifted.data(), 1, kSide, kSide), perceptualHash(flat.data(), 1, kSide, kSide));
    }

    // Multi-index hashing finds exactly the pairs an all-pairs scan finds.
    void nearPairsEqualAllPairs()
    {
        std::mt19937_64 rng(7);
        std::vector<std::uint64_t> hashes;
        for (int i = 0; i < 1500; ++i) hashes.push_back(rng());
        // Planted neighbours at 0..8 bits, and a cluster of 30 near-identical hashes.
        std::uniform_int_distribution<int> bit(0, 63);
        for (int i = 0; i < 300; ++i) {
            std::uint64_t h = hashes[std::size_t(i)];
            for (int k = 0, flips = i % 9; k < flips; ++k) h ^= std::uint64_t(1) << bit(rng);
            hashes.push_back(h);
        }
        for (int i = 0; i < 30; ++i) hashes.push_back(hashes[5] ^ (std::uint64_t(1) << (i % 3)));
        std::vector<std::uint8_t> groups;
        for (std::size_t i = 0; i < hashes.size(); ++i) groups.push_back(std::uint8_t(i % 2));
        for (int d : {0, 1, 3, 4, 6}) {
            std::vector<NearPair> expected;
            std::vector<std::int64_t> expectedGroups(4, 0);
            for (std::size_t a = 0; a < hashes.size(); ++a)
                for (std::size_t b = a + 1; b < hashes.size(); ++b) {
                    const int dist = hammingDistance(hashes[a], hashes[b]);
                    if (dist > d) continue;
                    expected.push_back({std::int64_t(a), std::int64_t(b), dist});
                    ++expectedGroups[std::min(groups[a], groups[b]) * 2 + std::max(groups[a], groups[b])];
                }
            std::sort(expected.begin(), expected.end(), [](const NearPair& x, const NearPair& y) {
                return std::tie(x.distance, x.a, x.b) < std::tie(y.distance, y.a, y.b);
            });
            NearStats stats;
            const std::vector<NearPair> found = findNearPairs(hashes, d, 0, groups, &stats);
            QCOMPARE(found.size(), expected.size());
            QVERIFY(found == expected);
            QCOMPARE(stats.pairs, std::int64_t(expected.size()));
            QCOMPARE(stats.groupPairs, expectedGroups);
            // Capped: the closest pairs are kept, the counts stay exact.
            const std::vector<NearPair> capped = findNearPairs(hashes, d, 50, groups, &stats);
            const std::vector<NearPair> head(expected.begin(), expected.begin() + std::min<std::size_t>(50, expected.size()));
            QVERIFY(capped == head);
            QCOMPARE(stats.pairs, std::int64_t(expected.size()));
        }
    }

    // Every planted exact duplicate, leak and near duplicate is found, and nothing else.
    void plantedDuplicatesAndLeaks()
    {
        std::mt19937 rng(3);
        std::vector<Image> train, test;
        std::vector<std::int64_t> trainLabels, testLabels;
        for (int i = 0; i < 400; ++i) train.push_back(smoothImage(rng)), trainLabels.push_back(i % 4);
        for (int i = 0; i < 100; ++i) test.push_back(smoothImage(rng)), testLabels.push_back(i % 4);
        // Within train: 400 = 10 (exact), 401 = 10 (exact, a third copy), 402 ~ 40 (pixels), 403 ~ 50 (brighter).
        train.push_back(train[10]), train.push_back(train[10]);
        train.push_back(fewPixelsChanged(train[40], 3, rng)), train.push_back(brighter(train[50], 10));
        // Across splits: test 100 = train 20, test 101 ~ train 30, test 102 = test 5 (within test).
        test.push_back(train[20]), test.push_back(brighter(train[30], 8)), test.push_back(test[5]);
        for (int i = 0; i < 4; ++i) trainLabels.push_back(0);
        for (int i = 0; i < 3; ++i) testLabels.push_back(0);

        DatasetFiles files;
        files.train = std::make_shared<MemoryImages>(train, trainLabels, 4, "train");
        files.test = std::make_shared<MemoryImages>(test, testLabels, 4, "test");
        const HealthReport r = checkDatasetHealth(files);

        QCOMPARE(pairsOf(r, FindingKind::ExactDuplicate),
                 (std::set<Pair>{{"train", 400, "train", 10}, {"train", 401, "train", 10}, {"test", 102, "test", 5}}));
        QCOMPARE(pairsOf(r, FindingKind::ExactLeak), (std::set<Pair>{{"test", 100, "train", 20}}));
        QCOMPARE(pairsOf(r, FindingKind::NearDuplicate), (std::set<Pair>{{"train", 402, "train", 40}, {"train", 403, "train", 50}}));
        QCOMPARE(pairsOf(r, FindingKind::NearLeak), (std::set<Pair>{{"test", 101, "train", 30}}));
        QCOMPARE(r.total(FindingKind::Unreadable), std::int64_t(0));
        QCOMPARE(countOf(r, FindingKind::ExactDuplicate, "train"), std::int64_t(2));
        QCOMPARE(countOf(r, FindingKind::ExactLeak, "test"), std::int64_t(1));
        for (const HealthCount& c : r.counts)
            if (c.kind == FindingKind::ExactDuplicate && c.split == "train") QCOMPARE(c.samples, std::int64_t(3));  // 10, 400, 401
        for (const HealthFinding& f : r.findings)
            if (f.kind == FindingKind::NearDuplicate || f.kind == FindingKind::NearLeak) QVERIFY(f.value <= 4);
        QCOMPARE(r.perceptualHash, std::string("dct64"));
        QCOMPARE(r.nearThreshold, 4);
    }

    // Clean random data: no duplicate of any kind, no imbalance finding for balanced classes.
    void cleanDataHasNoFindings()
    {
        std::mt19937 rng(11);
        std::vector<Image> train, test;
        std::vector<std::int64_t> trainLabels, testLabels;
        for (int i = 0; i < 1200; ++i) train.push_back(smoothImage(rng)), trainLabels.push_back(i % 3);
        for (int i = 0; i < 300; ++i) test.push_back(smoothImage(rng)), testLabels.push_back(i % 3);
        DatasetFiles files;
        files.train = std::make_shared<MemoryImages>(train, trainLabels, 3, "train");
        files.test = std::make_shared<MemoryImages>(test, testLabels, 3, "test");
        std::int64_t lastDone = -1, total = 0;
        const HealthReport r = checkDatasetHealth(files, {}, [&](std::int64_t done, std::int64_t all, const Message&) {
            if (all == 1500) lastDone = done, total = all;
            return true;
        });
        QVERIFY2(r.findings.empty(), r.findings.empty() ? "" : r.findings[0].detail.c_str());
        QVERIFY(r.counts.empty());
        QCOMPARE(lastDone, std::int64_t(1500));
        QCOMPARE(total, std::int64_t(1500));
        QCOMPARE(r.splits.size(), std::size_t(2));
        QCOMPARE(r.splits[0].classCounts, (std::vector<std::int64_t>{400, 400, 400}));
        QCOMPARE(r.splits[0].imbalanceRatio, 1.0);
        QCOMPARE(r.splits[0].suggestedClassWeights, (std::vector<double>{1.0, 1.0, 1.0}));
    }

    // Class counts, the ratio and the suggested weights n / (k * count_c).
    void classImbalance()
    {
        std::mt19937 rng(5);
        std::vector<Image> train;
        std::vector<std::int64_t> labels;
        const int counts[3] = {60, 30, 10};
        for (int c = 0; c < 3; ++c)
            for (int i = 0; i < counts[c]; ++i) train.push_back(smoothImage(rng)), labels.push_back(c);
        DatasetFiles files;
        files.train = std::make_shared<MemoryImages>(train, labels, 4, "train");  // class 3 has no sample
        HealthReport r = checkDatasetHealth(files);
        QCOMPARE(r.splits[0].classCounts, (std::vector<std::int64_t>{60, 30, 10, 0}));
        QVERIFY(std::isinf(r.splits[0].imbalanceRatio));
        const std::vector<double> w = r.splits[0].suggestedClassWeights;  // 100 / (3 * count)
        QCOMPARE(w.size(), std::size_t(4));
        QVERIFY(std::abs(w[0] - 100.0 / 180) < 1e-12 && std::abs(w[1] - 100.0 / 90) < 1e-12 && std::abs(w[2] - 100.0 / 30) < 1e-12);
        QCOMPARE(w[3], 0.0);
        QCOMPARE(pairsOf(r, FindingKind::ClassImbalance).size(), std::size_t(1));

        files.train = std::make_shared<MemoryImages>(train, labels, 3, "train");
        r = checkDatasetHealth(files);
        QCOMPARE(r.splits[0].imbalanceRatio, 6.0);
        const auto f = std::find_if(r.findings.begin(), r.findings.end(),
                                    [](const HealthFinding& x) { return x.kind == FindingKind::ClassImbalance; });
        QVERIFY(f != r.findings.end());
        QCOMPARE(f->value, 6.0);
        QVERIFY(f->detail.find("class_balanced") != std::string::npos);
        HealthOptions lenient;
        lenient.imbalanceRatio = 7;
        QVERIFY(pairsOf(checkDatasetHealth(files, lenient), FindingKind::ClassImbalance).empty());
    }

    // A language model's blocks have no classes (their labels are each block's last next
    // token): no class counts and no class_imbalance finding, however skewed those tokens are.
    void languageModelDataHasNoClassBalance()
    {
        QTemporaryDir dir;
        std::string text;
        for (int i = 0; i < 400; ++i) text += i % 7 ? "aaaa" : "ab\n";  // 'a' ends most blocks
        writeText(dir.filePath("corpus.txt").toStdString(), text);
        DatasetFiles files;
        files.train = std::make_shared<TextDataset>(dir.filePath("corpus.txt").toStdString(), "characters", 8);
        const HealthReport r = checkDatasetHealth(files);
        QVERIFY(r.splits[0].classCounts.empty());
        QVERIFY(r.splits[0].suggestedClassWeights.empty());
        QVERIFY(pairsOf(r, FindingKind::ClassImbalance).empty());
    }

    // Damaged samples are counted per cause with their file and position; the check goes on
    // and still finds a duplicate among the readable ones.
    void damagedSamplesInMemory()
    {
        std::mt19937 rng(9);
        std::vector<Image> train;
        std::vector<std::int64_t> labels;
        for (int i = 0; i < 50; ++i) train.push_back(smoothImage(rng)), labels.push_back(i % 2);
        train.push_back(train[3]), labels.push_back(0);
        DatasetFiles files;
        files.train = std::make_shared<MemoryImages>(train, labels, 2, "train", std::set<std::int64_t>{7, 20});
        const HealthReport r = checkDatasetHealth(files);
        std::vector<HealthFinding> bad;
        for (const auto& f : r.findings)
            if (f.kind == FindingKind::Unreadable) bad.push_back(f);
        QCOMPARE(bad.size(), std::size_t(2));
        QCOMPARE(bad[0].sample, std::int64_t(7));
        QCOMPARE(bad[0].file, std::string("train.bin"));
        QCOMPARE(bad[0].position, std::int64_t(1007));
        QCOMPARE(bad[1].sample, std::int64_t(20));
        QCOMPARE(pairsOf(r, FindingKind::ExactDuplicate), (std::set<Pair>{{"train", 50, "train", 3}}));
    }

    // An image folder: a re-encoded copy (RGB PNG of a grey one) is an exact duplicate; a
    // truncated PNG, a text file named .png and a test copy are found, with the files.
    void imageFolderDamageAndReencodedCopies()
    {
        QTemporaryDir tmp;
        const std::string root = tmp.path().toStdString() + "/shapes";
        std::mt19937 rng(13);
        std::vector<Image> imgs;
        for (int i = 0; i < 24; ++i) imgs.push_back(smoothImage(rng));
        for (int i = 0; i < 20; ++i) writePng(root + "/train/" + (i % 2 ? "b" : "a") + "/img" + std::to_string(10 + i) + ".png", 1, imgs[std::size_t(i)]);
        writePng(root + "/train/a/zcopy.png", 3, imgs[4]);  // the same pixels, encoded as RGB
        const std::string truncated = root + "/train/b/broken.png";
        writePng(truncated, 1, imgs[21]);
        const std::string whole = fileBytes(truncated);
        writeText(truncated, whole.substr(0, whole.size() / 2));
        writeText(root + "/train/a/notes.png", "not an image at all");
        writePng(root + "/test/a/t0.png", 1, imgs[22]);
        writePng(root + "/test/b/t1.png", 1, imgs[6]);  // a leak

        DatasetSpec spec;
        spec.format = "image_folder";
        spec.path = root;
        spec.imageShape = {1, kSide, kSide};
        const DatasetFiles files = openDatasetFiles(spec, "");
        const HealthReport r = checkDatasetHealth(files);
        std::map<std::string, std::string> causes;  // file -> cause
        for (const auto& f : r.findings)
            if (f.kind == FindingKind::Unreadable) causes[fs::path(f.file).filename().string()] = f.cause;
        QCOMPARE(causes, (std::map<std::string, std::string>{{"broken.png", "damaged_png"}, {"notes.png", "not_an_image"}}));
        QCOMPARE(r.total(FindingKind::Unreadable), std::int64_t(2));
        auto trainIndex = [&](const std::string& name) {
            const auto& list = static_cast<const ImageFolderDataset&>(*files.train).files();
            for (std::size_t i = 0; i < list.size(); ++i)
                if (fs::path(list[i]).filename() == name) return std::int64_t(i);
            return std::int64_t(-1);
        };
        QCOMPARE(pairsOf(r, FindingKind::ExactDuplicate), (std::set<Pair>{{"train", trainIndex("zcopy.png"), "train", trainIndex("img14.png")}}));
        QCOMPARE(pairsOf(r, FindingKind::ExactLeak), (std::set<Pair>{{"test", 1, "train", trainIndex("img16.png")}}));
        QVERIFY(pairsOf(r, FindingKind::NearDuplicate).empty());
        QVERIFY(pairsOf(r, FindingKind::NearLeak).empty());
        // Each pair names both files, as the reader lists them.
        std::map<FindingKind, std::pair<std::string, std::string>> pairFiles;
        for (const auto& f : r.findings)
            if (isPairKind(f.kind)) pairFiles[f.kind] = {f.file, f.otherFile};
        QCOMPARE(pairFiles[FindingKind::ExactDuplicate], std::pair(root + "/train/a/zcopy.png", root + "/train/a/img14.png"));
        QCOMPARE(pairFiles[FindingKind::ExactLeak], std::pair(root + "/test/b/t1.png", root + "/train/a/img16.png"));
    }

    // Tables: ragged rows, missing cells, constant and near-constant features, a label with
    // too many classes, described from the records even though the reader refuses the file.
    void tableChecks()
    {
        QTemporaryDir tmp;
        const std::string path = tmp.path().toStdString() + "/t.csv";
        std::string csv = "id,x,flat,mostly,y\n";
        for (int i = 0; i < 200; ++i) {
            csv += std::to_string(i) + "," + std::to_string(i * 0.5) + ",7," + (i == 0 ? "1" : "0") + "," + std::to_string(i % 3);
            if (i == 10) csv += ",extra";  // line 12: a ragged row
            csv += "\n";
        }
        csv += "200,,7,0,1\n201,NA,7,0,2\n";  // lines 202, 203: missing x
        writeText(path, csv);
        TableSource table{path, "y", "", {}};
        DatasetFiles none;
        const HealthReport r = checkDatasetHealth(none, {}, {}, &table, "refused");
        QCOMPARE(r.openError, std::string("refused"));
        QVERIFY(r.table);
        std::map<FindingKind, std::vector<HealthFinding>> by;
        for (const auto& f : r.findings) by[f.kind].push_back(f);
        QCOMPARE(by[FindingKind::RaggedRow].size(), std::size_t(1));
        QCOMPARE(by[FindingKind::RaggedRow][0].position, std::int64_t(12));
        QCOMPARE(by[FindingKind::RaggedRow][0].sample, std::int64_t(10));
        QCOMPARE(by[FindingKind::MissingValues].size(), std::size_t(1));
        QCOMPARE(by[FindingKind::MissingValues][0].column, std::string("x"));
        QCOMPARE(by[FindingKind::MissingValues][0].value, 2.0);
        QCOMPARE(by[FindingKind::MissingValues][0].position, std::int64_t(202));
        QCOMPARE(by[FindingKind::ConstantFeature].size(), std::size_t(1));
        QCOMPARE(by[FindingKind::ConstantFeature][0].column, std::string("flat"));
        QCOMPARE(by[FindingKind::NearConstantFeature].size(), std::size_t(1));
        QCOMPARE(by[FindingKind::NearConstantFeature][0].column, std::string("mostly"));
        QVERIFY(by[FindingKind::TooManyClasses].empty());  // y has 3 classes

        // The id as the label: 201 classes in 201 rows.
        TableSource byId{path, "id", "", {"x"}};
        const HealthReport ids = checkDatasetHealth(none, {}, {}, &byId);
        const auto many = std::find_if(ids.findings.begin(), ids.findings.end(),
                                       [](const HealthFinding& f) { return f.kind == FindingKind::TooManyClasses; });
        QVERIFY(many != ids.findings.end());
        QCOMPARE(many->value, 201.0);
        QVERIFY(std::none_of(ids.findings.begin(), ids.findings.end(),
                             [](const HealthFinding& f) { return f.kind == FindingKind::ConstantFeature; }));  // flat is no feature
    }

    // A stop request ends the check between blocks.
    void stops()
    {
        std::mt19937 rng(2);
        std::vector<Image> train(9000, smoothImage(rng));
        DatasetFiles files;
        files.train = std::make_shared<MemoryImages>(train, std::vector<std::int64_t>(train.size(), 0), 1, "train");
        int calls = 0;
        QVERIFY_THROWS_EXCEPTION(HealthCheckStopped, checkDatasetHealth(files, {}, [&](std::int64_t, std::int64_t, const Message&) {
            return ++calls < 2;
        }));
        QCOMPARE(calls, 2);
    }

    void kindNamesRoundTrip()
    {
        for (int k = 0; k < kFindingKinds; ++k)
            QCOMPARE(findingKindFromName(findingKindName(FindingKind(k))), std::optional<FindingKind>(FindingKind(k)));
        QVERIFY(!findingKindFromName("nonsense"));
    }
};

QTEST_GUILESS_MAIN(TestDatasetHealth)
#include "tst_dataset_health.moc"

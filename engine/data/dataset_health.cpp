// checkDatasetHealth: one decoding pass over every split (hashes, unreadable samples), then
// exact groups, near pairs among the groups' representatives, class balance; the table checks
// are in dataset_health_table.cpp.
#include "data/dataset_health.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <set>

#include "data/data_files.h"
#include "data/dataset_health_index.h"
#include "data/dataset_health_parts.h"
#include "data/dataset_statistics.h"
#include "data/perceptual_hash.h"
#include "tensor/quote_text.h"

namespace ts {
namespace fs = std::filesystem;
namespace {

const char* const kKindNames[kFindingKinds] = {
    "unreadable",      "exact_duplicate",       "exact_leak",       "near_duplicate", "near_leak", "class_imbalance",
    "constant_feature", "near_constant_feature", "too_many_classes", "missing_values", "ragged_row",
};

struct Split {
    std::string name;
    const Dataset* data;
};

// What one sample gave in the decoding pass.
struct SampleHash {
    std::uint64_t exact = 0, perceptual = 0;
    bool ok = false;
};

// A 64-bit hash of the decoded values' bytes (exact duplicates; confirmed by comparing values).
std::uint64_t valueHash(const float* values, std::size_t count)
{
    std::uint64_t h = 0x9E3779B97F4A7C15ull ^ count;
    const auto* bytes = reinterpret_cast<const unsigned char*>(values);
    const std::size_t n = count * sizeof(float);
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        std::uint64_t w;
        std::memcpy(&w, bytes + i, 8);
        h = (h ^ w) * 0xBF58476D1CE4E5B9ull;
        h ^= h >> 31;
    }
    for (; i < n; ++i) h = (h ^ bytes[i]) * 0x100000001B3ull;
    h ^= h >> 30;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 27;
    h *= 0x94D049BB133111EBull;
    return h ^ (h >> 31);
}

// The kind of damage, from the reader's message (data/image_decode.cpp, data_files.cpp words them).
std::string causeOf(const std::string& message)
{
    if (message.find("not an image TrainStudio reads") != std::string::npos) return "not_an_image";
    if (message.find("CMYK") != std::string::npos) return "unsupported_image";
    if (message.find("PNG") != std::string::npos) return "damaged_png";
    if (message.find("JPEG") != std::string::npos) return "damaged_jpeg";
    if (message.find("gzip") != std::string::npos) return "damaged_gzip";
    if (message.find("pixels") != std::string::npos && message.find("large") != std::string::npos) return "image_too_large";
    return "unreadable";
}

void reportProgress(const HealthProgress& progress, std::int64_t done, std::int64_t total, const Message& what)
{
    if (progress && !progress(done, total, what)) throw HealthCheckStopped();
}

// One pass over a split: hashes per sample; damaged samples become findings (in index order).
std::vector<SampleHash> hashSplit(const Split& split, bool images, std::vector<std::uint8_t>& thumbnails,
                                  std::vector<HealthFinding>& unreadable, const HealthProgress& progress,
                                  std::int64_t& done, std::int64_t total)
{
    constexpr std::size_t kThumb = kThumbnailSide * kThumbnailSide;
    if (images) thumbnails.assign(static_cast<std::size_t>(split.data->size()) * kThumb, 0);
    const Dataset& d = *split.data;
    const std::int64_t n = d.size();
    const Shape shape = d.sampleShape();
    const std::size_t numel = static_cast<std::size_t>(shape.numel());
    std::vector<SampleHash> out(static_cast<std::size_t>(n));
    std::vector<HealthFinding> damaged;
    constexpr std::int64_t kBlock = 4096;  // progress and stop between blocks, on this thread
    for (std::int64_t begin = 0; begin < n; begin += kBlock) {
        const std::int64_t end = std::min(n, begin + kBlock);
#pragma omp parallel
        {
            std::vector<float> values(numel);
#pragma omp for schedule(dynamic, 64)
            for (std::int64_t i = begin; i < end; ++i) {
                HealthFinding f;
                try {
                    d.get(i, values.data());
                    const bool finite = std::all_of(values.begin(), values.end(), [](float v) { return std::isfinite(v); });
                    if (finite) {
                        SampleHash& h = out[std::size_t(i)];
                        h.exact = valueHash(values.data(), numel);
                        if (images)
                            h.perceptual = perceptualHash(values.data(), int(shape[0]), int(shape[1]), int(shape[2]),
                                                          thumbnails.data() + std::size_t(i) * kThumb);
                        h.ok = true;
                        continue;
                    }
                    f.cause = "non_finite";
                    f.detail = "sample " + std::to_string(i) + " holds a value that is not finite (NaN or infinity)";
                } catch (const DataError& e) {
                    f.cause = causeOf(e.what());
                    f.file = e.file();
                    f.position = e.position();
                    f.detail = e.what();
                } catch (const std::exception& e) {
                    f.cause = "unreadable";
                    f.detail = e.what();
                }
                f.kind = FindingKind::Unreadable;
                f.split = split.name;
                f.sample = i;
                f.value = -1;
#pragma omp critical(health_damaged)
                damaged.push_back(std::move(f));
            }
        }
        done += end - begin;
        reportProgress(progress, done, total, makeMessage(MessageId::DataCheckReading, {split.name}));
    }
    std::sort(damaged.begin(), damaged.end(), [](const HealthFinding& a, const HealthFinding& b) { return a.sample < b.sample; });
    unreadable.insert(unreadable.end(), damaged.begin(), damaged.end());
    return out;
}

struct Item {
    int split;
    std::int64_t index;
};

bool sameValues(const Split& a, std::int64_t i, const Split& b, std::int64_t j)
{
    const std::size_t n = static_cast<std::size_t>(a.data->sampleShape().numel());
    std::vector<float> x(n), y(n);
    a.data->get(i, x.data());
    b.data->get(j, y.data());
    return std::memcmp(x.data(), y.data(), n * sizeof(float)) == 0;
}

SplitHealth splitHealth(const Split& s)
{
    SplitHealth h;
    h.split = s.name;
    h.description = s.data->description();
    h.samples = s.data->size();
    // A language model's "labels" are each block's last next token (data/text_dataset.h), not
    // classes of its samples: there is no balance to count or weights to suggest.
    if (s.data->targetShape().rank() > 0) return h;
    h.classCounts.assign(static_cast<std::size_t>(std::max<std::int64_t>(s.data->numClasses(), 0)), 0);
    for (std::int64_t label : s.data->labels())
        if (label >= 0 && label < std::int64_t(h.classCounts.size())) ++h.classCounts[std::size_t(label)];
    if (!h.classCounts.empty()) {
        const auto [lo, hi] = std::minmax_element(h.classCounts.begin(), h.classCounts.end());
        h.imbalanceRatio = *lo == 0 ? (*hi == 0 ? 1.0 : std::numeric_limits<double>::infinity()) : double(*hi) / double(*lo);
    }
    h.suggestedClassWeights = balancedClassWeights(h.classCounts);
    return h;
}

std::string countText(std::int64_t n)
{
    return std::to_string(n);
}

}  // namespace

const char* findingKindName(FindingKind kind)
{
    const int i = static_cast<int>(kind);
    return i >= 0 && i < kFindingKinds ? kKindNames[i] : "unknown";
}

std::optional<FindingKind> findingKindFromName(const std::string& name)
{
    for (int i = 0; i < kFindingKinds; ++i)
        if (name == kKindNames[i]) return static_cast<FindingKind>(i);
    return std::nullopt;
}

std::int64_t HealthReport::total(FindingKind kind) const
{
    std::int64_t n = 0;
    for (const HealthCount& c : counts)
        if (c.kind == kind) n += c.count;
    return n;
}

std::vector<double> balancedClassWeights(const std::vector<std::int64_t>& counts)
{
    std::int64_t n = 0, k = 0;
    for (std::int64_t c : counts)
        if (c > 0) n += c, ++k;
    std::vector<double> w(counts.size(), 0.0);
    for (std::size_t i = 0; i < counts.size(); ++i)
        if (counts[i] > 0) w[i] = double(n) / (double(k) * double(counts[i]));
    return w;
}

std::string datasetFingerprint(const std::vector<std::string>& files)
{
    std::string all;
    for (const std::string& s : files) all += fileFingerprint(s) + '\n';
    return hashHex(all) + "-" + std::to_string(files.size());
}

std::string datasetFingerprint(const DatasetFiles& files)
{
    // Normalised, so the listing of the folder and the readers' names of the same file agree:
    // the fingerprint of a folder dataset is then the same before it is opened (the job's
    // fast path) and after.
    const auto normal = [](const std::string& p) { return fs::path(p).lexically_normal().string(); };
    std::set<std::string> all;
    for (const std::string& s : files.sources) all.insert(normal(s));
    std::error_code ec;
    if (!files.path.empty() && fs::is_directory(files.path, ec)) {
        for (auto it = fs::recursive_directory_iterator(files.path, fs::directory_options::skip_permission_denied, ec);
             !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
            if (it->is_regular_file(ec)) all.insert(normal(it->path().string()));
    } else if (!files.path.empty() && fs::is_regular_file(files.path, ec)) {
        all.insert(normal(files.path));  // a CSV file
    }
    return datasetFingerprint(std::vector<std::string>(all.begin(), all.end()));
}

HealthReport checkDatasetHealth(const DatasetFiles& files, const HealthOptions& options, const HealthProgress& progress,
                                const TableSource* table, const std::string& openError)
{
    const auto start = std::chrono::steady_clock::now();
    HealthReport report;
    report.openError = openError;
    report.nearThreshold = options.nearThreshold;
    report.nearThumbnailDifference = options.nearThumbnailDifference;
    std::vector<HealthFinding> findings;

    std::vector<Split> splits;
    if (files.train) splits.push_back({"train", files.train.get()});
    if (files.train && files.test) splits.push_back({"test", files.test.get()});
    if (!splits.empty()) {
        const Shape shape = files.train->sampleShape();
        report.images = shape.rank() == 3 && shape[1] > 1 && shape[2] > 1;
        if (report.images) report.perceptualHash = "dct64";
        report.classNames = files.train->classNames();
        std::int64_t total = 0, done = 0;
        for (const Split& s : splits) total += s.data->size(), report.splits.push_back(splitHealth(s));
        reportProgress(progress, 0, total, makeMessage(MessageId::DataCheckReading, {splits[0].name}));

        // 1. Decode every sample once: hashes, and the samples that cannot be read.
        std::vector<std::vector<SampleHash>> hashes;
        std::vector<std::vector<std::uint8_t>> thumbnails(splits.size());
        for (std::size_t s = 0; s < splits.size(); ++s)
            hashes.push_back(hashSplit(splits[s], report.images, thumbnails[s], findings, progress, done, total));

        // 2. Exact duplicates: equal value hashes, confirmed by comparing the values. Within each
        // group the first sample of each split is that split's kept one; the group's first
        // (train before test) is what leaked copies pair with.
        std::vector<std::pair<std::uint64_t, Item>> byHash;
        for (int s = 0; s < int(splits.size()); ++s)
            for (std::int64_t i = 0; i < std::int64_t(hashes[std::size_t(s)].size()); ++i)
                if (hashes[std::size_t(s)][std::size_t(i)].ok) byHash.push_back({hashes[std::size_t(s)][std::size_t(i)].exact, {s, i}});
        std::sort(byHash.begin(), byHash.end(), [](const auto& a, const auto& b) {
            return a.first != b.first ? a.first < b.first
                                      : a.second.split != b.second.split ? a.second.split < b.second.split
                                                                         : a.second.index < b.second.index;
        });
        std::vector<Item> representatives;  // one per distinct value: what the near search sees
        std::vector<HealthFinding> exact;
        for (std::size_t b = 0, e = 0; b < byHash.size(); b = e) {
            e = b + 1;
            while (e < byHash.size() && byHash[e].first == byHash[b].first) ++e;
            const Item first = byHash[b].second;
            representatives.push_back(first);
            std::map<int, Item> splitFirst{{first.split, first}};
            for (std::size_t k = b + 1; k < e; ++k) {
                const Item it = byHash[k].second;
                const Split &a = splits[std::size_t(first.split)], &o = splits[std::size_t(it.split)];
                if (!sameValues(a, first.index, o, it.index)) {  // a 64-bit collision: a value of its own
                    representatives.push_back(it);
                    continue;
                }
                HealthFinding f;
                f.split = o.name;
                f.sample = it.index;
                auto own = splitFirst.find(it.split);
                if (own == splitFirst.end()) {  // the first copy in another split: leaked
                    splitFirst[it.split] = it;
                    f.kind = FindingKind::ExactLeak;
                    f.otherSplit = a.name;
                    f.otherSample = first.index;
                    f.detail = o.name + " sample " + countText(it.index) + " equals " + a.name + " sample " + countText(first.index);
                } else {
                    f.kind = FindingKind::ExactDuplicate;
                    f.otherSplit = o.name;
                    f.otherSample = own->second.index;
                    f.detail = o.name + " sample " + countText(it.index) + " equals sample " + countText(own->second.index);
                    if (it.split != first.split) {  // a further copy of a leaked sample leaks too
                        HealthFinding leak = f;
                        leak.kind = FindingKind::ExactLeak;
                        leak.otherSplit = a.name;
                        leak.otherSample = first.index;
                        leak.detail = o.name + " sample " + countText(it.index) + " equals " + a.name + " sample " +
                                      countText(first.index);
                        exact.push_back(std::move(leak));
                    }
                }
                exact.push_back(std::move(f));
            }
        }
        findings.insert(findings.end(), exact.begin(), exact.end());
        reportProgress(progress, done, total, makeMessage(MessageId::DataCheckNear));

        // 3. Near duplicates among the distinct values (exact copies are not reported again).
        if (report.images) {
            std::sort(representatives.begin(), representatives.end(),
                      [](const Item& a, const Item& b) { return a.split != b.split ? a.split < b.split : a.index < b.index; });
            std::vector<std::uint64_t> ph;
            std::vector<std::uint8_t> groups;
            for (const Item& it : representatives) {
                ph.push_back(hashes[std::size_t(it.split)][std::size_t(it.index)].perceptual);
                groups.push_back(std::uint8_t(it.split));
            }
            const auto thumbnailOf = [&](const Item& it) {
                return thumbnails[std::size_t(it.split)].data() + std::size_t(it.index) * kThumbnailSide * kThumbnailSide;
            };
            const auto alike = [&](std::int64_t a, std::int64_t b) {
                return thumbnailDifference(thumbnailOf(representatives[std::size_t(a)]),
                                           thumbnailOf(representatives[std::size_t(b)])) <= options.nearThumbnailDifference;
            };
            NearStats stats;
            const std::vector<NearPair> pairs =
                findNearPairs(ph, options.nearThreshold, options.maxFindingsPerKind, groups, &stats, alike);
            for (const NearPair& p : pairs) {
                const Item a = representatives[std::size_t(p.a)], b = representatives[std::size_t(p.b)];  // a first
                HealthFinding f;
                f.kind = a.split == b.split ? FindingKind::NearDuplicate : FindingKind::NearLeak;
                f.split = splits[std::size_t(b.split)].name;
                f.sample = b.index;
                f.otherSplit = splits[std::size_t(a.split)].name;
                f.otherSample = a.index;
                f.value = p.distance;
                char diff[32];
                std::snprintf(diff, sizeof diff, "%.1f", thumbnailDifference(thumbnailOf(a), thumbnailOf(b)));
                f.detail = f.split + " sample " + countText(b.index) + " is within " + std::to_string(p.distance) +
                           " bits of " + f.otherSplit + " sample " + countText(a.index) + " (thumbnails differ by " + diff +
                           " of 255)";
                findings.push_back(std::move(f));
            }
            // Exact counts even where the stored pairs are capped.
            const int g = int(splits.size());
            for (int i = 0; i < g; ++i)
                for (int j = i; j < g; ++j) {
                    const std::int64_t count = stats.groupPairs.size() > std::size_t(i * g + j) ? stats.groupPairs[std::size_t(i * g + j)] : 0;
                    if (count == 0) continue;
                    HealthCount c;
                    c.kind = i == j ? FindingKind::NearDuplicate : FindingKind::NearLeak;
                    c.split = splits[std::size_t(j)].name;
                    if (i != j) c.otherSplit = splits[std::size_t(i)].name;
                    c.count = count;
                    const std::uint8_t flag = i == j ? 1 : 2;
                    for (std::size_t k = 0; k < representatives.size(); ++k)
                        if (representatives[k].split == j && (stats.involved[k] & flag)) ++c.samples;
                    report.counts.push_back(c);
                }
            if (stats.pairs > std::int64_t(pairs.size())) report.findingsCapped = true;
        }

        // 4. Class balance per split.
        for (const SplitHealth& h : report.splits)
            if (h.imbalanceRatio >= options.imbalanceRatio) {
                HealthFinding f;
                f.kind = FindingKind::ClassImbalance;
                f.split = h.split;
                f.value = h.imbalanceRatio;
                const auto [lo, hi] = std::minmax_element(h.classCounts.begin(), h.classCounts.end());
                const auto name = [&](auto it) {
                    const std::size_t c = std::size_t(it - h.classCounts.begin());
                    return c < report.classNames.size() ? report.classNames[c] : std::to_string(c);
                };
                // The keys named are the experiment file's own (io/experiment_options.cpp; a test
                // applies them with --set).
                f.detail = h.split + ": the largest class (" + quoteText(name(hi)) + ", " + std::to_string(*hi) +
                           ") over the smallest (" + quoteText(name(lo)) + ", " + std::to_string(*lo) +
                           "); use class_weights n / (k * count) on the CrossEntropy loss, or dataset.loader.sampler: class_balanced";
                findings.push_back(std::move(f));
            }
    }

    // 5. Tables.
    if (table) {
        reportProgress(progress, 0, 1, makeMessage(MessageId::DataCheckTable));
        checkTable(*table, options, findings);
        report.table = true;
    }

    // Counts of everything the near search did not count, then the stored findings by kind, capped.
    std::stable_sort(findings.begin(), findings.end(),
                     [](const HealthFinding& a, const HealthFinding& b) { return int(a.kind) < int(b.kind); });
    std::map<std::tuple<int, std::string, std::string, std::string>, std::pair<std::int64_t, std::set<std::int64_t>>> tally;
    for (const HealthFinding& f : findings) {
        if (f.kind == FindingKind::NearDuplicate || f.kind == FindingKind::NearLeak) continue;
        auto& t = tally[{int(f.kind), f.split, f.kind == FindingKind::ExactLeak ? f.otherSplit : std::string(),
                         f.kind == FindingKind::Unreadable ? f.cause : std::string()}];
        ++t.first;
        if (f.sample >= 0) t.second.insert(f.sample);
        if (f.kind == FindingKind::ExactDuplicate && f.otherSample >= 0) t.second.insert(f.otherSample);
    }
    for (const auto& [key, value] : tally) {
        HealthCount c;
        c.kind = static_cast<FindingKind>(std::get<0>(key));
        c.split = std::get<1>(key);
        c.otherSplit = std::get<2>(key);
        c.cause = std::get<3>(key);
        c.count = value.first;
        c.samples = std::int64_t(value.second.size());
        report.counts.push_back(c);
    }
    std::stable_sort(report.counts.begin(), report.counts.end(), [](const HealthCount& a, const HealthCount& b) {
        return int(a.kind) != int(b.kind) ? int(a.kind) < int(b.kind) : a.split < b.split;
    });
    std::vector<std::int64_t> kept(kFindingKinds, 0);
    const auto sourceOf = [&](const std::string& split, std::int64_t index) {
        for (const Split& s : splits)
            if (s.name == split && index >= 0 && index < s.data->size()) return s.data->sampleSource(index);
        return std::string();
    };
    for (HealthFinding& f : findings) {
        if (options.maxFindingsPerKind > 0 && kept[std::size_t(f.kind)] >= options.maxFindingsPerKind) {
            report.findingsCapped = true;
            continue;
        }
        ++kept[std::size_t(f.kind)];
        if (isPairKind(f.kind)) {  // only the kept ones: a folder of copies can have millions of pairs
            f.file = sourceOf(f.split, f.sample);
            f.otherFile = sourceOf(f.otherSplit, f.otherSample);
        }
        report.findings.push_back(std::move(f));
    }
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return report;
}

}  // namespace ts

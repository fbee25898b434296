#include "data/sample_cache.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <mutex>
#include <random>
#include <thread>

namespace ts {

namespace {

constexpr char kMagic[8] = {'T', 'S', 'D', 'C', 'A', 'C', 'H', 'E'};
constexpr std::uint32_t kVersion = 1;
constexpr int kMaxRank = 8;
constexpr std::size_t kMaxDescription = 4096;

struct CacheHeader {
    char magic[8];
    std::uint32_t version;
    std::uint32_t rank;
    std::int64_t count;
    std::int64_t sampleNumel;
    std::int64_t numClasses;
    std::int64_t dims[kMaxRank];
    std::uint64_t descriptionBytes;
    std::uint64_t reserved;  // zero
    std::uint64_t checksum;  // FNV-1a of the header (this field zero) and the description
};
static_assert(sizeof(CacheHeader) == 128);

std::uint64_t align64(std::uint64_t n) { return (n + 63) & ~std::uint64_t(63); }

std::uint64_t fnv1a(const void* data, std::size_t n, std::uint64_t h = 0xcbf29ce484222325ull)
{
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

struct Layout {
    std::uint64_t dataOffset, labelOffset, total;
};

Layout layoutFor(std::int64_t count, std::int64_t numel, std::size_t descriptionBytes)
{
    Layout l;
    l.dataOffset = align64(sizeof(CacheHeader) + descriptionBytes);
    l.labelOffset = align64(l.dataOffset + std::uint64_t(count) * std::uint64_t(numel) * sizeof(float));
    l.total = l.labelOffset + std::uint64_t(count) * sizeof(std::int64_t);
    return l;
}

CacheHeader headerFor(const Dataset& source, const std::string& description)
{
    CacheHeader h{};
    std::memcpy(h.magic, kMagic, sizeof kMagic);
    h.version = kVersion;
    const Shape shape = source.sampleShape();
    h.rank = static_cast<std::uint32_t>(shape.rank());
    for (int i = 0; i < shape.rank(); ++i) h.dims[i] = shape[i];
    h.count = source.size();
    h.sampleNumel = shape.numel();
    h.numClasses = source.numClasses();
    h.descriptionBytes = description.size();
    h.checksum = fnv1a(description.data(), description.size(), fnv1a(&h, sizeof h));
    return h;
}

std::string descriptionOf(const Dataset& source)
{
    std::string d = source.description();
    if (d.size() > kMaxDescription) d.resize(kMaxDescription);
    return d;
}

[[noreturn]] void fail(const std::string& file, const std::string& what)
{
    throw DataError(file, -1, "sample cache " + file + ": " + what + " (" + std::strerror(errno) + ")");
}

// A read-only or read-write mapping of a whole file, unmapped on destruction.
struct Mapping {
    void* base = MAP_FAILED;
    std::size_t bytes = 0;
    Mapping() = default;
    Mapping(const Mapping&) = delete;
    Mapping& operator=(const Mapping&) = delete;
    ~Mapping()
    {
        if (base != MAP_FAILED) munmap(base, bytes);
    }
    const char* at(std::uint64_t offset) const { return static_cast<const char*>(base) + offset; }
};

// Maps `file` read-only if its size is at least `minBytes`; false when it cannot.
bool mapFile(const std::string& file, Mapping& map)
{
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    struct stat st {};
    bool ok = ::fstat(fd, &st) == 0 && st.st_size >= static_cast<off_t>(sizeof(CacheHeader));
    if (ok) {
        map.bytes = static_cast<std::size_t>(st.st_size);
        map.base = ::mmap(nullptr, map.bytes, PROT_READ, MAP_SHARED, fd, 0);
        ok = map.base != MAP_FAILED;
    }
    ::close(fd);  // the mapping keeps the file alive
    return ok;
}

// Checks a mapped file against the source: header, size, then the labels.
bool matches(const Mapping& map, const Dataset& source)
{
    const std::string description = descriptionOf(source);
    CacheHeader expected = headerFor(source, description), actual;
    std::memcpy(&actual, map.base, sizeof actual);
    if (std::memcmp(&actual, &expected, sizeof actual) != 0) return false;
    const Layout l = layoutFor(actual.count, actual.sampleNumel, description.size());
    if (map.bytes != l.total) return false;
    if (std::memcmp(map.at(sizeof(CacheHeader)), description.data(), description.size()) != 0) return false;
    const auto& labels = source.labels();
    return labels.size() == static_cast<std::size_t>(actual.count) &&
           std::memcmp(map.at(l.labelOffset), labels.data(), labels.size() * sizeof(std::int64_t)) == 0;
}

// Temporary files of builds whose process is gone (killed mid-build: "<file>.tmp.<pid>.<n>",
// hundreds of MB each) are removed from the cache folder. A live process's build (this
// one's included) is left alone. Best effort: the cache works without it.
void removeStaleBuilds(const std::string& cacheFile)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path folder = fs::path(cacheFile).parent_path();
    if (folder.empty() || !fs::is_directory(folder, ec)) return;
    for (const auto& entry : fs::directory_iterator(folder, ec)) {
        const std::string name = entry.path().filename().string();
        const std::size_t at = name.rfind(".tmp.");
        if (at == std::string::npos) continue;
        const std::string rest = name.substr(at + 5);  // "<pid>.<n>"
        const std::size_t dot = rest.find('.');
        if (dot == 0 || dot == std::string::npos || rest.find_first_not_of("0123456789.") != std::string::npos) continue;
        const long pid = std::strtol(rest.substr(0, dot).c_str(), nullptr, 10);
        if (pid <= 0 || (::kill(pid_t(pid), 0) == 0 || errno == EPERM)) continue;  // alive (EPERM: another user's)
        fs::remove(entry.path(), ec);
    }
}

// Decodes every sample into a temporary file with all cores, then renames it into place.
void build(const Dataset& source, const std::string& file)
{
    namespace fs = std::filesystem;
    const fs::path parent = fs::path(file).parent_path();
    std::error_code ec;
    if (!parent.empty()) fs::create_directories(parent, ec);
    const std::string tmp = file + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(std::random_device{}());
    const std::string description = descriptionOf(source);
    const CacheHeader header = headerFor(source, description);
    const Layout l = layoutFor(header.count, header.sampleNumel, description.size());

    const int fd = ::open(tmp.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) fail(tmp, "cannot create");
    struct Cleanup {  // removes the temporary file unless it was renamed
        std::string path;
        int fd;
        bool keep = false;
        ~Cleanup()
        {
            ::close(fd);
            if (!keep) ::unlink(path.c_str());
        }
    } cleanup{tmp, fd};
    if (::ftruncate(fd, static_cast<off_t>(l.total)) != 0) fail(tmp, "cannot size to " + std::to_string(l.total) + " bytes");
    Mapping map;
    map.bytes = l.total;
    map.base = ::mmap(nullptr, l.total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (map.base == MAP_FAILED) fail(tmp, "cannot map");
    char* base = static_cast<char*>(map.base);

    const std::int64_t count = header.count, numel = header.sampleNumel;
    auto* samples = reinterpret_cast<float*>(base + l.dataOffset);
    auto* labels = reinterpret_cast<std::int64_t*>(base + l.labelOffset);
    std::atomic<std::int64_t> nextChunk{0};
    std::atomic<bool> failed{false};
    std::exception_ptr error;
    std::mutex errorMutex;
    constexpr std::int64_t kChunk = 256;
    auto work = [&] {
        try {
            for (std::int64_t start; !failed && (start = nextChunk.fetch_add(kChunk)) < count;)
                for (std::int64_t i = start; i < std::min(count, start + kChunk) && !failed; ++i)
                    labels[i] = source.get(i, samples + i * numel);
        } catch (...) {
            std::lock_guard lock(errorMutex);
            if (!error) error = std::current_exception();
            failed = true;
        }
    };
    const unsigned threads = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads && count > kChunk; ++t) pool.emplace_back(work);
    work();
    for (auto& t : pool) t.join();
    if (error) std::rethrow_exception(error);

    // The header goes last, so an interrupted build never carries a valid one.
    std::memcpy(base, &header, sizeof header);
    std::memcpy(base + sizeof header, description.data(), description.size());
    if (::fsync(fd) != 0) fail(tmp, "cannot flush");
    if (::rename(tmp.c_str(), file.c_str()) != 0) fail(file, "cannot rename " + tmp + " to it");
    cleanup.keep = true;
}

class CachedDataset final : public Dataset {
public:
    CachedDataset(std::shared_ptr<Dataset> source, std::unique_ptr<Mapping> map)
        : source_(std::move(source)), map_(std::move(map)), shape_(source_->sampleShape()),
          numel_(shape_.numel()), count_(source_->size())
    {
        const Layout l = layoutFor(count_, numel_, descriptionOf(*source_).size());
        samples_ = reinterpret_cast<const float*>(map_->at(l.dataOffset));
        const auto* labels = reinterpret_cast<const std::int64_t*>(map_->at(l.labelOffset));
        labels_.assign(labels, labels + count_);
    }

    std::int64_t size() const override { return count_; }
    Shape sampleShape() const override { return shape_; }
    std::int64_t numClasses() const override { return source_->numClasses(); }
    std::vector<std::string> classNames() const override { return source_->classNames(); }
    std::int64_t get(std::int64_t index, float* out) const override
    {
        if (index < 0 || index >= count_)
            throw std::out_of_range("sample " + std::to_string(index) + " of a cached dataset of " +
                                    std::to_string(count_));
        std::memcpy(out, samples_ + index * numel_, static_cast<std::size_t>(numel_) * sizeof(float));
        return labels_[static_cast<std::size_t>(index)];
    }
    const std::vector<std::int64_t>& labels() const override { return labels_; }
    std::string description() const override { return source_->description(); }
    std::string sampleSource(std::int64_t index) const override { return source_->sampleSource(index); }
    // Value targets are read from the source: a table's are in memory, only its inputs decode.
    Shape targetShape() const override { return hasValueTargets(*source_) ? source_->targetShape() : Shape{}; }
    TargetKind targetKind() const override { return source_->targetKind(); }
    std::vector<std::string> targetNames() const override { return source_->targetNames(); }
    void getValues(std::int64_t index, float* out) const override { source_->getValues(index, out); }

private:
    std::shared_ptr<Dataset> source_;  // names and classes; never decoded again
    std::unique_ptr<Mapping> map_;
    Shape shape_;
    std::int64_t numel_, count_;
    const float* samples_ = nullptr;
    std::vector<std::int64_t> labels_;
};

}  // namespace

bool sampleCacheValid(const Dataset& source, const std::string& cacheFile)
{
    Mapping map;
    return source.sampleShape().rank() <= kMaxRank && mapFile(cacheFile, map) && matches(map, source);
}

std::shared_ptr<Dataset> cachedDataset(std::shared_ptr<Dataset> source, const std::string& cacheFile)
{
    if (!source) throw std::invalid_argument("cachedDataset: no source dataset");
    if (source->sampleShape().rank() > kMaxRank)
        throw std::invalid_argument("cachedDataset: samples of rank > 8 are not cached");
    removeStaleBuilds(cacheFile);
    for (int attempt = 0; attempt < 2; ++attempt) {
        auto map = std::make_unique<Mapping>();
        if (mapFile(cacheFile, *map) && matches(*map, *source))
            return std::make_shared<CachedDataset>(std::move(source), std::move(map));
        if (attempt == 0) build(*source, cacheFile);
    }
    throw DataError(cacheFile, -1, "sample cache " + cacheFile + " does not validate after rebuilding it");
}

}  // namespace ts

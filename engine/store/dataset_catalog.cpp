#include "store/dataset_catalog.h"

#include <cmath>
#include <sstream>

#include "store/database.h"
#include "store/run_writer.h"
#include "store/schema.h"

namespace ts {

using store::Database;
using store::Statement;
using store::Transaction;

namespace {

// The summary column holds the report without its findings as tab-separated lines, one
// record per line (the first field says what it is); tabs, newlines and backslashes escaped.
std::string escaped(const std::string& s)
{
    std::string out;
    for (char c : s) {
        if (c == '\\') out += "\\\\";
        else if (c == '\t') out += "\\t";
        else if (c == '\n') out += "\\n";
        else out += c;
    }
    return out;
}

std::string unescaped(const std::string& s)
{
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] != '\\' || i + 1 == s.size()) {
            out += s[i];
            continue;
        }
        const char c = s[++i];
        out += c == 't' ? '\t' : c == 'n' ? '\n' : c;
    }
    return out;
}

std::string number(double v)
{
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    std::ostringstream s;
    s.precision(17);
    s << v;
    return s.str();
}

double parseNumber(const std::string& s)
{
    if (s == "inf") return INFINITY;
    if (s == "-inf") return -INFINITY;
    try {
        return std::stod(s);
    } catch (...) {
        return NAN;
    }
}

std::int64_t parseInt(const std::string& s)
{
    try {
        return std::stoll(s);
    } catch (...) {
        return 0;
    }
}

std::string encodeSummary(const HealthReport& r)
{
    std::string out = "health\t1\n";
    auto line = [&](std::initializer_list<std::string> fields) {
        bool first = true;
        for (const std::string& f : fields) {
            if (!first) out += '\t';
            out += escaped(f);
            first = false;
        }
        out += '\n';
    };
    line({"options", std::to_string(r.nearThreshold), r.perceptualHash, r.images ? "1" : "0", r.table ? "1" : "0",
          r.findingsCapped ? "1" : "0", number(r.seconds), number(r.nearThumbnailDifference)});
    if (!r.openError.empty()) line({"open_error", r.openError});
    std::string classes = "classes";
    for (const std::string& c : r.classNames) classes += '\t', classes += escaped(c);
    out += classes + '\n';
    for (const SplitHealth& s : r.splits) {
        line({"split", s.split, std::to_string(s.samples), number(s.imbalanceRatio), s.description});
        std::string counts = "class_counts\t" + escaped(s.split), weights = "class_weights\t" + escaped(s.split);
        for (std::int64_t c : s.classCounts) counts += '\t', counts += std::to_string(c);
        for (double w : s.suggestedClassWeights) weights += '\t', weights += number(w);
        out += counts + '\n' + weights + '\n';
    }
    for (const HealthCount& c : r.counts)
        line({"count", findingKindName(c.kind), c.split, c.otherSplit, c.cause, std::to_string(c.count), std::to_string(c.samples)});
    return out;
}

HealthReport decodeSummary(const std::string& text)
{
    HealthReport r;
    std::istringstream in(text);
    std::string raw;
    while (std::getline(in, raw)) {
        std::vector<std::string> f;
        std::size_t b = 0;
        for (std::size_t e; (e = raw.find('\t', b)) != std::string::npos; b = e + 1) f.push_back(unescaped(raw.substr(b, e - b)));
        f.push_back(unescaped(raw.substr(b)));
        const std::string& what = f[0];
        auto at = [&](std::size_t i) { return i < f.size() ? f[i] : std::string(); };
        if (what == "options") {
            r.nearThreshold = int(parseInt(at(1)));
            r.perceptualHash = at(2);
            r.images = at(3) == "1";
            r.table = at(4) == "1";
            r.findingsCapped = at(5) == "1";
            r.seconds = parseNumber(at(6));
            r.nearThumbnailDifference = parseNumber(at(7));
        } else if (what == "open_error") {
            r.openError = at(1);
        } else if (what == "classes") {
            r.classNames.assign(f.begin() + 1, f.end());
        } else if (what == "split") {
            SplitHealth s;
            s.split = at(1);
            s.samples = parseInt(at(2));
            s.imbalanceRatio = parseNumber(at(3));
            s.description = at(4);
            r.splits.push_back(s);
        } else if ((what == "class_counts" || what == "class_weights") && !r.splits.empty()) {
            SplitHealth& s = r.splits.back();
            for (std::size_t i = 2; i < f.size(); ++i) {
                if (what == "class_counts") s.classCounts.push_back(parseInt(f[i]));
                else s.suggestedClassWeights.push_back(parseNumber(f[i]));
            }
        } else if (what == "count") {
            const std::optional<FindingKind> kind = findingKindFromName(at(1));
            if (!kind) continue;  // a kind of a newer version
            HealthCount c;
            c.kind = *kind;
            c.split = at(2);
            c.otherSplit = at(3);
            c.cause = at(4);
            c.count = parseInt(at(5));
            c.samples = parseInt(at(6));
            r.counts.push_back(c);
        }
    }
    return r;
}

std::string encodeSplits(const std::vector<std::pair<std::string, std::int64_t>>& splits)
{
    std::string out;
    for (const auto& [name, n] : splits) {
        if (!out.empty()) out += ',';
        out += name + " " + std::to_string(n);
    }
    return out;
}

std::vector<std::pair<std::string, std::int64_t>> decodeSplits(const std::string& text)
{
    std::vector<std::pair<std::string, std::int64_t>> out;
    std::istringstream in(text);
    std::string part;
    while (std::getline(in, part, ',')) {
        const auto space = part.rfind(' ');
        if (space == std::string::npos) continue;
        out.emplace_back(part.substr(0, space), parseInt(part.substr(space + 1)));
    }
    return out;
}

const char* const kDatasetColumns = "SELECT id, key, format, location, description, samples, splits, last_seen FROM datasets ";
const char* const kCheckColumns = "SELECT id, dataset_id, fingerprint, created, seconds, summary FROM data_checks ";

DatasetRecord datasetFrom(const Statement& s)
{
    DatasetRecord d;
    d.id = s.integer(0);
    d.key = s.text(1);
    d.format = s.text(2);
    d.location = s.text(3);
    d.description = s.text(4);
    d.samples = s.integer(5);
    d.splits = decodeSplits(s.text(6));
    d.lastSeen = s.real(7);
    return d;
}

StoredCheck checkFrom(const Statement& s)
{
    StoredCheck c;
    c.id = s.integer(0);
    c.datasetId = s.integer(1);
    c.fingerprint = s.text(2);
    c.created = s.real(3);
    c.report = decodeSummary(s.text(5));
    c.report.seconds = s.real(4);
    return c;
}

}  // namespace

struct DatasetCatalog::Impl {
    Database db;
    explicit Impl(const std::string& path) : db((store::inspectDatabase(path), path), Database::Mode::ReadWriteCreate)
    {
        db.useWriteAheadLog();  // as the RunWriter opens it (store/writer_db.cpp)
        db.exec("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON");
        store::migrate(db);
    }
};

DatasetRecord datasetRecordFor(const DatasetSpec& spec, const std::string& baseDir, const DatasetFiles& files)
{
    DatasetRecord r;
    r.key = datasetKey(spec, baseDir);
    r.format = spec.format;
    r.location = files.path.empty() ? resolvedDatasetPath(spec, baseDir) : files.path;
    std::string parts;
    if (files.train) r.splits.emplace_back("train", files.train->size());
    if (files.test) r.splits.emplace_back("test", files.test->size());
    for (const auto& [name, n] : r.splits) {
        r.samples += n;
        if (!parts.empty()) parts += ", ";
        parts += std::to_string(n) + " " + name;
    }
    r.description = (files.name.empty() ? r.location : files.name) + (parts.empty() ? "" : " (" + parts + ")");
    return r;
}

DatasetCatalog::DatasetCatalog(const Workspace& workspace) : impl_(std::make_unique<Impl>(workspace.databasePath())) {}

DatasetCatalog::~DatasetCatalog() = default;

std::int64_t DatasetCatalog::remember(const DatasetRecord& record)
{
    if (record.key.empty()) throw StoreError(impl_->db.path() + ": a dataset needs a key (datasetKey)");
    Transaction tx(impl_->db);
    Statement s(impl_->db, "INSERT INTO datasets (key, format, location, description, samples, splits, last_seen) "
                           "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT(key) DO UPDATE SET format = excluded.format, "
                           "location = excluded.location, description = excluded.description, samples = excluded.samples, "
                           "splits = excluded.splits, last_seen = excluded.last_seen");
    s.bind(1, record.key).bind(2, record.format).bind(3, record.location).bind(4, record.description);
    s.bind(5, record.samples).bind(6, encodeSplits(record.splits)).bind(7, store::unixNow());
    s.run();
    Statement id(impl_->db, "SELECT id FROM datasets WHERE key = ?1");
    id.bind(1, record.key);
    if (!id.step()) impl_->db.fail("the dataset just saved is missing");
    const std::int64_t result = id.integer(0);
    id.reset();
    tx.commit();
    return result;
}

std::vector<DatasetRecord> DatasetCatalog::datasets()
{
    Statement s(impl_->db, std::string(kDatasetColumns) + "ORDER BY last_seen DESC, id DESC");
    std::vector<DatasetRecord> out;
    while (s.step()) out.push_back(datasetFrom(s));
    return out;
}

std::optional<DatasetRecord> DatasetCatalog::dataset(const std::string& key)
{
    Statement s(impl_->db, std::string(kDatasetColumns) + "WHERE key = ?1");
    s.bind(1, key);
    if (!s.step()) return std::nullopt;
    return datasetFrom(s);
}

std::optional<DatasetRecord> DatasetCatalog::dataset(std::int64_t id)
{
    Statement s(impl_->db, std::string(kDatasetColumns) + "WHERE id = ?1");
    s.bind(1, id);
    if (!s.step()) return std::nullopt;
    return datasetFrom(s);
}

std::int64_t DatasetCatalog::saveCheck(std::int64_t datasetId, const std::string& fingerprint, const HealthReport& report)
{
    Database& db = impl_->db;
    Transaction tx(db);
    Statement check(db, "INSERT INTO data_checks (dataset_id, fingerprint, created, seconds, summary) VALUES (?1, ?2, ?3, ?4, ?5)");
    check.bind(1, datasetId).bind(2, fingerprint).bind(3, store::unixNow()).bind(4, report.seconds).bind(5, encodeSummary(report));
    check.run();
    const std::int64_t id = db.lastInsertId();
    Statement f(db, "INSERT INTO data_findings (check_id, kind, split, sample, other_split, other_sample, value, "
                    "value_nonfinite, cause, column_name, file, position, detail, other_file) "
                    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)");
    for (const HealthFinding& x : report.findings) {
        f.bind(1, id).bind(2, std::string(findingKindName(x.kind))).bind(3, x.split).bind(4, x.sample);
        f.bind(5, x.otherSplit).bind(6, x.otherSample);
        store::bindValue(f, 7, x.value);
        f.bind(9, x.cause).bind(10, x.column).bind(11, x.file).bind(12, x.position).bind(13, x.detail).bind(14, x.otherFile);
        f.run();
    }
    // Older checks of the dataset are no longer read: only the newest is kept.
    Statement old(db, "DELETE FROM data_checks WHERE dataset_id = ?1 AND id <> ?2");
    old.bind(1, datasetId).bind(2, id);
    old.run();
    tx.commit();
    return id;
}

std::optional<StoredCheck> DatasetCatalog::latestCheck(std::int64_t datasetId)
{
    Statement s(impl_->db, std::string(kCheckColumns) + "WHERE dataset_id = ?1 ORDER BY id DESC LIMIT 1");
    s.bind(1, datasetId);
    if (!s.step()) return std::nullopt;
    return checkFrom(s);
}

std::optional<StoredCheck> DatasetCatalog::check(std::int64_t checkId)
{
    Statement s(impl_->db, std::string(kCheckColumns) + "WHERE id = ?1");
    s.bind(1, checkId);
    if (!s.step()) return std::nullopt;
    return checkFrom(s);
}

std::optional<StoredCheck> DatasetCatalog::currentCheck(std::int64_t datasetId, const std::string& fingerprint)
{
    std::optional<StoredCheck> c = latestCheck(datasetId);
    if (c && c->fingerprint == fingerprint) return c;
    return std::nullopt;
}

std::vector<HealthFinding> DatasetCatalog::findings(std::int64_t checkId, std::optional<FindingKind> kind,
                                                    std::int64_t limit, std::int64_t offset)
{
    Statement s(impl_->db, std::string("SELECT kind, split, sample, other_split, other_sample, value, value_nonfinite, cause, "
                                       "column_name, file, position, detail, other_file FROM data_findings WHERE check_id = ?1") +
                               (kind ? " AND kind = ?4" : "") + " ORDER BY rowid LIMIT ?2 OFFSET ?3");
    s.bind(1, checkId).bind(2, limit).bind(3, offset);
    if (kind) s.bind(4, std::string(findingKindName(*kind)));
    std::vector<HealthFinding> out;
    while (s.step()) {
        HealthFinding f;
        f.kind = findingKindFromName(s.text(0)).value_or(FindingKind::Unreadable);
        f.split = s.text(1);
        f.sample = s.integer(2);
        f.otherSplit = s.text(3);
        f.otherSample = s.integer(4);
        f.value = store::columnValue(s, 5);
        f.cause = s.text(7);
        f.column = s.text(8);
        f.file = s.text(9);
        f.position = s.integer(10);
        f.detail = s.text(11);
        f.otherFile = s.text(12);
        out.push_back(std::move(f));
    }
    return out;
}

void DatasetCatalog::forget(std::int64_t datasetId)
{
    Transaction tx(impl_->db);
    Statement s(impl_->db, "DELETE FROM datasets WHERE id = ?1");
    s.bind(1, datasetId);
    s.run();
    tx.commit();
}

}  // namespace ts

#include "store/label_overlay.h"

#include <stdexcept>

#include "store/database.h"
#include "store/run_writer.h"
#include "store/schema.h"
#include "store/writer_db.h"
#include "tensor/quote_text.h"

namespace ts {

using namespace store;

namespace {

// A read-only connection when the file exists at schema 6 or later; nothing otherwise.
std::optional<Database> openForReading(const Workspace& workspace)
{
    const std::string path = workspace.databasePath();
    const FileState state = inspectDatabase(path);  // refuses what is not ours
    if (!state.exists || state.version < 6) return std::nullopt;
    return std::optional<Database>(std::in_place, path, Database::Mode::ReadOnly);
}

LabelMark::Action parseAction(const std::string& text)
{
    return text == "relabel" ? LabelMark::Action::Relabel : LabelMark::Action::Exclude;
}

LabelOverlay readMarks(Statement& s)
{
    LabelOverlay overlay;
    while (s.step()) overlay.marks.push_back({s.text(0), s.integer(1), parseAction(s.text(2)), s.integer(3)});
    return overlay;
}

LabelCheckRecord readCheck(const Statement& s)
{
    LabelCheckRecord r;
    r.id = s.integer(0);
    r.datasetKey = s.text(1);
    r.method = s.text(2);
    r.runId = s.isNull(3) ? 0 : s.integer(3);
    r.evaluationId = s.isNull(4) ? 0 : s.integer(4);
    r.folds = s.integer(5);
    r.epochs = s.integer(6);
    r.samples = s.integer(7);
    r.classes = s.integer(8);
    r.suspects = s.integer(9);
    r.overlayHash = s.text(10);
    r.experimentYaml = s.text(11);
    r.createdTime = s.real(12);
    r.seconds = s.real(13);
    return r;
}

const char* const kCheckColumns = "SELECT id, dataset_key, method, run_id, evaluation_id, folds, epochs, samples, classes, "
                                  "suspects, overlay_hash, experiment_yaml, created, seconds FROM label_checks ";

}  // namespace

LabelOverlay readLabelOverlay(const Workspace& workspace, const std::string& datasetKey)
{
    std::optional<Database> db = openForReading(workspace);
    if (!db) return {};
    Statement s(*db, "SELECT split, sample, action, label FROM label_overlay WHERE dataset_key = ?1 ORDER BY split, sample");
    s.bind(1, datasetKey);
    return readMarks(s);
}

void setLabelMark(const Workspace& workspace, const std::string& datasetKey, const LabelMark& mark)
{
    if (mark.split != "train" && mark.split != "test")
        throw std::invalid_argument("split " + quoteText(mark.split) + ": a mark addresses the file split train or test");
    if (mark.sample < 0) throw std::invalid_argument("sample " + std::to_string(mark.sample) + ": samples count from 0");
    if (mark.action == LabelMark::Action::Relabel && mark.label < 0)
        throw std::invalid_argument("relabelling needs the new class (a number from 0)");
    WriterDb writer(workspace.databasePath());
    Statement s(writer.db(), "INSERT OR REPLACE INTO label_overlay (dataset_key, split, sample, action, label, created) "
                             "VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
    s.bind(1, datasetKey).bind(2, mark.split).bind(3, mark.sample).bind(4, std::string(labelActionName(mark.action)));
    s.bind(5, mark.action == LabelMark::Action::Relabel ? mark.label : std::int64_t(-1)).bind(6, unixNow());
    s.run();
}

bool clearLabelMark(const Workspace& workspace, const std::string& datasetKey, const std::string& split, std::int64_t sample)
{
    WriterDb writer(workspace.databasePath());
    Statement s(writer.db(), "DELETE FROM label_overlay WHERE dataset_key = ?1 AND split = ?2 AND sample = ?3");
    s.bind(1, datasetKey).bind(2, split).bind(3, sample);
    s.run();
    return writer.db().changes() > 0;
}

void recordRunLabelOverlay(const Workspace& workspace, std::int64_t runId, const LabelOverlay& overlay)
{
    if (overlay.empty()) return;
    WriterDb writer(workspace.databasePath());
    Transaction tx(writer.db());
    Statement s(writer.db(), "INSERT OR REPLACE INTO run_label_overlay (run_id, split, sample, action, label) "
                             "VALUES (?1, ?2, ?3, ?4, ?5)");
    for (const LabelMark& m : overlay.marks) {
        s.bind(1, runId).bind(2, m.split).bind(3, m.sample).bind(4, std::string(labelActionName(m.action))).bind(5, m.label);
        s.run();
    }
    tx.commit();
}

LabelOverlay runLabelOverlay(const Workspace& workspace, std::int64_t runId)
{
    std::optional<Database> db = openForReading(workspace);
    if (!db) return {};
    Statement s(*db, "SELECT split, sample, action, label FROM run_label_overlay WHERE run_id = ?1 ORDER BY split, sample");
    s.bind(1, runId);
    return readMarks(s);
}

std::int64_t addLabelCheck(const Workspace& workspace, const LabelCheckRecord& r, const std::vector<LabelScore>& scores)
{
    WriterDb writer(workspace.databasePath());
    Database& db = writer.db();
    Transaction tx(db);
    Statement check(db, "INSERT INTO label_checks (dataset_key, method, run_id, evaluation_id, folds, epochs, samples, "
                        "classes, suspects, overlay_hash, experiment_yaml, created, seconds) "
                        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)");
    check.bind(1, r.datasetKey).bind(2, r.method);
    if (r.runId > 0) check.bind(3, r.runId); else check.bindNull(3);
    if (r.evaluationId > 0) check.bind(4, r.evaluationId); else check.bindNull(4);
    check.bind(5, r.folds).bind(6, r.epochs).bind(7, r.samples).bind(8, r.classes).bind(9, r.suspects);
    check.bind(10, r.overlayHash).bind(11, r.experimentYaml).bind(12, r.createdTime).bind(13, r.seconds);
    check.run();
    const std::int64_t id = db.lastInsertId();
    Statement row(db, "INSERT INTO label_suspects (check_id, rank, sample, label, predicted, confidence, self_confidence, "
                      "margin, suspect) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
    std::int64_t rank = 0;
    for (const LabelScore& s : scores) {
        row.bind(1, id).bind(2, ++rank).bind(3, s.sample).bind(4, s.label).bind(5, s.predicted);
        row.bind(6, double(s.confidence)).bind(7, double(s.selfConfidence)).bind(8, double(s.margin));
        row.bind(9, std::int64_t(s.suspect));
        row.run();
    }
    tx.commit();
    return id;
}

std::vector<LabelCheckRecord> labelChecks(const Workspace& workspace, const std::string& datasetKey)
{
    std::vector<LabelCheckRecord> out;
    std::optional<Database> db = openForReading(workspace);
    if (!db) return out;
    Statement s(*db, std::string(kCheckColumns) + "WHERE dataset_key = ?1 ORDER BY id DESC");
    s.bind(1, datasetKey);
    while (s.step()) out.push_back(readCheck(s));
    return out;
}

std::optional<LabelCheckRecord> labelCheck(const Workspace& workspace, std::int64_t checkId)
{
    std::optional<Database> db = openForReading(workspace);
    if (!db) return std::nullopt;
    Statement s(*db, std::string(kCheckColumns) + "WHERE id = ?1");
    s.bind(1, checkId);
    if (!s.step()) return std::nullopt;
    return readCheck(s);
}

std::vector<LabelScore> labelScores(const Workspace& workspace, std::int64_t checkId, std::int64_t limit)
{
    std::vector<LabelScore> out;
    std::optional<Database> db = openForReading(workspace);
    if (!db) return out;
    Statement s(*db, "SELECT sample, label, predicted, confidence, self_confidence, margin, suspect FROM label_suspects "
                     "WHERE check_id = ?1 ORDER BY rank LIMIT ?2");
    s.bind(1, checkId).bind(2, limit);
    while (s.step())
        out.push_back({s.integer(0), s.integer(1), s.integer(2), float(s.real(3)), float(s.real(4)), float(s.real(5)),
                       s.integer(6) != 0});
    return out;
}

}  // namespace ts

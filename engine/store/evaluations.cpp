#include "store/evaluations.h"

#include <cstring>
#include <sqlite3.h>

namespace ts::store {

namespace {

bool hasEvaluations(Database& db)
{
    return db.scalar("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'evaluations'") > 0;
}

}  // namespace

std::int64_t insertEvaluation(Database& db, const EvaluationRecord& r, const std::vector<Prediction>& predictions)
{
    Statement run(db, "INSERT INTO evaluations (run_id, checkpoint_path, step, epoch, split, samples, classes, created) "
                      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
    run.bind(1, r.runId).bind(2, r.checkpointPath).bind(3, r.step).bind(4, r.epoch).bind(5, r.split);
    run.bind(6, r.samples).bind(7, r.classes).bind(8, r.createdTime);
    run.run();
    const std::int64_t id = db.lastInsertId();

    Statement metric(db, "INSERT INTO evaluation_metrics (evaluation_id, name, value, value_nonfinite) VALUES (?1, ?2, ?3, ?4)");
    for (const auto& [name, value] : r.metrics) {
        metric.bind(1, id).bind(2, name);
        bindValue(metric, 3, value);
        metric.run();
    }
    Statement row(db, "INSERT INTO predictions (evaluation_id, sample, label, predicted, confidence, probabilities) "
                      "VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
    std::vector<float> both;  // bound without a copy: alive until the row is written
    for (const Prediction& p : predictions) {
        row.bind(1, id).bind(2, p.sample).bind(3, p.label).bind(4, p.predicted).bind(5, double(p.confidence));
        if (p.values.empty()) {
            row.bindBlob(6, p.probabilities.data(), p.probabilities.size() * sizeof(float));
        } else {  // regression: the predicted values, then the actual ones (evaluation_records.h)
            both = p.values;
            both.insert(both.end(), p.targets.begin(), p.targets.end());
            row.bindBlob(6, both.data(), both.size() * sizeof(float));
        }
        row.run();
    }
    return id;
}

std::vector<EvaluationRecord> readEvaluations(Database& db, std::int64_t runId)
{
    std::vector<EvaluationRecord> out;
    if (!hasEvaluations(db)) return out;
    Statement s(db, "SELECT id, run_id, checkpoint_path, step, epoch, split, samples, classes, created FROM evaluations "
                    "WHERE run_id = ?1 ORDER BY id");
    s.bind(1, runId);
    while (s.step())
        out.push_back({s.integer(0), s.integer(1), s.text(2), s.integer(3), s.integer(4), s.text(5), s.integer(6),
                       s.integer(7), s.real(8), {}});
    Statement m(db, "SELECT name, value, value_nonfinite FROM evaluation_metrics WHERE evaluation_id = ?1");
    for (EvaluationRecord& r : out) {
        m.bind(1, r.id);
        while (m.step()) r.metrics[m.text(0)] = columnValue(m, 1);
        m.reset();
    }
    return out;
}

std::vector<Prediction> readPredictions(Database& db, std::int64_t evaluationId)
{
    std::vector<Prediction> out;
    if (!hasEvaluations(db)) return out;
    Statement kind(db, "SELECT classes FROM evaluations WHERE id = ?1");
    kind.bind(1, evaluationId);
    const bool regression = kind.step() && kind.integer(0) == 0;  // values and targets, not probabilities
    Statement s(db, "SELECT sample, label, predicted, confidence, probabilities FROM predictions "
                    "WHERE evaluation_id = ?1 ORDER BY sample");
    s.bind(1, evaluationId);
    while (s.step()) {
        Prediction p{s.integer(0), s.integer(1), s.integer(2), float(s.real(3)), {}};
        const int bytes = sqlite3_column_bytes(s.handle(), 4);
        p.probabilities.resize(std::size_t(bytes) / sizeof(float));
        if (bytes > 0) std::memcpy(p.probabilities.data(), sqlite3_column_blob(s.handle(), 4), p.probabilities.size() * sizeof(float));
        if (regression) {
            const auto half = p.probabilities.begin() + std::ptrdiff_t(p.probabilities.size() / 2);
            p.values.assign(p.probabilities.begin(), half);
            p.targets.assign(half, p.probabilities.end());
            p.probabilities.clear();
        }
        out.push_back(std::move(p));
    }
    return out;
}

}  // namespace ts::store

// Internal to engine/store: the SQL of evaluations (schema version 4), used by RunWriter
// (on its writer thread) and RunReader.
#pragma once
#include <cstdint>
#include <vector>

#include "store/database.h"
#include "types/evaluation_records.h"

namespace ts::store {

// Inserts the evaluation, its metrics and predictions (inside the caller's transaction);
// returns its id. Throws StoreError (a run that does not exist: a constraint).
std::int64_t insertEvaluation(Database& db, const EvaluationRecord& record, const std::vector<Prediction>& predictions);

// Oldest first; empty for a database older than version 4.
std::vector<EvaluationRecord> readEvaluations(Database& db, std::int64_t runId);
// In sample order; empty for an unknown evaluation.
std::vector<Prediction> readPredictions(Database& db, std::int64_t evaluationId);

}  // namespace ts::store

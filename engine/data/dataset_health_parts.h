// Internal to data/dataset_health*.cpp: the table checks, which dataset_health.cpp runs.
#pragma once
#include <vector>

#include "data/dataset_health.h"

namespace ts {

// Appends the findings of a CSV file's records (ragged rows, missing cells, constant and
// near-constant features, a label column with too many classes). Throws DataError when the
// file cannot be read at all (missing, a corrupt gzip, an unterminated quote).
void checkTable(const TableSource& table, const HealthOptions& options, std::vector<HealthFinding>& findings);

}  // namespace ts

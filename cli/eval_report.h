// What `trainstudio-cli eval` shows of a stored evaluation: the report (train/evaluation_report.h)
// as tables for people or one JSON line for scripts, and predictions.csv.
#pragma once
#include <string>
#include <vector>

#include "train/evaluation_report.h"
#include "types/evaluation_records.h"

namespace ts::cli {

// Per-class precision / recall / F1 / support / ROC-AUC / AP, the three averages, top-k, the
// confusion matrix (up to 20 classes) and calibration before and after temperature scaling.
// Classes are named by `classNames` (the dataset's, as predict and the studio name them;
// their index where the list is empty or short).
void printEvaluationReport(const EvaluationRecord& record, const EvaluationReport& report,
                           const std::vector<std::string>& classNames);
// {"event":"report", ...}: every number of the text report (exact), the reliability bins and
// the confusion matrix; the curves are left to whoever reads the predictions.
void printEvaluationReportJson(const EvaluationRecord& record, const EvaluationReport& report,
                               const std::vector<std::string>& classNames);

// A regression's evaluation (record.classes 0): MAE, RMSE, R², MAPE and the loss beside
// what predicting the training mean scores (the baseline the model must beat); as a table, or
// one {"event":"report"} JSON line.
void printRegressionReport(const EvaluationRecord& record, bool json);

// A regression's predictions: index, then per target (named by `targetNames`, else its index)
// the actual value and the predicted one: index,<t>,predicted_<t>,...
void writeRegressionPredictionsCsv(const std::string& path, const std::vector<Prediction>& predictions,
                                   const std::vector<std::string>& targetNames);

// index,label,predicted,confidence,p_0..p_{K-1}: one row per sample, a header first; every
// probability the exact float the store holds (shortest text that reads back as its double).
// Throws std::runtime_error naming the file when it cannot be written.
void writePredictionsCsv(const std::string& path, const std::vector<Prediction>& predictions, std::int64_t classes);

}  // namespace ts::cli

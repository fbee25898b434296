// An evaluation's whole report, from its stored predictions and fitted temperature: the
// classification report, calibration before and after temperature scaling, and the scalars
// the evaluate job keeps in the store (evaluation_metrics). The studio and the CLI rebuild
// the per-class tables and curves from RunReader::predictions with evaluationReport().
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "train/calibration.h"
#include "train/classification_report.h"
#include "types/evaluation_records.h"

namespace ts {

// Unprefixed metrics of an evaluation record: how its temperature was fitted. The fitted T
// is what an export applies to the logits (logits / T) for calibrated probabilities.
inline constexpr const char* kTemperatureMetric = "temperature";
inline constexpr const char* kTemperatureSamplesMetric = "temperature_fit_samples";
// 1: fitted on the validation split; 0: on a held-out 10% of the training split (no validation split).
inline constexpr const char* kTemperatureOnValidationMetric = "temperature_fit_on_validation";

struct EvaluationReport {
    ClassificationReport classification;
    Calibration calibration;            // of the probabilities as the model gives them
    std::optional<double> temperature;  // none: not fitted (an older evaluation)
    Calibration calibrated;             // after softmax(log p / T); equal to `calibration` without T
};

// Throws std::invalid_argument (checkPredictions) on empty or non-finite predictions.
EvaluationReport evaluationReport(const std::vector<Prediction>& predictions, std::int64_t classes,
                                  std::optional<double> temperature, const std::vector<int>& topK = {3, 5});

// The scalars for the store, each "<prefix>_<name>": acc, top<k>_acc, macro_ / micro_ /
// weighted_ precision, recall, f1, macro_roc_auc, ece, nll, brier, and with a temperature
// ece_calibrated, nll_calibrated, brier_calibrated.
std::map<std::string, double> reportMetrics(const EvaluationReport& report, const std::string& prefix);

// The temperature an evaluation stored, if any.
std::optional<double> fittedTemperature(const EvaluationRecord& record);

}  // namespace ts

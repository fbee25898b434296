#include "train/evaluation_report.h"

#include <cmath>

namespace ts {

EvaluationReport evaluationReport(const std::vector<Prediction>& predictions, std::int64_t classes,
                                  std::optional<double> temperature, const std::vector<int>& topK)
{
    EvaluationReport r;
    r.classification = classificationReport(predictions, classes, topK);  // checks the rows first
    r.calibration = calibration(predictions);
    r.temperature = temperature;
    r.calibrated = temperature ? calibration(applyTemperature(predictions, *temperature)) : r.calibration;
    return r;
}

std::map<std::string, double> reportMetrics(const EvaluationReport& report, const std::string& prefix)
{
    const ClassificationReport& c = report.classification;
    std::map<std::string, double> out;
    const auto put = [&](const std::string& name, double value) { out[prefix + "_" + name] = value; };
    for (const TopKAccuracy& t : c.topK) put(t.k == 1 ? "acc" : "top" + std::to_string(t.k) + "_acc", t.accuracy);
    for (const auto& [name, scores] : {std::pair{"macro", c.macro}, {"micro", c.micro}, {"weighted", c.weighted}}) {
        put(std::string(name) + "_precision", scores.precision);
        put(std::string(name) + "_recall", scores.recall);
        put(std::string(name) + "_f1", scores.f1);
    }
    put("macro_roc_auc", c.macroRocAuc);
    put("ece", report.calibration.ece);
    put("nll", report.calibration.nll);
    put("brier", report.calibration.brier);
    if (report.temperature) {
        put("ece_calibrated", report.calibrated.ece);
        put("nll_calibrated", report.calibrated.nll);
        put("brier_calibrated", report.calibrated.brier);
    }
    return out;
}

std::optional<double> fittedTemperature(const EvaluationRecord& record)
{
    const auto it = record.metrics.find(kTemperatureMetric);
    if (it == record.metrics.end() || !std::isfinite(it->second) || it->second <= 0) return std::nullopt;
    return it->second;
}

}  // namespace ts

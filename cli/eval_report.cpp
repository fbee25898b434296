#include "eval_report.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>

#include "format.h"
#include "output_file.h"
#include "json_output.h"
#include "runs_output.h"

namespace ts::cli {

namespace {

// How the record's temperature was fitted, in words.
std::string temperatureSource(const EvaluationRecord& record)
{
    const auto samples = record.metrics.find(kTemperatureSamplesMetric);
    const auto onValidation = record.metrics.find(kTemperatureOnValidationMetric);
    const std::string count = samples == record.metrics.end() ? "" : formatCount(std::int64_t(samples->second)) + " samples";
    if (onValidation != record.metrics.end() && onValidation->second == 0)
        return "fitted on a held-out 10% of the train split (" + count + "; the run has no validation split)";
    return "fitted on the val split (" + count + ")";
}

Json calibrationJson(const Calibration& c)
{
    Json json = {{"ece", jsonValue(c.ece)}, {"nll", jsonValue(c.nll)}, {"brier", jsonValue(c.brier)}, {"bins", Json::array()}};
    for (const ReliabilityBin& b : c.bins)
        json["bins"].push_back({{"lower", jsonValue(b.lower)},
                                {"upper", jsonValue(b.upper)},
                                {"count", b.count},
                                {"accuracy", jsonValue(b.accuracy)},
                                {"confidence", jsonValue(b.confidence)}});
    return json;
}

Json averageJson(const AveragedScores& s)
{
    return {{"precision", jsonValue(s.precision)}, {"recall", jsonValue(s.recall)}, {"f1", jsonValue(s.f1)}};
}

std::string fixed(double v, int digits = 4)
{
    if (!std::isfinite(v)) return displayNumber(v);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

// The class's name, or its index when the dataset gave none.
std::string className(const std::vector<std::string>& names, std::size_t k)
{
    return k < names.size() && !names[k].empty() ? names[k] : std::to_string(k);
}

}  // namespace

void printEvaluationReport(const EvaluationRecord& record, const EvaluationReport& report,
                           const std::vector<std::string>& classNames)
{
    const ClassificationReport& c = report.classification;
    std::printf("\nevaluation %lld of run %lld: epoch %lld, %s split, %s samples, %lld classes\n\n",
                static_cast<long long>(record.id), static_cast<long long>(record.runId), static_cast<long long>(record.epoch),
                record.split.c_str(), formatCount(c.samples).c_str(), static_cast<long long>(c.classes));
    Table classes({"class", "precision", "recall", "F1", "support", "ROC-AUC", "AP"}, "lrrrrrr");
    for (std::size_t k = 0; k < c.perClass.size(); ++k) {
        const ClassScores& s = c.perClass[k];
        classes.add({className(classNames, k), fixed(s.precision), fixed(s.recall), fixed(s.f1), formatCount(s.support),
                     fixed(c.roc[k].auc), fixed(c.precisionRecall[k].averagePrecision)});
    }
    classes.add({"", "", "", "", "", "", ""});
    const auto average = [&](const char* name, const AveragedScores& s, const std::string& auc) {
        classes.add({name, fixed(s.precision), fixed(s.recall), fixed(s.f1), formatCount(c.samples), auc, ""});
    };
    average("macro avg", c.macro, fixed(c.macroRocAuc));
    average("micro avg", c.micro, "");
    average("weighted avg", c.weighted, "");
    classes.print(stdout, 2);

    std::string topK;
    for (const TopKAccuracy& t : c.topK)
    {
        topK += t.k == 1 ? std::string("accuracy ") : "   top-" + std::to_string(t.k) + " accuracy ";
        topK += fixed(t.accuracy);
    }
    std::printf("\n  %s\n", topK.c_str());

    if (c.classes <= 20) {
        std::vector<std::string> headers{"true \\ predicted"};
        for (std::int64_t k = 0; k < c.classes; ++k) headers.push_back(std::to_string(k));
        std::string align(std::size_t(c.classes) + 1, 'r');
        align[0] = 'l';
        Table confusion(headers, align);
        for (std::size_t t = 0; t < c.confusion.size(); ++t) {  // names on the rows, their numbers above the columns
            const std::string name = className(classNames, t);
            std::vector<std::string> row{name == std::to_string(t) ? name : std::to_string(t) + " " + name};
            for (std::int64_t v : c.confusion[t]) row.push_back(std::to_string(v));
            confusion.add(std::move(row));
        }
        std::printf("\n  confusion matrix (rows: true class, columns: predicted)\n");
        confusion.print(stdout, 2);
    }

    Table calibration({"calibration (15 bins)", "ECE", "NLL", "Brier"}, "lrrr");
    const Calibration& before = report.calibration;
    calibration.add({"as the model gives them", fixed(before.ece), fixed(before.nll), fixed(before.brier)});
    if (report.temperature) {
        const Calibration& after = report.calibrated;
        calibration.add({"temperature scaled", fixed(after.ece), fixed(after.nll), fixed(after.brier)});
    }
    std::printf("\n");
    calibration.print(stdout, 2);
    if (report.temperature)
        std::printf("  temperature T = %s, %s\n", fixed(*report.temperature).c_str(), temperatureSource(record).c_str());
    else
        std::printf("  no temperature was fitted (no validation data to fit it on)\n");
}

void printEvaluationReportJson(const EvaluationRecord& record, const EvaluationReport& report,
                               const std::vector<std::string>& classNames)
{
    const ClassificationReport& c = report.classification;
    Json json = {{"event", "report"},
                 {"evaluation_id", record.id},
                 {"run_id", record.runId},
                 {"epoch", record.epoch},
                 {"split", record.split},
                 {"samples", c.samples},
                 {"classes", c.classes},
                 {"per_class", Json::array()}};
    for (std::size_t k = 0; k < c.perClass.size(); ++k) {
        const ClassScores& s = c.perClass[k];
        json["per_class"].push_back({{"class", k},
                                     {"name", className(classNames, k)},
                                     {"precision", jsonValue(s.precision)},
                                     {"recall", jsonValue(s.recall)},
                                     {"f1", jsonValue(s.f1)},
                                     {"support", s.support},
                                     {"roc_auc", jsonValue(c.roc[k].auc)},
                                     {"average_precision", jsonValue(c.precisionRecall[k].averagePrecision)}});
    }
    json["macro"] = averageJson(c.macro);
    json["micro"] = averageJson(c.micro);
    json["weighted"] = averageJson(c.weighted);
    json["macro_roc_auc"] = jsonValue(c.macroRocAuc);
    json["top_k"] = Json::array();
    for (const TopKAccuracy& t : c.topK) json["top_k"].push_back({{"k", t.k}, {"accuracy", jsonValue(t.accuracy)}});
    json["confusion"] = c.confusion;
    json["calibration"] = calibrationJson(report.calibration);
    json["calibrated"] = report.temperature ? calibrationJson(report.calibrated) : Json(nullptr);
    json["temperature"] = report.temperature ? jsonValue(*report.temperature) : Json(nullptr);
    const auto onValidation = record.metrics.find(kTemperatureOnValidationMetric);
    if (onValidation != record.metrics.end()) {
        json["temperature_fitted_on"] = onValidation->second != 0 ? "val" : "train_holdout_10pct";
        json["temperature_fit_samples"] = std::int64_t(record.metrics.at(kTemperatureSamplesMetric));
    }
    printJson(json);
}

void printRegressionReport(const EvaluationRecord& record, bool json)
{
    const std::string& s = record.split;
    auto value = [&](const std::string& name) {
        const auto it = record.metrics.find(s + "_" + name);
        return it == record.metrics.end() ? std::nan("") : it->second;
    };
    if (json) {
        Json out = {{"event", "report"}, {"evaluation_id", record.id}, {"run_id", record.runId}, {"epoch", record.epoch},
                    {"split", s}, {"samples", record.samples}, {"task", "regression"}};
        for (const char* name : {"loss", "mae", "rmse", "mape", "r2", "baseline_mae", "baseline_rmse"}) out[name] = jsonValue(value(name));
        printJson(out);
        return;
    }
    std::printf("\nevaluation %lld of run %lld: epoch %lld, %s split, %s samples, regression\n\n",
                static_cast<long long>(record.id), static_cast<long long>(record.runId), static_cast<long long>(record.epoch),
                s.c_str(), formatCount(record.samples).c_str());
    Table table({"", "MAE", "RMSE", "R²", "MAPE %"}, "lrrrr");
    table.add({"model", fixed(value("mae")), fixed(value("rmse")), fixed(value("r2")), fixed(value("mape"), 2)});
    // The mean's R² is 0 on the training split by definition; on another split about 0, so left out.
    table.add({"training mean", fixed(value("baseline_mae")), fixed(value("baseline_rmse")), "", ""});
    table.print(stdout, 2);
    const double gain = 1 - value("rmse") / value("baseline_rmse");
    if (std::isfinite(gain))
        std::printf("\n  the model's RMSE is %.1f%% %s than predicting the training mean\n", 100 * std::abs(gain),
                    gain >= 0 ? "lower" : "HIGHER");
}

void writeRegressionPredictionsCsv(const std::string& path, const std::vector<Prediction>& predictions,
                                   const std::vector<std::string>& targetNames)
{
    const std::size_t targets = predictions.empty() ? targetNames.size() : predictions[0].targets.size();
    std::string text = "index";
    for (std::size_t k = 0; k < targets; ++k) {
        const std::string name = k < targetNames.size() && !targetNames[k].empty() ? targetNames[k] : "target_" + std::to_string(k);
        text += ',' + name + ",predicted_" + name;
    }
    text += '\n';
    for (const Prediction& p : predictions) {
        text += std::to_string(p.sample);
        for (std::size_t k = 0; k < p.targets.size() && k < p.values.size(); ++k)
            text += ',' + exactNumber(double(p.targets[k])) + ',' + exactNumber(double(p.values[k]));
        text += '\n';
    }
    writeUserFile(path, text);
}

void writePredictionsCsv(const std::string& path, const std::vector<Prediction>& predictions, std::int64_t classes)
{
    std::string text = "index,label,predicted,confidence";
    for (std::int64_t k = 0; k < classes; ++k) text += ",p_" + std::to_string(k);
    text += '\n';
    for (const Prediction& p : predictions) {
        text += std::to_string(p.sample) + ',' + std::to_string(p.label) + ',' + std::to_string(p.predicted) + ',' +
                exactNumber(double(p.confidence));
        for (float q : p.probabilities) text += ',' + exactNumber(double(q));
        text += '\n';
    }
    writeUserFile(path, text);
}

}  // namespace ts::cli

#include "jobs/onnx_export_run.h"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "data/dataset.h"
#include "io/checkpoint/checkpoint.h"
#include "io/yaml/experiment_yaml.h"
#include "io/output_file.h"
#include "jobs/job_parts.h"
#include "store/resume_source.h"
#include "store/database.h"
#include "store/run_log.h"
#include "store/run_reader.h"
#include "store/workspace.h"
#include "tensor/format_bytes.h"
#include "train/evaluation_report.h"
#include "jobs/log_notes.h"
#include "version.h"

namespace ts {

namespace {

std::string jsonText(const nlohmann::json& j) { return j.dump(); }

// The latest evaluation of exactly this checkpoint that fitted a temperature.
std::optional<double> temperatureOf(RunReader& reader, std::int64_t runId, const std::string& storedPath)
{
    std::optional<double> found;
    double when = -1;
    for (const EvaluationRecord& e : reader.evaluations(runId)) {
        if (e.checkpointPath != storedPath || e.createdTime < when) continue;
        if (const auto t = fittedTemperature(e)) found = t, when = e.createdTime;
    }
    return found;
}

// Class names and the normalisation statistics need the data; without it the export still
// works and says what its metadata lacks.
struct DataFacts {
    std::vector<std::string> classNames;
    std::vector<double> mean, stddev;
};

DataFacts dataFacts(const ExperimentSpec& spec, std::vector<Message>& notes)
{
    DataFacts facts{{}, spec.dataset.normalizeMean, spec.dataset.normalizeStd};
    try {
        if (spec.dataset.normalizeFromStatistics) {
            const DatasetSplits splits = openExperimentDataset(spec, defaultCacheDirectory());
            facts.classNames = splits.train->classNames();
            facts.mean = splits.trainStatistics.mean, facts.stddev = splits.trainStatistics.stddev;
        } else {
            facts.classNames = openDatasetFiles(spec.dataset, experimentDataDirectory(spec)).train->classNames();
        }
    } catch (const std::exception& e) {
        notes.push_back(makeMessage(spec.dataset.normalizeFromStatistics ? MessageId::ExportNoClassNamesNorNormalisation
                                                                         : MessageId::ExportNoClassNames,
                                    {e.what()}));
    }
    return facts;
}

}  // namespace

std::string defaultOnnxFileName(std::int64_t runId, std::int64_t epoch, bool quantized)
{
    return "run" + std::to_string(runId) + (epoch > 0 ? "_epoch" + std::to_string(epoch) : std::string()) +
           (quantized ? "_int8" : "") + ".onnx";
}

RunExportResult exportRunOnnx(const RunExportRequest& request)
{
    requireOnnxExport();  // before reading anything
    if (request.workspaceDir.empty()) throw std::invalid_argument("exporting a run needs the workspace that holds it");
    const Workspace workspace{std::filesystem::absolute(request.workspaceDir).lexically_normal().string()};
    RunReader reader(workspace);
    const std::optional<RunInfo> run = reader.run(request.runId);
    if (!run)
        throw std::invalid_argument("run " + std::to_string(request.runId) + " is not in " + workspace.databasePath() +
                                    " (trainstudio-cli runs list shows the runs)");
    RunExportResult result;
    LogNotes notes(result.notes, MessageId::ExportNoBestCheckpoint);
    CheckpointRecord chosen = chooseCheckpoint(reader.checkpoints(request.runId), request.runId, request.checkpoint, notes);
    result.checkpointPath = absoluteCheckpointPath(workspace, chosen.path);
    const Checkpoint checkpoint = loadCheckpoint(result.checkpointPath, chosen.sha256);
    result.epoch = chosen.epoch > 0 ? chosen.epoch : checkpoint.state.epoch - 1;
    const ExperimentSpec spec = parseExperiment(checkpoint.state.experimentYaml, result.checkpointPath);

    std::string output = request.output.empty() ? defaultOnnxFileName(request.runId, result.epoch, request.quantizeInt8)
                                                : request.output;
    checkOutputPath(output);  // a refused output costs no export; exportOnnx checks again as it writes

    const DataFacts facts = dataFacts(spec, result.notes);
    result.temperature = temperatureOf(reader, request.runId, chosen.path);
    auto& m = result.metadata;
    const GraphInput* input = nullptr;
    for (const GraphInput& in : spec.model.inputs)
        if (in.name != "label" && !input) input = &in;
    if (input) {
        m.emplace_back("input_name", input->name);
        m.emplace_back("input_shape", jsonText(input->shape.dims()));  // per sample; the batch is dynamic
    }
    if (!facts.classNames.empty()) m.emplace_back("class_names", jsonText(facts.classNames));
    if (!facts.mean.empty()) {
        m.emplace_back("normalize_mean", jsonText(facts.mean));
        m.emplace_back("normalize_std", jsonText(facts.stddev));
        m.emplace_back("preprocessing", "input = (pixel / 255 - normalize_mean[channel]) / normalize_std[channel]");
    }
    m.emplace_back("experiment", spec.name);
    m.emplace_back("run_id", std::to_string(request.runId));
    m.emplace_back("run_name", run->name);
    m.emplace_back("checkpoint_epoch", std::to_string(result.epoch));
    m.emplace_back("checkpoint_step", std::to_string(checkpoint.state.step));
    if (result.temperature) {
        m.emplace_back("temperature", jsonText(*result.temperature));
        m.emplace_back("calibration", "calibrated probabilities = softmax(logits / temperature)");
    }
    m.emplace_back("quantization", request.quantizeInt8 ? "int8 weights (Linear, Conv), per output channel" : "none");
    m.emplace_back("trainstudio_version", engineVersion());

    OnnxExportOptions options;
    options.probabilities = request.probabilities;
    options.quantizeInt8 = request.quantizeInt8;
    options.metadata = m;
    result.onnx = exportOnnx(spec.model, checkpoint.weights, options, output);
    if (result.onnx.note) result.notes.push_back(*result.onnx.note);
    // The run's log keeps what was made of it (the Learn page's export lesson reads it).
    try {
        const std::string file = std::filesystem::absolute(result.onnx.path).lexically_normal().string();
        appendRunLog(workspace, request.runId,
                     {store::unixNow(), "info",
                      makeMessage(MessageId::ExportOnnxWritten,
                                  {std::to_string(result.epoch), file, formatBytes(double(result.onnx.bytes))})});
    } catch (const std::exception& e) {  // a read-only workspace: the file is written all the same
        result.notes.push_back(makeMessage(MessageId::ExportNotLogged, {e.what()}));
    }
    return result;
}

}  // namespace ts

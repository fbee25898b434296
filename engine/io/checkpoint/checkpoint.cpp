// Checkpoints: the weights file, the training-state file (scalars in metadata, written so
// they read back bit for bit), and moving weights between an executor and the host.
#include "io/checkpoint/checkpoint.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <type_traits>

#include "backend/backend.h"
#include "exec/executor.h"
#include "tensor/quote_text.h"

namespace ts {

namespace {

constexpr const char* kWeightsFormat = "trainstudio-weights/1";
constexpr const char* kStateFormat = "trainstudio-state/1";
constexpr const char* kMetricPrefix = "ts_last_metric.";  // one key per metric of the last epoch

[[noreturn]] void fail(const std::string& path, const std::string& what)
{
    throw CheckpointError(path.empty() ? what : path + ": " + what);
}

// Numbers as text with std::to_chars: the shortest form that reads back to the same bits,
// and independent of the C locale (the studio runs with the user's, where 0.5 may be "0,5").
template <class T> std::string toText(T value)
{
    char buffer[64];
    const auto r = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, r.ptr);
}
std::string toText(bool value) { return value ? "true" : "false"; }

// The state file's metadata, read back with errors that name the file and the key.
class StateReader {
public:
    StateReader(const std::string& path, const std::map<std::string, std::string>& metadata) : path_(path), meta_(metadata) {}

    bool has(const std::string& key) const { return meta_.count(key) != 0; }
    const std::string& text(const std::string& key) const
    {
        const auto it = meta_.find(key);
        if (it == meta_.end()) fail(path_, "metadata '" + key + "' is missing");
        return it->second;
    }
    template <class T> T number(const std::string& key) const
    {
        const std::string& s = text(key);
        T value{};
        const auto r = std::from_chars(s.data(), s.data() + s.size(), value);
        if (r.ec != std::errc() || r.ptr != s.data() + s.size() || s.empty())
            fail(path_, "metadata '" + key + "': expected " + (std::is_floating_point_v<T> ? "a number" : "a whole number") + ", got " + quoteText(s));
        return value;
    }
    // A comma-separated list ("" is an empty one); a bad item names the key and its position.
    template <class T> std::vector<T> numbers(const std::string& key) const
    {
        const std::string& s = text(key);
        std::vector<T> out;
        for (std::size_t begin = 0; begin < s.size();) {
            const std::size_t end = std::min(s.find(',', begin), s.size());
            T value{};
            const auto r = std::from_chars(s.data() + begin, s.data() + end, value);
            if (r.ec != std::errc() || r.ptr != s.data() + end || end == begin)
                fail(path_, "metadata '" + key + "': item " + std::to_string(out.size() + 1) + " (character " +
                                std::to_string(begin) + ") is not a number");
            out.push_back(value);
            begin = end + 1;
        }
        return out;
    }
    bool boolean(const std::string& key) const
    {
        const std::string& s = text(key);
        if (s != "true" && s != "false") fail(path_, "metadata '" + key + "': expected true or false, got " + quoteText(s));
        return s == "true";
    }

private:
    const std::string& path_;
    const std::map<std::string, std::string>& meta_;
};

// Lists as text in the metadata: "3,0,12"; doubles exactly ("%.17g").
template <class T>
std::string joined(const std::vector<T>& values)
{
    std::string out;
    for (const T& v : values) out += (out.empty() ? "" : ",") + toText(v);
    return out;
}

void writeSums(std::map<std::string, std::string>& m, const MetricSums& e)
{
    m["ts_epoch_count"] = toText(e.count);
    m["ts_epoch_loss_sum"] = toText(e.lossSum);
    m["ts_epoch_loss_count"] = toText(e.lossCount);
    m["ts_epoch_top_k_correct"] = joined(e.topKCorrect);
    m["ts_epoch_confusion"] = joined(e.confusion);
    m["ts_epoch_binary_scores"] = joined(e.binaryScores);
    m["ts_epoch_binary_positive"] = joined(e.binaryPositive);
    if (!e.valueSums.empty()) m["ts_epoch_value_sums"] = joined(e.valueSums);
    m["ts_epoch_seconds"] = toText(e.seconds);
    m["ts_epoch_wait_seconds"] = toText(e.waitSeconds);
}

std::map<std::string, std::string> stateMetadata(const TrainingState& s)
{
    std::map<std::string, std::string> m;
    m["ts_format"] = kStateFormat;
    m["ts_epoch"] = toText(s.epoch);
    m["ts_batch_in_epoch"] = toText(s.batchInEpoch);
    m["ts_step"] = toText(s.step);
    m["ts_micro_step"] = toText(s.microStep);
    m["ts_seed"] = toText(s.seed);
    if (s.plateau) {
        m["ts_plateau_lr"] = toText(s.plateau->lr);
        m["ts_plateau_best"] = toText(s.plateau->best);
        m["ts_plateau_has_best"] = toText(s.plateau->hasBest);
        m["ts_plateau_bad_epochs"] = toText(s.plateau->badEpochs);
    }
    m["ts_early_has_best"] = toText(s.earlyHasBest);
    m["ts_early_best"] = toText(s.earlyBest);
    m["ts_early_best_epoch"] = toText(s.earlyBestEpoch);
    m["ts_early_bad"] = toText(s.earlyBad);
    m["ts_early_updates"] = toText(s.earlyUpdates);
    m["ts_loss_scale"] = toText(s.lossScale);
    m["ts_scaler_good_steps"] = toText(s.scalerGoodSteps);
    m["ts_best_metric_name"] = s.bestMetricName;
    if (s.bestMetricValue) m["ts_best_metric_value"] = toText(*s.bestMetricValue);
    m["ts_best_epoch"] = toText(s.bestEpoch);
    for (const auto& [name, value] : s.lastEpochMetrics) m[kMetricPrefix + name] = toText(value);
    if (s.epochSums) writeSums(m, *s.epochSums);
    m["ts_experiment_yaml"] = s.experimentYaml;
    if (!s.dataFingerprint.empty()) m["ts_data_fingerprint"] = s.dataFingerprint;
    if (!s.tokenizer.empty()) m["ts_tokenizer"] = s.tokenizer;
    return m;
}

TrainingState parseState(const std::string& path, SafetensorsFile file)
{
    const StateReader r(path, file.metadata);
    TrainingState s;
    s.epoch = r.number<std::int64_t>("ts_epoch");
    s.batchInEpoch = r.number<std::int64_t>("ts_batch_in_epoch");
    s.step = r.number<std::int64_t>("ts_step");
    s.microStep = r.number<std::uint64_t>("ts_micro_step");
    s.seed = r.number<std::uint64_t>("ts_seed");
    s.optimizerState = std::move(file.tensors);
    if (r.has("ts_plateau_lr")) {
        PlateauState p;
        p.lr = r.number<double>("ts_plateau_lr");
        p.best = r.number<double>("ts_plateau_best");
        p.hasBest = r.boolean("ts_plateau_has_best");
        p.badEpochs = r.number<std::int64_t>("ts_plateau_bad_epochs");
        s.plateau = p;
    }
    s.earlyHasBest = r.boolean("ts_early_has_best");
    s.earlyBest = r.number<double>("ts_early_best");
    s.earlyBestEpoch = r.number<std::int64_t>("ts_early_best_epoch");
    s.earlyBad = r.number<std::int64_t>("ts_early_bad");
    s.earlyUpdates = r.number<std::int64_t>("ts_early_updates");
    s.lossScale = r.number<double>("ts_loss_scale");
    s.scalerGoodSteps = r.number<std::int64_t>("ts_scaler_good_steps");
    s.bestMetricName = r.text("ts_best_metric_name");
    if (r.has("ts_best_metric_value")) s.bestMetricValue = r.number<double>("ts_best_metric_value");
    s.bestEpoch = r.number<std::int64_t>("ts_best_epoch");
    for (const auto& [key, value] : file.metadata)
        if (key.rfind(kMetricPrefix, 0) == 0) s.lastEpochMetrics[key.substr(std::strlen(kMetricPrefix))] = r.number<double>(key);
    if (r.has("ts_epoch_count")) {
        MetricSums e;
        e.count = r.number<std::int64_t>("ts_epoch_count");
        e.lossSum = r.number<double>("ts_epoch_loss_sum");
        e.lossCount = r.number<std::int64_t>("ts_epoch_loss_count");
        e.topKCorrect = r.numbers<std::int64_t>("ts_epoch_top_k_correct");
        e.confusion = r.numbers<std::int64_t>("ts_epoch_confusion");
        e.binaryScores = r.numbers<double>("ts_epoch_binary_scores");
        e.binaryPositive = r.numbers<std::int64_t>("ts_epoch_binary_positive");
        if (r.has("ts_epoch_value_sums")) e.valueSums = r.numbers<double>("ts_epoch_value_sums");
        e.seconds = r.number<double>("ts_epoch_seconds");
        e.waitSeconds = r.number<double>("ts_epoch_wait_seconds");
        s.epochSums = std::move(e);
    }
    s.experimentYaml = r.text("ts_experiment_yaml");
    if (r.has("ts_data_fingerprint")) s.dataFingerprint = r.text("ts_data_fingerprint");
    if (r.has("ts_tokenizer")) s.tokenizer = r.text("ts_tokenizer");
    return s;
}

// Our own files always carry both checksums; without them a flipped bit could pass.
void requireChecksums(const std::string& path, const SafetensorsFile& f)
{
    for (const char* key : {"ts_data_sha256", "ts_header_sha256"})
        if (!f.metadata.count(key)) fail(path, std::string("header: no ") + key + " (not a TrainStudio checkpoint, or a damaged one)");
}

void requireFormat(const std::string& path, const SafetensorsFile& f, const char* expected)
{
    const auto it = f.metadata.find("ts_format");
    if (it == f.metadata.end()) fail(path, std::string("not a TrainStudio checkpoint file (no ts_format; expected ") + expected + ")");
    if (it->second != expected)
        fail(path, "unknown format " + quoteText(it->second) + " (this version of TrainStudio reads " + expected + ")");
}

bool sameDouble(double a, double b)
{
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    return a == b && std::signbit(a) == std::signbit(b);
}

bool sameTensors(const NamedTensors& a, const NamedTensors& b)
{
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const Tensor &x = a[i].second, &y = b[i].second;
        if (a[i].first != b[i].first || x.defined() != y.defined()) return false;
        if (!x.defined()) continue;
        if (x.dtype() != y.dtype() || !(x.shape() == y.shape())) return false;
        if (x.bytes() && std::memcmp(x.raw(), y.raw(), x.bytes()) != 0) return false;
    }
    return true;
}

}  // namespace

bool TrainingState::operator==(const TrainingState& o) const
{
    const auto samePlateau = [](const std::optional<PlateauState>& a, const std::optional<PlateauState>& b) {
        if (a.has_value() != b.has_value()) return false;
        return !a || (sameDouble(a->lr, b->lr) && sameDouble(a->best, b->best) && a->hasBest == b->hasBest && a->badEpochs == b->badEpochs);
    };
    const auto sameMetrics = [](const std::map<std::string, double>& a, const std::map<std::string, double>& b) {
        if (a.size() != b.size()) return false;
        for (auto i = a.begin(), j = b.begin(); i != a.end(); ++i, ++j)
            if (i->first != j->first || !sameDouble(i->second, j->second)) return false;
        return true;
    };
    const auto sameSums = [&](const std::optional<MetricSums>& a, const std::optional<MetricSums>& b) {
        if (a.has_value() != b.has_value()) return false;
        if (!a) return true;
        const auto sameScores = [&] {
            if (a->binaryScores.size() != b->binaryScores.size()) return false;
            for (std::size_t i = 0; i < a->binaryScores.size(); ++i)
                if (!sameDouble(a->binaryScores[i], b->binaryScores[i])) return false;
            if (a->valueSums.size() != b->valueSums.size()) return false;
            for (std::size_t i = 0; i < a->valueSums.size(); ++i)
                if (!sameDouble(a->valueSums[i], b->valueSums[i])) return false;
            return true;
        };
        return a->count == b->count && sameDouble(a->lossSum, b->lossSum) && a->lossCount == b->lossCount &&
               a->topKCorrect == b->topKCorrect && a->confusion == b->confusion && sameScores() &&
               a->binaryPositive == b->binaryPositive && sameDouble(a->seconds, b->seconds) &&
               sameDouble(a->waitSeconds, b->waitSeconds);
    };
    const bool sameBest = bestMetricValue.has_value() == o.bestMetricValue.has_value() &&
                          (!bestMetricValue || sameDouble(*bestMetricValue, *o.bestMetricValue));
    return epoch == o.epoch && batchInEpoch == o.batchInEpoch && step == o.step && microStep == o.microStep && seed == o.seed &&
           sameTensors(optimizerState, o.optimizerState) && samePlateau(plateau, o.plateau) && earlyHasBest == o.earlyHasBest &&
           sameDouble(earlyBest, o.earlyBest) && earlyBestEpoch == o.earlyBestEpoch && earlyBad == o.earlyBad &&
           earlyUpdates == o.earlyUpdates && sameDouble(lossScale, o.lossScale) && scalerGoodSteps == o.scalerGoodSteps &&
           bestMetricName == o.bestMetricName && sameBest && bestEpoch == o.bestEpoch && sameMetrics(lastEpochMetrics, o.lastEpochMetrics) &&
           sameSums(epochSums, o.epochSums) && experimentYaml == o.experimentYaml &&
           dataFingerprint == o.dataFingerprint && tokenizer == o.tokenizer;
}

std::string checkpointStatePath(const std::string& weightsPath)
{
    const std::string ext = ".safetensors";
    if (weightsPath.size() >= ext.size() && weightsPath.compare(weightsPath.size() - ext.size(), ext.size(), ext) == 0)
        return weightsPath.substr(0, weightsPath.size() - ext.size()) + ".state" + ext;
    return weightsPath + ".state" + ext;
}

SavedCheckpoint saveCheckpoint(const std::string& weightsPath, const NamedTensors& weights, const TrainingState& state)
{
    SavedCheckpoint saved;
    saved.weightsPath = weightsPath;
    saved.statePath = checkpointStatePath(weightsPath);
    std::error_code ec;
    const bool weightsExisted = std::filesystem::exists(weightsPath, ec);

    const std::map<std::string, std::string> weightsMeta = {
        {"ts_format", kWeightsFormat}, {"ts_step", toText(state.step)}, {"ts_epoch", toText(state.epoch)}};
    saved.sizeBytes = static_cast<std::int64_t>(writeSafetensors(weightsPath, weights, weightsMeta, &saved.sha256));
    // The state names the weights file it belongs to by hash: a save interrupted between the
    // two renames (over an existing pair) is then caught on load instead of mixing two saves.
    std::map<std::string, std::string> stateMeta = stateMetadata(state);
    stateMeta["ts_weights_sha256"] = saved.sha256;
    try {
        saved.sizeBytes += static_cast<std::int64_t>(writeSafetensors(saved.statePath, state.optimizerState, stateMeta, &saved.stateSha256));
    } catch (...) {
        // Weights without a state cannot be resumed: leave no half checkpoint behind.
        if (!weightsExisted) std::filesystem::remove(weightsPath, ec);
        throw;
    }
    return saved;
}

Checkpoint loadCheckpoint(const std::string& weightsPath, const std::string& expectedSha256)
{
    std::string weightsSha;
    SafetensorsFile weights = readSafetensors(weightsPath, &weightsSha);
    requireChecksums(weightsPath, weights);
    requireFormat(weightsPath, weights, kWeightsFormat);
    if (!expectedSha256.empty() && weightsSha != expectedSha256)
        fail(weightsPath, "checksum mismatch: the workspace recorded SHA-256 " + expectedSha256 + ", the file has " + weightsSha +
                              " (it was replaced or damaged)");

    const std::string statePath = checkpointStatePath(weightsPath);
    std::error_code ec;
    if (!std::filesystem::exists(statePath, ec))
        fail(statePath, "the training state file is missing (it belongs beside " + weightsPath + ")");
    SafetensorsFile state = readSafetensors(statePath);
    requireChecksums(statePath, state);
    requireFormat(statePath, state, kStateFormat);
    if (StateReader(statePath, state.metadata).text("ts_weights_sha256") != weightsSha)
        fail(statePath, "belongs to another save than " + weightsPath + " (was a save interrupted?)");

    Checkpoint c;
    c.weights = std::move(weights.tensors);
    c.state = parseState(statePath, std::move(state));
    return c;
}

NamedTensors captureWeights(Executor& executor)
{
    Backend& backend = executor.backend();
    backend.synchronize();  // queued updates must land before we read
    NamedTensors out;
    for (const Parameter& p : executor.parameters()) {
        Tensor host = Tensor::empty(p.value.shape(), p.value.dtype());
        if (host.bytes()) backend.copyToHost(host.raw(), p.value.raw(), host.bytes());
        out.emplace_back(p.name, std::move(host));
    }
    return out;
}

void restoreWeights(Executor& executor, const NamedTensors& weights, const std::string& fileForErrors)
{
    // Everything is checked before anything is copied: a mismatch leaves the model as it was.
    std::map<std::string, const Tensor*> byName;
    for (const auto& [name, t] : weights) {
        if (!byName.emplace(name, &t).second) fail(fileForErrors, "tensor " + quoteText(name) + " appears twice");
        if (!t.defined() || t.device().kind != DeviceKind::CPU) fail(fileForErrors, "tensor " + quoteText(name) + " is not in host memory");
    }
    std::vector<std::pair<Parameter*, const Tensor*>> plan;
    for (Parameter& p : executor.parameters()) {
        const auto it = byName.find(p.name);
        if (it == byName.end())
            fail(fileForErrors, "parameter '" + p.name + "' " + p.value.shape().str() + " of the model is not in the file");
        const Tensor& t = *it->second;
        if (!(t.shape() == p.value.shape()) || t.dtype() != p.value.dtype())
            fail(fileForErrors, "parameter '" + p.name + "': the file has " + std::string(dtypeName(t.dtype())) + " " + t.shape().str() +
                                    ", the model " + std::string(dtypeName(p.value.dtype())) + " " + p.value.shape().str());
        plan.emplace_back(&p, &t);
    }
    for (const auto& [name, t] : weights)
        if (!executor.findParameter(name)) fail(fileForErrors, quoteText(name) + " in the file is not a parameter of the model");

    Backend& backend = executor.backend();
    backend.synchronize();  // nothing may still be reading the old values
    for (const auto& [p, t] : plan)
        if (t->bytes()) backend.copyFromHost(p->value.raw(), t->raw(), t->bytes());
    backend.synchronize();
}

}  // namespace ts

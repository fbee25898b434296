// Predictions from a trained run: a run's checkpoint loaded once into an inference executor,
// then any number of inputs (jobs/prediction_inputs.h) put through the experiment's own
// loader (its normalisation, no augmentation) and the trainer's Evaluator, as `eval` does,
// so a sample gets the class and probabilities eval stores for it. Nothing is recorded: a
// prediction is a read, not a run (hence no Job). `trainstudio-cli predict` and the Runs
// page's drop-an-image panel use it. One thread at a time per Predictor.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "jobs/prediction_inputs.h"
#include "types/experiment_spec.h"
#include "types/run_records.h"

namespace ts {

struct PredictorOptions {
    std::string workspaceDir;         // the workspace holding the run (required)
    std::int64_t runId = 0;
    std::string checkpoint = "best";  // best | last | an epoch number | a weights file
    std::string device;               // empty: the run's training.device
    std::string cacheDir;             // dataset statistics; empty: defaultCacheDirectory()
};

struct ClassScore {
    std::int64_t index = 0;
    std::string name;
    double probability = 0;  // softmax of the logits, as eval stores it
};

struct SamplePrediction {
    InputSource source;
    std::vector<ClassScore> top;  // the k most probable classes, most probable first
    std::vector<double> values;   // regression: the predicted target values, in the data's units (top empty)
};

class Predictor {
public:
    // Loads and verifies the checkpoint and opens the run's dataset for its class names and
    // the statistics its normalisation may use. Throws std::invalid_argument (no such run,
    // no checkpoint, an unknown epoch), CheckpointError, StoreError or DataError, each saying
    // what is wrong and what to do.
    explicit Predictor(const PredictorOptions& options);
    ~Predictor();
    Predictor(const Predictor&) = delete;
    Predictor& operator=(const Predictor&) = delete;

    // Reads the inputs (openPredictionInputs' errors) and returns each sample's top k. With
    // `skipped`, an input that cannot be read or does not fit the model is listed there and
    // the others are predicted.
    std::vector<SamplePrediction> predict(const std::vector<std::string>& inputs, int topK,
                                          std::vector<SkippedInput>* skipped = nullptr);
    std::vector<SamplePrediction> predict(const std::shared_ptr<PredictionInputs>& inputs, int topK);

    const ModelInput& modelInput() const;
    const ExperimentSpec& experiment() const;
    const CheckpointRecord& checkpoint() const;  // epoch and step filled from the file when the store does not name it
    const std::string& weightsPath() const;      // absolute
    // What loading said (the checkpoint "best" fell back to, the device chosen); and, after
    // predict, what fitting the inputs did (prediction_inputs.h's notes).
    const std::vector<Message>& notes() const;

    struct Impl;

private:
    std::unique_ptr<Impl> impl_;
};

}  // namespace ts

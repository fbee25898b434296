// Exporting a run's checkpoint as ONNX (io/onnx_export.h does the model): the checkpoint found
// as `eval` finds it (best | last | an epoch | a weights file), the model walked from the
// experiment the checkpoint carries, and the model's metadata filled from the run and the
// store: class names, input normalisation and shape, experiment name, run id, checkpoint
// epoch, and the fitted temperature of an evaluation of that checkpoint when there is one.
// The one entry point for the CLI's `export` and the Runs page's Export button.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "io/onnx/onnx_export.h"
#include "types/message.h"

namespace ts {

struct RunExportRequest {
    std::string workspaceDir;
    std::int64_t runId = 0;
    std::string checkpoint = "best";  // best | last | an epoch number | a weights file
    std::string output;               // the .onnx file (its folder must exist); empty: defaultOnnxFileName in the current folder
    bool probabilities = false;       // add the "probabilities" output (Softmax of the logits)
    bool quantizeInt8 = false;        // Linear/Conv weights int8, per output channel
};

struct RunExportResult {
    OnnxExportInfo onnx;              // path, bytes, inputs, outputs, dropped nodes, ...
    std::string checkpointPath;       // the weights file exported
    std::int64_t epoch = 0;           // its epoch (0: a file the store does not know)
    std::optional<double> temperature;  // written into the metadata when fitted
    std::vector<std::pair<std::string, std::string>> metadata;
    std::vector<Message> notes;       // what the user should know ("run 3 marks no checkpoint as best: ...")
};

// "run<id>_epoch<E>[_int8].onnx": the name the CLI writes by default.
std::string defaultOnnxFileName(std::int64_t runId, std::int64_t epoch, bool quantized);

// Throws std::invalid_argument (no such run, no checkpoint, unknown epoch, missing output
// folder), CheckpointError (a damaged checkpoint) or OnnxExportError (an op without an ONNX
// form, naming the node; an unwritable file), each saying what to do. No partial file is left.
RunExportResult exportRunOnnx(const RunExportRequest& request);

}  // namespace ts

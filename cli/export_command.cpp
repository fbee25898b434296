// `trainstudio-cli export RUN --format onnx`: a run's checkpoint as an ONNX model
// (engine/jobs/onnx_export_run.h), float or with int8 weights.
#include <cstdio>
#include <stdexcept>

#include "commands.h"
#include "format.h"
#include "json_output.h"
#include "jobs/onnx_export_run.h"

namespace ts::cli {

namespace {

void printHelp()
{
    std::printf(
        "Usage: trainstudio-cli export RUN --format onnx [--checkpoint best|last|EPOCH|FILE]\n"
        "                              [--output FILE] [--probabilities] [--quantize int8]\n"
        "                              [--workspace DIR] [--json]\n"
        "\n"
        "Writes the run's checkpoint (default: best) as an ONNX model (IR 8, opset 17) with a\n"
        "dynamic batch dimension: input as in the experiment (\"image\"), output \"logits\";\n"
        "--probabilities adds an output \"probabilities\" (softmax). --quantize int8 stores the\n"
        "Linear and Conv weights as int8 with one scale per output channel (DequantizeLinear).\n"
        "The model's metadata holds the class names, the input normalisation and shape, the\n"
        "experiment, the run id and, when an evaluation fitted one, the temperature.\n"
        "Default output: run<ID>_epoch<E>[_int8].onnx in the current folder.\n");
}

}  // namespace

int exportCommand(const std::vector<std::string>& args)
{
    if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
        printHelp();
        return 0;
    }
    const Options o = parseOptions(args, {"--format", "--checkpoint", "--output", "--quantize", "--workspace"},
                                   {"--probabilities", "--json"});
    if (o.positional.size() != 1)
        throw std::invalid_argument("export expects one run id (trainstudio-cli runs list shows them); see export --help");
    const std::string format = o.get("--format", "onnx");
    if (format != "onnx")
        throw std::invalid_argument("--format " + format + ": only onnx is written (safetensors weights are the "
                                    "checkpoint files themselves)");
    const std::string quantize = o.get("--quantize", "");
    if (!quantize.empty() && quantize != "int8")
        throw std::invalid_argument("--quantize " + quantize + ": only int8 is supported");
    RunExportRequest request;
    try {
        request.runId = std::stoll(o.positional[0]);
    } catch (const std::exception&) {
        throw std::invalid_argument("export expects a run id, got '" + o.positional[0] + "'");
    }
    request.workspaceDir = o.workspace();
    request.checkpoint = o.get("--checkpoint", "best");
    request.output = o.get("--output", "");
    request.probabilities = o.flags.count("--probabilities") != 0;
    request.quantizeInt8 = quantize == "int8";
    const RunExportResult r = exportRunOnnx(request);
    if (o.flags.count("--json")) {
        printJson({{"event", "exported"},
                   {"path", r.onnx.path},
                   {"bytes", r.onnx.bytes},
                   {"checkpoint", r.checkpointPath},
                   {"epoch", r.epoch},
                   {"nodes", r.onnx.nodes},
                   {"quantized_weights", r.onnx.quantizedWeights},
                   {"temperature", orNull(r.temperature)}});
        return 0;
    }
    for (const Message& note : r.notes) std::printf("note: %s\n", note.text.c_str());
    std::printf("exported run %lld (epoch %lld, %s) to %s: %s, %d ONNX nodes%s\n", static_cast<long long>(request.runId),
                static_cast<long long>(r.epoch), r.checkpointPath.c_str(), r.onnx.path.c_str(),
                formatBytes(r.onnx.bytes).c_str(), r.onnx.nodes,
                r.onnx.quantizedWeights > 0 ? (", " + std::to_string(r.onnx.quantizedWeights) + " weights int8").c_str() : "");
    std::string io = "  inputs:";
    for (const auto& name : r.onnx.inputs) io += " " + name + "[batch, ...]";
    io += "; outputs:";
    for (const auto& name : r.onnx.outputs) io += " " + name;
    std::printf("%s\n", io.c_str());
    if (!r.onnx.dropped.empty()) {
        std::string dropped;
        for (const auto& name : r.onnx.dropped) dropped += (dropped.empty() ? "" : ", ") + name;
        std::printf("  left out (no inference meaning): %s\n", dropped.c_str());
    }
    if (r.temperature) std::printf("  fitted temperature %.4g in the metadata\n", *r.temperature);
    return 0;
}

}  // namespace ts::cli

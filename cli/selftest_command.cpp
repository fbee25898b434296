// `trainstudio-cli selftest`: checks a backend against the CPU reference, primitive by
// primitive (engine/backend/selftest.h), then with a short real training run of the shipped
// Fashion-MNIST experiments. Exit 77 (ctest's skip code) when there is no GPU to check.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <memory>
#include <stdexcept>

#include "backend/cpu/cpu_backend.h"
#include "backend/devices.h"
#include "backend/math_precision.h"
#include "selftest/selftest.h"
#include "commands.h"
#include "format.h"
#include "json_output.h"
#include "selftest_training.h"

namespace ts::cli {

namespace {

constexpr int kNothingToCheck = 77;

void printSelftestHelp()
{
    std::printf(
        "Usage: trainstudio-cli selftest [--device cuda|cuda:N|cpu] [--precision f32|tf32|bf16|f16|all]\n"
        "                                [--json] [--no-training] [--seed N] [--experiments DIR]\n"
        "\n"
        "Checks every backend primitive (memory, GEMM in all transpose combinations, convolution,\n"
        "pooling, batch/group/layer norm, softmax, losses, embedding, optimizer updates, ...) on the\n"
        "candidate device against the CPU backend, the numerical reference, at small odd sizes,\n"
        "typical CNN/MLP sizes and sizes that are no multiple of a block size. Each case compares\n"
        "the normwise relative error max|cand - cpu| / max|cpu| of every output with a tolerance:\n"
        "  f32: GEMM, convolution and attention 1e-4, everything else 1e-5\n"
        "  tf32 / bf16 / f16: GEMM, convolution, attention 5e-3 / 3e-2 / 5e-3, else 1e-5\n"
        "Integer outputs (max-pool argmax, dropout mask) must match exactly. Gradients start from\n"
        "the same random values on both sides, so the accumulate (+=) contract is checked too.\n"
        "Then every registered op's cases run forward and backward on both sides from the same\n"
        "inputs, parameters and output gradient: outputs and gradients within %g times the loosest\n"
        "tolerance of the primitives the op calls. A primitive the candidate does not support is\n"
        "reported as \"not supported\", an op calling one as \"runs on the CPU\" (as training runs\n"
        "it); neither is a failure.\n"
        "\n"
        "Then, unless --no-training, it trains fashion_mnist_mlp and fashion_mnist_cnn (from\n"
        "--experiments DIR, else experiments/ here, else the shipped ones: installed, or the\n"
        "source tree's) for %d steps of batch %d on the device and on the CPU with the same seed,\n"
        "in f32, and compares the losses step by step: each of the first %d within %g relative,\n"
        "the last within %g%%.\n"
        "\n"
        "  --device      cuda (device 0, the default), cuda:N, or cpu: a second CPU backend against\n"
        "                the first, which only checks the harness itself (everything matches)\n"
        "  --precision   the matrix-product precision of both sides (default f32); all: each in turn\n"
        "  --json        one JSON object per primitive case (\"event\":\"case\") and op case\n"
        "                (\"op_case\"; \"error\" is \"inf\" for a mismatch that has no size: NaN,\n"
        "                infinity or an integer differs, or a primitive threw), one per training\n"
        "                comparison, and a final {\"event\":\"selftest\",\"passed\":N,\"failed\":M,...}\n"
        "  --seed N      the random inputs and the training seed (default 1)\n"
        "  --no-training check the primitives only (what ctest's cli.selftest_cuda runs)\n"
        "  --experiments DIR  where fashion_mnist_mlp.yaml and fashion_mnist_cnn.yaml are\n"
        "\n"
        "Exit codes: 0 everything passed; 1 a case failed (or an error); 77 no CUDA device to check\n"
        "(ctest reports the test as skipped).\n",
        kSelftestOpFactor, kTrainingSteps, kTrainingBatch, kTrainingEarlySteps, kTrainingEarlyTolerance, 100 * kTrainingFinalTolerance);
}

std::vector<MathPrecision> parsePrecisions(const std::string& text)
{
    if (text == "all") return {MathPrecision::F32, MathPrecision::TF32, MathPrecision::BF16, MathPrecision::F16};
    if (const auto p = parseMathPrecision(text)) return {*p};
    throw std::invalid_argument("--precision expects f32, tf32, bf16, f16 or all, got '" + text + "'");
}

int cudaIndex(const std::string& device)
{
    if (device == "cuda") return 0;
    const std::string digits = device.substr(5);
    if (digits.empty() || digits.size() > 3 || !std::all_of(digits.begin(), digits.end(), [](unsigned char ch) { return std::isdigit(ch) != 0; }))
        throw std::invalid_argument("--device expects cuda, cuda:N or cpu, got '" + device + "'");
    return std::stoi(digits);
}

// One table of cases; a case the candidate does not support shows why in place of its numbers.
void printCases(const std::vector<SelftestCase>& cases, const char* nameHeader, const char* shapeHeader)
{
    std::size_t wn = std::string(nameHeader).size(), ws = std::string(shapeHeader).size();
    for (const auto& c : cases) wn = std::max(wn, c.name.size()), ws = std::max(ws, c.shape.size());
    std::printf("%-*s  %-*s  %10s  %9s  result\n", int(wn), nameHeader, int(ws), shapeHeader, "rel. error", "tolerance");
    for (const auto& c : cases) {
        if (!c.supported) {
            std::printf("%-*s  %-*s  %10s  %9s  %s\n", int(wn), c.name.c_str(), int(ws), c.shape.c_str(), "-", "-", c.detail.c_str());
            continue;
        }
        std::printf("%-*s  %-*s  %10.3g  %9.3g  %s\n", int(wn), c.name.c_str(), int(ws), c.shape.c_str(), c.error,
                    c.tolerance, c.passed ? "ok" : "FAIL");
        if (!c.passed) std::printf("    %s\n", c.detail.c_str());
    }
}

void printTable(const SelftestReport& r, MathPrecision p)
{
    std::printf("\nprecision %s\n", mathPrecisionName(p));
    printCases(r.primitives, "primitive", "shape");
    std::printf("\n");
    printCases(r.ops, "op", "case");
    std::printf("%s: %d passed, %d failed, %d not supported\n", mathPrecisionName(p), r.passed(), r.failed(), r.unsupported());
}

void printCasesJson(const SelftestReport& r, MathPrecision p)
{
    for (const auto* cases : {&r.primitives, &r.ops})
        for (const auto& c : *cases)
            printJson({{"event", cases == &r.ops ? "op_case" : "case"},
                       {cases == &r.ops ? "op" : "primitive", c.name},
                       {"shape", c.shape},
                       {"precision", mathPrecisionName(p)},
                       {"error", std::isinf(c.error) ? Json("inf") : Json(c.error)},  // a mismatch with no relative size
                       {"tolerance", c.tolerance},
                       {"supported", c.supported},
                       {"passed", c.passed},
                       {"detail", c.detail}});
}

void printTraining(const TrainingComparison& t, bool json)
{
    if (json) {
        printJson({{"event", "training"},
                   {"experiment", t.experiment},
                   {"steps", t.reference.size()},
                   {"early_rel_diff", t.earlyDifference},
                   {"max_rel_diff", t.maxDifference},
                   {"final_rel_diff", t.finalDifference},
                   {"passed", t.passed},
                   {"detail", t.detail}});
        return;
    }
    std::printf("training %-18s first %d steps %9.3g (< %g)  final %9.3g (< %g)  max %9.3g  %s\n    %s\n",
                t.experiment.c_str(), kTrainingEarlySteps, t.earlyDifference, kTrainingEarlyTolerance, t.finalDifference,
                kTrainingFinalTolerance, t.maxDifference, t.passed ? "ok" : "FAIL", t.detail.c_str());
}

}  // namespace

int selftestCommand(const std::vector<std::string>& args)
{
    if (std::find(args.begin(), args.end(), "--help") != args.end() || std::find(args.begin(), args.end(), "-h") != args.end()) {
        printSelftestHelp();
        return 0;
    }
    const Options o = parseOptions(args, {"--device", "--precision", "--seed", "--experiments"}, {"--json", "--no-training"});
    if (!o.positional.empty()) throw std::invalid_argument("selftest takes no file (see trainstudio-cli selftest --help)");
    const std::string device = o.get("--device", "cuda");
    const std::vector<MathPrecision> precisions = parsePrecisions(o.get("--precision", "f32"));
    const auto seed = static_cast<std::uint64_t>(o.integer("--seed", 1, 0));
    const bool json = o.flags.count("--json") != 0, training = o.flags.count("--no-training") == 0;

    std::unique_ptr<CpuBackend> secondCpu;
    Backend* candidate = nullptr;
    std::string what;
    if (device == "cpu") {
        secondCpu = std::make_unique<CpuBackend>();
        candidate = secondCpu.get();
        what = "a second CPU backend (checks the harness only)";
    } else if (device.rfind("cuda", 0) == 0) {
        const int index = cudaIndex(device);
        const CudaRuntimeInfo cuda = queryCuda();
        if (cuda.devices.empty()) {
            const std::string line = "selftest: " + cuda.reason + "; nothing to check";
            if (json) printJson({{"event", "selftest"}, {"skipped", true}, {"reason", cuda.reason}});
            std::fprintf(stderr, "%s\n", line.c_str());
            return kNothingToCheck;
        }
        if (index >= static_cast<int>(cuda.devices.size()))
            throw std::invalid_argument(device + ": this machine has " + std::to_string(cuda.devices.size()) + " CUDA device(s)");
        candidate = &cudaBackend(index);  // a GPU that is there but cannot be opened is a failure, not a skip
        what = "cuda:" + std::to_string(index) + " (" + cuda.devices[static_cast<std::size_t>(index)].name + ")";
    } else {
        throw std::invalid_argument("--device expects cuda, cuda:N or cpu, got '" + device + "'");
    }
    // Find the experiments before the long part, so a missing folder fails at once.
    const std::string experiments = training ? findExperimentsDirectory(o.get("--experiments", "")) : "";
    if (!json) std::printf("selftest: %s against the CPU reference, seed %llu\n", what.c_str(), (unsigned long long)seed);
    std::fflush(stdout);

    Backend& reference = cpuBackend();
    int passed = 0, failed = 0, unsupported = 0;
    for (MathPrecision p : precisions) {
        SelftestOptions options;
        options.seed = seed;
        options.precision = p;
        const SelftestReport report = compareBackends(*candidate, reference, options);
        json ? printCasesJson(report, p) : printTable(report, p);
        std::fflush(stdout);
        passed += report.passed();
        failed += report.failed();
        unsupported += report.unsupported();
    }
    if (training) {
        if (!json) std::printf("\ntraining comparison (f32, %d steps of batch %d, seed %llu)\n", kTrainingSteps, kTrainingBatch,
                               (unsigned long long)seed);
        const MathPrecision before = candidate->mathPrecision();
        candidate->setMathPrecision(MathPrecision::F32);
        for (const char* file : {"fashion_mnist_mlp.yaml", "fashion_mnist_cnn.yaml"}) {
            const TrainingComparison t = compareTraining(experiments + "/" + file, *candidate, reference, seed);
            printTraining(t, json);
            std::fflush(stdout);
            (t.passed ? passed : failed) += 1;
        }
        candidate->setMathPrecision(before);
    }
    if (json)
        printJson({{"event", "selftest"}, {"device", what}, {"passed", passed}, {"failed", failed}, {"not_supported", unsupported}});
    else
        std::printf("\nselftest %s: %d passed, %d failed, %d not supported\n", failed ? "FAILED" : "passed", passed, failed,
                    unsupported);
    return failed ? 1 : 0;
}

}  // namespace ts::cli

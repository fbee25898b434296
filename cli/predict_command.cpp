// `trainstudio-cli predict RUN [--checkpoint best|last|EPOCH|FILE] [--top K] [--json]
// [--device ..] [--workspace DIR] [--text TEXT ...] INPUT...`: a run's checkpoint over images,
// folders of them, IDX files, CSV rows or (a text classifier's) texts (jobs/predictor.h), the top-k classes of every sample as a table or
// as JSON lines. Notes (a resize, a checkpoint fallback) go to stderr, so --json stays pure;
// so do the inputs that cannot be predicted (each named with why; the others are still
// predicted, and the exit status is 1).
#include <cstdio>
#include <string>
#include <vector>

#include "commands.h"
#include "format.h"
#include "jobs/predictor.h"
#include "json_output.h"
#include "runs_output.h"
#include "terminal_text.h"

namespace ts::cli {

namespace {

// "shoe.png [0]", "t10k-images-idx3-ubyte [17]": the file and the sample's index in it.
std::string sourceText(const InputSource& s) { return s.file + " [" + std::to_string(s.index) + "]"; }

void printPredictionsJson(const std::vector<SamplePrediction>& predictions)
{
    for (const SamplePrediction& p : predictions) {
        Json json = {{"source", p.source.file}, {"index", p.source.index}};
        if (!p.source.label.empty()) json["label"] = p.source.label;
        if (!p.values.empty()) {  // regression
            json["values"] = Json::array();
            for (double v : p.values) json["values"].push_back(jsonValue(v));
            printJson(json);
            continue;
        }
        json["top_k"] = Json::array();
        for (const ClassScore& c : p.top)
            json["top_k"].push_back({{"class", c.index}, {"name", c.name}, {"probability", jsonValue(c.probability)}});
        printJson(json);
    }
}

void printTable(const Predictor& predictor, const std::vector<SamplePrediction>& predictions, int k)
{
    const CheckpointRecord& c = predictor.checkpoint();
    std::printf("run %lld, epoch %lld checkpoint (step %lld): %s\n", static_cast<long long>(c.runId),
                static_cast<long long>(c.epoch), static_cast<long long>(c.step), predictor.weightsPath().c_str());
    std::printf("%s predictions of %s\n\n", formatCount(std::int64_t(predictions.size())).c_str(),
                predictor.modelInput().describe().c_str());
    bool labelled = false;
    for (const auto& p : predictions) labelled = labelled || !p.source.label.empty();
    const std::vector<std::string>& targets = predictor.modelInput().targetNames;
    if (!predictions.empty() && !predictions.front().values.empty()) {  // regression: the predicted values
        std::vector<std::string> headers{"input"};
        if (labelled) headers.push_back("actual " + targets.front());
        for (std::size_t t = 0; t < predictions.front().values.size(); ++t)
            headers.push_back("predicted " + (t < targets.size() ? targets[t] : std::to_string(t)));
        Table table(headers, "l" + std::string(headers.size() - 1, 'r'));
        for (const SamplePrediction& p : predictions) {
            std::vector<std::string> row{sourceText(p.source)};
            if (labelled) row.push_back(p.source.label);
            for (double v : p.values) row.push_back(displayNumber(v));
            table.add(std::move(row));
        }
        table.print(stdout, 2);
        return;
    }
    std::vector<std::string> headers{"input"};
    std::string align = "l";
    if (labelled) headers.push_back("label"), align += 'l';
    const int shown = predictions.empty() ? k : int(predictions.front().top.size());
    for (int r = 1; r <= shown; ++r) {
        headers.push_back(r == 1 ? "1st" : r == 2 ? "2nd" : r == 3 ? "3rd" : std::to_string(r) + "th");
        align += 'l';
    }
    Table table(headers, align);
    for (const SamplePrediction& p : predictions) {
        std::vector<std::string> row{sourceText(p.source)};
        if (labelled) row.push_back(p.source.label);
        for (const ClassScore& s : p.top) {
            char probability[32];
            std::snprintf(probability, sizeof probability, "%.3f", s.probability);
            row.push_back(s.name + " " + probability);
        }
        table.add(std::move(row));
    }
    table.print(stdout, 2);
}

}  // namespace

int predictCommand(const std::vector<std::string>& args)
{
    const Options o = parseOptions(args, {"--checkpoint", "--top", "--device", "--workspace", "--text"}, {"--json"});
    const std::vector<std::string> texts = o.all("--text");
    if (o.positional.empty() || (o.positional.size() < 2 && texts.empty()))
        throw std::invalid_argument("predict expects a run id and at least one input: predict RUN IMAGE.png|FOLDER|"
                                    "IDX-IMAGES|TABLE.csv|TEXTS.txt ... or --text \"...\" (trainstudio-cli runs list "
                                    "shows the runs)");
    PredictorOptions options;
    try {
        std::size_t used = 0;
        options.runId = std::stoll(o.positional[0], &used);
        if (used != o.positional[0].size()) throw std::invalid_argument("trailing text");
    } catch (const std::exception&) {
        throw std::invalid_argument("predict expects a run id first, got '" + o.positional[0] +
                                    "' (trainstudio-cli runs list shows them)");
    }
    options.workspaceDir = o.workspace();
    options.checkpoint = o.get("--checkpoint", "best");
    options.device = o.get("--device", "");
    const int k = int(o.integer("--top", 5, 1, 1000));
    const bool json = o.flags.count("--json") != 0;

    Predictor predictor(options);
    const std::vector<std::string> inputs(o.positional.begin() + 1, o.positional.end());
    // One input that cannot be read or does not fit stops nobody else's prediction: each is
    // named with why, the others printed, and the exit status says that some failed.
    std::vector<SkippedInput> skipped;
    std::vector<SamplePrediction> predictions;
    if (!texts.empty()) predictions = predictor.predict(openPredictionTexts(texts, predictor.modelInput()), k);
    if (!inputs.empty()) {
        const std::vector<SamplePrediction> more = predictor.predict(inputs, k, &skipped);
        predictions.insert(predictions.end(), more.begin(), more.end());
    }
    for (const Message& note : predictor.notes()) std::fprintf(stderr, "note: %s\n", note.text.c_str());
    for (const SkippedInput& s : skipped) std::fprintf(stderr, "trainstudio-cli predict: %s\n", terminalMessage(s.reason).c_str());
    if (!predictions.empty() || skipped.empty()) {
        if (json) printPredictionsJson(predictions);
        else printTable(predictor, predictions, k);
    }
    if (skipped.empty()) return 0;
    std::fprintf(stderr, "trainstudio-cli predict: %zu %s could not be predicted (named above)%s\n", skipped.size(),
                 skipped.size() == 1 ? "input" : "inputs",
                 predictions.empty() ? "" : "; the others were");
    return 1;
}

}  // namespace ts::cli

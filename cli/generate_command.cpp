// `trainstudio-cli generate RUN [--prompt TEXT] [--length N] [--temperature T] [--top-k K]
// [--seed S] [--checkpoint ..] [--device ..] [--workspace DIR]`: a language model's text
// (train/text_sampler.h), printed token by token as it is drawn. Notes go to stderr.
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "commands.h"
#include "format.h"
#include "jobs/run_sampler.h"

namespace ts::cli {

int generateCommand(const std::vector<std::string>& args)
{
    const Options o =
        parseOptions(args, {"--prompt", "--length", "--temperature", "--top-k", "--seed", "--checkpoint", "--device", "--workspace"}, {});
    if (o.positional.size() != 1)
        throw std::invalid_argument("generate expects one run id: generate RUN --prompt \"...\" (trainstudio-cli runs list shows the runs)");
    PredictorOptions options;
    try {
        std::size_t used = 0;
        options.runId = std::stoll(o.positional[0], &used);
        if (used != o.positional[0].size()) throw std::invalid_argument("trailing text");
    } catch (const std::exception&) {
        throw std::invalid_argument("generate expects a run id, got '" + o.positional[0] + "' (trainstudio-cli runs list shows them)");
    }
    options.workspaceDir = o.workspace();
    options.checkpoint = o.get("--checkpoint", "best");
    options.device = o.get("--device", "");
    GenerateOptions g;
    g.prompt = o.get("--prompt", "");
    g.length = o.integer("--length", 200, 0, 100000);
    g.temperature = o.number("--temperature", 1.0, 0.0);
    g.topK = o.integer("--top-k", 0, 0, 1 << 30);
    g.seed = static_cast<std::uint64_t>(o.integer("--seed", 0, 0, std::numeric_limits<long long>::max()));

    std::vector<Message> notes;
    TextSampler generator = openRunSampler(options, notes);
    for (const Message& note : notes) std::fprintf(stderr, "note: %s\n", note.text.c_str());
    try {
        (void)generator.tokenizer().encode(g.prompt);  // a prompt the vocabulary cannot write: say so before anything prints
    } catch (const TokenizeError& e) {
        throw std::invalid_argument("--prompt: " + std::string(e.what()) + "; write the prompt with the characters the model was trained on");
    }
    std::fputs(g.prompt.c_str(), stdout);
    std::fflush(stdout);
    generator.generate(g, [](const std::string& piece) {
        std::fputs(piece.c_str(), stdout);
        std::fflush(stdout);
        return true;
    });
    std::fputs("\n", stdout);
    return 0;
}

}  // namespace ts::cli

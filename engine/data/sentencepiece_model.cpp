#include "data/sentencepiece_model.h"

#include <dlfcn.h>

#include <mutex>
#include <regex>
#include <unordered_map>

#include "backend/module_loader.h"
#include "data/sentencepiece_module_api.h"

namespace ts {

namespace {

const SentencePieceModuleApi& module()
{
    static const SentencePieceModuleApi* api = [] {
        const OpenedModule opened = openModule(kSentencePieceModuleFile, /*ownSymbolsFirst=*/true);
        if (!opened.handle) throw std::runtime_error("SentencePiece cannot be loaded (" + opened.why + ")");
        using Entry = const SentencePieceModuleApi* (*)();
        const auto entry = reinterpret_cast<Entry>(dlsym(opened.handle, kSentencePieceModuleEntry));
        const SentencePieceModuleApi* found = entry ? entry() : nullptr;
        if (!found || found->abi != kSentencePieceModuleAbi || std::string(found->version) != TS_VERSION)
            throw std::runtime_error("the SentencePiece module at " + opened.path + " is from another build of TrainStudio (this is " +
                                     TS_VERSION + ")");
        return found;
    }();
    return *api;
}

// "Vocabulary size too high (40). Please set it to a value <= 21." -> 21; -1 for other errors.
std::int64_t largestVocabulary(const std::string& message)
{
    std::smatch m;
    static const std::regex atMost("value <= ([0-9]+)");
    return std::regex_search(message, m, atMost) ? std::stoll(m[1]) : -1;
}

}  // namespace

std::string trainSentencePiece(const std::string& modelType, const std::vector<std::string_view>& sentences,
                               std::int64_t vocabSize)
{
    if (modelType != "bpe" && modelType != "unigram")
        throw SentencePieceError("unknown SentencePiece model type '" + modelType + "' (bpe or unigram)", -1);
    if (sentences.empty()) throw SentencePieceError("no text to learn a vocabulary from", -1);
    const std::unordered_map<std::string, std::string> options{
        {"model_type", modelType},
        {"vocab_size", std::to_string(vocabSize)},
        {"character_coverage", "1.0"},
        {"normalization_rule_name", "identity"},
        {"remove_extra_whitespaces", "false"},
        {"add_dummy_prefix", "false"},
        {"user_defined_symbols", "\n,\t"},  // its trainer would drop a tab (the separator of its TSV input)
        {"bos_id", "-1"},
        {"eos_id", "-1"},
        {"num_threads", "1"},
        {"input_sentence_size", "0"},  // every sentence: the caller samples, deterministically
        {"shuffle_input_sentence", "false"},
        {"minloglevel", "2"},  // its progress log is not ours to print
    };
    const SentencePieceModuleApi& sp = module();
    // The trainer keeps global state (its random generator, the log level): one at a time.
    static std::mutex oneAtATime;
    const std::lock_guard lock(oneAtATime);
    std::string model;
    if (const std::string message = sp.train(options, sentences, model); !message.empty())
        throw SentencePieceError("SentencePiece: " + message, largestVocabulary(message));
    return model;
}

SentencePieceModel::SentencePieceModel(std::string serialized) : serialized_(std::move(serialized))
{
    std::string error;
    processor_ = module().load(serialized_, error);
    if (!processor_) throw std::invalid_argument("not a SentencePiece model: " + error);
}

SentencePieceModel::~SentencePieceModel() { module().release(processor_); }

std::int64_t SentencePieceModel::size() const { return module().size(processor_); }

std::string SentencePieceModel::piece(std::int64_t id) const { return module().piece(processor_, id); }

std::int64_t SentencePieceModel::unknownId() const { return module().unknownId(processor_); }

std::vector<std::int64_t> SentencePieceModel::encode(std::string_view text) const
{
    std::vector<std::int64_t> ids;
    if (const std::string message = module().encode(processor_, text, ids); !message.empty())
        throw std::invalid_argument("SentencePiece: " + message);
    return ids;
}

}  // namespace ts

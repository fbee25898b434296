#include "data/sentencepiece_model.h"

#include <sentencepiece_processor.h>
#include <sentencepiece_trainer.h>

#include <mutex>
#include <regex>
#include <unordered_map>

namespace ts {

namespace {

class Sentences : public sentencepiece::SentenceIterator {
public:
    explicit Sentences(const std::vector<std::string_view>& s) : s_(s) { load(); }
    bool done() const override { return next_ > s_.size(); }
    void Next() override { load(); }
    const std::string& value() const override { return value_; }
    sentencepiece::util::Status status() const override { return {}; }

private:
    void load()
    {
        if (next_ < s_.size()) value_.assign(s_[next_]);
        ++next_;
    }
    const std::vector<std::string_view>& s_;
    std::size_t next_ = 0;
    std::string value_;
};

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
    // The trainer keeps global state (its random generator, the log level): one at a time.
    static std::mutex oneAtATime;
    const std::lock_guard lock(oneAtATime);
    sentencepiece::SetRandomGeneratorSeed(1);
    Sentences it(sentences);
    std::string model;
    const auto status = sentencepiece::SentencePieceTrainer::Train(options, &it, &model);
    if (!status.ok()) {
        const std::string message = status.message();
        throw SentencePieceError("SentencePiece: " + message, largestVocabulary(message));
    }
    return model;
}

struct SentencePieceModel::Processor {
    sentencepiece::SentencePieceProcessor sp;
};

SentencePieceModel::SentencePieceModel(std::string serialized)
    : serialized_(std::move(serialized)), processor_(std::make_unique<Processor>())
{
    const auto status = processor_->sp.LoadFromSerializedProto(serialized_);
    if (!status.ok()) throw std::invalid_argument(std::string("not a SentencePiece model: ") + status.message());
}

SentencePieceModel::~SentencePieceModel() = default;

std::int64_t SentencePieceModel::size() const { return processor_->sp.GetPieceSize(); }

std::string SentencePieceModel::piece(std::int64_t id) const { return processor_->sp.IdToPiece(static_cast<int>(id)); }

std::int64_t SentencePieceModel::unknownId() const { return processor_->sp.unk_id(); }

std::vector<std::int64_t> SentencePieceModel::encode(std::string_view text) const
{
    std::vector<int> ids;
    const auto status = processor_->sp.Encode(text, &ids);
    if (!status.ok()) throw std::invalid_argument(std::string("SentencePiece: ") + status.message());
    return {ids.begin(), ids.end()};
}

}  // namespace ts

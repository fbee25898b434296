// The SentencePiece module's side (data/sentencepiece_module_api.h): SentencePiece's own calls,
// nothing else. Built as a module of its own, not into the engine (engine/CMakeLists.txt).
#include <sentencepiece_processor.h>
#include <sentencepiece_trainer.h>

#include "data/sentencepiece_module_api.h"

namespace ts {
namespace {

using sentencepiece::SentencePieceProcessor;

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

std::string train(const std::unordered_map<std::string, std::string>& options, const std::vector<std::string_view>& sentences,
                  std::string& model)
{
    sentencepiece::SetRandomGeneratorSeed(1);
    Sentences it(sentences);
    const auto status = sentencepiece::SentencePieceTrainer::Train(options, &it, &model);
    return status.ok() ? std::string() : std::string(status.message());
}

void* load(const std::string& model, std::string& error)
{
    auto* p = new SentencePieceProcessor;
    if (const auto status = p->LoadFromSerializedProto(model); !status.ok()) {
        error = status.message();
        delete p;
        return nullptr;
    }
    return p;
}

const SentencePieceProcessor& processor(const void* p) { return *static_cast<const SentencePieceProcessor*>(p); }

std::string encode(const void* p, std::string_view text, std::vector<std::int64_t>& ids)
{
    std::vector<int> out;
    if (const auto status = processor(p).Encode(text, &out); !status.ok()) return status.message();
    ids.assign(out.begin(), out.end());
    return {};
}

const SentencePieceModuleApi kApi{
    .abi = kSentencePieceModuleAbi,
    .version = TS_VERSION,
    .train = train,
    .load = load,
    .release = [](void* p) { delete static_cast<SentencePieceProcessor*>(p); },
    .size = [](const void* p) { return std::int64_t(processor(p).GetPieceSize()); },
    .piece = [](const void* p, std::int64_t id) { return processor(p).IdToPiece(int(id)); },
    .unknownId = [](const void* p) { return std::int64_t(processor(p).unk_id()); },
    .encode = encode,
};

}  // namespace
}  // namespace ts

extern "C" __attribute__((visibility("default"))) const ts::SentencePieceModuleApi* trainstudio_sentencepiece_api()
{
    return &ts::kApi;
}

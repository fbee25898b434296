// The SentencePiece module (libtrainstudio-sentencepiece.so, data/sentencepiece_module.cpp):
// Debian's libsentencepiece carries its own copy of protobuf and exports its symbols, which
// clash with the libprotobuf the ONNX code links (a program holding both crashed before
// main). So SentencePiece lives in a module of its own, opened when a bpe or unigram tokenizer
// is first needed, with its symbols bound to its own copy (RTLD_LOCAL | RTLD_DEEPBIND).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ts {

struct SentencePieceModuleApi {
    int abi;
    const char* version;  // TS_VERSION of the build
    // Trains on `sentences` with SentencePiece's `options`: "" and the serialized model, or
    // SentencePiece's message.
    std::string (*train)(const std::unordered_map<std::string, std::string>& options,
                         const std::vector<std::string_view>& sentences, std::string& model);
    // A processor for a serialized model, or null with the reason in `error`.
    void* (*load)(const std::string& model, std::string& error);
    void (*release)(void* processor);
    std::int64_t (*size)(const void* processor);
    std::string (*piece)(const void* processor, std::int64_t id);
    std::int64_t (*unknownId)(const void* processor);
    // "" and the ids, or SentencePiece's message.
    std::string (*encode)(const void* processor, std::string_view text, std::vector<std::int64_t>& ids);
};

inline constexpr int kSentencePieceModuleAbi = 1;
inline constexpr const char* kSentencePieceModuleFile = "libtrainstudio-sentencepiece.so";
inline constexpr const char* kSentencePieceModuleEntry = "trainstudio_sentencepiece_api";

}  // namespace ts

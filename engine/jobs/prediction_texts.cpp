// Texts for a text classifier's `predict`: each encoded by the run's own tokenizer and padded
// to the model's context, as training read them (data/text_classification_dataset.h); a longer
// text is cut, and said so once per file.
#include <algorithm>
#include <stdexcept>

#include "data/text_classification_dataset.h"
#include "jobs/prediction_inputs.h"

namespace ts {

void PredictionInputs::addTexts(const std::vector<std::string>& texts, const std::vector<InputSource>& sources,
                                const ModelInput& model, std::vector<SkippedInput>* skipped)
{
    const Tokenizer& tokenizer = *model.tokenizer;
    const std::int64_t context = shape_[0];
    padding_ = tokenizer.paddingId();
    std::int64_t cut = 0, longest = 0, read = 0;
    for (std::size_t i = 0; i < texts.size(); ++i) {
        std::vector<std::int64_t> ids;
        try {
            ids = tokenizer.encode(texts[i]);
        } catch (const TokenizeError& e) {  // a character the training texts never had
            const std::string reason = sources[i].file + ": " + e.what() + "; the model knows only the characters of its "
                                       "training texts: replace or remove it";
            if (!skipped) throw DataError(sources[i].file, e.offset(), reason);
            skipped->push_back({sources[i].file, reason});
            continue;
        }
        const auto n = std::int64_t(ids.size());
        cut += n > context, longest = std::max(longest, n), ++read;
        const std::size_t row = images_.size() / std::size_t(context);
        images_.resize(images_.size() + std::size_t(context), float(padding_));
        std::copy_n(ids.begin(), std::min(n, context), images_.begin() + std::ptrdiff_t(row * std::size_t(context)));
        imageSample_.push_back(std::int64_t(row));
        sources_.push_back(sources[i]);
    }
    if (cut > 0)
        notes_.push_back(makeMessage(MessageId::DataTextsCut, {std::to_string(cut), std::to_string(read), std::to_string(context),
                                                               std::to_string(longest)}));
}

void PredictionInputs::addTextFile(const std::string& path, const ModelInput& model, std::vector<SkippedInput>* skipped)
{
    const TextSamples samples = readTextFile(path, model.separator, model.tokenizer->kind() != "bytes");
    if (samples.texts.empty()) throw std::invalid_argument(path + ": no text in the file (it is empty or blank)");
    std::vector<InputSource> sources;
    for (std::size_t i = 0; i < samples.texts.size(); ++i) sources.push_back({samples.sources[i], std::int64_t(i), {}});
    addTexts(samples.texts, sources, model, skipped);
}

std::shared_ptr<PredictionInputs> openPredictionTexts(const std::vector<std::string>& texts, const ModelInput& model)
{
    if (!model.readsText()) throw std::invalid_argument("--text: the model takes " + model.describe() + ", not text");
    if (texts.empty()) throw std::invalid_argument("no text given");
    auto inputs = std::make_shared<PredictionInputs>();
    inputs->shape_ = model.sampleShape;
    inputs->classNames_ = model.classNames;
    std::vector<InputSource> sources;
    for (std::size_t i = 0; i < texts.size(); ++i) {
        if (texts[i].find_first_not_of(" \t\r\n") == std::string::npos)
            throw std::invalid_argument("text " + std::to_string(i + 1) + " is empty: give the words to classify");
        sources.push_back({"text " + std::to_string(i + 1), 0, {}});
    }
    inputs->addTexts(texts, sources, model, nullptr);
    inputs->zeros_.assign(std::size_t(inputs->size()), 0);
    return inputs;
}

}  // namespace ts

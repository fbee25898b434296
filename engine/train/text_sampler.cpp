#include "train/text_sampler.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <random>
#include <stdexcept>

#include "backend/backend.h"
#include "exec/executor.h"
#include "graph/graph.h"
#include "io/checkpoint/checkpoint.h"
#include "train/evaluation.h"

namespace ts {

struct TextSampler::Impl {
    Tokenizer tokenizer;
    std::unique_ptr<Executor> exec;
    std::string input, logits;
    std::int64_t context = 0, vocabulary = 0;

    void build(const ExperimentSpec& spec, const NamedTensors& weights, const std::string& tokenizerText,
               Backend& backend, const std::string& source)
    {
        if (tokenizerText.empty())
            throw std::invalid_argument(source + " holds no tokenizer: only a model trained on text data "
                                                 "(dataset.format: text) generates text");
        tokenizer = Tokenizer::parse(tokenizerText);
        const CheckedGraph graph = checkGraph(spec.model, 1);
        const GraphBinding binding = GraphBinding::of(graph);
        input = binding.input;
        logits = binding.logits;
        exec = std::make_unique<Executor>(graph, backend, /*training=*/false);
        restoreWeights(*exec, weights, source);
        // The loss runs with the forward: its targets must be valid ids, whatever it computes.
        const Tensor labels = exec->value(binding.label);
        Tensor zeros = Tensor::empty(labels.shape(), labels.dtype());
        std::memset(zeros.raw(), 0, zeros.bytes());
        exec->setInput(binding.label, zeros);
        const Tensor in = exec->value(input), out = exec->value(logits);
        context = in.shape().rank() == 2 ? in.shape()[1] : 0;
        vocabulary = tokenizer.size();
        if (in.dtype() != DType::I64 || context < 1 || out.shape() != Shape({1, context, vocabulary}))
            throw std::invalid_argument("the model maps " + in.shape().str() + " " + std::string(dtypeName(in.dtype())) +
                                        " inputs to " + out.shape().str() + " outputs; generating text needs token ids [1, T] in and " +
                                        "next-token logits [1, T, " + std::to_string(vocabulary) + "] out");
    }
};

TextSampler::TextSampler(const ExperimentSpec& spec, const NamedTensors& weights, const std::string& tokenizer,
                         Backend& backend, const std::string& source)
    : impl_(std::make_unique<Impl>())
{
    impl_->build(spec, weights, tokenizer, backend, source);
}

TextSampler::~TextSampler() = default;
TextSampler::TextSampler(TextSampler&&) noexcept = default;


std::string TextSampler::generate(const GenerateOptions& o, const std::function<bool(const std::string&)>& onPiece)
{
    Impl& m = *impl_;
    if (!(o.temperature >= 0) || !std::isfinite(o.temperature))
        throw std::invalid_argument("temperature must be 0 (the most likely token) or more, got " + std::to_string(o.temperature));
    if (o.length < 0) throw std::invalid_argument("length must be 0 or more, got " + std::to_string(o.length));
    if (o.topK < 0) throw std::invalid_argument("top-k must be 0 (all tokens) or more, got " + std::to_string(o.topK));
    std::vector<std::int64_t> ids = m.tokenizer.encode(o.prompt);
    if (ids.empty()) ids.push_back(0);  // nothing to go on: start from the first token of the vocabulary
    std::string text = o.prompt;

    Tensor window = Tensor::empty(Shape{1, m.context}, DType::I64);
    std::vector<float> row(static_cast<std::size_t>(m.vocabulary));
    std::vector<double> weight(row.size());
    std::vector<std::int64_t> order(row.size());
    std::mt19937_64 rng(o.seed);
    for (std::int64_t n = 0; n < o.length; ++n) {
        // The last `context` tokens at the window's first positions; the rest repeat the last
        // token (a causal model never looks at them).
        const std::int64_t used = std::min<std::int64_t>(m.context, std::int64_t(ids.size()));
        std::int64_t* w = window.data<std::int64_t>();
        for (std::int64_t t = 0; t < m.context; ++t) w[t] = ids[ids.size() - std::size_t(used) + std::size_t(std::min(t, used - 1))];
        m.exec->setInput(m.input, window);
        m.exec->forward();
        const Tensor out = m.exec->value(m.logits);
        m.exec->backend().copyToHost(row.data(), out.data<float>() + (used - 1) * m.vocabulary, row.size() * sizeof(float));

        std::int64_t next = 0;
        if (o.temperature == 0) {
            next = std::max_element(row.begin(), row.end()) - row.begin();
        } else {
            std::iota(order.begin(), order.end(), 0);
            const std::int64_t k = o.topK > 0 ? std::min(o.topK, m.vocabulary) : m.vocabulary;
            std::partial_sort(order.begin(), order.begin() + k, order.end(),
                              [&](std::int64_t a, std::int64_t b) { return row[std::size_t(a)] > row[std::size_t(b)]; });
            const double top = row[std::size_t(order[0])];
            for (std::int64_t r = 0; r < k; ++r)
                weight[std::size_t(r)] = std::exp((row[std::size_t(order[std::size_t(r)])] - top) / o.temperature);
            std::discrete_distribution<std::int64_t> pick(weight.begin(), weight.begin() + k);
            next = order[std::size_t(pick(rng))];
        }
        ids.push_back(next);
        const std::string piece = m.tokenizer.decode(std::vector<std::int64_t>{next});
        text += piece;
        if (onPiece && !onPiece(piece)) break;
    }
    return text;
}

const Tokenizer& TextSampler::tokenizer() const { return impl_->tokenizer; }
std::int64_t TextSampler::context() const { return impl_->context; }

}  // namespace ts

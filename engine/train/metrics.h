// Classification metrics accumulated batch by batch from host logits and labels: loss,
// accuracy, top-k, the confusion matrix, per-class precision/recall/F1 (macro and micro)
// and, for two classes, the exact rank-based ROC-AUC. Plain C++, no backend: the trainer
// copies each batch's logits to the host and feeds them here.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "types/metric_sums.h"

namespace ts {

struct ClassScores {
    double precision = 0, recall = 0, f1 = 0;
    std::int64_t support = 0;  // samples whose true label is this class
};

// A position that carries no class (padding): CrossEntropy's default ignore_index, as PyTorch's.
inline constexpr std::int64_t kIgnoredLabel = -100;

class ClassificationMetrics {
public:
    // topK: the k values to report (1 is always accuracy); k > numClasses counts as numClasses.
    explicit ClassificationMetrics(std::int64_t numClasses, std::vector<int> topK = {1});

    // One batch: logits [n, numClasses] row-major, labels [n] in [0, numClasses), or
    // kIgnoredLabel for a row that is not counted (others throw std::out_of_range). meanLoss
    // is the batch's mean loss over its counted rows; the running loss weights it by their
    // number, so a smaller last batch counts for what it holds.
    void add(const float* logits, const std::int64_t* labels, std::int64_t n, double meanLoss);
    // The same without a loss (loss() then averages only the batches that had one).
    void add(const float* logits, const std::int64_t* labels, std::int64_t n);
    void reset();
    // The sums behind every metric, for a checkpoint (time fields left 0), and back.
    // restore() throws std::invalid_argument when they do not fit these classes and k values.
    MetricSums sums() const;
    void restore(const MetricSums& sums);

    std::int64_t numClasses() const { return classes_; }
    std::int64_t count() const { return count_; }
    double loss() const;      // NaN when no batch carried a loss
    double accuracy() const;  // NaN when empty
    double topKAccuracy(int k) const;
    // confusion()[truth][predicted]; the prediction is the first maximal logit.
    const std::vector<std::vector<std::int64_t>>& confusion() const { return confusion_; }
    std::vector<ClassScores> perClass() const;
    // Macro averages run over the classes that occur as a label or a prediction (scikit-learn's
    // convention), so a class absent from a small split does not drag the mean to zero.
    double macroPrecision() const;
    double macroRecall() const;
    double macroF1() const;
    // Micro averages pool TP/FP/FN over classes; for single-label data all three equal accuracy.
    double microPrecision() const;
    double microRecall() const;
    double microF1() const;
    // Binary tasks only (numClasses == 2): ROC-AUC of the positive-class (1) probability,
    // exact (Mann-Whitney), ties counted one half. NaN when a class is missing or C != 2.
    double rocAuc() const;

    // "<prefix>_loss", "_acc", "_top<k>_acc" (k > 1), "_macro_f1", "_auc" (binary).
    std::map<std::string, double> summary(const std::string& prefix) const;

private:
    struct Macro { double p = 0, r = 0, f1 = 0; };
    Macro macro() const;

    std::int64_t classes_;
    std::vector<int> topK_;
    std::int64_t count_ = 0;
    double lossSum_ = 0;
    std::int64_t lossCount_ = 0;
    std::vector<std::int64_t> topKCorrect_;  // parallel to topK_
    std::vector<std::vector<std::int64_t>> confusion_;
    // Binary: l1 - l0 per sample, monotonic in the positive probability but never
    // saturating to 1.0 as the probability would, so ranks (and ties) stay exact.
    std::vector<std::pair<double, bool>> scores_;
};

// A language model's metrics beside <prefix>_loss (the mean cross-entropy per token, in nats):
// "<prefix>_ppl", the perplexity exp(loss) per token, and "<prefix>_bpc", bits per character,
// loss / ln 2 / charactersPerToken: the targets' characters over their number (1 for the
// characters and bytes tokenizers; a learned bpe token stands for several), so models with
// different tokenizers compare on the same text. Nothing when the loss is missing.
void addLanguageModelMetrics(std::map<std::string, double>& metrics, const std::string& prefix,
                             double charactersPerToken = 1);
// charactersPerToken of the targets counted in `m` (its confusion rows), each token standing
// for pieceCharacters[id] characters.
double charactersPerToken(const ClassificationMetrics& m, const std::vector<int>& pieceCharacters);

}  // namespace ts

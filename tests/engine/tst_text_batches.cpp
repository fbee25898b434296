// Texts padded to a batch's longest: the loader cuts each batch of padded texts after its
// longest sample, and the executor runs the same model at that length inside the buffers
// planned for the full one (Executor::fitInput). The reference is the same batch at the full
// length, where the padding is masked: a masked Transformer classifier must give the same loss
// and parameter gradients (1e-5 relative to the largest; attention sums its keys in other
// tiles), a model that flattens its tokens takes only the full length and gets the batch padded
// back (bit-identical), and nothing is allocated on the way.
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>

#include "backend/cpu/cpu_backend.h"
#include "data/loader.h"
#include "data/text_classification_dataset.h"
#include "exec/executor.h"
#include "graph/graph.h"
#include "text_file.h"
#include "train/evaluation.h"

using namespace ts;

namespace {

constexpr std::int64_t kContext = 12, kBatch = 4, kVocab = 9;

// tokens [context] -> masked 2-head attention -> masked mean -> 3 classes; or, flattening the
// tokens into features, a model that takes one length only.
Graph classifier(bool flattens)
{
    Graph g;
    g.inputs = {{"tokens", Shape{kContext}, DType::I64}, {"label", Shape{}, DType::I64}};
    g.add("embed", "Embedding", {"tokens"}, {{"num_embeddings", kVocab}, {"embedding_dim", std::int64_t(8)}});
    if (flattens) {
        g.add("flat", "Flatten", {"embed"});
        g.add("head", "Linear", {"flat"}, {{"out_features", std::int64_t(3)}});
    } else {
        g.add("mask", "TokenMask", {"tokens"});
        g.add("pos", "PositionalEncoding", {"embed"}, {{"kind", std::string("learned")}, {"max_length", kContext}});
        g.add("norm", "LayerNorm", {"pos"});
        g.add("attn", "MultiHeadAttention", {"norm", "mask"}, {{"heads", std::int64_t(2)}});
        g.add("add", "Add", {"attn", "pos"});
        g.add("pool", "SequencePool", {"add", "mask"}, {{"mode", std::string("mean")}});
        g.add("head", "Linear", {"pool"}, {{"out_features", std::int64_t(3)}});
    }
    g.add("loss", "CrossEntropy", {"head", "label"});
    return g;
}

// A batch of kBatch texts whose longest has `longest` tokens, padded with 0 to the context.
Batch paddedBatch(std::int64_t longest)
{
    Batch b;
    b.size = kBatch;
    b.inputs = Tensor::zeros(Shape{kBatch, kContext}, DType::I64);
    b.labels = Tensor::empty(Shape{kBatch}, DType::I64);
    for (std::int64_t i = 0; i < kBatch; ++i) {
        const std::int64_t length = i == 1 ? longest : 1 + (i * 3) % longest;
        for (std::int64_t t = 0; t < length; ++t) b.inputs.data<std::int64_t>()[i * kContext + t] = 1 + (i * 5 + t * 7) % (kVocab - 1);
        b.labels.data<std::int64_t>()[i] = i % 3;
    }
    return b;
}

// The batch as the loader gives it: cut after the longest text.
Batch cut(const Batch& full, std::int64_t longest)
{
    Batch b = full;
    b.paddingId = 0;
    b.inputs = Tensor::empty(Shape{kBatch, longest}, DType::I64);
    for (std::int64_t i = 0; i < kBatch; ++i)
        std::copy_n(full.inputs.data<std::int64_t>() + i * kContext, longest, b.inputs.data<std::int64_t>() + i * longest);
    return b;
}

struct Step {
    float loss = 0;
    std::vector<float> grads;
};

Step step(Executor& e, const Batch& batch)
{
    feedBatch(e, GraphBinding::of(e.graph()), batch);
    e.zeroGrad();
    e.forward();
    e.backward();
    const Tensor& g = e.flatGradients();
    return {e.loss(), std::vector<float>(g.data<float>(), g.data<float>() + g.numel())};
}

double largestDifference(const Step& a, const Step& b)
{
    double scale = 0, diff = 0;
    for (std::size_t i = 0; i < a.grads.size(); ++i) {
        scale = std::max(scale, double(std::abs(a.grads[i])));
        diff = std::max(diff, double(std::abs(a.grads[i] - b.grads[i])));
    }
    return diff / scale;
}

}  // namespace

class TstTextBatches : public QObject {
    Q_OBJECT
private slots:
    // Texts of 2, 5 and 3 characters (and one of 9, cut to the context of 7): batches of two
    // are cut after their longest, the ids unchanged, and the loader says what pads.
    void loaderCutsAfterTheLongestText()
    {
        QTemporaryDir dir;
        const std::string root = dir.filePath("texts").toStdString();
        test::writeText(root + "/a/1.txt", "ab");
        test::writeText(root + "/a/2.txt", "abcab");
        test::writeText(root + "/b/3.txt", "cab");
        test::writeText(root + "/b/4.txt", "abcabcabc");
        auto data = std::make_shared<TextClassificationDataset>(readTextFolder(root, {}, ""), "characters", 7, "texts");
        QCOMPARE(data->paddingId(), std::int64_t(0));
        DatasetSpec spec;
        spec.numWorkers = 1;
        LoaderOptions options;
        options.batchSize = 2;
        options.shuffle = options.augment = false;
        options.dropLast = false;
        Loader loader(data, spec, {}, options);
        loader.startEpoch(0);
        const std::vector<std::int64_t> longest{5, 7};
        std::vector<float> full(7);
        Batch batch;
        for (std::int64_t k = 0; k < 2; ++k) {
            QVERIFY(loader.next(batch));
            QCOMPARE(batch.paddingId, std::int64_t(0));
            QCOMPARE(batch.inputs.shape(), (Shape{2, longest[std::size_t(k)]}));
            for (std::int64_t i = 0; i < 2; ++i) {
                data->get(k * 2 + i, full.data());
                for (std::int64_t t = 0; t < 7; ++t) {
                    const std::int64_t expected = std::int64_t(full[std::size_t(t)]);
                    if (t < longest[std::size_t(k)]) QCOMPARE(batch.inputs.data<std::int64_t>()[i * longest[std::size_t(k)] + t], expected);
                    else QCOMPARE(expected, std::int64_t(0));  // only padding was cut
                }
            }
        }
    }

    // The masked classifier at the batch's longest (5 of 12) and at the full length: the same
    // loss and gradients, then the full length again, all in the arena planned once.
    void maskedModelRunsAtTheBatchesLength()
    {
        Executor full(checkGraph(classifier(false), kBatch), cpuBackend());
        Executor fitted(checkGraph(classifier(false), kBatch), cpuBackend());
        full.initParameters(3), fitted.initParameters(3);
        const std::size_t arena = fitted.plan().activationBytes;
        for (const std::int64_t longest : {5, 1, 12, 7}) {
            const Batch padded = paddedBatch(longest);
            const Step reference = step(full, padded), cutStep = step(fitted, cut(padded, longest));
            QCOMPARE(fitted.value("tokens").shape(), (Shape{kBatch, longest}));
            QCOMPARE(fitted.value("attn").shape(), (Shape{kBatch, longest, 8}));
            QVERIFY2(std::abs(reference.loss - cutStep.loss) <= 1e-5f * std::abs(reference.loss),
                     qPrintable(QString("loss %1 against %2").arg(cutStep.loss).arg(reference.loss)));
            QVERIFY2(largestDifference(reference, cutStep) <= 1e-5, qPrintable(QString::number(largestDifference(reference, cutStep))));
        }
        QCOMPARE(fitted.plan().activationBytes, arena);
        feedBatch(fitted, GraphBinding::of(fitted.graph()), paddedBatch(3));  // the full length is the planned one
        QCOMPARE(fitted.value("tokens").shape(), (Shape{kBatch, kContext}));
    }

    // Flatten -> Linear reads every position: no other length checks, so the batch is padded
    // back and the step is the full-length one, bit for bit.
    void flatteningModelGetsTheBatchPaddedBack()
    {
        Executor full(checkGraph(classifier(true), kBatch), cpuBackend());
        Executor fitted(checkGraph(classifier(true), kBatch), cpuBackend());
        full.initParameters(5), fitted.initParameters(5);
        QVERIFY(!fitted.fitInput("tokens", Shape{kBatch, 4}));
        const Batch padded = paddedBatch(4);
        const Step reference = step(full, padded), cutStep = step(fitted, cut(padded, 4));
        QCOMPARE(fitted.value("tokens").shape(), (Shape{kBatch, kContext}));
        QCOMPARE(cutStep.loss, reference.loss);
        QVERIFY(cutStep.grads == reference.grads);
    }

    // A length the plan has no room for (longer than planned) is refused, and the executor keeps
    // running at the shapes it had.
    void longerThanPlannedIsRefused()
    {
        Executor e(checkGraph(classifier(false), kBatch), cpuBackend());
        QVERIFY(e.fitInput("tokens", Shape{kBatch, 6}));
        QVERIFY(!e.fitInput("tokens", Shape{kBatch, kContext + 4}));
        QCOMPARE(e.value("tokens").shape(), (Shape{kBatch, 6}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, e.fitInput("attn", Shape{kBatch, 6}));
    }
};

QTEST_GUILESS_MAIN(TstTextBatches)
#include "tst_text_batches.moc"

// Flatten, Reshape, Add, Concat, Embedding: hand-derived outputs on tiny inputs, and the errors
// the shape rules and lookups raise. Their gradient checks are the ops' own cases, run by
// tst_op_registry.
#include <QtTest>

#include <cmath>
#include <optional>

#include "backend/backend.h"
#include "gradcheck.h"
#include "ops/init.h"
#include "ops/registry.h"

using namespace ts;
using namespace ts::test;

namespace {



std::vector<float> values(const Tensor& t) { return {t.data<float>(), t.data<float>() + t.numel()}; }

// The op's shape rule applied to `inputs` (after attribute normalisation).
TensorSpec inferred(const std::string& op, const Attrs& given, const std::vector<TensorSpec>& inputs)
{
    const Op* o = OpRegistry::builtin().find(op);
    Attrs attrs;
    const std::string err = normaliseAttrs(o->attrSpecs(), given, attrs);
    if (!err.empty()) throw std::invalid_argument(err);
    return o->inferOutput(attrs, inputs);
}

// The OpError the shape rule throws, or nullopt when it accepts the inputs.
std::optional<OpError> shapeError(const std::string& op, const Attrs& given, const std::vector<TensorSpec>& inputs)
{
    try {
        inferred(op, given, inputs);
    } catch (const OpError& e) {
        return e;
    }
    return std::nullopt;
}

bool names(const OpError& e, const std::string& attr)
{
    return std::find(e.attrs().begin(), e.attrs().end(), attr) != e.attrs().end();
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

const TensorSpec kI64{Shape{1}, DType::I64};

}  // namespace

class TestOpsStructure : public QObject {
    Q_OBJECT
private slots:
    // ---- Flatten ------------------------------------------------------------------------
    void flattenShapes()
    {
        const std::vector<TensorSpec> in{{Shape{2, 3, 4, 5}}};
        QCOMPARE(inferred("Flatten", {}, in).shape, Shape({2, 60}));
        QCOMPARE(inferred("Flatten", {{"start_dim", std::int64_t(2)}}, in).shape, Shape({2, 3, 20}));
        QCOMPARE(inferred("Flatten", {{"start_dim", std::int64_t(3)}}, in).shape, Shape({2, 3, 4, 5}));
        const auto err = shapeError("Flatten", {{"start_dim", std::int64_t(4)}}, in);
        QVERIFY(err && names(*err, "start_dim"));
    }
    void flattenKeepsElementOrder()
    {
        Tensor y = runForward("Flatten", {}, {floats(Shape{1, 2, 2}, {1, 2, 3, 4})}, {});
        QCOMPARE(y.shape(), Shape({1, 4}));
        QCOMPARE(values(y), std::vector<float>({1, 2, 3, 4}));
    }
    // ---- Reshape ------------------------------------------------------------------------
    void reshapeShapes()
    {
        QCOMPARE(inferred("Reshape", {{"shape", std::vector<std::int64_t>{3, -1}}}, {{Shape{2, 12}}}).shape,
                 Shape({2, 3, 4}));
        QCOMPARE(inferred("Reshape", {{"shape", std::vector<std::int64_t>{-1}}}, {{Shape{5, 1, 28, 28}}}).shape,
                 Shape({5, 784}));
        QCOMPARE(inferred("Reshape", {{"shape", std::vector<std::int64_t>{2, 1, 3}}}, {{Shape{4, 6}}}).shape,
                 Shape({4, 2, 1, 3}));
    }
    void reshapeErrors()
    {
        const auto mismatch = shapeError("Reshape", {{"shape", std::vector<std::int64_t>{3, 3}}}, {{Shape{2, 1, 28, 28}}});
        QVERIFY(mismatch);
        QCOMPARE(std::string(mismatch->what()), std::string("input has 784 elements per sample, shape [3, 3] has 9"));
        QVERIFY(names(*mismatch, "shape"));

        const auto twoInferred = shapeError("Reshape", {{"shape", std::vector<std::int64_t>{-1, -1}}}, {{Shape{2, 4}}});
        QVERIFY(twoInferred && names(*twoInferred, "shape"));
        const auto indivisible = shapeError("Reshape", {{"shape", std::vector<std::int64_t>{3, -1}}}, {{Shape{2, 10}}});
        QVERIFY(indivisible && names(*indivisible, "shape"));
        QVERIFY2(contains(indivisible->what(), "10"), indivisible->what());
        const auto zero = shapeError("Reshape", {{"shape", std::vector<std::int64_t>{0, 4}}}, {{Shape{2, 4}}});
        QVERIFY(zero && names(*zero, "shape"));
    }

    void reshapeCarriesIndices()
    {
        // Integer tensors (token ids) pass through unchanged, without a gradient.
        Tensor y = runForward("Reshape", {{"shape", std::vector<std::int64_t>{2, 2}}},
                              {indices(Shape{1, 4}, {7, 8, 9, 10})}, {});
        QCOMPARE(y.dtype(), DType::I64);
        QCOMPARE(y.shape(), Shape({1, 2, 2}));
        QCOMPARE(std::vector<std::int64_t>(y.data<std::int64_t>(), y.data<std::int64_t>() + 4),
                 std::vector<std::int64_t>({7, 8, 9, 10}));
    }

    // ---- Add ----------------------------------------------------------------------------
    void addKnownValues()
    {
        // [1, 2, 3] + [10, 20, 30] + [100, 200, 300] = [111, 222, 333]
        Tensor y = runForward("Add", {},
                              {floats(Shape{1, 3}, {1, 2, 3}), floats(Shape{1, 3}, {10, 20, 30}),
                               floats(Shape{1, 3}, {100, 200, 300})},
                              {});
        QCOMPARE(values(y), std::vector<float>({111, 222, 333}));
    }
    void addErrors()
    {
        const auto err = shapeError("Add", {}, {{Shape{2, 3}}, {Shape{2, 3}}, {Shape{2, 4}}});
        QVERIFY(err);
        const std::string text = err->what();
        QVERIFY2(contains(text, "input 2") && contains(text, "[2, 4]") && contains(text, "[2, 3]"), text.c_str());
        QVERIFY(shapeError("Add", {}, {{Shape{2, 3}}, {Shape{2, 3}, DType::I64}}));
    }

    // ---- Concat -------------------------------------------------------------------------
    void concatKnownValues()
    {
        // axis 1 of [[1, 2], [3, 4]] and [[5], [6]] -> [[1, 2, 5], [3, 4, 6]]
        Tensor y = runForward("Concat", {}, {floats(Shape{2, 2}, {1, 2, 3, 4}), floats(Shape{2, 1}, {5, 6})}, {});
        QCOMPARE(y.shape(), Shape({2, 3}));
        QCOMPARE(values(y), std::vector<float>({1, 2, 5, 3, 4, 6}));

        // a middle axis with inner size 2: sample 0 takes a[0] then b[0], sample 1 a[1] then b[1]
        y = runForward("Concat", {},
                       {floats(Shape{2, 1, 2}, {1, 2, 3, 4}), floats(Shape{2, 1, 2}, {5, 6, 7, 8})}, {});
        QCOMPARE(y.shape(), Shape({2, 2, 2}));
        QCOMPARE(values(y), std::vector<float>({1, 2, 5, 6, 3, 4, 7, 8}));

        // axis -1 of [[[1], [2]]] and [[[3, 4], [5, 6]]] -> [[[1, 3, 4], [2, 5, 6]]]
        y = runForward("Concat", {{"axis", std::int64_t(-1)}},
                       {floats(Shape{1, 2, 1}, {1, 2}), floats(Shape{1, 2, 2}, {3, 4, 5, 6})}, {});
        QCOMPARE(y.shape(), Shape({1, 2, 3}));
        QCOMPARE(values(y), std::vector<float>({1, 3, 4, 2, 5, 6}));
    }
    void concatErrors()
    {
        const auto mismatch = shapeError("Concat", {}, {{Shape{2, 3, 4}}, {Shape{2, 5, 4}}, {Shape{2, 5, 5}}});
        QVERIFY(mismatch);
        const std::string text = mismatch->what();
        QVERIFY2(contains(text, "input 2") && contains(text, "[2, 5, 5]") && contains(text, "[2, 3, 4]") &&
                     contains(text, "axis 1"),
                 text.c_str());
        QVERIFY(names(*mismatch, "axis"));

        const auto rank = shapeError("Concat", {}, {{Shape{2, 3}}, {Shape{2, 3, 1}}});
        QVERIFY(rank && names(*rank, "axis"));
        for (std::int64_t axis : {std::int64_t(0), std::int64_t(-3)}) {  // both name the batch dimension
            const auto batch = shapeError("Concat", {{"axis", axis}}, {{Shape{2, 3, 4}}, {Shape{2, 3, 4}}});
            QVERIFY(batch && names(*batch, "axis"));
        }
        const auto outside = shapeError("Concat", {{"axis", std::int64_t(3)}}, {{Shape{2, 3, 4}}, {Shape{2, 3, 4}}});
        QVERIFY(outside && names(*outside, "axis"));
    }

    // ---- Embedding ----------------------------------------------------------------------
    void embeddingKnownValues()
    {
        // table rows 0: [0, 1], 1: [2, 3], 2: [4, 5]; indices [[2, 0], [2, 1]]
        Tensor table = floats(Shape{3, 2}, {0, 1, 2, 3, 4, 5});
        Tensor y = runForward("Embedding", {{"num_embeddings", std::int64_t(3)}, {"embedding_dim", std::int64_t(2)}},
                              {indices(Shape{2, 2}, {2, 0, 2, 1})}, {table});
        QCOMPARE(y.shape(), Shape({2, 2, 2}));
        QCOMPARE(values(y), std::vector<float>({4, 5, 0, 1, 4, 5, 2, 3}));
    }
    void embeddingBackwardAddsRepeats()
    {
        // indices [1, 1, 0], dy rows [1, 2], [3, 4], [5, 6], table gradient starting at 10:
        // row 0 gets 10 + [5, 6]; row 1 gets 10 + [1, 2] + [3, 4]; row 2 is untouched.
        const std::int64_t idx[] = {1, 1, 0};
        const float dy[] = {1, 2, 3, 4, 5, 6};
        std::vector<float> dtable(6, 10.0f);
        cpuBackend().embeddingBackward(idx, dy, dtable.data(), 3, 2);
        QCOMPARE(dtable, std::vector<float>({15, 16, 14, 16, 10, 10}));
    }
    void embeddingBackwardWideRows()
    {
        // Rows wide enough that threads split the embedding dimension; each element must
        // still collect every lookup of its row. indices [2, 0, 2, 2], dy row i = i + 1:
        // row 0 gets 2, row 1 nothing, row 2 gets 1 + 3 + 4 = 8.
        const std::int64_t dim = 40000;
        const std::int64_t idx[] = {2, 0, 2, 2};
        std::vector<float> dy(static_cast<std::size_t>(4 * dim));
        for (std::size_t i = 0; i < dy.size(); ++i) dy[i] = static_cast<float>(i / static_cast<std::size_t>(dim) + 1);
        std::vector<float> dtable(static_cast<std::size_t>(3 * dim), 0.0f);
        cpuBackend().embeddingBackward(idx, dy.data(), dtable.data(), 4, dim);
        const float expected[] = {2, 0, 8};
        for (std::size_t i = 0; i < dtable.size(); ++i)
            if (dtable[i] != expected[i / static_cast<std::size_t>(dim)])
                QFAIL(qPrintable(QString("dtable[%1] = %2").arg(i).arg(dtable[i])));
    }
    void embeddingIndexOutOfRange()
    {
        const Attrs attrs{{"num_embeddings", std::int64_t(3)}, {"embedding_dim", std::int64_t(2)}};
        Tensor table = floats(Shape{3, 2}, {0, 1, 2, 3, 4, 5});
        for (std::int64_t bad : {std::int64_t(5), std::int64_t(-1)}) {
            try {
                runForward("Embedding", attrs, {indices(Shape{2, 2}, {0, 1, bad, 2})}, {table});
                QFAIL("no exception for an index outside the table");
            } catch (const std::out_of_range& e) {
                QCOMPARE(std::string(e.what()),
                         "embedding index " + std::to_string(bad) + " at position 2 is outside [0, 3)");
            }
        }
    }
    void embeddingInputMustBeI64()
    {
        const auto err = shapeError("Embedding", {{"num_embeddings", std::int64_t(3)}, {"embedding_dim", std::int64_t(2)}},
                                    {{Shape{2, 4}}});
        QVERIFY(err);
        QVERIFY(inferred("Embedding", {{"num_embeddings", std::int64_t(3)}, {"embedding_dim", std::int64_t(2)}},
                         {kI64})
                    .shape == Shape({1, 2}));
    }
    void embeddingStartsStandardNormal()
    {
        // PyTorch draws embeddings from N(0, 1); 8192 draws put the sample moments well within 0.05.
        const Op* op = OpRegistry::builtin().find("Embedding");
        Attrs attrs;
        QVERIFY(normaliseAttrs(op->attrSpecs(), {{"num_embeddings", std::int64_t(1024)}, {"embedding_dim", std::int64_t(8)}},
                               attrs)
                    .empty());
        const auto params = op->params(attrs, std::vector<TensorSpec>{kI64});
        QCOMPARE(params.size(), std::size_t(1));
        QCOMPARE(params[0].shape, Shape({1024, 8}));
        std::vector<float> w(8192);
        initialise(params[0].init, w.data(), static_cast<std::int64_t>(w.size()), 42);
        double sum = 0, sumSq = 0;
        for (float v : w) sum += v, sumSq += double(v) * v;
        const double mean = sum / double(w.size()), stddev = std::sqrt(sumSq / double(w.size()) - mean * mean);
        QVERIFY2(std::abs(mean) < 0.05 && std::abs(stddev - 1.0) < 0.05,
                 qPrintable(QString("mean %1, stddev %2").arg(mean).arg(stddev)));
    }
};

QTEST_GUILESS_MAIN(TestOpsStructure)
#include "tst_ops_structure.moc"

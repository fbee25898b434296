// The tracing backend and the op traces built on it (ops/op_trace.h): it sees and passes on
// every primitive; every registered op's cases trace to the primitives they compute with; a
// dry run on placeholder tensors takes the same path as the op on real data.
#include <QtTest>

#include <algorithm>

#include "backend/cpu/cpu_backend.h"
#include "backend/tracing_backend.h"
#include "ops/op_trace.h"
#include "ops/registry.h"

using namespace ts;

namespace {

std::vector<TensorSpec> specsOf(const OpCase& c)
{
    std::vector<TensorSpec> specs;
    for (const OpCaseInput& in : c.inputs) specs.push_back({in.shape, in.dtype});
    return specs;
}

Attrs attrsOf(const Op& op, const OpCase& c)
{
    Attrs attrs;
    const std::string err = normaliseAttrs(op.attrSpecs(), c.attrs, attrs);
    if (!err.empty()) throw std::invalid_argument(op.type() + " (" + c.label + "): " + err);
    return attrs;
}

// Host tensors of the spec with harmless values: floats 0.5, integers the fill's lowest value
// (a valid class or index).
Tensor realTensor(const TensorSpec& s, const InputFill& fill = {})
{
    Tensor t = Tensor::zeros(s.shape, s.dtype);
    if (s.dtype == DType::F32) std::fill_n(t.data<float>(), t.numel(), 0.5f);
    if (s.dtype == DType::I64 && fill.kind == InputFill::Kind::Integers)
        std::fill_n(t.data<std::int64_t>(), t.numel(), std::int64_t(fill.a));
    return t;
}

// One pass of the op on the CPU with real tensors, through a TracingBackend.
std::vector<PrimitiveCall> traceOnCpu(const Op& op, const OpCase& c, OpPass pass)
{
    TracingBackend tracer(&cpuBackend());
    const Attrs attrs = attrsOf(op, c);
    const std::vector<TensorSpec> in = specsOf(c);
    const TensorSpec out = op.inferOutput(attrs, in);
    OpContext ctx{tracer, attrs};
    for (std::size_t i = 0; i < in.size(); ++i) ctx.inputs.push_back(realTensor(in[i], c.inputs[i].fill));
    ctx.output = realTensor(out);
    const std::vector<ParamSpec> params = op.params(attrs, in);
    for (const ParamSpec& p : params) ctx.params.push_back(Tensor::full(p.shape, 1.0f));  // variances stay positive
    for (const TensorSpec& s : op.saved(attrs, in, out)) ctx.saved.push_back(realTensor(s));
    Tensor workspace = Tensor::zeros(Shape{std::int64_t(op.workspaceBytes(cpuBackend(), attrs, in, out)) + 1}, DType::U8);
    ctx.workspace = workspace.raw();
    ctx.training = isTraining(pass);
    if (!isBackward(pass)) {
        op.forward(ctx);
        return tracer.take();
    }
    op.forward(ctx);  // what backward reads (saved buffers, a dropout mask)
    tracer.take();
    ctx.gradOutput = realTensor(out);
    for (std::size_t i = 0; i < in.size(); ++i)
        ctx.gradInputs.push_back(op.inputDifferentiable(int(i)) ? realTensor(in[i]) : Tensor());
    for (const ParamSpec& p : params) ctx.gradParams.push_back(p.trainable ? realTensor({p.shape}) : Tensor());
    op.backward(ctx);
    return tracer.take();
}

bool calls(const std::vector<PrimitiveCall>& trace, Primitive p)
{
    return std::any_of(trace.begin(), trace.end(), [&](const PrimitiveCall& c) { return c.primitive == p; });
}

QString describe(const std::vector<PrimitiveCall>& trace)
{
    QStringList names;
    for (const PrimitiveCall& c : trace) names << QString::fromUtf8(primitiveName(c.primitive).data());
    return names.join(", ");
}

}  // namespace

class TestOpTrace : public QObject {
    Q_OBJECT

private slots:
    // Every Backend primitive is seen, once per call, in order: a primitive added to the
    // interface but not to ForwardingBackend would go unseen (and run the base's default).
    void recordsEveryPrimitive()
    {
        TracingBackend t;
        float f[4] = {};
        double d[1] = {};
        std::int64_t idx[1] = {};
        std::int32_t arg[1] = {};
        std::uint8_t mask[1] = {};
        const ConvGeometry cg;
        const PoolGeometry pg;
        const UpsampleGeometry ug;
        const AttentionGeometry ag;
        t.fill(f, 1, 0), t.zeroBytes(f, 4), t.copyBytes(f, f, 4), t.copyToHost(f, f, 4), t.copyFromHost(f, f, 4);
        t.copy2d(f, 1, f, 1, 1, 1, false);
        t.gemm(false, false, 1, 1, 1, 1, f, 1, f, 1, 0, f, 1), t.axpy(1, 1, f, f), t.add(1, f, f, f);
        t.addBias(f, f, 1, 1, 1), t.biasBackward(f, f, 1, 1, 1);
        QCOMPARE(t.sumSquares(f, 1), 0.0);
        t.segmentedSumSquares(f, {{0, 1}}, d);
        t.activationForward(Activation::GELU, 0, f, f, 1), t.activationBackward(Activation::Tanh, 0, f, f, f, f, 1);
        t.dropoutForward(f, f, mask, 1, 0.5f, 1), t.dropoutBackward(f, mask, f, 1, 0.5f);
        QCOMPARE(t.conv2dWorkspaceBytes(cg), std::size_t(0));  // not a primitive: not recorded
        t.conv2dForward(cg, f, f, f, nullptr), t.conv2dBackwardData(cg, f, f, f, nullptr);
        t.conv2dBackwardFilter(cg, f, f, f, nullptr), t.conv2dBackward(cg, f, f, f, f, f, nullptr, GradWrite::Accumulate);
        t.pool2dForward(PoolKind::Max, pg, f, f, arg), t.pool2dBackward(PoolKind::Max, pg, f, arg, f);
        t.upsample2dForward(UpsampleMode::Nearest, ug, f, f), t.upsample2dBackward(UpsampleMode::Nearest, ug, f, f);
        t.attentionForward(ag, f, f, f, nullptr, f, f, 1), t.attentionBackward(ag, f, f, f, nullptr, f, f, f, f, f, f, 1);
        t.permute(PermuteGeometry{{1, 1}, {1, 0}}, f, f, GradWrite::Accumulate);
        t.recurrentCellForward(RecurrentStep{}, f, f, nullptr, nullptr, f, f, f);
        t.recurrentCellBackward(RecurrentStep{}, f, nullptr, nullptr, f, f, f, f, nullptr, nullptr);
        t.batchNormForwardTraining(f, f, f, f, f, f, f, f, 1, 1, 1, 0.1f, 1e-5f, nullptr);
        t.batchNormForwardInference(f, f, f, f, f, f, 1, 1, 1, 1e-5f);
        t.batchNormBackward(f, f, f, f, f, f, f, f, 1, 1, 1, nullptr);
        t.batchNormBackwardInference(f, f, f, f, f, f, f, f, 1, 1, 1, 1e-5f);
        t.batchNormReluForwardTraining(f, f, f, f, f, f, f, f, f, 1, 1, 1, 0.1f, 1e-5f, nullptr);
        t.batchNormReluBackward(f, f, f, f, f, f, f, f, f, f, f, f, 1, 1, 1, nullptr, GradWrite::Accumulate);
        t.groupNormForward(f, f, f, f, f, f, 1, 1, 1, 1, 1e-5f), t.groupNormBackward(f, f, f, f, f, f, f, f, 1, 1, 1, 1);
        t.softmaxForward(f, f, 1, 1), t.softmaxBackward(f, f, f, 1, 1);
        t.crossEntropyForward(f, idx, nullptr, f, f, 1, 1, 0, -100), t.crossEntropyBackward(f, idx, nullptr, f, f, 1, 1, 0, -100);
        t.mseForward(f, f, f, 1), t.mseBackward(f, f, f, f, f, 1);
        t.bceWithLogitsForward(f, f, f, 1), t.bceWithLogitsBackward(f, f, f, f, f, 1);
        t.robustLossForward(f, f, f, 1, 0), t.robustLossBackward(f, f, f, f, f, 1, 1);
        t.embeddingForward(idx, f, f, 1, 1, 1), t.embeddingBackward(idx, f, f, 1, 1);
        t.sgdUpdate(f, f, f, 1, 0.1, 0, false, 0), t.adamUpdate(f, f, f, f, 1, 0.1, 0.9, 0.999, 1e-8, 0, false, 1);
        t.rmspropUpdate(f, f, f, f, 1, 0.1, 0.99, 1e-8, 0, 0), t.scale(f, 1, 2), t.clampValues(f, 1, -1, 1);

        std::vector<Primitive> seen;
        for (const PrimitiveCall& c : t.calls()) seen.push_back(c.primitive);
        std::vector<Primitive> every(kAllPrimitives.begin(), kAllPrimitives.end());
        std::sort(seen.begin(), seen.end()), std::sort(every.begin(), every.end());
        QCOMPARE(seen, every);  // each primitive exactly once
        const auto act = std::find_if(t.calls().begin(), t.calls().end(),
                                      [](const PrimitiveCall& c) { return c.primitive == Primitive::activationBackward; });
        QCOMPARE(act->activation, std::optional(Activation::Tanh));
        QVERIFY(!t.calls().front().activation);
        QCOMPARE(t.take().size(), kAllPrimitives.size());
        QVERIFY(t.calls().empty());
    }

    // With an inner backend the calls go on and compute there; the answers come back.
    void passesCallsOn()
    {
        TracingBackend t(&cpuBackend());
        QCOMPARE(t.name(), std::string("cpu"));
        float a[3] = {1, 2, 3}, b[3] = {10, 20, 30}, y[3] = {};
        t.add(3, a, b, y);
        QCOMPARE(y[2], 33.0f);
        QCOMPARE(t.sumSquares(a, 3), 14.0);
        QCOMPARE(t.calls().size(), std::size_t(2));
    }

    // Placeholder tensors cost no memory, whatever their size, and never share an address.
    void placeholdersHoldNothing()
    {
        TracingBackend t;
        Tensor big = Tensor::empty(Shape{1 << 20, 1 << 20}, DType::F32, t.allocator());
        Tensor small = Tensor::empty(Shape{1}, DType::F32, t.allocator());
        QVERIFY(big.raw() && small.raw());
        QVERIFY(static_cast<char*>(small.raw()) >= static_cast<char*>(big.raw()) + big.bytes());
        QCOMPARE(t.allocator().stats().allocated, std::size_t(0));
    }

    // Every registered op's cases trace to what they compute with: something in each forward,
    // and in backward wherever a gradient is wanted. (Ops still without cases: tst_op_registry.)
    void everyCaseTracesToItsPrimitives()
    {
        QStringList empty;
        int traced = 0;
        for (const std::string& type : OpRegistry::builtin().types()) {
            const Op& op = *OpRegistry::builtin().find(type);
            for (const OpCase& c : op.cases()) {
                const Attrs attrs = attrsOf(op, c);
                const std::vector<TensorSpec> in = specsOf(c);
                bool wantsGrad = false;
                for (std::size_t i = 0; i < in.size(); ++i) wantsGrad = wantsGrad || op.inputDifferentiable(int(i));
                for (const ParamSpec& p : op.params(attrs, in)) wantsGrad = wantsGrad || p.trainable;
                for (OpPass pass : kAllOpPasses) {
                    if (isBackward(pass) && !wantsGrad) continue;
                    const std::vector<PrimitiveCall> trace = traceOp(op, pass, attrs, in);
                    ++traced;
                    // Structure ops (Flatten, Reshape, Concat) only move memory, and so may an op at
                    // inference (Dropout copies); every other training pass computes.
                    const bool computes = std::any_of(trace.begin(), trace.end(),
                                                      [](const PrimitiveCall& p) { return !isMemoryPrimitive(p.primitive); });
                    const bool mayOnlyMove = op.category() == OpCategory::Structure || !isTraining(pass);
                    if (trace.empty() || (!computes && !mayOnlyMove))
                        empty << QString::fromStdString(type + " (" + c.label + ") " + std::string(opPassName(pass)));
                }
            }
        }
        QVERIFY(traced > 0);
        QVERIFY2(empty.isEmpty(), qPrintable("no primitive computed in: " + empty.join("; ")));
    }

    // The dry run on placeholders takes the same path as the op on real data on the CPU: no op
    // chooses its primitives by its values.
    void dryRunMatchesRealRun()
    {
        QStringList differ;
        for (const std::string& type : OpRegistry::builtin().types()) {
            const Op& op = *OpRegistry::builtin().find(type);
            for (const OpCase& c : op.cases())
                for (OpPass pass : {OpPass::TrainingForward, OpPass::InferenceForward, OpPass::TrainingBackward}) {
                    const auto dry = traceOp(op, pass, attrsOf(op, c), specsOf(c));
                    const auto real = traceOnCpu(op, c, pass);
                    if (dry != real)
                        differ << QString::fromStdString(type + " (" + c.label + ") " + std::string(opPassName(pass))) +
                                      ": " + describe(dry) + " | " + describe(real);
                }
        }
        QVERIFY2(differ.isEmpty(), qPrintable(differ.join("; ")));
    }

    // What the executor's plan relies on: batch norm's training forward calls the training
    // primitive, its inference forward the inference one; ReLU is one activationForward(ReLU);
    // a gradient not wanted is a pass not made.
    void knownTraces()
    {
        const Op& bn = *OpRegistry::builtin().find("BatchNorm2d");
        Attrs attrs;
        QVERIFY(normaliseAttrs(bn.attrSpecs(), {}, attrs).empty());
        const std::vector<TensorSpec> x{{Shape{2, 3, 4, 4}}};
        QVERIFY(calls(traceOp(bn, OpPass::TrainingForward, attrs, x), Primitive::batchNormForwardTraining));
        QVERIFY(calls(traceOp(bn, OpPass::InferenceForward, attrs, x), Primitive::batchNormForwardInference));
        QVERIFY(calls(traceOp(bn, OpPass::TrainingBackward, attrs, x), Primitive::batchNormBackward));

        const Op& relu = *OpRegistry::builtin().find("ReLU");
        Attrs none;
        QVERIFY(normaliseAttrs(relu.attrSpecs(), {}, none).empty());
        QCOMPARE(traceOp(relu, OpPass::TrainingForward, none, x),
                 (std::vector<PrimitiveCall>{{Primitive::activationForward, Activation::ReLU}}));
        QCOMPARE(traceOp(relu, OpPass::TrainingBackward, none, x),
                 (std::vector<PrimitiveCall>{{Primitive::activationBackward, Activation::ReLU}}));

        const Op& linear = *OpRegistry::builtin().find("Linear");
        Attrs fc;
        QVERIFY(normaliseAttrs(linear.attrSpecs(), {{"out_features", std::int64_t(5)}}, fc).empty());
        const std::vector<TensorSpec> rows{{Shape{2, 3}}};
        const auto all = traceOp(linear, OpPass::TrainingBackward, fc, rows);
        const auto paramsOnly = traceOp(linear, OpPass::TrainingBackward, fc, rows, {false});
        QVERIFY2(paramsOnly.size() < all.size(), qPrintable(describe(all) + " | " + describe(paramsOnly)));
    }
};

QTEST_GUILESS_MAIN(TestOpTrace)
#include "tst_op_trace.moc"

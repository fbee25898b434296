// The op registry is the one list of ops (ARCHITECTURE.md rule 3): every registered op carries
// its help, each attribute's help, its cases and (unless a loss) its ONNX form, and every case
// passes the gradient check against central finite differences on the CPU (gradcheck.h gives
// the tolerance each case may override). A new op is tested here by being registered.
#include <QtTest>

#include <map>
#include <set>

#include "gradcheck.h"
#include "ops/onnx_writer.h"
#include "ops/registry.h"

using namespace ts;
using namespace ts::test;

namespace {

Fill fillOf(const InputFill& f)
{
    switch (f.kind) {
    case InputFill::Kind::Normal: return normalFill(f.a);
    case InputFill::Kind::AwayFromZero: return awayFromZero(f.a);
    case InputFill::Kind::Distinct: return distinctValues(f.a);
    case InputFill::Kind::Integers: return integerFill(std::int64_t(f.a), std::int64_t(f.b));
    case InputFill::Kind::Uniform: return uniformFill(f.a, f.b);
    case InputFill::Kind::Mask: return [f](Tensor& t, std::mt19937_64& rng) { fillInput(f, t, rng); };  // 0s and 1s
    }
    return normalFill();
}

GradCase gradCaseOf(const Op& op, const OpCase& c)
{
    GradCase g{op.type(), c.attrs, {}, {}, c.training, c.eps, c.atol, c.rtol};
    for (const OpCaseInput& in : c.inputs) {
        g.inputs.push_back({in.shape, in.dtype});
        g.fills.push_back(fillOf(in.fill));
    }
    return g;
}

// Records what an op's export writes, without protobuf.
class RecordingWriter final : public OnnxGraphWriter {
public:
    std::string fresh(const std::string& name) override { return taken.insert(name).second ? name : fresh(name + "_"); }
    void node(const std::string& opType, const std::vector<std::string>&, const std::vector<std::string>& outputs,
              const std::string&, const OnnxAttrs&) override
    {
        nodes.push_back(opType);
        for (const std::string& o : outputs) produced.insert(o);
    }
    std::string floats(const std::string& name, const std::vector<std::int64_t>&, const float*) override { return fresh(name); }
    std::string int64s(const std::string& name, const std::vector<std::int64_t>&, const std::vector<std::int64_t>&) override
    {
        return fresh(name);
    }
    std::string int8s(const std::string& name, const std::vector<std::int64_t>&, const std::vector<std::int8_t>&) override
    {
        return fresh(name);
    }
    std::set<std::string> taken, produced;
    std::vector<std::string> nodes;
};

std::vector<TensorSpec> specsOf(const OpCase& c)
{
    std::vector<TensorSpec> specs;
    for (const OpCaseInput& in : c.inputs) specs.push_back({in.shape, in.dtype});
    return specs;
}

}  // namespace

class TestOpRegistry : public QObject {
    Q_OBJECT
private slots:
    void everyOpCarriesItsFacts()
    {
        QStringList missing;
        for (const std::string& type : OpRegistry::builtin().types()) {
            const Op& op = *OpRegistry::builtin().find(type);
            const QString name = QString::fromStdString(type);
            if (op.help().empty()) missing << name + ": help";
            for (const AttrSpec& a : op.attrSpecs())
                if (a.help.empty()) missing << name + "." + QString::fromStdString(a.name) + ": help";
            if (op.cases().empty()) missing << name + ": cases";
        }
        QVERIFY2(missing.isEmpty(), qPrintable(missing.join("; ")));
    }

    // The export of every case writes at least one node and produces the value it returns
    // (or returns an input: the identity at inference). Numerics: tests/onnx against ONNX Runtime.
    void everyOpButALossExportsToOnnx()
    {
        QStringList problems;
        for (const std::string& type : OpRegistry::builtin().types()) {
            const Op& op = *OpRegistry::builtin().find(type);
            for (const OpCase& c : op.cases()) {
                Attrs attrs;
                const std::string err = normaliseAttrs(op.attrSpecs(), c.attrs, attrs);
                QVERIFY2(err.empty(), (type + " " + c.label + ": " + err).c_str());
                std::vector<TensorSpec> in = specsOf(c);
                const TensorSpec out = op.inferOutput(attrs, in);
                std::map<std::string, Tensor> params;
                for (const ParamSpec& p : op.params(attrs, in)) params[p.name] = Tensor::zeros(p.shape);
                RecordingWriter w;
                OnnxNodeExport e{w, "node", attrs, {}, in, out, "node_out"};
                for (std::size_t i = 0; i < in.size(); ++i) e.in.push_back("input" + std::to_string(i));
                e.param = [&](const std::string& local) -> const Tensor& { return params.at(local); };
                const std::string produced = op.exportOnnx(e);
                const QString where = QString::fromStdString(type + " (" + c.label + ")");
                if (op.isLoss()) {
                    if (!produced.empty()) problems << where + ": a loss is dropped from the export, yet it wrote one";
                    continue;
                }
                const bool isInput = std::find(e.in.begin(), e.in.end(), produced) != e.in.end();
                if (produced.empty()) problems << where + ": no ONNX form";
                else if (!isInput && (w.nodes.empty() || !w.produced.count(produced)))
                    problems << where + ": returned " + QString::fromStdString(produced) + ", which no node produces";
            }
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join("; ")));
    }

    void everyCasePassesTheGradientCheck_data()
    {
        QTest::addColumn<QString>("op");
        QTest::addColumn<int>("index");
        for (const std::string& type : OpRegistry::builtin().types()) {
            const std::vector<OpCase> cases = OpRegistry::builtin().find(type)->cases();
            for (std::size_t i = 0; i < cases.size(); ++i)
                QTest::newRow((type + ": " + cases[i].label).c_str()) << QString::fromStdString(type) << int(i);
        }
    }
    void everyCasePassesTheGradientCheck()
    {
        QFETCH(QString, op);
        QFETCH(int, index);
        const Op& o = *OpRegistry::builtin().find(op.toStdString());
        const std::string report = gradCheck(gradCaseOf(o, o.cases().at(std::size_t(index))));
        QVERIFY2(report.empty(), report.c_str());
    }
};

QTEST_GUILESS_MAIN(TestOpRegistry)
#include "tst_op_registry.moc"

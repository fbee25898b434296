// `trainstudio-cli ops`: the real binary (QProcess) lists exactly the registry's ops with their
// category, help and attributes; the CPU runs every op; the CUDA column agrees with what the
// CUDA backend says of each primitive the op's first case calls (or says "not built"). And the
// README's op list names exactly the registered ops in their categories (readmeListsEveryOp,
// ctest cli.readme_op_list): a new op fails it until the README names it.
#include <QtTest>

#include <map>
#include <set>

#include "child_process.h"

#include "backend/devices.h"
#include "ops/registry.h"
#include "selftest/op_case_run.h"

using namespace ts;

namespace {

using Result = test::ProcessResult;

Result cli(const QStringList& args)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("OMP_NUM_THREADS", "2");
    return test::runProcess(TS_CLI_EXE, args, env, 120000);
}

QString describe(const Result& r) { return QString("exit %1\nstdout: %2\nstderr: %3").arg(r.exitCode).arg(r.out.left(800), r.err.left(800)); }

// `ops --json`: one object per op, by op name.
std::map<std::string, QJsonObject> opsJson()
{
    const Result r = cli({"ops", "--json"});
    if (r.exitCode != 0) qWarning() << describe(r);
    std::map<std::string, QJsonObject> ops;
    for (const QString& line : r.out.split('\n', Qt::SkipEmptyParts)) {
        const QJsonObject o = QJsonDocument::fromJson(line.toUtf8()).object();
        ops[o["op"].toString().toStdString()] = o;
    }
    return ops;
}

std::string str(const QJsonValue& v) { return v.toString().toStdString(); }

// The README's op list: "  - category: Op, Op" lines between its two markers, op -> category;
// empty when there is no list.
std::map<std::string, std::string> readmeOps()
{
    QFile f(TS_SOURCE_DIR "/README.md");
    if (!f.open(QIODevice::ReadOnly)) return {};
    const QString text = QString::fromUtf8(f.readAll());
    const qsizetype begin = text.indexOf("<!-- ops:"), end = text.indexOf("<!-- /ops -->");
    if (begin < 0 || end < begin) return {};
    std::map<std::string, std::string> ops;
    const QRegularExpression item("^\\s*- (\\w+): (.+)$");
    for (const QString& line : text.mid(begin, end - begin).split('\n').mid(1)) {
        const QRegularExpressionMatch m = item.match(line);
        if (!m.hasMatch()) continue;
        for (const QString& op : m.captured(2).split(',')) ops[op.trimmed().toStdString()] = m.captured(1).toStdString();
    }
    return ops;
}

// What `ops` must say of one backend for one pass: "yes" or the primitives missing.
QJsonObject expectedSupport(const std::vector<PrimitiveCall>& calls, bool (*supports)(Primitive))
{
    QJsonArray missing;
    for (const PrimitiveCall& c : calls) {
        const QString name = QString::fromUtf8(primitiveName(c.primitive).data(), int(primitiveName(c.primitive).size()));
        if (!supports(c.primitive) && !missing.contains(name)) missing.append(name);
    }
    return {{"known", true}, {"supported", missing.isEmpty()}, {"missing", missing}};
}

bool onCuda(Primitive p) { return cudaSupports(p, DType::F32); }
bool onCpu(Primitive p) { return cpuBackend().supports(p, DType::F32); }

}  // namespace

class TestOpsCommand : public QObject {
    Q_OBJECT

private slots:
    void jsonListsEveryRegisteredOp()
    {
        const std::map<std::string, QJsonObject> listed = opsJson();
        const OpRegistry& registry = OpRegistry::builtin();
        QCOMPARE(listed.size(), registry.types().size());
        const CudaRuntimeInfo cuda = queryCudaLibraries();
        for (const std::string& type : registry.types()) {
            QVERIFY2(listed.count(type), type.c_str());
            const QJsonObject o = listed.at(type);
            const Op& op = *registry.find(type);
            QCOMPARE(str(o["category"]), opCategoryName(op.category()));
            QCOMPARE(str(o["help"]), op.help());
            QCOMPARE(o["inputs"].toObject()["max"].toInt(), op.maxInputs());
            const QJsonArray attrs = o["attributes"].toArray();
            const std::vector<AttrSpec> specs = op.attrSpecs();
            QCOMPARE(std::size_t(attrs.size()), specs.size());
            for (std::size_t i = 0; i < specs.size(); ++i) {
                const QJsonObject a = attrs[int(i)].toObject();
                QCOMPARE(str(a["name"]), specs[i].name);
                const std::map<AttrType, std::string> yamlType{{AttrType::Int, "int"},       {AttrType::Float, "float"},
                                                               {AttrType::Bool, "bool"},     {AttrType::String, "string"},
                                                               {AttrType::Ints, "ints"},     {AttrType::Floats, "floats"}};
                QCOMPARE(str(a["type"]), yamlType.at(specs[i].type));
                QCOMPARE(str(a["help"]), specs[i].help);
                QCOMPARE(a["required"].toBool(), !specs[i].defaultValue);
                QCOMPARE(std::size_t(a["choices"].toArray().size()), specs[i].choices.size());
                if (specs[i].defaultValue && specs[i].type == AttrType::Bool)
                    QCOMPARE(a["default"].toBool(), std::get<bool>(*specs[i].defaultValue));
            }

            // Support: each backend against the primitives the first case calls (forward in
            // training and in inference mode).
            const std::vector<OpCase> cases = op.cases();
            const QJsonObject backends = o["backends"].toObject();
            QCOMPARE(backends.keys(), (QStringList{"cpu", "cuda"}));
            if (cases.empty()) {
                QCOMPARE(backends["cpu"].toObject()["forward"].toObject()["known"].toBool(), false);
                continue;
            }
            std::vector<PrimitiveCall> forward = traceOpCase(op, cases[0], OpPass::TrainingForward);
            const std::vector<PrimitiveCall> inference = traceOpCase(op, cases[0], OpPass::InferenceForward);
            forward.insert(forward.end(), inference.begin(), inference.end());
            const std::vector<PrimitiveCall> backward = traceOpCase(op, cases[0], OpPass::TrainingBackward);
            const QJsonObject cpu = backends["cpu"].toObject();
            QCOMPARE(cpu["forward"].toObject(), expectedSupport(forward, onCpu));
            QCOMPARE(cpu["backward"].toObject(), expectedSupport(backward, onCpu));
            QVERIFY2(cpu["forward"].toObject()["supported"].toBool() && cpu["backward"].toObject()["supported"].toBool(),
                     type.c_str());  // the CPU is the reference: it runs every op
            const QJsonObject gpu = backends["cuda"].toObject();
            if (!cuda.compiledIn) {
                QCOMPARE(gpu["forward"].toObject()["reason"].toString(), QString("not built"));
            } else if (!cuda.runtimeVersion.empty()) {
                QCOMPARE(gpu["forward"].toObject(), expectedSupport(forward, onCuda));
                QCOMPARE(gpu["backward"].toObject(), expectedSupport(backward, onCuda));
            }
        }
        // Linear is all GEMM and bias: it runs wherever the CUDA backend loads.
        if (cuda.compiledIn && !cuda.runtimeVersion.empty())
            QVERIFY(listed.at("Linear")["backends"].toObject()["cuda"].toObject()["backward"].toObject()["supported"].toBool());
    }

    void tableShowsAttributesAndSupport()
    {
        const Result r = cli({"ops", "Linear", "Dropout"});
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        const CudaRuntimeInfo cuda = queryCudaLibraries();
        const QString gpu = !cuda.compiledIn ? "not built" : cuda.runtimeVersion.empty() ? "unknown" : "yes";
        QVERIFY2(r.out.contains("Linear [layer]\n  Fully connected layer"), qPrintable(r.out));
        QVERIFY2(r.out.contains(QRegularExpression("\n  forward   cpu: yes, cuda: " + gpu)), qPrintable(r.out));
        QVERIFY2(r.out.contains(QRegularExpression("\n  backward  cpu: yes, cuda: " + gpu)), qPrintable(r.out));
        QVERIFY2(r.out.contains(QRegularExpression("\n  out_features +int +required\n      The output's features")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QRegularExpression("\n  bias +bool +default true\n")), qPrintable(r.out));
        QVERIFY2(r.out.contains("\n      one of: kaiming_normal, kaiming_uniform,"), qPrintable(r.out));
        QVERIFY2(r.out.contains("\n\nLinear [layer]\n"), qPrintable(r.out));  // by category, then name: Dropout first
        QVERIFY2(r.out.startsWith("Dropout [layer]\n"), qPrintable(r.out));
        for (const QString& line : r.out.split('\n')) QVERIFY2(line.size() <= 80, qPrintable(line));

        const Result unknown = cli({"ops", "Linaer"});
        QCOMPARE(unknown.exitCode, 1);
        QVERIFY2(unknown.err.contains("no op named 'Linaer' (the ops: ") && unknown.err.contains("Linear"), qPrintable(unknown.err));
        QCOMPARE(cli({"ops", "--jsno"}).exitCode, 1);
    }

    // An optional primitive a backend lacks shows as "no (primitive)": Upsample on a CUDA
    // backend without upsampling kernels.
    void lackingBackendNamesThePrimitive()
    {
        const CudaRuntimeInfo cuda = queryCudaLibraries();
        if (!cuda.compiledIn || cuda.runtimeVersion.empty()) QSKIP("the CUDA backend is not built or does not load here");
        if (!OpRegistry::builtin().find("Upsample")) QSKIP("no Upsample op registered");
        if (cudaSupports(Primitive::upsample2dForward)) QSKIP("the CUDA backend upsamples");
        const Result r = cli({"ops", "Upsample"});
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QVERIFY2(r.out.contains("\n  forward   cpu: yes, cuda: no (upsample2dForward)\n"), qPrintable(r.out));
    }

    void readmeListsEveryOp()
    {
        const std::map<std::string, std::string> readme = readmeOps();
        QVERIFY2(!readme.empty(), "README.md has no op list (\"  - category: Op, Op\" lines between <!-- ops: ... --> and <!-- /ops -->)");
        QStringList wrong;
        for (const auto& [type, o] : opsJson()) {
            const std::string category = str(o["category"]);
            if (!readme.count(type)) wrong << QString::fromStdString("README.md does not list " + type + " (add it under " + category + ")");
            else if (readme.at(type) != category)
                wrong << QString::fromStdString("README.md lists " + type + " under " + readme.at(type) + ", it is " + category);
        }
        for (const auto& [type, category] : readme)
            if (!OpRegistry::builtin().find(type)) wrong << QString::fromStdString("README.md lists " + type + ", which is not registered");
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join("\n")));
    }
};

QTEST_GUILESS_MAIN(TestOpsCommand)
#include "tst_ops_command.moc"

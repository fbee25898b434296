// The ONNX tests' independent checks: ONNX Runtime (onnxruntime-node, pinned in
// package.json/package-lock.json here, driven by run_onnx.js) and Debian's python3-onnx
// checker (check_model.py). Node and Python run as child processes.
#pragma once
#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ts::test {

// One model run: raw little-endian inputs, and the outputs our CPU inference gave.
struct OrtCase {
    struct Input {
        QString name, dtype;  // "float32" | "int64"
        std::vector<std::int64_t> dims;
        QByteArray data;
    };
    struct Output {
        QString name;
        std::vector<std::int64_t> dims;
        std::vector<float> data;
    };
    QString name, model;
    std::vector<Input> inputs;
    std::vector<Output> expected;
};

struct OrtResult {
    bool ok = false;
    QString error;
    std::map<QString, double> maxAbsDiff;  // per output; infinity: sizes differ or NaN
    std::map<QString, std::vector<std::int64_t>> dims;
};

inline QByteArray floatBytes(const std::vector<float>& v)
{
    return QByteArray(reinterpret_cast<const char*>(v.data()), qsizetype(v.size() * sizeof(float)));
}

// "": node and onnxruntime-node are ready. Otherwise why not: "SKIP ..." only when node or npm
// is not installed at all; "FAIL ..." when they are but the package cannot be installed.
inline QString ortReadiness()
{
    const QString node = QStandardPaths::findExecutable("node"), npm = QStandardPaths::findExecutable("npm");
    if (node.isEmpty() || npm.isEmpty())
        return "SKIP node or npm is not installed (apt-get install nodejs npm): the ONNX Runtime checks cannot run";
    const QString dir = TS_ONNX_TEST_DIR;
    if (QFileInfo::exists(dir + "/node_modules/onnxruntime-node/package.json")) return {};
    // Pinned by package-lock.json; the CPU library ships inside the package, so its install
    // script (which may fetch GPU providers) is not needed.
    QProcess p;
    p.setWorkingDirectory(dir);
    p.start(npm, {"ci", "--ignore-scripts", "--no-audit", "--no-fund"});
    if (!p.waitForFinished(300000) || p.exitCode() != 0)
        return "FAIL npm ci in " + dir + " failed (offline?): " + QString::fromUtf8(p.readAllStandardError()).left(800) +
               "; run packaging/studio.sh test once with the network, or npm ci there";
    return {};
}

// Runs every case in one ONNX Runtime process; results in the cases' order.
inline std::vector<OrtResult> runOrt(const QString& workDir, const std::vector<OrtCase>& cases, QString* failure)
{
    QJsonArray list;
    for (std::size_t c = 0; c < cases.size(); ++c) {
        const OrtCase& oc = cases[c];
        QJsonObject inputs, expected;
        for (std::size_t i = 0; i < oc.inputs.size(); ++i) {
            const QString file = QString("case%1_in%2.bin").arg(c).arg(i);
            QFile f(workDir + "/" + file);
            if (!f.open(QIODevice::WriteOnly) || f.write(oc.inputs[i].data) != oc.inputs[i].data.size()) {
                *failure = "cannot write " + f.fileName();
                return {};
            }
            QJsonArray dims;
            for (auto d : oc.inputs[i].dims) dims.append(qint64(d));
            inputs[oc.inputs[i].name] = QJsonObject{{"file", file}, {"dtype", oc.inputs[i].dtype}, {"dims", dims}};
        }
        for (std::size_t o = 0; o < oc.expected.size(); ++o) {
            const QString file = QString("case%1_out%2.bin").arg(c).arg(o);
            QFile f(workDir + "/" + file);
            const QByteArray bytes = floatBytes(oc.expected[o].data);
            if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size()) {
                *failure = "cannot write " + f.fileName();
                return {};
            }
            expected[oc.expected[o].name] = QJsonObject{{"file", file}};
        }
        list.append(QJsonObject{{"name", oc.name}, {"model", oc.model}, {"inputs", inputs}, {"expected", expected}});
    }
    const QString manifest = workDir + "/manifest.json";
    QFile m(manifest);
    if (!m.open(QIODevice::WriteOnly)) {
        *failure = "cannot write " + manifest;
        return {};
    }
    m.write(QJsonDocument(QJsonObject{{"cases", list}}).toJson());
    m.close();
    QProcess p;
    p.start(QStandardPaths::findExecutable("node"), {QString(TS_ONNX_TEST_DIR) + "/run_onnx.js", "compare", manifest});
    if (!p.waitForFinished(300000) || p.exitCode() != 0) {
        *failure = "run_onnx.js failed: " + QString::fromUtf8(p.readAllStandardError());
        return {};
    }
    std::vector<OrtResult> results;
    for (const QByteArray& line : p.readAllStandardOutput().split('\n')) {
        if (line.trimmed().isEmpty()) continue;
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        OrtResult r;
        r.ok = o["ok"].toBool();
        r.error = o["error"].toString();
        const QJsonObject outs = o["outputs"].toObject();
        for (auto it = outs.begin(); it != outs.end(); ++it) {
            const QJsonObject out = it.value().toObject();
            const QJsonValue diff = out["max_abs_diff"];
            r.maxAbsDiff[it.key()] = diff.isDouble() ? diff.toDouble() : std::numeric_limits<double>::infinity();
            for (const QJsonValue d : out["dims"].toArray()) r.dims[it.key()].push_back(d.toInteger());
        }
        results.push_back(r);
    }
    if (results.size() != cases.size())
        *failure = QString("run_onnx.js answered %1 of %2 cases").arg(results.size()).arg(cases.size());
    return results;
}

// Debian's python3-onnx: onnx.checker.check_model(full_check=True), strict shape inference,
// and a symbolic batch everywhere. "" when every model passes; "SKIP ..." without python3-onnx.
inline QString checkWithOnnxPackage(const QStringList& models)
{
    QString python = "/usr/bin/python3";
    if (!QFileInfo::exists(python)) python = QStandardPaths::findExecutable("python3");
    if (python.isEmpty()) return "SKIP python3 is not installed";
    QProcess probe;
    probe.start(python, {"-c", "import onnx"});
    probe.waitForFinished(60000);
    if (probe.exitCode() != 0) return "SKIP python3-onnx is not installed (apt-get install python3-onnx)";
    QProcess p;
    p.start(python, QStringList{QString(TS_ONNX_TEST_DIR) + "/check_model.py"} + models);
    if (!p.waitForFinished(300000) || p.exitCode() != 0) {
        // The models that passed say "ok": leave them out, or the one at fault is cut off.
        QStringList lines = QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError()).split('\n');
        lines.removeIf([](const QString& line) { return line.endsWith(": ok") || line.isEmpty(); });
        return "FAIL " + lines.join('\n');
    }
    return {};
}

}  // namespace ts::test

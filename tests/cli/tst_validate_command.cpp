// `trainstudio-cli validate` and `train` on a broken experiment (the real binary): every
// independent problem, one line each as FILE:LINE:COLUMN: message, in file order (the reader
// reads the model after the training settings, and once stopped at its first problem); a bad
// --set value is placed at the file's line of the value it replaces and names the argument
// (it once said `FILE (with --set):18:29` for a value on line 31).
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include "child_process.h"

namespace {

using Result = ts::test::ProcessResult;

// A valid experiment; lr is on line 12, column 7. --no-data keeps the dataset unopened.
const char* kValid = R"(name: broken
dataset: {format: idx, path: /nowhere}
model:
  layers:
    - Flatten
    - Linear: {out_features: 64}
    - ReLU
    - Linear: {out_features: 10}
    - CrossEntropy
optimizer:
  type: adam
  lr: 0.001
training:
  epochs: 2
  batch_size: 16
)";

// Each FILE:LINE:COLUMN: line of `err`, as "LINE:COLUMN message".
QStringList locatedLines(const QString& err, const QString& file)
{
    QStringList out;
    const QRegularExpression located("^" + QRegularExpression::escape(file) + R"(:(\d+):(\d+): (.*)$)");
    for (const QString& line : err.split('\n', Qt::SkipEmptyParts))
        if (const auto m = located.match(line); m.hasMatch()) out << m.captured(1) + ":" + m.captured(2) + " " + m.captured(3);
    return out;
}

}  // namespace

class TestValidateCommand : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    QProcessEnvironment env_;

    Result cli(const QStringList& args) { return ts::test::runProcess(TS_CLI_EXE, args, env_, 60000); }

    QString writeExperiment(const QString& name, QString text)
    {
        const QString path = dir_.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
        f.write(text.toUtf8());
        return path;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        env_ = ts::test::scratchCliEnvironment(dir_.filePath("home"));  // no user workspace or cache is touched
        const QString valid = writeExperiment("valid.yaml", kValid);
        const Result r = cli({"validate", valid, "--no-data"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    }

    void reportsEveryIndependentProblemInFileOrder()
    {
        QString text = kValid;
        text.replace("{out_features: 64}", "{out_features: sixty}");  // line 6
        text.replace("type: adam", "type: adamm");                    // line 11
        text.replace("batch_size: 16", "batchsize: 16");              // line 15
        const QString file = writeExperiment("three.yaml", text);
        const QStringList expected = {
            "6:30 node 'linear1' (Linear): attribute 'out_features' must be an integer",
            "11:9 type: unknown optimizer 'adamm' (did you mean 'adam'?); valid: sgd, adam, adamw, rmsprop",
            "15:3 unknown key 'batchsize' in training (did you mean 'batch_size'?)",
        };
        for (const QString& command : {QStringLiteral("validate"), QStringLiteral("train")}) {
            const QStringList args = command == "validate" ? QStringList{"validate", file, "--no-data"}
                                                           : QStringList{"train", file, "--workspace", dir_.filePath("ws")};
            const Result r = cli(args);
            QVERIFY2(r.exitCode == 1, qPrintable(command + ": " + r.err));
            QVERIFY2(r.err.startsWith("trainstudio-cli " + command + ": " + file + ": 3 problems\n"), qPrintable(r.err));
            const QStringList lines = locatedLines(r.err, file);
            QCOMPARE(lines.size(), expected.size());
            for (qsizetype i = 0; i < expected.size(); ++i) QVERIFY2(lines[i].startsWith(expected[i]), qPrintable(lines[i]));
        }
    }

    void badSetValueNamesTheArgumentAndTheFileLine()
    {
        const QString file = dir_.filePath("valid.yaml");
        for (const QString& command : {QStringLiteral("validate"), QStringLiteral("train")}) {
            const QStringList args = command == "validate"
                                         ? QStringList{"validate", file, "--no-data", "--set", "optimizer.lr=abc"}
                                         : QStringList{"train", file, "--workspace", dir_.filePath("ws"), "--set", "optimizer.lr=abc"};
            const Result r = cli(args);
            QVERIFY2(r.exitCode == 1, qPrintable(r.err));
            QCOMPARE(r.err.trimmed(), "trainstudio-cli " + command + ": " + file +
                                          ":12:7: lr: expected a number, got 'abc' (from --set optimizer.lr=abc)");
        }
        // A good value still applies: validate prints the settings it will train with.
        const Result ok = cli({"validate", file, "--no-data", "--set", "optimizer.type=sgd"});
        QVERIFY2(ok.exitCode == 0 && ok.out.contains("model (sgd, batch 16)"), qPrintable(ok.out + ok.err));
    }
};

QTEST_GUILESS_MAIN(TestValidateCommand)
#include "tst_validate_command.moc"

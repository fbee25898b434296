// `trainstudio-cli runs`: the real binary (QProcess) against workspaces made here, its JSON
// parsed with QJsonDocument (so it is valid JSON, not only the expected text). One workspace
// is written through RunWriter with known values (NaN, infinity, differing parameters); one
// comes from `trainstudio-cli train` on the shipped tabular experiment, end to end.
// Children get a scratch HOME, so the user's default workspace is never touched.
#include <QDirIterator>
#include <QRegularExpression>
#include <QtTest>

#include "child_process.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "store/run_writer.h"

using namespace ts;

namespace {

using Result = ts::test::ProcessResult;

QString g_home;  // scratch HOME of the child processes

// `workspaceVariable`: TRAINSTUDIO_WORKSPACE for the child (unset when empty).
Result cli(const QStringList& args, int timeoutMs = 60000, const QString& workspaceVariable = {})
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("HOME", g_home);
    env.remove("XDG_DATA_HOME");
    env.remove("TRAINSTUDIO_WORKSPACE");
    if (!workspaceVariable.isEmpty()) env.insert("TRAINSTUDIO_WORKSPACE", workspaceVariable);
    env.insert("OMP_NUM_THREADS", "2");
    return ts::test::runProcess(TS_CLI_EXE, args, env, timeoutMs);
}

QJsonDocument parsed(const Result& r)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(r.out.toUtf8(), &error);
    if (error.error != QJsonParseError::NoError) qWarning() << "not JSON:" << error.errorString() << r.out.left(400);
    return doc;
}

QJsonObject metricOf(const QJsonArray& metrics, const QString& name)
{
    for (const auto& m : metrics)
        if (m.toObject()["name"].toString() == name) return m.toObject();
    return {};
}

}  // namespace

class TestRunsCommand : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    QString ws_;  // the workspace written here: runs 1, 2, 3
    QStringList at(QStringList args) const { return QStringList{"runs"} + args + QStringList{"--workspace", ws_}; }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        g_home = dir_.filePath("home");
        QVERIFY(QDir().mkpath(g_home));
        ws_ = dir_.filePath("ws");
        const Workspace workspace = Workspace::open(ws_.toStdString());
        RunWriter writer(workspace);
        auto newRun = [](const std::string& lr, std::vector<std::string> tags) {
            NewRun r;
            r.experimentName = "tabular_example";
            r.experimentYaml = "name: tabular_example\n";
            r.parameters = {{"optimizer.lr", lr}, {"training.epochs", "60"}, {"training.seed", "42"}};
            r.device = "cpu";
            r.seed = 42;
            r.tags = std::move(tags);
            return r;
        };
        // Run 1: every kind of value a metric can take; a checkpoint on disk.
        const std::int64_t a = writer.createRun(newRun("0.003", {}));
        const double losses[] = {1.0, 0.5, NAN, INFINITY, 0.25};
        for (int i = 0; i < 5; ++i) writer.addMetric(a, "loss", i + 1, losses[i], 0.5 * (i + 1));
        writer.addMetric(a, "val_acc", 5, 0.8, 2.5);
        writer.addMetric(a, "val_loss", 5, 0.6, 2.5);
        writer.addLog(a, {1.0e9, "info", ts::Message{"finished after 1 epoch"}});
        const std::string folder = workspace.runCheckpointsPath(a);
        std::filesystem::create_directories(folder);
        std::ofstream(folder + "/epoch_001.safetensors") << "weights";
        CheckpointRecord c;
        c.runId = a;
        c.path = "run_" + std::to_string(a) + "/epoch_001.safetensors";
        c.step = 5;
        c.epoch = 1;
        c.metricName = "val_acc";
        c.metricValue = 0.8;
        c.best = true;
        c.sizeBytes = 7;
        writer.addCheckpoint(c);
        writer.finishRun(a, RunStatus::Finished, {"done"});
        writer.setNotes(a, "lr\t0.003\x01, then \"more\"");  // a tab and a control character survive JSON
        // Run 2: another learning rate, a better val_acc.
        const std::int64_t b = writer.createRun(newRun("0.01", {"fast"}));
        writer.addMetric(b, "loss", 5, 0.2, 2.0);
        writer.addMetric(b, "val_acc", 5, 0.9, 2.0);
        writer.finishRun(b, RunStatus::Finished, {"done"});
        // Run 3: stopped, only val_loss (list falls back to it).
        const std::int64_t s = writer.createRun(newRun("0.003", {}));
        writer.addMetric(s, "val_loss", 1, 0.7, 1.0);
        writer.finishRun(s, RunStatus::Stopped, {"stopped by the user"});
        writer.flush();
        QCOMPARE(a, 1);
        QCOMPARE(s, 3);
    }

    // One rule with the studio: TRAINSTUDIO_WORKSPACE when no --workspace is given; --workspace wins.
    void workspaceFromTheEnvironment()
    {
        const Result fromVariable = cli({"runs", "list", "--json"}, 60000, ws_);
        QCOMPARE(fromVariable.exitCode, 0);
        QCOMPARE(parsed(fromVariable).array().size(), 3);
        const QString empty = dir_.filePath("empty_ws");
        const Result overridden = cli(at({"list", "--json"}), 60000, empty);
        QCOMPARE(overridden.exitCode, 0);
        QCOMPARE(parsed(overridden).array().size(), 3);
        const Result help = cli({"--help"});
        QVERIFY2(help.out.contains("TRAINSTUDIO_WORKSPACE"), qPrintable(help.out));
    }

    // A run that fails before it starts (its data is missing) leaves no workspace folder behind.
    void failedTrainLeavesNoWorkspace()
    {
        QFile source(QStringLiteral(TS_SOURCE_DIR "/experiments/tabular_example.yaml"));
        QVERIFY(source.open(QIODevice::ReadOnly));
        QString text = QString::fromUtf8(source.readAll());
        text.replace(QRegularExpression("path: .*"), "path: /nonexistent/table.csv");
        const QString file = dir_.filePath("missing_data.yaml");
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(text.toUtf8());
        out.close();
        const QString fresh = dir_.filePath("never_created");
        const Result r = cli({"train", file, "--workspace", fresh, "--device", "cpu"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("/nonexistent/table.csv"), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(fresh));
    }

    void listJson()
    {
        const Result r = cli(at({"list", "--json"}));
        QCOMPARE(r.exitCode, 0);
        const QJsonArray runs = parsed(r).array();
        QCOMPARE(runs.size(), 3);
        QCOMPARE(runs[0].toObject()["id"].toInt(), 3);  // newest first
        QCOMPARE(runs[2].toObject()["id"].toInt(), 1);
        const QJsonObject first = runs[2].toObject();
        QCOMPARE(first["status"].toString(), QString("finished"));
        QCOMPARE(first["device"].toString(), QString("cpu"));
        QCOMPARE(first["best_validation"].toObject()["metric"].toString(), QString("val_acc"));
        QCOMPARE(first["best_validation"].toObject()["value"].toDouble(), 0.8);
        QVERIFY(first["duration_s"].toDouble() >= 0);
        QCOMPARE(runs[1].toObject()["tags"].toArray().first().toString(), QString("fast"));
        QCOMPARE(runs[0].toObject()["best_validation"].toObject()["metric"].toString(), QString("val_loss"));
    }

    void listTableAndStatusFilter()
    {
        const Result table = cli(at({"list"}));
        QCOMPARE(table.exitCode, 0);
        QVERIFY(table.out.startsWith("id"));
        QCOMPARE(table.out.count('\n'), 4);  // header and three runs
        const Result stopped = cli(at({"list", "--status", "stopped", "--json"}));
        QCOMPARE(stopped.exitCode, 0);
        QCOMPARE(parsed(stopped).array().size(), 1);
        const Result bad = cli(at({"list", "--status", "done"}));
        QCOMPARE(bad.exitCode, 1);
        QVERIFY2(bad.err.contains("finished"), qPrintable(bad.err));
    }

    void showJson()
    {
        const Result r = cli(at({"show", "1", "--json"}));
        QCOMPARE(r.exitCode, 0);
        const QJsonObject run = parsed(r).object();
        QCOMPARE(run["name"].toString(), QString("tabular_example #1"));
        QCOMPARE(run["message"].toString(), QString("done"));
        QCOMPARE(run["notes"].toString(), QString("lr\t0.003\x01, then \"more\""));
        QCOMPARE(run["parameters"].toObject()["optimizer.lr"].toString(), QString("0.003"));
        QVERIFY(run["experiment_yaml"].toString().contains("tabular_example"));
        const QJsonObject loss = metricOf(run["metrics"].toArray(), "loss");
        QCOMPARE(loss["count"].toInt(), 5);
        QCOMPARE(loss["last"].toDouble(), 0.25);
        QCOMPARE(loss["best"].toDouble(), 0.25);
        QCOMPARE(loss["best_step"].toInt(), 5);
        const QJsonArray checkpoints = run["checkpoints"].toArray();
        QCOMPARE(checkpoints.size(), 1);
        QCOMPARE(checkpoints[0].toObject()["epoch"].toInt(), 1);
        QVERIFY(checkpoints[0].toObject()["best"].toBool());
        QVERIFY(checkpoints[0].toObject()["exists"].toBool());
        QCOMPARE(run["logs"].toArray().size(), 1);
    }

    void showText()
    {
        const Result r = cli(at({"show", "1"}));
        QCOMPARE(r.exitCode, 0);
        for (const char* part : {"run 1: tabular_example #1", "finished", "val_acc", "epoch_001.safetensors", "finished after 1 epoch"})
            QVERIFY2(r.out.contains(part), part);
    }

    void compareShowsOnlyDifferences()
    {
        const Result r = cli(at({"compare", "1", "2", "--json"}));
        QCOMPARE(r.exitCode, 0);
        const QJsonObject c = parsed(r).object();
        const QJsonObject params = c["parameters"].toObject();
        QCOMPARE(params["identical"].toInt(), 2);
        const QJsonArray differing = params["differing"].toArray();
        QCOMPARE(differing.size(), 1);
        QCOMPARE(differing[0].toObject()["key"].toString(), QString("optimizer.lr"));
        QCOMPARE(differing[0].toObject()["values"].toArray(), (QJsonArray{"0.003", "0.01"}));
        const QJsonObject valLoss = metricOf(c["metrics"].toArray(), "val_loss");
        QVERIFY(valLoss["runs"].toArray()[1].isNull());  // run 2 has no val_loss
        QCOMPARE(metricOf(c["metrics"].toArray(), "val_acc")["runs"].toArray()[1].toObject()["best"].toDouble(), 0.9);

        const Result text = cli(at({"compare", "1", "2", "3"}));
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("1 differ, 2 identical"), qPrintable(text.out));
        QCOMPARE(cli(at({"compare", "1"})).exitCode, 1);
    }

    void metricsPointsKeepNonFinite()
    {
        const Result names = cli(at({"metrics", "1", "--json"}));
        QCOMPARE(names.exitCode, 0);
        QCOMPARE(parsed(names).object()["metrics"].toArray().size(), 3);
        const Result r = cli(at({"metrics", "1", "loss", "--json"}));
        QCOMPARE(r.exitCode, 0);
        const QJsonObject loss = parsed(r).object()["metrics"].toArray()[0].toObject();
        QCOMPARE(loss["steps"].toArray(), (QJsonArray{1, 2, 3, 4, 5}));
        QCOMPARE(loss["values"].toArray(), (QJsonArray{1.0, 0.5, "nan", "inf", 0.25}));
        const Result unknown = cli(at({"metrics", "1", "accuracy"}));
        QCOMPARE(unknown.exitCode, 1);
        QVERIFY2(unknown.err.contains("val_acc"), qPrintable(unknown.err));  // says what exists
    }

    // Text goes through JSON unchanged (a quote, a backslash, a control character, non-ASCII);
    // bytes that are not UTF-8 become U+FFFD instead of failing the command; a NaN metric is "nan".
    void textAndNonFiniteSurviveJson()
    {
        const QString ws = dir_.filePath("odd_text");
        const std::string odd = "say \"hi\" \\ back\x02 gr\xC3\xB6\xC3\x9F" "e \xE5\xAD\xA6";  // ... größe 学
        {
            const Workspace workspace = Workspace::open(ws.toStdString());
            RunWriter writer(workspace);
            NewRun r;
            r.experimentName = "odd";
            r.name = odd;
            r.parameters = {{"note", odd}};
            r.tags = {odd};
            const std::int64_t id = writer.createRun(r);
            writer.addMetric(id, "val_loss", 1, 0.5, 1.0);
            writer.addMetric(id, "val_loss", 2, NAN, 2.0);
            writer.setNotes(id, "bad \xFF byte");
            writer.finishRun(id, RunStatus::Finished, {"done"});
            writer.flush();
        }
        const QString expected = QString::fromUtf8(odd.c_str());
        const Result shown = cli({"runs", "show", "1", "--json", "--workspace", ws});
        QCOMPARE(shown.exitCode, 0);
        QVERIFY2(shown.out.contains("\\u0002") && shown.out.contains(QString::fromUtf8("gr\xC3\xB6\xC3\x9F" "e")), qPrintable(shown.out));
        const QJsonObject run = parsed(shown).object();
        QCOMPARE(run["name"].toString(), expected);
        QCOMPARE(run["tags"].toArray().first().toString(), expected);
        QCOMPARE(run["parameters"].toObject()["note"].toString(), expected);
        QCOMPARE(run["notes"].toString(), QString::fromUtf8("bad \xEF\xBF\xBD byte"));
        QCOMPARE(metricOf(run["metrics"].toArray(), "val_loss")["last"].toString(), QString("nan"));
        const QJsonArray listed = parsed(cli({"runs", "list", "--json", "--workspace", ws})).array();
        QCOMPARE(listed.size(), 1);
        QCOMPARE(listed[0].toObject()["name"].toString(), expected);
        const Result points = cli({"runs", "metrics", "1", "val_loss", "--json", "--workspace", ws});
        QCOMPARE(parsed(points).object()["metrics"].toArray()[0].toObject()["values"].toArray(), (QJsonArray{0.5, "nan"}));
    }

    // Seen: a run name with a newline forged a row of `runs list`, and ESC sequences reached the
    // terminal. Generated: a run named with every C0 control character, DEL, C1 controls, a
    // bidirectional override, invalid UTF-8 and very long names, through list, show, compare,
    // delete's dry run and an error message: every row stays one line, no control byte reaches
    // the terminal, long names are cut with "…", and --json keeps every name exactly.
    void controlCharactersAndLongNamesAreSafe()
    {
        const QString ws = dir_.filePath("hostile_names");
        std::vector<std::string> names;
        for (int c = 1; c < 0x20; ++c) names.push_back("run" + std::string(1, char(c)) + "name");
        names.push_back("run\x7fname");
        names.push_back("ok\n 99  forged  finished  2026-01-01 00:00:00  1s  cpu  val_acc 1 (best)");
        names.push_back("\x1b[2J\x1b[31mred\x1b]0;title\x07");
        names.push_back("c1 \xC2\x9B" "31m \xC2\x85 nel");
        names.push_back("\xE2\x80\xAE" "gnp.exe");
        names.push_back("bad \xFF\xFE utf-8");
        names.push_back(std::string(10000, 'n'));
        names.push_back(std::string(1 << 20, 'm'));
        {
            const Workspace workspace = Workspace::open(ws.toStdString());
            RunWriter writer(workspace);
            for (const std::string& name : names) {
                NewRun r;
                r.experimentName = name;
                r.name = name;
                r.device = name;
                r.tags = {name};
                const std::int64_t id = writer.createRun(r);
                writer.addLog(id, {1.0e9, "info", ts::Message{"log " + name}});
                writer.setNotes(id, "notes " + name);
                writer.finishRun(id, RunStatus::Failed, {"failed: " + name});
            }
            writer.flush();
        }
        const int runs = int(names.size());
        // No byte a terminal acts on, in any of the outputs below (a tab only where multi-line
        // text keeps its layout: notes, messages); a line per row.
        auto safe = [](const QString& text) {
            for (const QChar c : text)
                if ((c.unicode() < 0x20 && c != '\n' && c != '\t') || (c.unicode() >= 0x7F && c.unicode() <= 0x9F) ||
                    c.unicode() == 0x202E)
                    return false;
            return true;
        };
        const Result list = cli({"runs", "list", "--workspace", ws});
        QCOMPARE(list.exitCode, 0);
        QVERIFY2(safe(list.out) && !list.out.contains('\t'), qPrintable(list.out.toUtf8().toHex()));
        QCOMPARE(list.out.count('\n'), 1 + runs);  // the header and one line a run: nothing forged
        QVERIFY(list.out.contains("run\\x1bname") && list.out.contains("run\\nname") && list.out.contains("run\\rname") &&
                list.out.contains("run\\tname"));
        QVERIFY(list.out.contains("\\x1b[2J\\x1b[31mred"));
        QVERIFY(list.out.contains("c1 \\u009b31m \\u0085 nel"));
        QVERIFY(list.out.contains("\\u202egnp.exe"));
        QVERIFY(list.out.contains("bad \\xff\\xfe utf-8"));
        for (const QString& line : list.out.split('\n'))
            QVERIFY2(line.size() < 400, qPrintable(QString::number(line.size())));  // long names cut
        QVERIFY(list.out.contains(QString(79, 'n') + QString::fromUtf8("…")));
        // --json stays exact (nlohmann escapes it; invalid UTF-8 becomes U+FFFD as before).
        const QJsonArray json = parsed(cli({"runs", "list", "--json", "--workspace", ws})).array();
        QCOMPARE(json.size(), runs);
        for (const auto& run : json) {
            const int id = run.toObject()["id"].toInt();
            const std::string& name = names[std::size_t(id - 1)];
            if (name.find('\xFF') == std::string::npos) QCOMPARE(run.toObject()["name"].toString(), QString::fromStdString(name));
        }
        for (int id = 1; id <= runs; ++id) {
            const QString run = QString::number(id);
            const Result show = cli({"runs", "show", run, "--workspace", ws});
            QCOMPARE(show.exitCode, 0);
            QVERIFY2(safe(show.out), qPrintable(run + ": " + show.out.left(300).toUtf8().toHex()));
            QVERIFY2(show.out.size() < 20000, qPrintable(run));
            const Result dry = cli({"runs", "delete", run, "--workspace", ws});
            QVERIFY2(safe(dry.out) && safe(dry.err), qPrintable(run));
        }
        const Result compare = cli({"runs", "compare", "1", "2", "27", "32", "--workspace", ws});
        QCOMPARE(compare.exitCode, 0);
        QVERIFY2(safe(compare.out), qPrintable(compare.out));
        // An error message quoting what was typed: escaped and bounded.
        const Result bad = cli({"runs", "show", QString::fromUtf8("1\x1b[2J") + QString(5000, 'x'), "--workspace", ws});
        QCOMPARE(bad.exitCode, 1);
        QVERIFY2(safe(bad.err), qPrintable(bad.err));
        QVERIFY2(bad.err.contains("'1\\x1b[2J") && bad.err.size() < 400, qPrintable(bad.err));
        // Whatever a message holds whole (an option as typed) is bounded where errors are printed.
        for (const QStringList& args : {QStringList{"runs", "list", "--" + QString(5000, 'o') + "\x1b[2J"},
                                        QStringList{"runs", "list", "--status", QString(5000, 's')}}) {
            const Result r = cli(args + QStringList{"--workspace", ws});
            QVERIFY(r.exitCode != 0);
            QVERIFY2(safe(r.err) && r.err.size() < 1500 && r.err.contains(QString::fromUtf8("…")), qPrintable(r.err.left(300)));
        }
    }

    void exportCsv()
    {
        const Result r = cli(at({"export", "1"}));
        QCOMPARE(r.exitCode, 0);
        const QStringList lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.first(), QString("step,metric,value,wall_time"));
        QCOMPARE(lines.size(), 1 + 5 + 1 + 1);
        QVERIFY(lines.contains("3,loss,nan,1.5"));
        QVERIFY(lines.contains("4,loss,inf,2"));
        QVERIFY(lines.contains("5,val_acc,0.8,2.5"));

        const QString file = dir_.filePath("run1.csv");
        const Result toFile = cli(at({"export", "1", "--metrics", "val_acc,val_loss", "--output", file}));
        QCOMPARE(toFile.exitCode, 0);
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(f.readAll()), QString("step,metric,value,wall_time\n5,val_acc,0.8,2.5\n5,val_loss,0.6,2.5\n"));
    }

    void unknownRunSaysWhichExist()
    {
        const Result r = cli(at({"show", "42"}));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("no run 42") && r.err.contains("runs 1-3") && r.err.contains(ws_), qPrintable(r.err));
        QCOMPARE(cli(at({"show", "one"})).exitCode, 1);
    }

    void missingWorkspaceSaysHowToMakeOne()
    {
        // No --workspace: the default one under the scratch HOME, which has none.
        const Result r = cli({"runs", "list"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(g_home + "/.local/share/trainstudio/workspace/studio.db") && r.err.contains("train"),
                 qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(g_home + "/.local/share/trainstudio"));  // reading created nothing
    }

    void usage()
    {
        const Result help = cli({"runs", "--help"});
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.contains("step,metric,value,wall_time"));
        QCOMPARE(cli({"runs", "frobnicate"}).exitCode, 2);
        QCOMPARE(cli(at({"show", "1", "--bogus"})).exitCode, 1);
    }

    // Last: it changes the workspace.
    void deleteNeedsYes()
    {
        const QString folder = ws_ + "/checkpoints/run_1";
        const Result dry = cli(at({"delete", "1"}));
        QCOMPARE(dry.exitCode, 2);
        QVERIFY2(dry.out.contains("7 metric points"), qPrintable(dry.out));
        QVERIFY2(dry.out.contains(folder), qPrintable(dry.out));
        QVERIFY(QFileInfo::exists(folder));
        QCOMPARE(parsed(cli(at({"list", "--json"}))).array().size(), 3);

        const Result r = cli(at({"delete", "1", "--yes"}));
        QCOMPARE(r.exitCode, 0);
        QVERIFY(!QFileInfo::exists(folder));
        const QJsonArray runs = parsed(cli(at({"list", "--json"}))).array();
        QCOMPARE(runs.size(), 2);
        const Result gone = cli(at({"show", "1"}));
        QCOMPARE(gone.exitCode, 1);
        QVERIFY2(gone.err.contains("runs 2-3"), qPrintable(gone.err));
    }

    // End to end: `train --workspace` then `runs` on what it recorded.
    void afterTraining()
    {
        const QString ws = dir_.filePath("trained");
        const QString experiment = QString(TS_SOURCE_DIR) + "/experiments/tabular_example.yaml";
        for (int i = 0; i < 2; ++i) {
            const Result t = cli({"train", experiment, "--epochs", "2", "--device", "cpu", "--workspace", ws, "--set",
                                  QString("optimizer.lr=%1").arg(i ? "0.01" : "0.003")},
                                 240000);
            QVERIFY2(t.exitCode == 0, qPrintable(t.err));
        }
        const QStringList where{"--workspace", ws};
        const QJsonArray runs = parsed(cli(QStringList{"runs", "list", "--json"} + where)).array();
        QCOMPARE(runs.size(), 2);
        for (const auto& run : runs) {
            QCOMPARE(run.toObject()["status"].toString(), QString("finished"));
            QVERIFY(!run.toObject()["best_validation"].isNull());
        }
        const QJsonObject shown = parsed(cli(QStringList{"runs", "show", "1", "--json"} + where)).object();
        QVERIFY(!metricOf(shown["metrics"].toArray(), "val_acc").isEmpty());
        QVERIFY(!metricOf(shown["metrics"].toArray(), "loss").isEmpty());
        const QJsonObject compared = parsed(cli(QStringList{"runs", "compare", "1", "2", "--json"} + where)).object();
        const QJsonArray differing = compared["parameters"].toObject()["differing"].toArray();
        QVERIFY(std::any_of(differing.begin(), differing.end(),
                            [](const QJsonValue& d) { return d.toObject()["key"].toString() == "optimizer.lr"; }));
        // A third run with a wider model: compare summarises the model (layers, parameters,
        // FLOPs) instead of listing model.* keys, and puts the results first.
        QFile source(experiment);
        QVERIFY(source.open(QIODevice::ReadOnly));
        QString wider = QString::fromUtf8(source.readAll());
        wider.replace("data/wine_like.csv", QString(TS_SOURCE_DIR) + "/experiments/data/wine_like.csv");
        wider.replace("{name: hidden1, in_features: 5, out_features: 32}", "{name: hidden1, in_features: 5, out_features: 64}");
        const QString widerFile = dir_.filePath("wider.yaml");
        QFile out(widerFile);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(wider.toUtf8());
        out.close();
        QVERIFY(cli({"train", widerFile, "--epochs", "2", "--device", "cpu", "--workspace", ws}, 240000).exitCode == 0);
        const Result text = cli(QStringList{"runs", "compare", "1", "3"} + where);
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.indexOf("result") < text.out.indexOf("model:") && text.out.indexOf("model:") < text.out.indexOf("metrics:"),
                 qPrintable(text.out));
        QVERIFY2(!text.out.contains("model.layers"), qPrintable(text.out));  // summarised, not listed
        // hidden1 5->32 has 192 parameters, 5->64 has 384; hidden2 32->32 has 1,056, 64->32 2,080.
        QVERIFY2(text.out.contains("1,347") && text.out.contains("2,563"), qPrintable(text.out));
        QVERIFY2(text.out.contains("per-parameter gradient norms"), qPrintable(text.out));
        const Result csv = cli(QStringList{"runs", "export", "2", "--metrics", "val_acc"} + where);
        QCOMPARE(csv.exitCode, 0);
        const QStringList rows = csv.out.trimmed().split('\n');
        QVERIFY2(rows.size() >= 1 + 2, qPrintable(csv.out));  // the header and a row per epoch at least
        const QRegularExpression point("^\\d+,val_acc,[0-9.e-]+,[0-9.e-]+$");
        for (const QString& row : rows.mid(1)) QVERIFY2(point.match(row).hasMatch(), qPrintable(row));
    }

    // Every command that writes where the user says refuses the workspace's own files and
    // anything not a regular file, before doing its work, and leaves them as they were
    // (io/output_file.h). Uses the workspace afterTraining made.
    void outputsNeverDestroyTheWorkspace()
    {
        const QString ws = dir_.filePath("trained");
        const QStringList where{"--workspace", ws};
        QDirIterator files(ws + "/checkpoints", {"*.safetensors"}, QDir::Files, QDirIterator::Subdirectories);
        QVERIFY(files.hasNext());
        const QString checkpoint = files.next();
        const auto bytesOf = [](const QString& path) {
            QFile f(path);
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        };
        const QByteArray checkpointBytes = bytesOf(checkpoint);
        const QString experiment = QString(TS_SOURCE_DIR) + "/experiments/tabular_example.yaml";
        const QList<QStringList> commands = {
            QStringList{"runs", "export", "1", "--output", ws + "/studio.db"} + where,
            QStringList{"runs", "export", "1", "--output", ws + "/studio.db-wal"} + where,
            QStringList{"runs", "export", "1", "--output", checkpoint} + where,
            QStringList{"runs", "export", "1", "--output", "/dev/null"} + where,
            QStringList{"runs", "export", "1", "--output", ws} + where,
            QStringList{"export", "1", "--format", "onnx", "--output", ws + "/studio.db"} + where,
            QStringList{"export", "1", "--format", "onnx", "--output", "/dev/null"} + where,
            QStringList{"export", "1", "--format", "onnx", "--output", ws + "/checkpoints/run_1/model.onnx"} + where,
            QStringList{"eval", "1", "--output", checkpoint} + where,
            QStringList{"eval", "1", "--output", ws + "/studio.db-shm"} + where,
            QStringList{"slurm", experiment, "--nodes", "1", "--gpus-per-node", "1", "--output", ws + "/studio.db"} + where,
        };
        for (const QStringList& args : commands) {
            const Result r = cli(args, 120000);
            QVERIFY2(r.exitCode == 1, qPrintable(args.join(' ') + " -> " + QString::number(r.exitCode) + ": " + r.err));
            QVERIFY2(r.err.contains("run store") || r.err.contains("checkpoints folder") || r.err.contains("not a regular file") ||
                         r.err.contains("is a folder"),
                     qPrintable(args.join(' ') + ": " + r.err));
            QVERIFY2(!r.err.contains("evaluating run"), qPrintable(r.err));  // refused before any work
        }
        QCOMPARE(bytesOf(checkpoint), checkpointBytes);
        QVERIFY(QFileInfo(ws + "/studio.db").size() > 0);
        QCOMPARE(parsed(cli(QStringList{"runs", "list", "--json"} + where)).array().size(), 3);
        QVERIFY(!QFileInfo::exists(ws + "/checkpoints/run_1/model.onnx"));
        // A symbolic link stays one: its target is written and the CLI says so on stderr.
        const QString target = dir_.filePath("points.csv"), link = dir_.filePath("points_link.csv");
        QVERIFY(QFile::link(target, link));
        const Result linked = cli(QStringList{"runs", "export", "1", "--output", link} + where);
        QCOMPARE(linked.exitCode, 0);
        QVERIFY2(linked.err.contains("symbolic link") && linked.err.contains(target), qPrintable(linked.err));
        QVERIFY(QFileInfo(link).isSymLink());
        QVERIFY(bytesOf(target).startsWith("step,metric,value,wall_time\n"));
    }
};

QTEST_GUILESS_MAIN(TestRunsCommand)
#include "tst_runs_command.moc"

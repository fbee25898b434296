// The studio's user-named files go through the engine's gate (ui/user_files.h over
// io/output_file.h): chart exports (PNG, SVG, CSV), the model canvas's image and the
// hyperparameters' Save As refuse a workspace's own files and what is not a regular file,
// leave them byte for byte, and say why in the user's language. Offscreen, real files.
#include <QtTest>
#include <QtWidgets>

#include <array>

#include "studio_suite.h"
#include "ui/translations.h"
#include "ui/user_files.h"
#include "widgets/live_chart.h"
#include "widgets/node_canvas.h"

using namespace ts;
using namespace ts::ui;

namespace {

QByteArray bytesOf(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void put(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}

}  // namespace

class TestUserFiles : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString ws_;

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        ws_ = dir_.filePath("ws");
        QVERIFY(QDir().mkpath(ws_ + "/checkpoints/run_1"));
        put(ws_ + "/studio.db", "SQLite format 3");
        put(ws_ + "/checkpoints/run_1/epoch_001.safetensors", "weights");
        installUserFileWriter();
    }

    void chartExportsAreRefusedOnWorkspaceFiles()
    {
        widgets::LiveChart chart;
        chart.resize(400, 300);
        QVERIFY(chart.addSeries("loss", "loss", Qt::blue));
        const std::array<double, 3> steps{1, 2, 3}, values{1.0, 0.5, 0.25};
        QVERIFY(chart.append("loss", steps, values));
        for (const QString& target : {ws_ + "/studio.db", ws_ + "/studio.db-wal", ws_ + "/checkpoints/run_1/epoch_001.safetensors",
                                      ws_ + "/checkpoints/chart.png", QString("/dev/null"), ws_}) {
            for (const widgets::WriteResult& r : {chart.exportCsv(target), chart.exportPng(target, 200, 100)}) {
                QVERIFY2(!r.ok, qPrintable(target));
                QVERIFY2(r.message.contains(target), qPrintable(r.message));
            }
        }
        QCOMPARE(bytesOf(ws_ + "/studio.db"), QByteArray("SQLite format 3"));
        QCOMPARE(bytesOf(ws_ + "/checkpoints/run_1/epoch_001.safetensors"), QByteArray("weights"));
        QVERIFY(!QFileInfo::exists(ws_ + "/checkpoints/chart.png"));
        // Elsewhere it writes, and through a symbolic link it says it kept the link.
        const QString csv = dir_.filePath("chart.csv");
        QVERIFY(chart.exportCsv(csv));
        QVERIFY(bytesOf(csv).startsWith("series,label,step"));
        QVERIFY(QFile::link(csv, dir_.filePath("chart_link.csv")));
        const widgets::WriteResult linked = chart.exportCsv(dir_.filePath("chart_link.csv"));
        QVERIFY(linked.ok);
        QVERIFY2(linked.message.contains("symbolic link"), qPrintable(linked.message));
        QVERIFY(QFileInfo(dir_.filePath("chart_link.csv")).isSymLink());
    }

    void canvasImageIsRefusedOnWorkspaceFiles()
    {
        widgets::NodeCanvas canvas;
        const widgets::WriteResult r = canvas.exportPng(ws_ + "/studio.db");
        QVERIFY(!r.ok);
        QCOMPARE(bytesOf(ws_ + "/studio.db"), QByteArray("SQLite format 3"));
        QVERIFY(canvas.exportPng(dir_.filePath("model.png")));
        QVERIFY(bytesOf(dir_.filePath("model.png")).startsWith("\x89PNG"));
    }

    // The refusal reads in Chinese when the studio speaks Chinese.
    void refusalsAreTranslated()
    {
        const QList<QTranslator*> zh = Translations::install("zh_CN", this);
        const widgets::WriteResult r = writeUserFile(ws_ + "/studio.db", "x");
        Translations::uninstall(zh);
        QVERIFY(!r.ok);
        QVERIFY2(r.message.contains(ws_ + "/studio.db"), qPrintable(r.message));
        QVERIFY2(std::any_of(r.message.begin(), r.message.end(), [](QChar c) { return c.unicode() >= 0x4e00 && c.unicode() <= 0x9fff; }),
                 qPrintable(r.message));
    }
};

int main(int argc, char** argv) { return runStudioSuite<TestUserFiles>(argc, argv); }
#include "tst_user_files.moc"

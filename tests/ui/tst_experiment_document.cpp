// One experiment document behind every page (issue 39): an edit on any page is undone from
// any other; a shipped experiment is saved as a new file and never changes; Cancel on every
// prompt leaves everything as it was; saving changes only the edited lines; a change made by
// another program is offered for reload. The real window, its pages and real files, offscreen,
// with a scratch HOME.
#include <QtTest>
#include <QtWidgets>
#include <QCryptographicHash>
#include <QUndoStack>

#include "io/yaml/experiment_yaml.h"
#include "io/yaml/shipped_experiments.h"
#include "ui/datasets/datasets_page.h"
#include "ui/document_actions.h"
#include "ui/experiment_document.h"
#include "ui/hyperparameters/hyperparameters_page.h"
#include "ui/hyperparameters/option_editor.h"
#include "ui/learn/learn_page.h"
#include "ui/main_window.h"
#include "ui/model/model_document.h"
#include "ui/model/model_page.h"
#include "ui/train/train_page.h"

using namespace ts::ui;

namespace {

QString shipped(const QString& name)
{
    return QString::fromStdString((ts::shippedExperimentsDirectory() / name.toStdString()).string());
}

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QByteArray sha256(const QString& path) { return QCryptographicHash::hash(readAll(path), QCryptographicHash::Sha256); }

// A shipped experiment copied into `dir`, its data paths made absolute (so it trains from there).
QString copyOf(const QTemporaryDir& dir, const QString& name)
{
    const QString target = dir.filePath(name);
    QFile::copy(shipped(name), target);
    QFile::setPermissions(target, QFile::ReadOwner | QFile::WriteOwner);
    QString text = QString::fromUtf8(readAll(target));
    const QString data = QString::fromStdString((ts::shippedExperimentsDirectory() / "data").string());
    text.replace(QStringLiteral("path: data/"), QStringLiteral("path: ") + data + QLatin1Char('/'));
    QFile f(target);
    f.open(QIODevice::WriteOnly | QIODevice::Truncate);
    f.write(text.toUtf8());
    return target;
}

// The lines of `after` that differ from `before` (both split on newlines, compared in place:
// the edits here change values, never the number of lines).
QStringList changedLines(const QByteArray& before, const QByteArray& after)
{
    const QList<QByteArray> a = before.split('\n'), b = after.split('\n');
    QStringList changed;
    for (int i = 0; i < std::max(a.size(), b.size()); ++i)
        if (a.value(i) != b.value(i)) changed << QString::fromUtf8(b.value(i));
    return changed;
}

// Answers the next modal message box with `button` once it shows, for up to 5 s; its text is
// kept in `text` (empty: none showed).
void answerNextBox(QMessageBox::StandardButton button, QString* text)
{
    if (text) text->clear();
    auto poll = std::make_shared<std::function<void(int)>>();
    *poll = [button, text, poll](int triesLeft) {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box || !box->button(button)) {
            if (triesLeft > 0) QTimer::singleShot(10, [poll, triesLeft] { (*poll)(triesLeft - 1); });
            return;
        }
        if (text) *text = box->text();
        box->button(button)->click();
    };
    QTimer::singleShot(0, [poll] { (*poll)(500); });
}

// Picks `file` in the next Save As dialog; its starting folder is kept in `folder`.
void answerSaveAs(const QString& file, QString* folder)
{
    auto poll = std::make_shared<std::function<void()>>();
    *poll = [file, folder, poll] {
        auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
        if (!dialog) {
            QTimer::singleShot(10, *poll);
            return;
        }
        if (folder) *folder = dialog->directory().absolutePath();
        dialog->selectFile(file);
        QMetaObject::invokeMethod(dialog, "accept");  // as the Save button does
    };
    QTimer::singleShot(0, *poll);
}

// The window shown, with `file` open.
bool showWith(MainWindow& w, const QString& file)
{
    w.show();
    return QTest::qWaitForWindowExposed(&w) && w.documentActions()->open(file);
}

}  // namespace

class TestExperimentDocument : public QObject {
    Q_OBJECT
private slots:
    void init()
    {
        QSettings settings;
        settings.clear();
        settings.sync();
    }

    // Each page edits the one document; Edit > Undo (and Ctrl+Z) from another page undoes
    // them in turn, and each page shows the experiment as it is after each step.
    void anEditOnEachPageIsUndoneFromAnother()
    {
        QTemporaryDir dir;
        const QString file = copyOf(dir, "fashion_mnist_mlp.yaml");
        MainWindow w;
        QVERIFY(showWith(w, file));
        ExperimentDocument* doc = w.document();
        const ts::ExperimentSpec original = doc->spec();

        // Train page: the learning rate field.
        w.setCurrentPage(Page::Train);
        auto* lr = w.findChild<QDoubleSpinBox*>("learningRateSpin");
        QVERIFY(lr);
        lr->setValue(0.005);
        QCOMPARE(doc->spec().optimizer.lr, 0.005);
        QVERIFY2(doc->undoStack()->undoText().contains("learning rate"), qPrintable(doc->undoStack()->undoText()));
        // Hyperparameters page: an option.
        auto* hyper = w.findChild<HyperparametersPage*>();
        auto* epochs = qobject_cast<QSpinBox*>(hyper->editor()->field("training.epochs"));
        QVERIFY(epochs);
        epochs->setValue(int(original.training.epochs) + 3);
        QCOMPARE(doc->spec().training.epochs, original.training.epochs + 3);
        QCOMPARE(w.findChild<QSpinBox*>("epochsSpin")->value(), int(original.training.epochs) + 3);  // the Train page shows it
        // Model page: a node.
        auto* model = w.findChild<ModelPage*>();
        const std::size_t nodes = original.model.nodes.size();
        model->addOp("ReLU", {400, 400});
        QCOMPARE(doc->spec().model.nodes.size(), nodes + 1);
        QCOMPARE(doc->undoStack()->count(), 3);
        QVERIFY(w.windowTitle().startsWith("fashion_mnist_mlp.yaml[*]"));
        QVERIFY(w.isWindowModified());

        // Undone from the Runs page, by the Edit menu's action and by Ctrl+Z.
        w.setCurrentPage(Page::Runs);
        QAction* undo = w.findChild<QAction*>("actionUndo");
        QVERIFY(undo && w.findChild<QMenu*>("editMenu")->actions().contains(undo));
        QCOMPARE(undo->shortcut(), QKeySequence(QKeySequence::Undo));
        undo->trigger();
        QCOMPARE(doc->spec().model.nodes.size(), nodes);
        QCOMPARE(model->document()->state().model.nodes.size(), nodes);
        w.findChild<QListWidget*>("sidebar")->setFocus();
        QTest::keyClick(&w, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(doc->spec().training.epochs, original.training.epochs);
        QCOMPARE(epochs->value(), int(original.training.epochs));
        undo->trigger();
        QCOMPARE(doc->spec().optimizer.lr, original.optimizer.lr);
        QCOMPARE(lr->value(), original.optimizer.lr);
        QCOMPARE(doc->spec(), original);
        QVERIFY(!doc->isModified());
        QVERIFY(!w.isWindowModified());
        // And redone.
        w.findChild<QAction*>("actionRedo")->trigger();
        QCOMPARE(doc->spec().optimizer.lr, 0.005);
        QCOMPARE(lr->value(), 0.005);
        doc->undoStack()->setClean();  // nothing to ask about on close
    }

    // A dataset edit made on the Datasets page (the split) is one step, undone from the Train page.
    void aDatasetEditIsUndoneFromTheTrainPage()
    {
        QTemporaryDir dir;
        const QString file = copyOf(dir, "fashion_mnist_mlp.yaml");
        MainWindow w;
        QVERIFY(w.documentActions()->open(file));
        auto* page = w.findChild<DatasetsPage*>();
        QTRY_VERIFY_WITH_TIMEOUT(!page->isOpening(), 60000);
        if (!page->opened().ok()) QSKIP("the experiment's dataset is not installed");
        QVERIFY(page->showsExperimentDataset());
        const double before = w.document()->spec().dataset.validationFraction;
        ts::DatasetSpec edited = page->experiment()->dataset;
        edited.validationFraction = 0.25;
        page->applyDatasetEdit(edited);
        QCOMPARE(w.document()->spec().dataset.validationFraction, 0.25);
        w.setCurrentPage(Page::Train);
        w.findChild<QAction*>("actionUndo")->trigger();
        QCOMPARE(w.document()->spec().dataset.validationFraction, before);
        QCOMPARE(page->experiment()->dataset.validationFraction, before);
    }

    // Saving a shipped experiment asks for a new file in the user's documents folder; the
    // shipped file keeps every byte.
    void saveAsOfAShippedExperimentNeverTouchesIt()
    {
        const QString original = shipped("fashion_mnist_cnn.yaml");
        const QByteArray checksum = sha256(original);
        QTemporaryDir dir;
        MainWindow w;
        ExperimentDocument* doc = w.document();
        QVERIFY(w.documentActions()->open(original));
        QVERIFY(doc->isTemplate());
        ts::ExperimentSpec spec = doc->spec();
        spec.training.epochs = 2;
        doc->edit(spec, "Set epochs to 2");
        QString error;
        QVERIFY(!doc->save(&error));  // the document itself refuses
        QVERIFY2(error.contains("shipped"), qPrintable(error));
        QVERIFY(!doc->saveAs(original, &error));  // and so does Save As into the shipped folder
        QVERIFY(!doc->saveAs(QFileInfo(original).absolutePath() + "/mine.yaml", &error));
        QVERIFY(!QFile::exists(QFileInfo(original).absolutePath() + "/mine.yaml"));

        const QString mine = dir.filePath("my_cnn.yaml");
        QString folder;
        answerSaveAs(mine, &folder);
        QVERIFY(w.documentActions()->save());  // File > Save: a Save As dialog
        QCOMPARE(folder, QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation));
        QCOMPARE(sha256(original), checksum);
        QCOMPARE(doc->path(), mine);
        QVERIFY(!doc->isTemplate());
        QVERIFY(!doc->isModified());
        const ts::ExperimentSpec saved = ts::loadExperiment(mine.toStdString());
        QCOMPARE(saved.training.epochs, 2);
        QCOMPARE(saved.model, spec.model);
        // The dataset is still found from the new folder.
        QVERIFY(QFileInfo::exists(QString::fromStdString(ts::resolvedDatasetPath(saved.dataset, ts::experimentDataDirectory(saved)))));
        // The file's comments came along.
        QVERIFY(readAll(mine).contains(readAll(original).split('\n').first()));
        // A further save writes the user's file, not the shipped one.
        spec = doc->spec();
        spec.training.epochs = 3;
        doc->edit(spec, "Set epochs to 3");
        QVERIFY(w.documentActions()->save());
        QCOMPARE(ts::loadExperiment(mine.toStdString()).training.epochs, 3);
        QCOMPARE(sha256(original), checksum);
    }

    // Cancel on the unsaved-changes prompt of every action that replaces the experiment: the
    // prompt names the file, and every page stays as it was.
    void cancelOnEveryPromptLeavesEverything()
    {
        QTemporaryDir dir;
        const QString file = copyOf(dir, "fashion_mnist_mlp.yaml");
        const QString other = copyOf(dir, "fashion_mnist_cnn.yaml");
        QSettings().setValue("train/recentExperiments", QStringList{other});
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        ExperimentDocument* doc = w.document();
        DocumentActions* actions = w.documentActions();
        QVERIFY(actions->open(file));
        w.findChild<QDoubleSpinBox*>("learningRateSpin")->setValue(0.007);
        const ts::ExperimentSpec edited = doc->spec();
        auto* train = w.findChild<TrainPage*>();
        auto* model = w.findChild<ModelPage*>();
        auto* chooser = w.findChild<QComboBox*>("experimentCombo");
        const int chosen = chooser->currentIndex();
        w.setCurrentPage(Page::Hyperparameters);

        auto unchanged = [&](const char* what) {
            QVERIFY2(doc->path() == file, what);
            QVERIFY2(doc->spec() == edited, what);
            QVERIFY2(doc->isModified(), what);
            QVERIFY2(train->experimentForRun() && *train->experimentForRun() == edited, what);
            QVERIFY2(model->document()->state().model == edited.model, what);
            QVERIFY2(chooser->currentIndex() == chosen, what);
            QVERIFY2(w.currentPage() == Page::Hyperparameters, what);
        };
        QString asked;
        // The Train page's chooser.
        const int otherIndex = chooser->findData(QFileInfo(other).absoluteFilePath());
        QVERIFY(otherIndex >= 0);
        answerNextBox(QMessageBox::Cancel, &asked);
        chooser->setCurrentIndex(otherIndex);
        emit chooser->activated(otherIndex);
        QCOMPARE(asked, QString("Save changes to fashion_mnist_mlp.yaml?"));
        unchanged("chooser");
        // File > Open Recent.
        auto* recent = w.findChild<QMenu*>("recentMenu");
        emit recent->aboutToShow();
        QAction* recentOther = nullptr;
        for (QAction* a : recent->actions())
            if (a->text() == QFileInfo(other).fileName()) recentOther = a;
        QVERIFY(recentOther);
        answerNextBox(QMessageBox::Cancel, &asked);
        recentOther->trigger();
        QVERIFY(!asked.isEmpty());
        unchanged("recent");
        // The Model page's New.
        answerNextBox(QMessageBox::Cancel, &asked);
        model->newFromTemplate("lenet5");
        QVERIFY(!asked.isEmpty());
        unchanged("new model");
        // A lesson's starting experiment.
        answerNextBox(QMessageBox::Cancel, &asked);
        emit w.findChild<LearnPage*>()->openExperimentRequested(other);
        QVERIFY(!asked.isEmpty());
        unchanged("lesson");
        // The Datasets page's new model for its dataset.
        answerNextBox(QMessageBox::Cancel, &asked);
        emit w.findChild<DatasetsPage*>()->newModelRequested(edited);
        QVERIFY(!asked.isEmpty());
        unchanged("new model for the dataset");
        // Closing the window.
        answerNextBox(QMessageBox::Cancel, &asked);
        QVERIFY(!w.close());
        QVERIFY(!asked.isEmpty());
        QVERIFY(w.isVisible());
        unchanged("close");

        // Discard: the other experiment opens; the edits were not written.
        answerNextBox(QMessageBox::Discard, &asked);
        QVERIFY(actions->open(other));
        QVERIFY(!asked.isEmpty());
        QCOMPARE(doc->path(), QFileInfo(other).absoluteFilePath());
        QCOMPARE(chooser->currentData().toString(), QFileInfo(other).absoluteFilePath());
        QCOMPARE(ts::loadExperiment(file.toStdString()).optimizer.lr, ts::loadExperiment(shipped("fashion_mnist_mlp.yaml").toStdString()).optimizer.lr);
        // Save: written, then the other opens.
        w.findChild<QDoubleSpinBox*>("learningRateSpin")->setValue(0.009);
        answerNextBox(QMessageBox::Save, &asked);
        QVERIFY(actions->open(file));
        QCOMPARE(asked, QString("Save changes to fashion_mnist_cnn.yaml?"));
        QCOMPARE(ts::loadExperiment(other.toStdString()).optimizer.lr, 0.009);
        QCOMPARE(doc->path(), file);
    }

    // Saving after one edit changes exactly that edit's line; everything else keeps its bytes.
    void savingChangesOnlyTheEditedLines_data()
    {
        QTest::addColumn<QString>("name");
        for (const QFileInfo& f : QDir(QString::fromStdString(ts::shippedExperimentsDirectory().string())).entryInfoList({"*.yaml"}))
            QTest::newRow(qPrintable(f.fileName())) << f.fileName();
    }
    void savingChangesOnlyTheEditedLines()
    {
        QFETCH(QString, name);
        QTemporaryDir dir;
        const QString file = copyOf(dir, name);
        const QByteArray before = readAll(file);
        ExperimentDocument doc;
        QString error;
        QVERIFY2(doc.open(file, &error), qPrintable(error));
        ts::ExperimentSpec spec = doc.spec();
        spec.optimizer.lr = 0.0123;
        doc.edit(spec, "Set learning rate to 0.0123");
        QVERIFY2(doc.save(&error), qPrintable(error));
        const QStringList changed = changedLines(before, readAll(file));
        QCOMPARE(changed.size(), 1);
        QVERIFY2(changed.first().contains("0.0123"), qPrintable(changed.first()));
        QCOMPARE(ts::loadExperiment(file.toStdString()).optimizer.lr, 0.0123);
        // Nothing edited: nothing changes.
        const QByteArray saved = readAll(file);
        QVERIFY(doc.save(&error));
        QCOMPARE(readAll(file), saved);
    }

    // Another program changes the file: the window offers to read it again. Reload takes the
    // new text; Keep Mine keeps the unsaved edits.
    void anOutsideChangeOffersReload()
    {
        QTemporaryDir dir;
        const QString file = copyOf(dir, "fashion_mnist_mlp.yaml");
        MainWindow w;
        QVERIFY(showWith(w, file));
        ExperimentDocument* doc = w.document();
        QSignalSpy outside(doc, &ExperimentDocument::changedOnDisk);
        auto rewriteEpochs = [&](int epochs) {
            QByteArray text = readAll(file);
            text.replace(QRegularExpression("epochs: [0-9]+").match(QString::fromUtf8(text)).captured(0).toUtf8(),
                         "epochs: " + QByteArray::number(epochs));
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(text);
        };
        rewriteEpochs(17);
        QTRY_VERIFY(w.findChild<QMessageBox*>("reloadBox"));
        QCOMPARE(outside.count(), 1);
        w.findChild<QPushButton*>("reloadButton")->click();
        QCOMPARE(doc->spec().training.epochs, 17);
        QCOMPARE(w.findChild<QSpinBox*>("epochsSpin")->value(), 17);
        QVERIFY(!doc->isModified());
        QTRY_VERIFY(!w.findChild<QMessageBox*>("reloadBox"));

        // Unsaved edits, then another outside change, declined: the edits stay.
        w.findChild<QDoubleSpinBox*>("learningRateSpin")->setValue(0.004);
        rewriteEpochs(19);
        QTRY_VERIFY(w.findChild<QMessageBox*>("reloadBox"));
        auto* box = w.findChild<QMessageBox*>("reloadBox");
        QVERIFY(box->informativeText().contains("unsaved"));
        for (QAbstractButton* b : box->buttons())
            if (box->buttonRole(b) == QMessageBox::RejectRole) b->click();
        QCOMPARE(doc->spec().optimizer.lr, 0.004);
        QCOMPARE(doc->spec().training.epochs, 17);
        QVERIFY(doc->isModified());
        // Our own save is no outside change.
        const int before = outside.count();
        QString error;
        QVERIFY(doc->save(&error));
        QTest::qWait(300);
        QCOMPARE(outside.count(), before);
        QVERIFY(!w.findChild<QMessageBox*>("reloadBox"));
    }

    // New on the Model page is a new, untitled experiment: the file that was open keeps its
    // model, and the new one has its own name (its runs are named after it), saved as a new file.
    void aNewModelIsANewExperiment()
    {
        QTemporaryDir dir;
        const QString file = copyOf(dir, "fashion_mnist_mlp.yaml");
        const QByteArray before = readAll(file);
        MainWindow w;
        ExperimentDocument* doc = w.document();
        QVERIFY(w.documentActions()->open(file));
        w.findChild<ModelPage*>()->newFromTemplate("lenet5");
        QVERIFY(doc->path().isEmpty());
        QCOMPARE(QString::fromStdString(doc->spec().name), QString("lenet5"));
        QVERIFY(doc->isModified());
        QCOMPARE(doc->displayName(), QString("lenet5"));
        QVERIFY(w.windowTitle().startsWith("lenet5[*]"));
        QVERIFY(QFileInfo(QString::fromStdString(doc->spec().dataset.path)).isAbsolute());
        QCOMPARE(w.findChild<TrainPage*>()->experimentForRun()->model, doc->spec().model);
        QCOMPARE(readAll(file), before);
        const QString mine = dir.filePath("lenet.yaml");
        QString folder;
        answerSaveAs(mine, &folder);
        QVERIFY(w.documentActions()->save());
        QCOMPARE(folder, QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation));
        QCOMPARE(doc->path(), mine);
        QCOMPARE(ts::loadExperiment(mine.toStdString()).model, doc->spec().model);
        QCOMPARE(readAll(file), before);
    }

    // A file that cannot be read leaves the open experiment as it was, and says where.
    void aBrokenFileIsRefusedWithItsPlace()
    {
        QTemporaryDir dir;
        const QString good = copyOf(dir, "fashion_mnist_mlp.yaml");
        const QString bad = dir.filePath("bad.yaml");
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("name: x\nmodel: [unclosed\n");
        f.close();
        ExperimentDocument doc;
        QString error;
        QVERIFY(doc.open(good, &error));
        QVERIFY(!doc.open(bad, &error));
        QVERIFY2(error.contains("bad.yaml:"), qPrintable(error));
        QCOMPARE(doc.path(), good);
        QVERIFY(!doc.open(dir.filePath("missing.yaml"), &error));
        QCOMPARE(doc.path(), good);
    }
};

int main(int argc, char** argv)
{
    // A scratch HOME (documents, settings) before Qt starts; test mode on top.
    QTemporaryDir home;
    if (!home.isValid()) return 1;
    qputenv("HOME", QFile::encodeName(home.path()));
    for (const char* var : {"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_DOCUMENTS_DIR"}) {
        const QString dir = home.path() + "/" + QString::fromLatin1(var).section('_', 1, 1).toLower();
        QDir().mkpath(dir);
        qputenv(var, QFile::encodeName(dir));
    }
    qputenv("TRAINSTUDIO_WORKSPACE", QFile::encodeName(home.path() + "/workspace"));
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QStandardPaths::setTestModeEnabled(true);
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName("TrainStudio");
    QCoreApplication::setApplicationName("TrainStudio");
    TestExperimentDocument test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_experiment_document.moc"

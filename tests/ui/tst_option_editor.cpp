// The option editor on the shipped MLP experiment, driven by keyboard and mouse as a person
// would: rows appear and disappear with the optimizer and schedule, a bad value is refused with
// its reason and leaves the experiment unchanged, a good one is announced and survives a save
// and a load; every option has help; nothing is cut off at scale 1 or 1.5 (screenshots).
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QtTest>

#include "typing.h"

#include <set>

#include "io/yaml/experiment_options.h"
#include "io/yaml/experiment_yaml.h"
#include "ui/hyperparameters/option_editor.h"
#include "ui/hyperparameters/option_help.h"
#include "studio_suite.h"

using namespace ts;
using ts::ui::OptionEditor;

namespace {

const std::string kMlp = std::string(TS_SOURCE_DIR) + "/experiments/fashion_mnist_mlp.yaml";

// Picks `text` in a closed combo box with the arrow keys, as a keyboard user does.
void choose(QComboBox* box, const QString& text)
{
    const int target = box->findText(text);
    QVERIFY2(target >= 0, qPrintable(text));
    box->setFocus();
    for (int guard = 0; box->currentIndex() != target && guard < 20; ++guard)
        QTest::keyClick(box, box->currentIndex() < target ? Qt::Key_Down : Qt::Key_Up);
    QCOMPARE(box->currentText(), text);
}

}  // namespace

class TestOptionEditor : public QObject {
    Q_OBJECT
    ExperimentSpec mlp_;
    std::unique_ptr<OptionEditor> editor_;
    std::vector<ExperimentSpec> edits_;  // what optionEdited announced
    QStringList whats_;                  // and what it said each edit did (the undo step's text)

    template <class W> W* field(const std::string& key) const
    {
        auto* w = qobject_cast<W*>(editor_->field(key));
        if (!w) qFatal("no field of that type for %s", key.c_str());
        return w;
    }
    bool rowVisible(const std::string& key) const { return editor_->label(key)->isVisible() && editor_->field(key)->isVisible(); }

private slots:
    void initTestCase() { mlp_ = loadExperiment(kMlp); }

    void init()
    {
        editor_ = std::make_unique<OptionEditor>();
        edits_.clear();
        whats_.clear();
        connect(editor_.get(), &OptionEditor::optionEdited, this, [this](const ExperimentSpec& s, const QString& what) {
            edits_.push_back(s);
            whats_ << what;
        });
        QVERIFY(!editor_->isEnabled());
        editor_->setExperiment(mlp_);
        editor_->show();
        QVERIFY(QTest::qWaitForWindowExposed(editor_.get()));
    }

    void cleanup() { editor_.reset(); }

    void fieldsShowTheExperiment()
    {
        QVERIFY(editor_->isEnabled());
        QCOMPARE(field<QComboBox>("optimizer.type")->currentText(), QString("adam"));
        QCOMPARE(field<QLineEdit>("optimizer.lr")->text(), QString("0.001"));
        QCOMPARE(field<QLineEdit>("optimizer.eps")->text(), QString("1e-8"));
        QCOMPARE(field<QSpinBox>("training.batch_size")->value(), 128);
        QCOMPARE(field<QLineEdit>("dataset.normalize.mean")->text(), QString("0.286"));
        QCOMPARE(field<QLineEdit>("dataset.validation_fraction")->text(), QString("0"));
        QVERIFY(!field<QCheckBox>("training.deterministic")->isChecked());
        // range_test is the finder's: read when a file has it, not offered.
        QCOMPARE(field<QComboBox>("schedule.type")->findText("range_test"), -1);
        // One section per group, each titled.
        const auto boxes = editor_->findChildren<QGroupBox*>();
        QCOMPARE(boxes.size(), 8);
        for (const QGroupBox* b : boxes) QVERIFY(!b->title().isEmpty());
    }

    void rowsFollowTheOptimizerAndSchedule()
    {
        QVERIFY(!rowVisible("optimizer.momentum"));
        QVERIFY(rowVisible("optimizer.beta1"));
        choose(field<QComboBox>("optimizer.type"), "sgd");
        QCOMPARE(editor_->experiment()->optimizer.type, std::string("sgd"));
        QVERIFY(rowVisible("optimizer.momentum") && rowVisible("optimizer.nesterov"));
        QVERIFY(!rowVisible("optimizer.beta1") && !rowVisible("optimizer.eps"));
        choose(field<QComboBox>("optimizer.type"), "adam");
        QVERIFY(!rowVisible("optimizer.momentum") && !rowVisible("optimizer.nesterov"));
        QVERIFY(rowVisible("optimizer.beta2"));
        QCOMPARE(edits_.back().optimizer.type, std::string("adam"));

        QVERIFY(!rowVisible("schedule.milestones"));
        choose(field<QComboBox>("schedule.type"), "multistep");
        QVERIFY(rowVisible("schedule.milestones") && rowVisible("schedule.gamma") && !rowVisible("schedule.pct_start"));
        typeReplacing(field<QLineEdit>("schedule.milestones"), "3, 6");
        QCOMPARE(editor_->experiment()->schedule.milestones, (std::vector<std::int64_t>{3, 6}));
        QCOMPARE(field<QLineEdit>("schedule.milestones")->text(), QString("3, 6"));

        // Early stopping's settings only once it is on; the loss scale only for f16.
        QVERIFY(!rowVisible("training.early_stopping.patience"));
        QTest::mouseClick(field<QCheckBox>("training.early_stopping.enabled"), Qt::LeftButton);
        QVERIFY(editor_->experiment()->training.earlyStopping.enabled);
        QVERIFY(rowVisible("training.early_stopping.patience"));
        QVERIFY(!rowVisible("training.loss_scale"));
        choose(field<QComboBox>("training.precision"), "f16");
        QVERIFY(rowVisible("training.loss_scale"));
        // The editor's notion agrees with the table's for every option.
        for (const ExperimentOption& o : experimentOptions())
            QVERIFY2(rowVisible(o.key) == o.appliesTo(*editor_->experiment()), o.key.c_str());
    }

    void invalidValuesAreRefusedWithTheReason()
    {
        QLineEdit* lr = field<QLineEdit>("optimizer.lr");
        typeReplacing(lr, "-1");
        QCOMPARE(editor_->problem("optimizer.lr"), QString("lr: must be > 0, got '-1'"));
        QCOMPARE(lr->text(), QString("0.001"));  // reverted
        QCOMPARE(editor_->experiment()->optimizer.lr, 1e-3);
        QVERIFY(edits_.empty());
        QVERIFY(lr->toolTip().contains("must be &gt; 0"));

        // Said while typing, before Enter; still said after the revert.
        lr->setFocus();
        lr->selectAll();
        QTest::keyClicks(lr, "abc");
        QCOMPARE(editor_->problem("optimizer.lr"), QString("lr: expected a number, got 'abc'"));
        QTest::keyClick(lr, Qt::Key_Return);
        QCOMPARE(lr->text(), QString("0.001"));
        QCOMPARE(editor_->problem("optimizer.lr"), QString("lr: expected a number, got 'abc'"));
        QVERIFY(edits_.empty());
        QVERIFY(*editor_->experiment() == mlp_);
        // Leaving the reverted field keeps the reason on screen.
        field<QLineEdit>("optimizer.eps")->setFocus();
        QCOMPARE(editor_->problem("optimizer.lr"), QString("lr: expected a number, got 'abc'"));

        // A list in the wrong order, a device that does not exist.
        choose(field<QComboBox>("schedule.type"), "multistep");  // each arrow key an edit: step, multistep
        const std::size_t schedulePicked = edits_.size();
        typeReplacing(field<QLineEdit>("schedule.milestones"), "6, 3");
        QCOMPARE(editor_->problem("schedule.milestones"), QString("milestones: expected increasing epochs >= 1"));
        QVERIFY(editor_->experiment()->schedule.milestones.empty());
        typeReplacing(field<QLineEdit>("training.device"), "gpu");
        QCOMPARE(editor_->problem("training.device"), QString("device: expected auto, cpu, cuda or cuda:N, got 'gpu'"));
        QCOMPARE(field<QLineEdit>("training.device")->text(), QString("auto"));
        QCOMPARE(edits_.size(), schedulePicked);  // nothing since
    }

    void aValidEditIsAnnouncedAndRoundTrips()
    {
        typeReplacing(field<QLineEdit>("optimizer.lr"), "3e-4");
        QCOMPARE(edits_.size(), std::size_t(1));
        QCOMPARE(edits_.back().optimizer.lr, 3e-4);
        QCOMPARE(whats_.back(), QString("Set Learning rate to 3e-4"));  // the field's label, the value as typed
        QVERIFY(editor_->problem("optimizer.lr").isEmpty());
        QCOMPARE(field<QLineEdit>("optimizer.lr")->text(), QString("3e-4"));
        // A spin box: one edit when the number is complete.
        QSpinBox* batch = field<QSpinBox>("training.batch_size");
        batch->setFocus();
        batch->selectAll();
        QTest::keyClicks(batch, "64");
        QTest::keyClick(batch, Qt::Key_Return);
        QCOMPARE(edits_.size(), std::size_t(2));
        QCOMPARE(edits_.back().training.batchSize, std::int64_t(64));
        QCOMPARE(whats_.back(), QString("Set Batch size to 64"));
        // Re-typing the same value is no edit.
        typeReplacing(field<QLineEdit>("optimizer.lr"), "0.0003");
        QCOMPARE(edits_.size(), std::size_t(2));

        const ExperimentSpec edited = *editor_->experiment();
        QCOMPARE(edited.sourceFile, mlp_.sourceFile);
        QVERIFY(edited.model == mlp_.model);
        QTemporaryDir dir;
        const std::string path = dir.filePath("edited.yaml").toStdString();
        saveExperiment(edited, path);
        ExperimentSpec loaded = loadExperiment(path);
        loaded.sourceFile = edited.sourceFile;
        QVERIFY(loaded == edited);
        QCOMPARE(loaded.optimizer.lr, 3e-4);
        QCOMPARE(loaded.training.batchSize, std::int64_t(64));
    }

    // The page hands every edit back from the experiment's document: the editor's own edit
    // changes nothing on screen (the cursor stays where typing left it), an undone one shows
    // the value before, and showing is never an edit.
    void editsComingBackFromTheDocument()
    {
        QLineEdit* lr = field<QLineEdit>("optimizer.lr");
        typeReplacing(lr, "3e-4");
        QCOMPARE(edits_.size(), std::size_t(1));
        QCOMPARE(lr->cursorPosition(), 4);
        editor_->setExperiment(edits_.back());
        QCOMPARE(lr->text(), QString("3e-4"));
        QCOMPARE(lr->cursorPosition(), 4);
        editor_->setExperiment(mlp_);  // Edit > Undo
        QCOMPARE(lr->text(), QString("0.001"));
        QCOMPARE(editor_->experiment()->optimizer.lr, 1e-3);
        QCOMPARE(edits_.size(), std::size_t(1));
    }

    void everyOptionHasHelp()
    {
        std::set<std::string> keys;
        for (const ExperimentOption& o : experimentOptions()) {
            QVERIFY2(!ui::optionHelp(o.key).isEmpty(), o.key.c_str());
            QVERIFY2(ui::optionLabel(o.key) != QString::fromStdString(o.key), o.key.c_str());
            QVERIFY2(editor_->label(o.key)->toolTip().contains(QString::fromStdString(o.key)), o.key.c_str());
            QVERIFY2(editor_->field(o.key)->toolTip().contains(ui::optionHelp(o.key).left(20).toHtmlEscaped()), o.key.c_str());
            keys.insert(o.key);
        }
        for (const std::string& key : ui::optionHelpKeys()) QVERIFY2(keys.count(key), ("help for an unknown option " + key).c_str());
        QVERIFY(ui::optionHelp("optimizer.weight_decay").contains("AdamW"));
        QVERIFY(ui::optionHelp("training.clip_grad_norm").contains("1.0"));
        QVERIFY(ui::optionHelp("optimizer.lr").contains("1e-3"));
    }

    // Every shown label and field is wide enough for its text, at this scale (ctest runs the
    // suite at 1 and at QT_SCALE_FACTOR=1.5); PNGs of both states to look at.
    void screenshotAndNothingTruncated()
    {
        const QString scale = qEnvironmentVariable("QT_SCALE_FACTOR", "1");
        for (const char* schedule : {"constant", "onecycle"}) {
            choose(field<QComboBox>("schedule.type"), schedule);
            choose(field<QComboBox>("optimizer.type"), "sgd");
            typeReplacing(field<QLineEdit>("optimizer.lr"), "-1");  // a reason on screen too
            editor_->resize(editor_->sizeHint());
            QTest::qWait(50);
            for (const ExperimentOption& o : experimentOptions()) {
                if (!rowVisible(o.key)) continue;
                const QLabel* l = editor_->label(o.key);
                QVERIFY2(l->width() >= l->sizeHint().width(), qPrintable(l->text()));
                if (const auto* e = qobject_cast<QLineEdit*>(editor_->field(o.key)))
                    QVERIFY2(e->fontMetrics().horizontalAdvance(e->text()) < e->width(), o.key.c_str());
                if (const auto* c = qobject_cast<QComboBox*>(editor_->field(o.key)))
                    QVERIFY2(c->width() >= c->minimumSizeHint().width(), o.key.c_str());
            }
            QDir().mkpath(TS_SCREENSHOT_DIR);
            const QString png = QString("%1/option_editor_%2_scale%3.png").arg(TS_SCREENSHOT_DIR, schedule, scale);
            QVERIFY(editor_->grab().save(png));
            qInfo("%s (%dx%d)", qPrintable(png), editor_->width(), editor_->height());
        }
    }
};

int main(int argc, char** argv) { return runStudioSuite<TestOptionEditor>(argc, argv); }
#include "tst_option_editor.moc"

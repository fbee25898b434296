// The engine's messages (types/message.h): every id has its English template, the templates
// use their arguments and read right with counts (1 epoch, 2 epochs), and what a trainer
// run says carries ids a front end can word in its own language.
#include <QtTest>

#include <set>

#include "backend/backend.h"
#include "blob_dataset.h"
#include "train/trainer.h"
#include "types/message.h"

using namespace ts;
using namespace ts::test;

namespace {

// The argument numbers a template names, as %N or in {N:singular|plural}.
std::set<int> argumentsOf(const std::string& english)
{
    std::set<int> out;
    for (std::size_t i = 0; i + 1 < english.size(); ++i)
        if ((english[i] == '%' || english[i] == '{') && english[i + 1] >= '1' && english[i + 1] <= '9')
            out.insert(english[i + 1] - '0');
    return out;
}

const MessageTemplate* templateOf(const std::string& key)
{
    for (const MessageTemplate& t : messageTemplates())
        if (key == t.key) return &t;
    return nullptr;
}

// A message the engine emitted: an id from the table, with as many arguments as its template
// names, and its text that template filled in.
void checkWorded(const Message& m)
{
    const MessageTemplate* t = templateOf(m.id);
    QVERIFY2(t, ("no template for '" + m.id + "' (" + m.text + ")").c_str());
    const std::set<int> wanted = argumentsOf(t->english);
    QCOMPARE(int(m.args.size()), wanted.empty() ? 0 : *wanted.rbegin());
    QCOMPARE(m.text, fillTemplate(t->english, m.args));
}

}  // namespace

class TestMessages : public QObject {
    Q_OBJECT
private slots:
    void everyIdHasOneTemplate()
    {
        const auto& templates = messageTemplates();
        QCOMPARE(templates.size(), std::size_t(MessageId::Count));
        std::set<std::string> keys;
        for (std::size_t i = 0; i < templates.size(); ++i) {
            QCOMPARE(std::size_t(templates[i].id), i);  // in MessageId order: makeMessage indexes the table
            QVERIFY(keys.insert(templates[i].key).second);
            QVERIFY(std::string(templates[i].english).size() > 0);
            QVERIFY2(std::string(templates[i].english).find("(s)") == std::string::npos, templates[i].key);
            // Arguments 1..N, none skipped: a front end fills them by number.
            const std::set<int> args = argumentsOf(templates[i].english);
            if (!args.empty()) QCOMPARE(int(args.size()), *args.rbegin());
            QCOMPARE(makeMessage(templates[i].id, std::vector<std::string>(args.size(), "x")).id,
                     std::string(templates[i].key));
        }
    }

    void countsReadRight()
    {
        QCOMPARE(makeMessage(MessageId::TrainFinished, {"1", "938"}).text, std::string("finished 1 epoch at step 938"));
        QCOMPARE(makeMessage(MessageId::TrainFinished, {"2", "1876"}).text, std::string("finished 2 epochs at step 1876"));
        QCOMPARE(makeMessage(MessageId::TrainFinished, {"0", "0"}).text, std::string("finished 0 epochs at step 0"));
        QCOMPARE(makeMessage(MessageId::TrainEarlyStopped, {"4", "val_loss", "0.001", "1", "0.31", "3"}).text,
                 std::string("early stop after epoch 4: val_loss did not improve by more than 0.001 for 1 epoch; "
                             "best 0.31 at epoch 3"));
        QVERIFY(makeMessage(MessageId::TrainEarlyStopped, {"5", "val_loss", "0.001", "2", "0.31", "3"})
                    .text.find("for 2 epochs;") != std::string::npos);
        QCOMPARE(makeMessage(MessageId::RunStarted, {"mlp", "cpu", "blobs", "1", "1", "1", "16"}).text,
                 std::string("training mlp on cpu: blobs, epochs 1 to 1, 1 step of batch 16"));
        QVERIFY(makeMessage(MessageId::TrainOverfitMode, {"1", "32"}).text.find("same 1 batch of 32") != std::string::npos);
        QVERIFY(makeMessage(MessageId::TrainOverfitMode, {"3", "32"}).text.find("same 3 batches of 32") !=
                std::string::npos);
        QVERIFY(makeMessage(MessageId::EvalStopped, {"0", "1"}).text.find("0 of 1 sample;") != std::string::npos);
        // The same numbers, the same words.
        QCOMPARE(makeMessage(MessageId::TrainPaused, {"42"}).text, std::string("paused at step 42"));
        QCOMPARE(fillTemplate("%2 before %1 and %3", {"a", "b"}), std::string("b before a and "));
    }

    // What a run says about itself, and how it ends, carries ids from the table.
    void aRunsMessagesHaveIds()
    {
        const auto trained = [](ExperimentSpec spec) {
            Recorder rec;
            Trainer trainer(spec, blobSplits(), cpuBackend());
            trainer.addListener(&rec);
            trainer.run();
            return std::move(rec.events);
        };
        ExperimentSpec plain = blobSpec();
        plain.training.epochs = 1;
        ExperimentSpec early = blobSpec();
        early.optimizer.lr = 1e-9;  // nothing improves: early stop after the second epoch
        early.training.epochs = 4;
        early.training.earlyStopping = {true, "val_loss", 1, 1e-3};
        ExperimentSpec overfit = blobSpec();
        overfit.training.epochs = 2;
        overfit.training.overfitBatches = 1;
        overfit.training.earlyStopping = {true, "val_loss", 3, 0};  // no validation in overfit mode: a warning
        std::set<std::string> seen;
        for (const ExperimentSpec& spec : {plain, early, overfit}) {
            const std::vector<TrainEvent> events = trained(spec);
            for (const TrainEvent& e : events) {
                const Message* m = nullptr;
                if (const auto* log = std::get_if<LogEvent>(&e)) m = &log->message;
                if (const auto* done = std::get_if<FinishedEvent>(&e)) m = &done->message;
                if (!m) continue;
                checkWorded(*m);
                seen.insert(m->id);
            }
        }
        for (const char* id : {"train.memory_planned", "train.finished", "train.early_stopped", "train.overfit_mode",
                               "train.metric_missing_overfit"})
            QVERIFY2(seen.count(id), id);
    }
};

QTEST_GUILESS_MAIN(TestMessages)
#include "tst_messages.moc"

// The Runs page's "Generate" tab, shown for a language model's run (text data): a prompt, the
// sampling settings (temperature, top-k, length, seed) and a checkpoint (best, last or an
// epoch's), and the text the model writes after the prompt, shown token by token as it is
// drawn. The engine's TextSampler (train/text_sampler.h, loaded by jobs/run_sampler.h) draws on
// a one-thread pool on the CPU, leaving a GPU to training; its pieces go into a locked buffer
// that a timer on the UI thread drains about 20 times a second, so a fast model costs the UI
// a few appends a second, never a signal per token. Stop ends the drawing at its next token.
// The loaded model is kept for the next prompt until the run or the checkpoint changes.
#pragma once

#include <QFutureWatcher>
#include <QStringDecoder>
#include <QThreadPool>
#include <QTimer>
#include <QWidget>

#include <memory>
#include <vector>

#include "store/workspace.h"
#include "types/run_records.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;

namespace ts {
class TextSampler;
}

namespace ts::ui {

class GeneratePanel : public QWidget {
    Q_OBJECT
public:
    explicit GeneratePanel(QWidget* parent = nullptr);
    ~GeneratePanel() override;  // stops a generation in flight and waits for it

    // The run to write with: its stored experiment says whether it is a language model, its
    // checkpoints fill the checkpoint choice. The same run again refreshes only the choice.
    void showRun(const ts::Workspace& workspace, const ts::RunInfo& run,
                 const std::vector<ts::CheckpointRecord>& checkpoints);
    void clear();
    bool isLanguageModel() const { return m_languageModel; }

    // The buttons' work: generate from the settings shown (remembered for next time); stop.
    void generate();
    void stop();

    bool isBusy() const { return m_busy; }
    QString text() const { return m_text; }  // the prompt and what was drawn so far, as drawn
    QString message() const;                 // the status line: what to do, what was done, or the error
    // The fields (tests drive them as a user would).
    QLineEdit* promptEdit() const { return m_prompt; }
    QDoubleSpinBox* temperatureBox() const { return m_temperature; }
    QSpinBox* topKBox() const { return m_topK; }
    QSpinBox* lengthBox() const { return m_length; }
    QSpinBox* seedBox() const { return m_seed; }
    QComboBox* checkpointBox() const { return m_checkpoint; }
    QPushButton* generateButton() const { return m_generate; }
    QPushButton* stopButton() const { return m_stop; }

signals:
    void finished();  // a generation ended (done, stopped or failed): message() says which

private:
    struct Stream;
    struct Outcome;
    void fillCheckpoints(const std::vector<ts::CheckpointRecord>& checkpoints);
    void drain();  // the drawn pieces so far onto the output
    void showOutcome(const Outcome& outcome);
    void updateButtons();
    QString checkpointPhrase(const QString& choice) const;  // "the best checkpoint", ...
    QString promptError(const QString& prompt, qint64 byteOffset) const;

    ts::Workspace m_workspace;
    qint64 m_runId = -1;
    bool m_languageModel = false;
    qint64 m_lastCheckpointId = -1;
    int m_checkpointCount = 0;

    // The model loaded for (run, checkpoint choice, newest checkpoint): reused while they hold.
    std::shared_ptr<ts::TextSampler> m_sampler;
    QString m_samplerKey;

    QThreadPool m_pool;  // one thread: generations one after another
    QFutureWatcher<Outcome>* m_watcher = nullptr;
    std::shared_ptr<Stream> m_stream;  // the generation in flight's
    QTimer m_drainTimer;
    QStringDecoder m_decoder;  // keeps a character split across two byte tokens whole
    bool m_busy = false;
    QString m_text;

    QLabel* m_status = nullptr;
    QLineEdit* m_prompt = nullptr;
    QDoubleSpinBox* m_temperature = nullptr;
    QSpinBox* m_topK = nullptr;
    QSpinBox* m_length = nullptr;
    QSpinBox* m_seed = nullptr;
    QComboBox* m_checkpoint = nullptr;
    QPushButton* m_generate = nullptr;
    QPushButton* m_stop = nullptr;
    QPlainTextEdit* m_output = nullptr;
};

}  // namespace ts::ui

#include "generate_panel.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFontDatabase>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSpinBox>
#include <QTextCursor>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <limits>
#include <mutex>
#include <set>

#include "data/tokenizer.h"
#include "io/yaml/experiment_yaml.h"
#include "jobs/run_sampler.h"
#include "ui/engine_messages.h"
#include "ui/studio_settings.h"

namespace ts::ui {

namespace {

constexpr int kDrainIntervalMs = 50;
constexpr int kMaxLength = 100000;

// Control characters (a fortune's backspaces and carriage returns) as their visible symbols,
// so every drawn token shows; line breaks and tabs stay what they are.
QString visible(QString text)
{
    for (QChar& c : text) {
        if (c == u'\n' || c == u'\t') continue;
        if (c.unicode() < 0x20) c = QChar(0x2400 + c.unicode());
        else if (c.unicode() == 0x7f) c = QChar(0x2421);
    }
    return text;
}

}  // namespace

// What the worker hands the UI thread while it draws: the pieces not yet shown, and the stop flag.
struct GeneratePanel::Stream {
    std::mutex mutex;
    std::string pending;
    std::atomic<bool> stop{false};
};

struct GeneratePanel::Outcome {
    std::shared_ptr<Stream> stream;  // whose generation this was
    std::shared_ptr<ts::TextSampler> sampler;
    QString samplerKey;
    QString checkpoint;  // as the choice names it
    std::string text;    // the prompt and every token drawn
    qint64 tokens = 0;
    bool stopped = false;
    qint64 promptErrorOffset = -1;  // a prompt character outside the vocabulary: its byte
    std::vector<ts::Message> notes;
    QString error;
};

GeneratePanel::GeneratePanel(QWidget* parent) : QWidget(parent), m_decoder(QStringDecoder::Utf8)
{
    setObjectName(QStringLiteral("generatePanel"));
    m_pool.setMaxThreadCount(1);

    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("generateStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    const StudioSettings::GenerateSettings saved = StudioSettings::generateSettings();
    m_prompt = new QLineEdit(saved.prompt);
    m_prompt->setObjectName(QStringLiteral("generatePrompt"));
    m_prompt->setPlaceholderText(tr("The text the model continues (empty: it starts on its own)"));
    m_temperature = new QDoubleSpinBox;
    m_temperature->setRange(0, 10);
    m_temperature->setDecimals(2);
    m_temperature->setSingleStep(0.1);
    m_temperature->setValue(saved.temperature);
    m_temperature->setToolTip(tr("How adventurous the drawing is: 0 always takes the most likely token, 1 draws as the "
                                 "model predicts, more than 1 flattens its preferences"));
    m_topK = new QSpinBox;
    m_topK->setRange(0, kMaxLength);
    m_topK->setSpecialValueText(tr("all"));
    m_topK->setValue(saved.topK);
    m_topK->setToolTip(tr("Draw only among the k most likely tokens (all: among every token)"));
    m_length = new QSpinBox;
    m_length->setRange(1, kMaxLength);
    m_length->setValue(saved.length);
    m_length->setToolTip(tr("How many tokens to draw after the prompt"));
    m_seed = new QSpinBox;
    m_seed->setRange(0, std::numeric_limits<int>::max());
    m_seed->setValue(saved.seed);
    m_seed->setToolTip(tr("The same seed with the same settings and checkpoint writes the same text"));
    m_checkpoint = new QComboBox;
    m_checkpoint->setObjectName(QStringLiteral("generateCheckpoint"));
    m_checkpoint->setToolTip(tr("The checkpoint whose weights write: the best by the run's metric, the last saved, "
                                "or an epoch's (watch the text improve from epoch to epoch)"));
    m_generate = new QPushButton(tr("Generate"));
    m_generate->setObjectName(QStringLiteral("generateButton"));
    m_stop = new QPushButton(tr("Stop"));
    m_stop->setObjectName(QStringLiteral("generateStopButton"));
    m_output = new QPlainTextEdit;
    m_output->setObjectName(QStringLiteral("generateOutput"));
    m_output->setReadOnly(true);
    m_output->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_output->setPlaceholderText(tr("The prompt (highlighted) and what the model writes after it appear here."));

    auto* prompt = new QHBoxLayout;
    prompt->addWidget(new QLabel(tr("Prompt:")));
    prompt->addWidget(m_prompt, 1);
    // Two rows of settings, so the tab fits the details pane beside the run's fields.
    auto* settings = new QGridLayout;
    auto addSetting = [settings](int row, int column, const QString& label, QWidget* field) {
        auto* text = new QLabel(label);
        text->setBuddy(field);
        settings->addWidget(text, row, column * 2);
        settings->addWidget(field, row, column * 2 + 1);
    };
    addSetting(0, 0, tr("Temperature:"), m_temperature);
    addSetting(0, 1, tr("Top-k:"), m_topK);
    addSetting(0, 2, tr("Length:"), m_length);
    addSetting(1, 0, tr("Seed:"), m_seed);
    settings->addWidget(new QLabel(tr("Checkpoint:")), 1, 2);
    settings->addWidget(m_checkpoint, 1, 3, 1, 3);
    settings->setColumnStretch(6, 1);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_generate);
    buttons->addWidget(m_stop);
    buttons->addStretch(1);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_status);
    layout->addLayout(prompt);
    layout->addLayout(settings);
    layout->addLayout(buttons);
    layout->addWidget(m_output, 1);

    connect(m_generate, &QPushButton::clicked, this, &GeneratePanel::generate);
    connect(m_prompt, &QLineEdit::returnPressed, this, &GeneratePanel::generate);
    connect(m_stop, &QPushButton::clicked, this, &GeneratePanel::stop);
    m_drainTimer.setInterval(kDrainIntervalMs);
    connect(&m_drainTimer, &QTimer::timeout, this, &GeneratePanel::drain);
    m_watcher = new QFutureWatcher<Outcome>(this);
    connect(m_watcher, &QFutureWatcher<Outcome>::finished, this, [this] { showOutcome(m_watcher->result()); });
    clear();
}

GeneratePanel::~GeneratePanel()
{
    if (m_stream) m_stream->stop = true;
    m_pool.waitForDone();
}

QString GeneratePanel::message() const { return m_status->text(); }

void GeneratePanel::clear()
{
    stop();
    m_stream.reset();  // a generation still finishing belongs to the run before: its outcome is ignored
    m_runId = -1;
    m_languageModel = false;
    m_sampler.reset();
    m_samplerKey.clear();
    m_lastCheckpointId = -1;
    m_checkpointCount = 0;
    m_checkpoint->clear();
    m_text.clear();
    m_output->clear();
    m_status->setText(tr("Select a language model's run to write with it."));
    updateButtons();
}

void GeneratePanel::showRun(const ts::Workspace& workspace, const ts::RunInfo& run,
                            const std::vector<ts::CheckpointRecord>& checkpoints)
{
    if (run.id != m_runId || workspace.directory != m_workspace.directory) {
        clear();
        m_workspace = workspace;
        m_runId = run.id;
        QString format;
        try {
            format = QString::fromStdString(parseExperiment(run.experimentYaml, "run " + std::to_string(run.id)).dataset.format);
        } catch (const std::exception&) {  // an experiment this version cannot read: no text to write
        }
        m_languageModel = format == QLatin1String("text");
        m_status->setText(m_languageModel
                              ? tr("Write a prompt and press Generate: the model continues it one token at a time.")
                              : tr("This run was not trained on text (dataset format “%1”): only a language model "
                                   "writes text.")
                                    .arg(format));
    }
    fillCheckpoints(checkpoints);
    updateButtons();
}

void GeneratePanel::fillCheckpoints(const std::vector<ts::CheckpointRecord>& checkpoints)
{
    const qint64 lastId = checkpoints.empty() ? -1 : checkpoints.back().id;
    if (int(checkpoints.size()) == m_checkpointCount && lastId == m_lastCheckpointId && m_checkpoint->count() > 0) return;
    m_checkpointCount = int(checkpoints.size());
    m_lastCheckpointId = lastId;
    const QString chosen = m_checkpoint->count() > 0 ? m_checkpoint->currentData().toString()
                                                     : StudioSettings::generateSettings().checkpoint;
    m_checkpoint->clear();
    m_checkpoint->addItem(tr("Best"), QStringLiteral("best"));
    m_checkpoint->addItem(tr("Last"), QStringLiteral("last"));
    std::set<std::int64_t> epochs;
    for (const ts::CheckpointRecord& c : checkpoints) epochs.insert(c.epoch);
    for (std::int64_t epoch : epochs) m_checkpoint->addItem(tr("Epoch %1").arg(epoch), QString::number(epoch));
    m_checkpoint->setCurrentIndex(std::max(0, m_checkpoint->findData(chosen)));
    if (m_languageModel && checkpoints.empty() && !m_busy)
        m_status->setText(tr("This run has no checkpoint yet: it writes once it has saved one."));
}

void GeneratePanel::updateButtons()
{
    const bool ready = m_languageModel && m_checkpointCount > 0;
    m_generate->setEnabled(ready && !m_busy);
    m_stop->setEnabled(m_busy && m_stream && !m_stream->stop);
}

void GeneratePanel::generate()
{
    if (m_busy || !m_languageModel || m_checkpointCount == 0) return;
    StudioSettings::GenerateSettings settings;
    settings.prompt = m_prompt->text();
    settings.temperature = m_temperature->value();
    settings.topK = m_topK->value();
    settings.length = m_length->value();
    settings.seed = m_seed->value();
    const QString choice = m_checkpoint->currentData().toString();
    if (choice == QLatin1String("best") || choice == QLatin1String("last")) settings.checkpoint = choice;
    StudioSettings::setGenerateSettings(settings);

    ts::GenerateOptions options;
    options.prompt = settings.prompt.toStdString();
    options.temperature = settings.temperature;
    options.topK = settings.topK;
    options.length = settings.length;
    options.seed = std::uint64_t(settings.seed);

    m_busy = true;
    m_stream = std::make_shared<Stream>();
    m_decoder.resetState();
    m_text = settings.prompt;
    m_output->clear();
    QTextCharFormat promptFormat;  // the prompt stands apart from what the model wrote
    promptFormat.setFontWeight(QFont::Bold);
    QColor tint = palette().color(QPalette::Highlight);
    tint.setAlpha(60);
    promptFormat.setBackground(tint);
    QTextCursor cursor(m_output->document());
    cursor.insertText(visible(m_text), promptFormat);
    m_status->setText(tr("Generating from %1…").arg(checkpointPhrase(choice)));
    m_drainTimer.start();
    updateButtons();

    const QString key = QStringLiteral("%1/%2/%3").arg(m_runId).arg(choice).arg(m_lastCheckpointId);
    Outcome start;
    start.stream = m_stream;
    start.sampler = key == m_samplerKey ? m_sampler : nullptr;
    start.samplerKey = key;
    start.checkpoint = checkpointPhrase(choice);
    m_watcher->setFuture(QtConcurrent::run(
        &m_pool, [out = std::move(start), workspace = m_workspace, runId = m_runId, choice, options]() mutable {
            Stream& stream = *out.stream;
            try {
                if (!out.sampler) {
                    PredictorOptions load;
                    load.workspaceDir = workspace.directory;
                    load.runId = runId;
                    load.checkpoint = choice.toStdString();
                    load.device = "cpu";
                    out.sampler = std::make_shared<ts::TextSampler>(openRunSampler(load, out.notes));
                }
                try {
                    (void)out.sampler->tokenizer().encode(options.prompt);
                } catch (const ts::TokenizeError& e) {
                    out.promptErrorOffset = e.offset();
                    out.error = QString::fromStdString(e.what());
                    return out;
                }
                out.text = options.prompt;
                if (stream.stop) {
                    out.stopped = true;
                    return out;
                }
                out.text = out.sampler->generate(options, [&](const std::string& piece) {
                    ++out.tokens;
                    std::lock_guard lock(stream.mutex);
                    stream.pending += piece;
                    return !stream.stop.load();
                });
                out.stopped = out.tokens < options.length;
            } catch (const std::exception& e) {
                out.error = QString::fromLocal8Bit(e.what());
            }
            return out;
        }));
}

void GeneratePanel::stop()
{
    if (!m_busy || !m_stream) return;
    m_stream->stop = true;
    m_status->setText(tr("Stopping…"));
    updateButtons();
}

void GeneratePanel::drain()
{
    if (!m_stream) return;
    std::string bytes;
    {
        std::lock_guard lock(m_stream->mutex);
        bytes.swap(m_stream->pending);
    }
    if (bytes.empty()) return;
    const QString piece = m_decoder.decode(QByteArrayView(bytes.data(), qsizetype(bytes.size())));
    m_text += piece;
    QScrollBar* bar = m_output->verticalScrollBar();
    const bool following = bar->value() == bar->maximum();  // keep following the end unless the user scrolled up
    QTextCursor cursor(m_output->document());
    cursor.movePosition(QTextCursor::End);
    cursor.insertText(visible(piece), QTextCharFormat());
    if (following) bar->setValue(bar->maximum());
}

void GeneratePanel::showOutcome(const Outcome& outcome)
{
    m_busy = false;
    m_drainTimer.stop();
    if (outcome.stream != m_stream) {  // another run was selected meanwhile
        updateButtons();
        return;
    }
    drain();
    if (outcome.sampler) {
        m_sampler = outcome.sampler;
        m_samplerKey = outcome.samplerKey;
    }
    const QString finalText = QString::fromStdString(outcome.text);
    if (outcome.error.isEmpty() && finalText != m_text) {  // a byte token's unfinished character at the end
        m_text = finalText;
        QTextCursor cursor(m_output->document());
        cursor.movePosition(QTextCursor::End);
        cursor.insertText(QString(QChar::ReplacementCharacter));
    }
    QString status;
    if (outcome.promptErrorOffset >= 0) {
        status = promptError(m_prompt->text(), outcome.promptErrorOffset);
        m_output->clear();
        m_text.clear();
    } else if (!outcome.error.isEmpty()) {
        status = tr("Cannot generate: %1").arg(outcome.error);
    } else if (outcome.stopped) {
        status = tr("Stopped after %n tokens from %1.", nullptr, int(outcome.tokens)).arg(outcome.checkpoint);
    } else {
        status = tr("%n tokens from %1.", nullptr, int(outcome.tokens)).arg(outcome.checkpoint);
    }
    for (const ts::Message& note : outcome.notes) status += QLatin1Char('\n') + renderMessage(note);
    m_status->setText(status);
    m_stream.reset();
    updateButtons();
    emit finished();
}

QString GeneratePanel::checkpointPhrase(const QString& choice) const
{
    if (choice == QLatin1String("best")) return tr("the best checkpoint");
    if (choice == QLatin1String("last")) return tr("the last checkpoint");
    return tr("the checkpoint of epoch %1").arg(choice);
}

QString GeneratePanel::promptError(const QString& prompt, qint64 byteOffset) const
{
    const QByteArray bytes = prompt.toUtf8();
    const QString before = QString::fromUtf8(bytes.left(byteOffset));
    const QString rest = QString::fromUtf8(bytes.mid(byteOffset));
    const QString character = rest.left(!rest.isEmpty() && rest.front().isHighSurrogate() ? 2 : 1);
    const QList<uint> code = character.toUcs4();
    m_prompt->setSelection(int(before.size()), int(character.size()));  // points at it
    return tr("The prompt has “%1” (U+%2) at byte %3, a character this model never saw in training: write the "
              "prompt with the characters of its training text.")
        .arg(visible(character), QStringLiteral("%1").arg(code.value(0), 4, 16, QLatin1Char('0')).toUpper())
        .arg(byteOffset);
}

}  // namespace ts::ui

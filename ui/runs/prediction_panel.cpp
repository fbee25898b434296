#include "prediction_panel.h"

#include <QDragEnterEvent>
#include <QKeyEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QLabel>
#include <QLocale>
#include <QMimeData>
#include <QPixmap>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <cmath>

#include "io/yaml/experiment_yaml.h"
#include "jobs/predictor.h"
#include "ui/engine_messages.h"

namespace ts::ui {

namespace {

constexpr int kTop = 5;

bool isImageFile(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    return suffix == QLatin1String("png") || suffix == QLatin1String("jpg") || suffix == QLatin1String("jpeg");
}

// The first local PNG/JPEG file a drag carries, or empty.
QString droppedImage(const QMimeData* mime)
{
    if (!mime || !mime->hasUrls()) return {};
    for (const QUrl& url : mime->urls())
        if (url.isLocalFile() && isImageFile(url.toLocalFile())) return url.toLocalFile();
    return {};
}

}  // namespace

struct PredictionPanel::Outcome {
    qint64 runId = -1;
    QString file;  // what was predicted: a file, or the start of a text
    std::shared_ptr<ts::Predictor> predictor;
    std::vector<ts::SamplePrediction> predictions;
    qint64 epoch = 0;
    std::vector<ts::Message> notes;  // what fitting the image did ("converted to 28x28 ..."), shown under the result
    QString error;
};

PredictionPanel::PredictionPanel(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("predictionPanel"));
    setAcceptDrops(true);
    m_pool.setMaxThreadCount(1);
    m_image = new QLabel;
    m_image->setObjectName(QStringLiteral("predictionImage"));
    m_image->setAlignment(Qt::AlignCenter);
    m_image->setMinimumSize(160, 160);
    m_image->setFrameShape(QFrame::StyledPanel);
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("predictionStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_choose = new QPushButton(tr("Choose an image…"));
    connect(m_choose, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Predict an image"), QString(),
                                                          tr("Images (*.png *.jpg *.jpeg *.webp *.tif *.tiff *.bmp *.gif)"));
        if (!path.isEmpty()) predictFile(path);
    });
    m_text = new QPlainTextEdit;
    m_text->setObjectName(QStringLiteral("predictionText"));
    m_text->setPlaceholderText(tr("Type or paste a text to classify"));
    m_text->setMinimumHeight(m_text->fontMetrics().lineSpacing() * 3 + 2 * m_text->frameWidth() + 8);  // never squeezed under its frame
    m_text->setMaximumHeight(m_text->fontMetrics().lineSpacing() * 6 + 2 * m_text->frameWidth() + 8);
    m_classify = new QPushButton(tr("Classify"));
    m_classify->setToolTip(tr("Classify the text with this run's best checkpoint (Ctrl+Return)"));
    connect(m_classify, &QPushButton::clicked, this, [this] { predictText(m_text->toPlainText()); });
    m_text->installEventFilter(this);  // Ctrl+Return classifies (the editor keeps plain Return)

    auto* bars = new QGridLayout;
    for (int i = 0; i < kTop; ++i) {
        auto* name = new QLabel;
        auto* bar = new QProgressBar;
        bar->setRange(0, 1000);
        bar->setTextVisible(true);
        bars->addWidget(name, i, 0);
        bars->addWidget(bar, i, 1);
        m_names.append(name);
        m_bars.append(bar);
    }
    bars->setColumnStretch(1, 1);

    auto* top = new QHBoxLayout;
    top->addWidget(m_image);
    top->addLayout(bars, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_status);
    layout->addWidget(m_text);
    layout->addWidget(m_classify, 0, Qt::AlignLeft);
    layout->addLayout(top);
    layout->addWidget(m_choose, 0, Qt::AlignLeft);
    layout->addStretch(1);

    m_watcher = new QFutureWatcher<Outcome>(this);
    connect(m_watcher, &QFutureWatcher<Outcome>::finished, this, [this] { showOutcome(m_watcher->result()); });
    clear();
}

PredictionPanel::~PredictionPanel()
{
    m_pool.waitForDone();
}

QString PredictionPanel::message() const { return m_status->text(); }

void PredictionPanel::clear()
{
    m_runId = -1;
    m_predictor.reset();
    m_file.clear();
    m_shownClasses.clear();
    m_shownProbabilities.clear();
    m_image->clear();
    m_image->setText(tr("Drop an image here"));
    for (int i = 0; i < kTop; ++i) {
        m_names[i]->clear();
        m_bars[i]->setValue(0);
        m_bars[i]->setFormat(QString());
        m_bars[i]->setVisible(false);
    }
    m_status->setText(tr("Drop a PNG or JPEG image here to see what this run's best checkpoint predicts."));
    m_choose->setEnabled(false);
    m_text->setVisible(false);
    m_classify->setVisible(false);
    m_image->setVisible(true);
    m_choose->setVisible(true);
}

bool PredictionPanel::readsText(const std::string& experimentYaml)
{
    try {
        const DatasetSpec data = parseExperiment(experimentYaml, "the run's experiment").dataset;
        return data.format == "text_folder" || (data.format == "csv" && !data.textColumn.empty());
    } catch (const std::exception&) {  // an experiment this version cannot read: not text
        return false;
    }
}

void PredictionPanel::showRun(const ts::Workspace& workspace, qint64 runId, bool readsText)
{
    if (runId == m_runId && workspace.directory == m_workspace.directory) return;
    clear();
    m_workspace = workspace;
    m_runId = runId;
    m_choose->setEnabled(true);
    m_text->setVisible(readsText);
    m_classify->setVisible(readsText);
    m_image->setVisible(!readsText);
    m_choose->setVisible(!readsText);
    if (readsText) m_status->setText(tr("Type a text and press Classify to see which class this run's best checkpoint gives it."));
}

void PredictionPanel::predictFile(const QString& path)
{
    if (m_runId < 0 || m_busy) return;
    const QPixmap pixmap(path);  // shown as the user sees it; the model gets the engine's decoding
    if (pixmap.isNull()) m_image->setText(tr("(cannot show this image)"));
    else m_image->setPixmap(pixmap.scaled(160, 160, Qt::KeepAspectRatio, Qt::FastTransformation));
    start(QFileInfo(path).fileName(), [file = path.toStdString()](Predictor& predictor) {
        return predictor.predict(std::vector<std::string>{file}, kTop);
    });
}

void PredictionPanel::predictText(const QString& text)
{
    if (m_runId < 0 || m_busy || text.trimmed().isEmpty()) return;
    const QString shown = text.simplified();
    start(QStringLiteral("“%1”").arg(shown.size() > 40 ? shown.left(39) + QStringLiteral("…") : shown),
          [text = text.toStdString()](Predictor& predictor) {
              return predictor.predict(openPredictionTexts({text}, predictor.modelInput()), kTop);
          });
}

void PredictionPanel::start(const QString& what, Predict predict)
{
    m_busy = true;
    m_file = what;
    m_status->setText(tr("Predicting %1…").arg(what));
    m_watcher->setFuture(QtConcurrent::run(
        &m_pool, [workspace = m_workspace, runId = m_runId, predictor = m_predictor, what, predict]() mutable {
            Outcome out;
            out.runId = runId;
            out.file = what;
            try {
                if (!predictor) {
                    PredictorOptions options;
                    options.workspaceDir = workspace.directory;
                    options.runId = runId;
                    options.device = "cpu";
                    predictor = std::make_shared<Predictor>(options);
                }
                out.predictor = predictor;
                out.epoch = predictor->checkpoint().epoch;
                out.predictions = predict(*predictor);
                out.notes = predictor->notes();
            } catch (const std::exception& e) {
                out.error = QString::fromLocal8Bit(e.what());
            }
            return out;
        }));
}

void PredictionPanel::showOutcome(const Outcome& outcome)
{
    m_busy = false;
    if (outcome.runId != m_runId) return;  // another run was selected meanwhile
    if (outcome.predictor) m_predictor = outcome.predictor;
    m_shownClasses.clear();
    m_shownProbabilities.clear();
    for (int i = 0; i < kTop; ++i) m_bars[i]->setVisible(false), m_names[i]->clear();
    if (!outcome.error.isEmpty() || outcome.predictions.empty()) {
        m_status->setText(tr("Cannot predict %1: %2").arg(outcome.file, outcome.error));
        emit predicted();
        return;
    }
    const ts::SamplePrediction& p = outcome.predictions.front();
    for (int i = 0; i < int(p.top.size()) && i < kTop; ++i) {
        const ts::ClassScore& score = p.top[std::size_t(i)];
        const QString name = QString::fromStdString(score.name);
        m_names[i]->setText(name);
        m_bars[i]->setValue(int(std::lround(score.probability * 1000)));
        m_bars[i]->setFormat(QLocale().toString(score.probability * 100, 'f', 1) + QStringLiteral(" %"));
        m_bars[i]->setVisible(true);
        m_shownClasses << name;
        m_shownProbabilities << score.probability;
    }
    QString status = tr("%1: %2 (epoch %3 checkpoint)")
                         .arg(outcome.file, m_shownClasses.value(0))
                         .arg(outcome.epoch);
    for (const ts::Message& note : outcome.notes) status += QLatin1Char('\n') + renderMessage(note);
    m_status->setText(status);
    emit predicted();
}

bool PredictionPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_text && event->type() == QEvent::KeyPress) {
        const auto* key = static_cast<QKeyEvent*>(event);
        if ((key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) && key->modifiers().testFlag(Qt::ControlModifier)) {
            m_classify->click();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void PredictionPanel::dragEnterEvent(QDragEnterEvent* event)
{
    if (m_runId >= 0 && !droppedImage(event->mimeData()).isEmpty()) event->acceptProposedAction();
}

void PredictionPanel::dropEvent(QDropEvent* event)
{
    const QString path = droppedImage(event->mimeData());
    if (m_runId < 0 || path.isEmpty()) return;
    event->acceptProposedAction();
    predictFile(path);
}

}  // namespace ts::ui

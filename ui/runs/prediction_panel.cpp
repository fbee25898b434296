#include "prediction_panel.h"

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QLabel>
#include <QLocale>
#include <QMimeData>
#include <QPixmap>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <cmath>

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
    QString file;
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
}

void PredictionPanel::showRun(const ts::Workspace& workspace, qint64 runId)
{
    if (runId == m_runId && workspace.directory == m_workspace.directory) return;
    clear();
    m_workspace = workspace;
    m_runId = runId;
    m_choose->setEnabled(true);
}

void PredictionPanel::predictFile(const QString& path)
{
    if (m_runId < 0 || m_busy) return;
    m_busy = true;
    m_file = path;
    m_status->setText(tr("Predicting %1…").arg(QFileInfo(path).fileName()));
    const QPixmap pixmap(path);  // shown as the user sees it; the model gets the engine's decoding
    if (pixmap.isNull()) m_image->setText(tr("(cannot show this image)"));
    else m_image->setPixmap(pixmap.scaled(160, 160, Qt::KeepAspectRatio, Qt::FastTransformation));
    m_watcher->setFuture(QtConcurrent::run(
        &m_pool, [workspace = m_workspace, runId = m_runId, predictor = m_predictor, file = path]() mutable {
            Outcome out;
            out.runId = runId;
            out.file = file;
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
                out.predictions = predictor->predict(std::vector<std::string>{file.toStdString()}, kTop);
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
        m_status->setText(tr("Cannot predict %1: %2").arg(QFileInfo(outcome.file).fileName(), outcome.error));
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
                         .arg(QFileInfo(outcome.file).fileName(), m_shownClasses.value(0))
                         .arg(outcome.epoch);
    for (const ts::Message& note : outcome.notes) status += QLatin1Char('\n') + renderMessage(note);
    m_status->setText(status);
    emit predicted();
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

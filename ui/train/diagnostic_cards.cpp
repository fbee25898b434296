#include "diagnostic_cards.h"

#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

#include "train/diagnostics.h"
#include "ui/engine_messages.h"
#include "ui/glossary/glossary_browser.h"

namespace ts::ui {

namespace {

// Actions that work on the stored run (a fork, an evaluation).
bool needsRun(const QString& action)
{
    return action == QLatin1String(diagnostic_action::kResumeLowerLr) ||
           action == QLatin1String(diagnostic_action::kEvaluateRun) || action == QLatin1String(diagnostic_action::kAddWarmup);
}

}  // namespace

DiagnosticCards::DiagnosticCards(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("diagnosticCards"));
    auto* content = new QWidget;
    m_content = content;
    m_list = new QVBoxLayout(content);
    m_list->setContentsMargins(0, 0, 0, 0);
    m_list->addStretch(1);
    auto* scroll = new QScrollArea;
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scroll);
    setMaximumHeight(kMaxHeight);  // the log below keeps room
    hide();                        // until there is something to say
}

void DiagnosticCards::fitHeight()
{
    // Tall enough for the newest card whole (the page's splitter gives way), scrolling beyond.
    setMinimumHeight(std::min(kMaxHeight, m_content->sizeHint().height()));
    setVisible(count() > 0);
}

QString DiagnosticCards::title(const QString& rule)
{
    if (rule == QLatin1String("diag.non_finite")) return tr("The loss became NaN or infinite");
    if (rule == QLatin1String("diag.not_converging")) return tr("The loss is not improving");
    if (rule == QLatin1String("diag.loss_rising")) return tr("The loss is rising");
    if (rule == QLatin1String("diag.loss_oscillating")) return tr("The loss oscillates");
    if (rule == QLatin1String("diag.gradient_exploding")) return tr("Gradient norm above 10");
    if (rule == QLatin1String("diag.gradient_vanishing")) return tr("Vanishing gradients");
    if (rule == QLatin1String("diag.overfitting")) return tr("Overfitting");
    if (rule == QLatin1String("diag.loader_starving")) return tr("The data loader is too slow");
    if (rule == QLatin1String("diag.memory_growing")) return tr("Memory keeps growing");
    if (rule == QLatin1String("diag.memory_fragmented")) return tr("Reserved memory far above allocated");
    if (rule == QLatin1String("diag.batchnorm_small_batch")) return tr("Batch norm with a tiny batch");
    if (rule == QLatin1String("diag.batchnorm_after_dropout")) return tr("Batch norm right after dropout");
    if (rule == QLatin1String("diag.batchnorm_accumulation")) return tr("Batch norm with gradient accumulation");
    if (rule == QLatin1String("diag.loss_scale_falling")) return tr("The fp16 loss scale keeps falling");
    if (rule == QLatin1String("diag.imbalanced_accuracy")) return tr("Accuracy on imbalanced classes");
    if (rule == QLatin1String("diag.transformer_warmup")) return tr("A Transformer without warm-up");
    return rule;  // a newer engine's rule: its id, and its English advice below
}

QString DiagnosticCards::actionText(const QString& action)
{
    namespace a = diagnostic_action;
    if (action == QLatin1String(a::kResumeLowerLr)) return tr("Resume with learning rate ×0.1");
    if (action == QLatin1String(a::kLrFinder)) return tr("Find a learning rate");
    if (action == QLatin1String(a::kHyperparameters)) return tr("Open the hyperparameters");
    if (action == QLatin1String(a::kDatasets)) return tr("Open the dataset");
    if (action == QLatin1String(a::kModel)) return tr("Open the model");
    if (action == QLatin1String(a::kGradNormChart)) return tr("Show the gradient norm");
    if (action == QLatin1String(a::kEvaluateRun)) return tr("Evaluate the run (macro F1, AUC)");
    if (action == QLatin1String(a::kCheckLabels)) return tr("Look at samples and labels");
    if (action == QLatin1String(a::kCheckLossFunction)) return tr("Check the loss function");
    if (action == QLatin1String(a::kCheckInitialisation)) return tr("Check the initialisation");
    if (action == QLatin1String(a::kCheckNormalisation)) return tr("Check the normalisation statistics");
    if (action == QLatin1String(a::kAddWarmup)) return tr("Train again with warm-up");
    return action;
}

void DiagnosticCards::addDiagnostic(const ts::Message& message, qint64 runId)
{
    const DiagnosticRule* rule = diagnosticRule(message.id);
    const QString id = QString::fromStdString(message.id);
    if (!rule || card(id)) return;

    auto* frame = new QFrame;
    frame->setObjectName(QStringLiteral("diagnosticCard"));
    frame->setProperty("rule", id);
    frame->setFrameShape(QFrame::StyledPanel);
    auto* layout = new QVBoxLayout(frame);

    auto* head = new QHBoxLayout;
    const QStyle::StandardPixmap icon = rule->level == LogEvent::Level::Error     ? QStyle::SP_MessageBoxCritical
                                        : rule->level == LogEvent::Level::Warning ? QStyle::SP_MessageBoxWarning
                                                                                  : QStyle::SP_MessageBoxInformation;
    auto* iconLabel = new QLabel;
    iconLabel->setPixmap(style()->standardIcon(icon).pixmap(16, 16));
    auto* heading = new QLabel(QStringLiteral("<b>%1</b>").arg(title(id).toHtmlEscaped()));
    heading->setObjectName(QStringLiteral("diagnosticTitle"));
    auto* dismiss = new QToolButton;
    dismiss->setObjectName(QStringLiteral("diagnosticDismiss"));
    dismiss->setText(QStringLiteral("✕"));
    dismiss->setToolTip(tr("Dismiss"));
    dismiss->setAutoRaise(true);
    head->addWidget(iconLabel);
    head->addWidget(heading, 1);
    // The rule's glossary entry: what the trouble is and the seeds' numbers behind the advice.
    if (const QString entry = Glossary::studio().entryForRule(id); !entry.isEmpty()) {
        frame->setProperty("glossaryEntry", entry);
        auto* more = new QToolButton;  // like the dismiss button: the action buttons stay the rule's actions
        more->setText(tr("more…"));
        more->setObjectName(QStringLiteral("diagnosticMore"));
        more->setAutoRaise(true);
        more->setCursor(Qt::PointingHandCursor);
        more->setToolTip(tr("Open this diagnostic's entry in the glossary"));
        QPalette link = more->palette();
        link.setColor(QPalette::ButtonText, link.color(QPalette::Link));
        more->setPalette(link);
        connect(more, &QToolButton::clicked, this, [more, entry] { GlossaryBrowser::open(more, entry); });
        head->addWidget(more);
    }
    head->addWidget(dismiss);
    layout->addLayout(head);

    auto* body = new QLabel(renderMessage(message));
    body->setObjectName(QStringLiteral("diagnosticText"));
    body->setWordWrap(true);
    body->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(body);

    // A checklist (more than three actions) reads best as one line per item.
    QBoxLayout* buttons = rule->actions.size() > 3 ? static_cast<QBoxLayout*>(new QVBoxLayout) : new QHBoxLayout;
    for (const char* action : rule->actions) {
        const QString actionId = QString::fromLatin1(action);
        auto* button = new QPushButton(actionText(actionId));
        button->setObjectName(QStringLiteral("diagnosticAction_") + actionId);
        if (needsRun(actionId) && runId < 0) {
            button->setEnabled(false);
            button->setToolTip(tr("Needs a run recorded in the workspace"));
        }
        connect(button, &QPushButton::clicked, this, [this, id, actionId, runId] { emit actionRequested(id, actionId, runId); });
        if (rule->actions.size() > 3)
            buttons->addWidget(button, 0, Qt::AlignLeft);
        else
            buttons->addWidget(button);
    }
    if (rule->actions.size() <= 3) static_cast<QHBoxLayout*>(buttons)->addStretch(1);
    layout->addLayout(buttons);

    connect(dismiss, &QToolButton::clicked, this, [this, frame] {
        frame->setObjectName(QString());  // no longer a card, though deleted only after this click
        frame->hide();
        frame->deleteLater();
        fitHeight();
    });
    m_list->insertWidget(m_list->count() - 1, frame);  // before the stretch
    fitHeight();
}

void DiagnosticCards::clear()
{
    for (QFrame* f : findChildren<QFrame*>(QStringLiteral("diagnosticCard"))) delete f;
    fitHeight();
}

int DiagnosticCards::count() const { return int(findChildren<QFrame*>(QStringLiteral("diagnosticCard")).size()); }

QFrame* DiagnosticCards::card(const QString& ruleId) const
{
    for (QFrame* f : findChildren<QFrame*>(QStringLiteral("diagnosticCard")))
        if (f->property("rule").toString() == ruleId) return f;
    return nullptr;
}

}  // namespace ts::ui

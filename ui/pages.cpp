#include "pages.h"

#include <QLabel>
#include <QStyle>
#include <QVBoxLayout>

namespace ts::ui {

QString PageInfo::title(Page page)
{
    switch (page) {
    case Page::Datasets: return tr("Datasets");
    case Page::Model: return tr("Model");
    case Page::Hyperparameters: return tr("Hyperparameters");
    case Page::Train: return tr("Train");
    case Page::Runs: return tr("Runs");
    case Page::Learn: return tr("Learn");
    }
    return {};
}

QString PageInfo::summary(Page page)
{
    switch (page) {
    case Page::Datasets: return tr("Browse datasets: samples, class balance and statistics.");
    case Page::Model:
        return tr("Build a model by dragging layers onto a canvas, with shapes, parameter counts and FLOPs "
                  "shown live.");
    case Page::Hyperparameters:
        return tr("Choose the optimizer, the learning-rate schedule and training options, with a preview of "
                  "the learning-rate curve.");
    case Page::Train: return tr("Train on the GPU or the CPU and watch loss, accuracy and resource use live.");
    case Page::Runs: return tr("Compare runs, resume them from checkpoints, evaluate and export trained models.");
    case Page::Learn:
        return tr("Learn step by step with lessons checked against your own runs: look at data, find a learning rate, "
                  "beat an MLP, calibrate.");
    }
    return {};
}

QString PageInfo::key(Page page)
{
    switch (page) {
    case Page::Datasets: return QStringLiteral("datasets");
    case Page::Model: return QStringLiteral("model");
    case Page::Hyperparameters: return QStringLiteral("hyperparameters");
    case Page::Train: return QStringLiteral("train");
    case Page::Runs: return QStringLiteral("runs");
    case Page::Learn: return QStringLiteral("learn");
    }
    return {};
}

std::optional<Page> PageInfo::fromKey(const QString& key)
{
    for (Page p : kAllPages)
        if (PageInfo::key(p) == key) return p;
    return std::nullopt;
}

QIcon PageInfo::icon(Page page, const QStyle* style)
{
    // Style icons until the project draws its own: every platform theme provides these.
    switch (page) {
    case Page::Datasets: return style->standardIcon(QStyle::SP_DirOpenIcon);
    case Page::Model: return style->standardIcon(QStyle::SP_FileDialogListView);
    case Page::Hyperparameters: return style->standardIcon(QStyle::SP_FileDialogDetailedView);
    case Page::Train: return style->standardIcon(QStyle::SP_MediaPlay);
    case Page::Runs: return style->standardIcon(QStyle::SP_FileDialogContentsView);
    case Page::Learn: return style->standardIcon(QStyle::SP_DialogHelpButton);
    }
    return {};
}

PlaceholderPage::PlaceholderPage(Page page, QWidget* parent) : QWidget(parent), m_page(page)
{
    setObjectName(QStringLiteral("page_") + PageInfo::key(page));

    auto* title = new QLabel(PageInfo::title(page), this);
    title->setObjectName(QStringLiteral("title"));
    QFont font = title->font();
    font.setPointSizeF(font.pointSizeF() * 1.6);
    font.setBold(true);
    title->setFont(font);

    auto* summary = new QLabel(PageInfo::summary(page), this);
    summary->setObjectName(QStringLiteral("summary"));
    summary->setWordWrap(true);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(24, 20, 24, 20);
    layout->setSpacing(10);
    layout->addWidget(title);
    layout->addWidget(summary);
    layout->addStretch(1);
}

}  // namespace ts::ui

#include "learn_page.h"

#include <QDateTime>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QPushButton>
#include <QSplitter>
#include <QStyle>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <algorithm>
#include <filesystem>

#include "engine_messages.h"
#include "io/yaml/experiment_yaml.h"
#include "lesson_texts.h"
#include "ui/glossary/glossary.h"
#include "ui/glossary/glossary_browser.h"

namespace ts::ui {

namespace {

// Off the UI thread: the shipped starting experiment, the check, the progress row.
LessonResult runCheck(const ts::Workspace& workspace, const std::string& lessonId)
{
    const Lesson* lesson = findLesson(lessonId);
    if (!lesson) return {};
    LessonResult result;
    const std::filesystem::path path = lessonExperimentPath(*lesson);
    try {
        result = checkLesson(*lesson, LessonContext{workspace, loadExperiment(path.string())});
    } catch (const std::exception& e) {  // the shipped file is missing or broken
        result.headline = Message{e.what()};
        return result;
    }
    try {
        recordLessonCheck(workspace, lessonId, result.passed, result.headline);
    } catch (const std::exception& e) {  // a read-only workspace: the result still shows
        result.details.push_back(Message{e.what()});
    }
    return result;
}

QString when(double unixSeconds)
{
    return QLocale().toString(QDateTime::fromSecsSinceEpoch(qint64(unixSeconds)), QLocale::ShortFormat);
}

}  // namespace

LearnPage::LearnPage(const ts::Workspace& workspace, QWidget* parent) : QWidget(parent), m_workspace(workspace)
{
    setObjectName(QStringLiteral("page_learn"));

    auto* heading = new QLabel(tr("Learn"));
    QFont big = heading->font();
    big.setPointSizeF(big.pointSizeF() * 1.6);
    big.setBold(true);
    heading->setFont(big);
    m_summary = new QLabel;
    m_summary->setObjectName(QStringLiteral("learnSummary"));

    m_list = new QListWidget;
    m_list->setObjectName(QStringLiteral("lessonList"));
    m_list->setIconSize(QSize(16, 16));
    m_list->setSpacing(2);
    m_list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // As wide as the longest title and progress line in the current language, so no item wraps
    // (wrapped items of a list view overlap when their text changes) or is cut; narrower (elided)
    // only when the window itself is made small.
    LessonProgress sample;
    sample.started = sample.passed = double(QDateTime::currentSecsSinceEpoch());
    int textWidth = m_list->fontMetrics().horizontalAdvance(progressText(&sample));
    for (const Lesson& lesson : lessonCatalog()) {
        auto* item = new QListWidgetItem(LessonTexts::title(lesson.id), m_list);
        item->setData(Qt::UserRole, QString::fromStdString(lesson.id));
        textWidth = std::max(textWidth, m_list->fontMetrics().horizontalAdvance(LessonTexts::title(lesson.id)));
    }
    const int listWidth = textWidth + m_list->iconSize().width() + 32 + 2 * m_list->frameWidth();
    m_list->setMinimumWidth(m_list->fontMetrics().averageCharWidth() * 12);
    m_list->setTextElideMode(Qt::ElideRight);

    m_title = new QLabel;
    m_title->setObjectName(QStringLiteral("lessonTitle"));
    QFont titleFont = m_title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.3);
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_title->setWordWrap(true);
    m_goal = new QLabel;
    m_goal->setObjectName(QStringLiteral("lessonGoal"));
    m_goal->setWordWrap(true);
    m_glossary = new QLabel;  // the lesson's glossary entries, each a link into the glossary
    m_glossary->setObjectName(QStringLiteral("lessonGlossary"));
    m_glossary->setWordWrap(true);
    m_glossary->setTextFormat(Qt::RichText);
    connect(m_glossary, &QLabel::linkActivated, this, [this](const QString& id) { GlossaryBrowser::open(this, id); });
    m_state = new QLabel;
    m_state->setObjectName(QStringLiteral("lessonState"));
    m_state->setWordWrap(true);
    m_body = new QTextBrowser;
    m_body->setObjectName(QStringLiteral("lessonText"));
    m_body->setOpenExternalLinks(false);
    m_open = new QPushButton(tr("Open the Starting Experiment"));
    m_open->setObjectName(QStringLiteral("openLessonExperiment"));
    m_open->setToolTip(tr("Opens the lesson's experiment on the Train page, as File > Open does"));
    m_check = new QPushButton(tr("Check My Runs"));
    m_check->setObjectName(QStringLiteral("checkLesson"));
    m_check->setToolTip(tr("Reads your runs of this lesson's experiment and says whether the goal is reached (F5)"));
    m_check->setShortcut(QKeySequence::Refresh);  // only while the page is shown, as the Runs page's F5
    m_result = new QLabel;
    m_result->setObjectName(QStringLiteral("lessonResult"));
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_open);
    buttons->addWidget(m_check);
    buttons->addStretch(1);

    auto* detail = new QWidget;
    auto* right = new QVBoxLayout(detail);
    right->setContentsMargins(12, 0, 0, 0);
    right->addWidget(m_title);
    right->addWidget(m_goal);
    right->addWidget(m_glossary);
    right->addWidget(m_state);
    right->addWidget(m_body, 1);
    right->addLayout(buttons);
    right->addWidget(m_result);

    auto* splitter = new QSplitter(Qt::Horizontal);
    splitter->addWidget(m_list);
    splitter->addWidget(detail);
    splitter->setStretchFactor(1, 1);
    splitter->setCollapsible(0, false);
    splitter->setStretchFactor(0, 0);
    splitter->setSizes({listWidth, fontMetrics().averageCharWidth() * 90});

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(24, 20, 24, 20);
    layout->setSpacing(10);
    auto* top = new QHBoxLayout;
    top->addWidget(heading);
    top->addStretch(1);
    top->addWidget(m_summary);
    layout->addLayout(top);
    layout->addWidget(splitter, 1);

    connect(m_list, &QListWidget::currentRowChanged, this, &LearnPage::showLesson);
    connect(m_open, &QPushButton::clicked, this, &LearnPage::openStartingExperiment);
    connect(m_check, &QPushButton::clicked, this, &LearnPage::checkMyRuns);
    connect(&m_watcher, &QFutureWatcher<LessonResult>::finished, this, [this] {
        const LessonResult result = m_watcher.result();
        const std::string lesson = m_checking;
        m_checking.clear();
        m_check->setEnabled(true);
        refreshProgress();
        if (lesson == currentLessonId()) showResult(result);
        emit checkFinished(result.passed);
    });

    refreshProgress();
    m_list->setCurrentRow(0);
}

LearnPage::~LearnPage() { m_watcher.waitForFinished(); }

std::string LearnPage::currentLessonId() const
{
    const QListWidgetItem* item = m_list->currentItem();
    return item ? item->data(Qt::UserRole).toString().toStdString() : std::string();
}

std::vector<std::string> LearnPage::currentGlossaryIds() const
{
    const Lesson* lesson = findLesson(currentLessonId());
    return lesson ? lesson->glossary : std::vector<std::string>{};
}

void LearnPage::selectLesson(const std::string& lessonId)
{
    for (int row = 0; row < m_list->count(); ++row)
        if (m_list->item(row)->data(Qt::UserRole).toString().toStdString() == lessonId) m_list->setCurrentRow(row);
}

QString LearnPage::resultText() const { return m_result->text().isEmpty() ? QString() : m_result->toolTip(); }

const LessonProgress* LearnPage::progressOf(const std::string& lessonId) const
{
    const auto it = std::find_if(m_progress.begin(), m_progress.end(), [&](const LessonProgress& p) { return p.lessonId == lessonId; });
    return it == m_progress.end() ? nullptr : &*it;
}

QString LearnPage::progressText(const LessonProgress* p) const
{
    if (!p || (p->started == 0 && p->passed == 0)) return tr("Not started");
    if (p->passed > 0) return tr("Passed %1").arg(when(p->passed));
    return tr("Started %1").arg(when(p->started));
}

void LearnPage::refreshProgress()
{
    try {
        m_progress = readLessonProgress(m_workspace);
    } catch (const std::exception& e) {  // not a TrainStudio database, a newer schema: shown, not fatal
        m_progress.clear();
        m_summary->setText(QString::fromStdString(e.what()));
        return;
    }
    int passed = 0;
    for (int row = 0; row < m_list->count(); ++row) {
        QListWidgetItem* item = m_list->item(row);
        const std::string id = item->data(Qt::UserRole).toString().toStdString();
        const LessonProgress* p = progressOf(id);
        const bool done = p && p->passed > 0;
        passed += done;
        item->setText(LessonTexts::title(id) + QLatin1Char('\n') + progressText(p));
        item->setIcon(done ? style()->standardIcon(QStyle::SP_DialogApplyButton)
                      : p && p->started > 0 ? style()->standardIcon(QStyle::SP_MediaPlay)
                                            : QIcon());
    }
    m_summary->setText(tr("Lessons passed: %1 of %2").arg(passed).arg(m_list->count()));
    if (const int row = m_list->currentRow(); row >= 0) m_state->setText(progressText(progressOf(currentLessonId())));
}

void LearnPage::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) {
        refreshProgress();
        if (const int row = m_list->currentRow(); row >= 0) showLesson(row);
    }
    QWidget::changeEvent(event);
}

void LearnPage::showLesson(int row)
{
    if (row < 0) return;
    const std::string id = currentLessonId();
    m_title->setText(LessonTexts::title(id));
    m_goal->setText(tr("Goal: %1").arg(LessonTexts::goal(id)));
    m_state->setText(progressText(progressOf(id)));
    QStringList links;
    const Glossary& glossary = Glossary::studio();
    for (const std::string& entryId : currentGlossaryIds())
        if (const GlossaryEntry* e = glossary.entry(QString::fromStdString(entryId)))
            links << QStringLiteral("<a href=\"%1\">%2</a>")
                         .arg(e->id, e->title.in(Glossary::chineseByDefault()).toHtmlEscaped());
    m_glossary->setText(links.isEmpty() ? QString() : tr("In the glossary: %1").arg(links.join(QStringLiteral(", "))));
    m_glossary->setVisible(!links.isEmpty());
    m_body->setHtml(LessonTexts::body(id));
    m_check->setEnabled(m_checking.empty());
    // The last check's headline, from the store, until the learner checks again.
    const LessonProgress* p = progressOf(id);
    if (p && p->checked > 0) showResult({p->lastPassed, p->lastResult, {}});
    else {
        m_result->clear();
        m_result->setToolTip(QString());
    }
}

void LearnPage::showResult(const LessonResult& result)
{
    QStringList lines{renderMessage(result.headline)};
    for (const Message& m : result.details) lines << renderMessage(m);
    QStringList escaped;
    for (const QString& line : lines) escaped << line.toHtmlEscaped();
    const QString verdict = result.passed ? tr("Passed") : tr("Not yet");
    const QString color = result.passed ? QStringLiteral("#1a7f37") : QStringLiteral("#9a6700");
    m_result->setText(QStringLiteral("<b style=\"color:%1\">%2</b> %3")
                          .arg(color, verdict.toHtmlEscaped(), escaped.join(QStringLiteral("<br>"))));
    m_result->setToolTip(verdict + QLatin1Char(' ') + lines.join(QLatin1Char('\n')));  // the plain text, for tests and copying
}

void LearnPage::openStartingExperiment()
{
    const Lesson* lesson = findLesson(currentLessonId());
    if (!lesson) return;
    const std::filesystem::path path = lessonExperimentPath(*lesson);
    if (path.empty() || !std::filesystem::is_regular_file(path)) {
        m_result->setText(tr("The lesson's experiment %1 is not installed: reinstall TrainStudio, or run it from its source tree.")
                              .arg(QString::fromStdString(lesson->experimentFile)));
        m_result->setToolTip(m_result->text());
        return;
    }
    try {
        markLessonStarted(m_workspace, lesson->id);
    } catch (const std::exception&) {
        // a read-only workspace: the lesson still opens; its progress is not kept
    }
    refreshProgress();
    emit openExperimentRequested(QString::fromStdString(path.string()));
}

void LearnPage::checkMyRuns()
{
    const std::string id = currentLessonId();
    if (id.empty() || m_watcher.isRunning()) return;
    m_checking = id;
    m_check->setEnabled(false);
    m_result->setText(tr("Checking your runs…"));
    m_result->setToolTip(QString());
    m_watcher.setFuture(QtConcurrent::run([workspace = m_workspace, id] { return runCheck(workspace, id); }));
}

}  // namespace ts::ui

#include "glossary_browser.h"

#include <QApplication>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QScreen>
#include <QSignalBlocker>
#include <QStyle>
#include <QSplitter>
#include <QTextBrowser>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>

#include "ui/hyperparameters/option_help.h"
#include "ui/train/diagnostic_cards.h"

namespace ts::ui {

namespace {

const QString kScheme = QStringLiteral("glossary");

QString paragraph(const QString& heading, const QString& html)
{
    return QStringLiteral("<h3>%1</h3><p>%2</p>").arg(heading.toHtmlEscaped(), html);
}

}  // namespace

GlossaryBrowser::GlossaryBrowser(const Glossary& glossary, QWidget* parent)
    : QWidget(parent), m_glossary(glossary), m_chinese(Glossary::chineseByDefault())
{
    setObjectName(QStringLiteral("glossaryBrowser"));
    setWindowFlags(windowFlags() | Qt::Window);  // its own window, closed with its parent's
    setWindowTitle(tr("Glossary"));

    m_search = new QLineEdit;
    m_search->setObjectName(QStringLiteral("glossarySearch"));
    m_search->setPlaceholderText(tr("Search in English or Chinese"));
    m_search->setClearButtonEnabled(true);
    m_list = new QListWidget;
    m_list->setObjectName(QStringLiteral("glossaryList"));
    m_list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_noMatch = new QLabel;
    m_noMatch->setObjectName(QStringLiteral("glossaryNoMatch"));
    m_noMatch->setWordWrap(true);
    m_noMatch->hide();

    m_text = new QTextBrowser;
    m_text->setObjectName(QStringLiteral("glossaryText"));
    m_text->setOpenLinks(false);  // related entries open here; nothing leaves the studio
    m_language = new QToolButton;
    m_language->setObjectName(QStringLiteral("glossaryLanguage"));
    m_language->setToolTip(tr("Show the entry in the other language"));
    m_language->setAutoRaise(true);

    auto* left = new QWidget;
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(m_search);
    leftLayout->addWidget(m_noMatch);
    leftLayout->addWidget(m_list, 1);
    auto* right = new QWidget;
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(m_language, 0, Qt::AlignRight);
    rightLayout->addWidget(m_text, 1);
    auto* splitter = new QSplitter;
    splitter->addWidget(left);
    splitter->addWidget(right);
    splitter->setStretchFactor(1, 1);
    splitter->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(splitter);

    fillList({});
    // Wide enough for the longest title in either language: the list never cuts one short.
    int widest = m_search->sizeHint().width();
    for (const GlossaryEntry& e : m_glossary.entries())
        for (const QString& t : {e.title.en, e.title.zh}) widest = std::max(widest, m_list->fontMetrics().horizontalAdvance(t));
    m_list->setMinimumWidth(widest + 2 * m_list->frameWidth() + m_list->style()->pixelMetric(QStyle::PM_ScrollBarExtent) + 16);

    connect(m_search, &QLineEdit::textChanged, this, &GlossaryBrowser::fillList);
    connect(m_search, &QLineEdit::returnPressed, this, [this] {
        if (m_list->count() > 0) showEntry(m_list->item(0)->data(Qt::UserRole).toString());
    });
    connect(m_list, &QListWidget::currentItemChanged, this, [this](QListWidgetItem* item) {
        if (item) showEntry(item->data(Qt::UserRole).toString());
    });
    connect(m_text, &QTextBrowser::anchorClicked, this, &GlossaryBrowser::onLink);
    connect(m_language, &QToolButton::clicked, this, [this] { setShowsChinese(!m_chinese); });

    const QFontMetrics fm = fontMetrics();
    QSize size(fm.averageCharWidth() * 140, fm.height() * 44);
    if (const QScreen* screen = this->screen()) size = size.boundedTo(screen->availableSize() * 0.9);
    resize(size);
    if (!m_glossary.entries().empty()) showEntry(m_glossary.entries().front().id);
    render();
}

void GlossaryBrowser::fillList(const QString& query)
{
    const QSignalBlocker blocker(m_list);
    m_list->clear();
    QStringList ids;
    if (query.trimmed().isEmpty()) {
        for (const GlossaryEntry& e : m_glossary.entries()) ids << e.id;
    } else {
        ids = m_glossary.search(query);
    }
    for (const QString& id : ids) {
        const GlossaryEntry* e = m_glossary.entry(id);
        auto* item = new QListWidgetItem(e->title.in(m_chinese), m_list);
        item->setData(Qt::UserRole, id);
        item->setToolTip(e->title.in(!m_chinese));
        if (id == m_current) m_list->setCurrentItem(item);
    }
    m_noMatch->setText(tr("No entry matches “%1”.").arg(query.trimmed()));
    m_noMatch->setVisible(ids.isEmpty() && !query.trimmed().isEmpty());
}

bool GlossaryBrowser::showEntry(const QString& id)
{
    if (!m_glossary.entry(id)) return false;
    m_current = id;
    for (int i = 0; i < m_list->count(); ++i)
        if (m_list->item(i)->data(Qt::UserRole).toString() == id) {
            const QSignalBlocker blocker(m_list);
            m_list->setCurrentRow(i);
            m_list->scrollToItem(m_list->item(i));
        }
    render();
    return true;
}

void GlossaryBrowser::setShowsChinese(bool chinese)
{
    if (chinese == m_chinese) return;
    m_chinese = chinese;
    fillList(m_search->text());
    render();
}

void GlossaryBrowser::render()
{
    // The button names the language it switches to, in that language (as View > Language does).
    m_language->setText(m_chinese ? QStringLiteral("English") : QStringLiteral("中文"));
    const GlossaryEntry* e = m_glossary.entry(m_current);
    if (!e) {
        m_text->setHtml(QStringLiteral("<p>%1</p>").arg(
            (m_glossary.problem().isEmpty() ? tr("The glossary is empty.") : tr("The glossary could not be read: %1").arg(m_glossary.problem()))
                .toHtmlEscaped()));
        return;
    }
    const bool zh = m_chinese;
    QString html = QStringLiteral("<h2>%1</h2><p style=\"color:gray\">%2</p>")
                       .arg(e->title.in(zh).toHtmlEscaped(), e->title.in(!zh).toHtmlEscaped());
    html += paragraph(tr("What it is"), e->what.in(zh).toHtmlEscaped());
    html += paragraph(tr("When to use it"), e->when.in(zh).toHtmlEscaped());
    html += paragraph(tr("Numbers to start from"), e->numbers.in(zh).toHtmlEscaped());
    if (!e->options.isEmpty()) {
        QStringList settings;
        for (const QString& key : e->options)
            settings << QStringLiteral("%1 <code>%2</code>").arg(optionLabel(key.toStdString()).toHtmlEscaped(), key.toHtmlEscaped());
        html += paragraph(tr("Settings (Hyperparameters page)"), settings.join(QStringLiteral("<br>")));
    }
    if (!e->rules.isEmpty()) {
        QStringList cards;
        for (const QString& rule : e->rules) cards << DiagnosticCards::title(rule).toHtmlEscaped();
        html += paragraph(tr("Diagnostics that point here (Train page)"), cards.join(QStringLiteral("<br>")));
    }
    if (!e->related.isEmpty()) {
        QStringList links;
        for (const QString& id : e->related)
            if (const GlossaryEntry* r = m_glossary.entry(id))
                links << QStringLiteral("<a href=\"%1:%2\">%3</a>").arg(kScheme, id, r->title.in(zh).toHtmlEscaped());
        html += paragraph(tr("Related"), links.join(QStringLiteral(" &nbsp;·&nbsp; ")));
    }
    m_text->setHtml(html);
}

void GlossaryBrowser::onLink(const QUrl& url)
{
    if (url.scheme() == kScheme) showEntry(url.path());
}

GlossaryBrowser* GlossaryBrowser::open(QWidget* from, const QString& id)
{
    QWidget* top = from ? from->window() : QApplication::activeWindow();
    auto* browser = qobject_cast<GlossaryBrowser*>(top);
    if (!browser && top) browser = top->findChild<GlossaryBrowser*>(QString(), Qt::FindDirectChildrenOnly);
    if (!browser) {
        browser = new GlossaryBrowser(Glossary::studio(), top);
        if (!top) browser->setAttribute(Qt::WA_DeleteOnClose);
        else browser->move(top->geometry().center() - browser->rect().center());  // over the window that asked
    }
    if (!id.isEmpty()) browser->showEntry(id);
    browser->show();
    browser->raise();
    browser->activateWindow();
    return browser;
}

QString GlossaryBrowser::contextEntry(const QWidget* widget)
{
    for (const QWidget* w = widget; w; w = w->parentWidget()) {
        const QString id = w->property("glossaryEntry").toString();
        if (!id.isEmpty()) return id;
        if (w->isWindow()) break;
    }
    return {};
}

}  // namespace ts::ui

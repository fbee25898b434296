// The glossary's window (Help > Glossary, F1): a search field (English or Chinese), the list
// of entries, and the chosen entry: what it is, when to use it, the seeds' numbers, the
// settings and diagnostics it explains, and links to related entries. Entries show in the
// studio's language; a button switches one entry to the other language.
//
// GlossaryBrowser::open(widget, id) is how the rest of the studio reaches it: the option
// tooltips' "more…", the diagnostic cards' "more…", and F1 on a widget whose "glossaryEntry"
// property names an entry (contextEntry()).
#pragma once

#include <QWidget>

#include "glossary.h"

class QLabel;
class QLineEdit;
class QListWidget;
class QTextBrowser;
class QToolButton;
class QUrl;

namespace ts::ui {

class GlossaryBrowser : public QWidget {
    Q_OBJECT
public:
    explicit GlossaryBrowser(const Glossary& glossary = Glossary::studio(), QWidget* parent = nullptr);

    // Shows entry `id` (selecting it in the list when listed); false for an id that names none.
    bool showEntry(const QString& id);
    QString currentEntry() const { return m_current; }
    bool showsChinese() const { return m_chinese; }
    void setShowsChinese(bool chinese);

    QLineEdit* searchField() const { return m_search; }
    QListWidget* entryList() const { return m_list; }
    QTextBrowser* entryText() const { return m_text; }

    // The glossary window of `from`'s window (made on first use, closed with it), at entry
    // `id` when one is given, shown and raised. `from` null: the active window's.
    static GlossaryBrowser* open(QWidget* from, const QString& id = {});
    // The entry named by the "glossaryEntry" property of `widget` or the nearest parent with one.
    static QString contextEntry(const QWidget* widget);

private:
    void fillList(const QString& query);
    void render();
    void onLink(const QUrl& url);

    const Glossary& m_glossary;
    QLineEdit* m_search = nullptr;
    QListWidget* m_list = nullptr;
    QLabel* m_noMatch = nullptr;
    QTextBrowser* m_text = nullptr;
    QToolButton* m_language = nullptr;
    QString m_current;
    bool m_chinese = false;
};

}  // namespace ts::ui

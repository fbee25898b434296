#include "live_language.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QHash>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QMutex>
#include <QPointer>
#include <QRegularExpression>
#include <QSet>
#include <QStandardItemModel>
#include <QTabBar>
#include <QTableWidget>
#include <QTranslator>
#include <QTreeWidget>

#include <functional>
#include <optional>

#include "translations.h"

namespace ts::ui {

namespace {

using Contexts = QSet<QByteArray>;

// Where a text the user sees came from: the arguments of the tr() call that produced it.
struct Origin {
    QByteArray context, source, disambiguation;
    int n = -1;

    QString translate(int count) const
    {
        return QCoreApplication::translate(context.constData(), source.constData(),
                                           disambiguation.isNull() ? nullptr : disambiguation.constData(), count);
    }
};

// A text with placeholders ("Device: %1", "%n run(s)"), as a pattern that finds the values
// in a filled-in copy of it. Placeholders are Qt's: %1..%99, %L1, %n, %Ln.
struct Template {
    Origin origin;
    QString prefix, suffix;  // the literal text before the first and after the last placeholder
    QRegularExpression pattern;
    QStringList placeholders;  // in order of appearance: "%1", "%L2", "%n"
    int literalLength = 0;     // how specific it is: the longest match wins
};

const QRegularExpression& placeholderPattern()
{
    static const QRegularExpression p(QStringLiteral("%L?(?:[1-9][0-9]?|n)"));
    return p;
}

// The one translator the application installs: it asks the loaded language files and
// remembers each answer's origin. Thread-safe, as QCoreApplication::translate may be called
// from any thread.
class RememberingTranslator : public QTranslator {
public:
    using QTranslator::QTranslator;

    bool isEmpty() const override { return false; }

    QString translate(const char* context, const char* sourceText, const char* disambiguation, int n) const override
    {
        if (!sourceText || !*sourceText) return {};
        QMutexLocker lock(&m_mutex);
        QString answer;
        for (QTranslator* file : m_files) {
            answer = file->translate(context, sourceText, disambiguation, n);
            if (!answer.isEmpty()) break;
        }
        // Qt shows the source when nobody answers: remember that text too (English).
        const QString shown = answer.isEmpty() ? QString::fromUtf8(sourceText) : answer;
        QList<Origin>& origins = m_origins[shown];
        // One text may come from several sources ("Step" on two pages, translated differently).
        const bool known = std::any_of(origins.begin(), origins.end(), [&](const Origin& o) {
            return o.context == context && o.source == sourceText && o.disambiguation == disambiguation;
        });
        if (!known) {
            Origin origin{QByteArray(context), QByteArray(sourceText),
                          disambiguation ? QByteArray(disambiguation) : QByteArray(), n};
            origins.append(origin);
            if (origins.size() == 1 && shown.contains(placeholderPattern())) m_newTemplates.append({shown, origin});
        }
        return answer;
    }

    // Replaces the language files; the memory of origins stays (it is keyed by the text shown).
    void setFiles(const QList<QTranslator*>& files)
    {
        QMutexLocker lock(&m_mutex);
        qDeleteAll(m_files);
        m_files = files;
        for (QTranslator* file : files) file->setParent(this);
    }

    // The text `shown` in the current language, or a null string when it was not made by tr().
    // Of several sources, the one whose context is among `contexts` (the classes of the widget
    // showing it and of its parents) wins.
    QString retranslated(const QString& shown, const Contexts& contexts, int depth = 0) const
    {
        if (shown.isEmpty()) return {};
        const QString exact = retranslatedExactly(shown, contexts);
        return exact.isNull() ? refilled(shown, contexts, depth) : exact;
    }

    // A filled-in template: the same values put into the template's new translation.
    QString refilled(const QString& shown, const Contexts& contexts, int depth) const
    {
        const Template* best = nullptr;
        QRegularExpressionMatch bestMatch;
        for (const Template& t : templates()) {
            if (best && t.literalLength <= best->literalLength) continue;
            if (!shown.startsWith(t.prefix) || !shown.endsWith(t.suffix) ||
                shown.size() < t.prefix.size() + t.suffix.size())
                continue;
            QRegularExpressionMatch match = t.pattern.match(shown);
            if (!match.hasMatch()) continue;
            best = &t;
            bestMatch = match;
        }
        if (!best) return {};
        int count = best->origin.n;
        QHash<QString, QString> values;
        for (int i = 0; i < best->placeholders.size(); ++i) {
            const QString& name = best->placeholders[i];
            QString value = bestMatch.captured(i + 1);
            if (name.endsWith(QLatin1Char('n'))) {
                bool ok = false;
                const int parsed = QLocale().toInt(value, &ok);
                count = ok ? parsed : value.toInt(&ok);
                if (!ok) return {};
                continue;  // translate() puts the count back
            }
            // A value that is itself a translated text ("Stopped", "CPU (2 threads)") follows the language.
            const QString inner = depth < 3 ? retranslated(value, contexts, depth + 1) : retranslatedExactly(value, contexts);
            values.insert(name, inner.isNull() ? value : inner);
        }
        QString text = best->origin.translate(count);
        // Fill each placeholder in one left-to-right pass, so values never get re-read.
        QString result;
        qsizetype from = 0;
        for (auto it = placeholderPattern().globalMatch(text); it.hasNext();) {
            const QRegularExpressionMatch m = it.next();
            result += text.mid(from, m.capturedStart() - from);
            result += values.value(m.captured(), m.captured());
            from = m.capturedEnd();
        }
        return result + text.mid(from);
    }

    QString retranslatedExactly(const QString& shown, const Contexts& contexts) const
    {
        const std::optional<Origin> origin = originOf(shown, contexts);
        return origin ? origin->translate(origin->n) : QString();
    }

    // A copy: translating calls back into translate(), which takes the lock.
    std::optional<Origin> originOf(const QString& shown, const Contexts& contexts) const
    {
        QMutexLocker lock(&m_mutex);
        auto it = m_origins.constFind(shown);
        if (it == m_origins.constEnd() || it->isEmpty()) return std::nullopt;
        for (const Origin& o : *it)
            if (contexts.contains(o.context)) return o;
        return it->first();
    }

private:
    // Patterns are compiled on the first switch, then as new templates appear; only the GUI
    // thread switches languages, so m_templates is read there alone.
    const QList<Template>& templates() const
    {
        QList<std::pair<QString, Origin>> fresh;
        {
            QMutexLocker lock(&m_mutex);
            fresh.swap(m_newTemplates);
        }
        for (const auto& [text, origin] : fresh) {
            Template t;
            t.origin = origin;
            QString pattern = QStringLiteral("^");
            qsizetype from = 0;
            for (auto it = placeholderPattern().globalMatch(text); it.hasNext();) {
                const QRegularExpressionMatch m = it.next();
                const QString literal = text.mid(from, m.capturedStart() - from);
                if (t.placeholders.isEmpty()) t.prefix = literal;
                pattern += QRegularExpression::escape(literal) + QStringLiteral("(.*?)");
                t.literalLength += literal.size();
                t.placeholders << m.captured();
                from = m.capturedEnd();
            }
            t.suffix = text.mid(from);
            t.literalLength += t.suffix.size();
            t.pattern = QRegularExpression(pattern + QRegularExpression::escape(t.suffix) + QStringLiteral("$"),
                                           QRegularExpression::DotMatchesEverythingOption);
            // "%1: %2" or "%1 (%2)" would match any text with a colon or brackets: words make a template.
            static const QRegularExpression word(QStringLiteral("\\p{L}"));
            if (QString(text).remove(placeholderPattern()).contains(word)) m_templates.append(std::move(t));
        }
        return m_templates;
    }

    mutable QMutex m_mutex;
    QList<QTranslator*> m_files;
    mutable QHash<QString, QList<Origin>> m_origins;
    mutable QList<std::pair<QString, Origin>> m_newTemplates;
    mutable QList<Template> m_templates;
};

QPointer<RememberingTranslator> g_translator;
QString g_current;

// The tr() contexts an object's texts most likely come from: its class and its parents'
// classes, with their base classes ("ts::ui::RunsPage", "ts::widgets::LiveChart", ...).
Contexts contextsOf(const QObject* object)
{
    Contexts contexts;
    for (; object; object = object->parent())
        for (const QMetaObject* mo = object->metaObject(); mo; mo = mo->superClass()) contexts.insert(mo->className());
    return contexts;
}

// The source each text set by a switch came from, by the thing showing it: one Chinese word
// may stand for two English texts ("学习率": "Learning rate", "learning rate"), and the way
// back takes the one it came from.
QHash<QString, Origin> g_chosen;  // by chosenKey()

QString chosenKey(const void* owner, const QByteArray& slot, const QString& shown)
{
    return QString::number(quintptr(owner), 16) + QLatin1Char('/') + QLatin1String(slot) + QLatin1Char('/') + shown;
}

// Sets a text through `set` when it was made by tr() and reads differently now.
void update(const RememberingTranslator& tr, const Contexts& contexts, const void* owner, const QByteArray& slot,
            const QString& shown, const std::function<void(const QString&)>& set)
{
    if (shown.isEmpty()) return;
    std::optional<Origin> origin;
    if (auto it = g_chosen.constFind(chosenKey(owner, slot, shown)); it != g_chosen.constEnd()) origin = *it;
    else origin = tr.originOf(shown, contexts);
    QString now = origin ? origin->translate(origin->n) : tr.retranslated(shown, contexts);
    if (now.isNull() && shown.contains(QLatin1Char('\n'))) {  // lines composed from several texts
        QStringList lines = shown.split(QLatin1Char('\n'));
        bool any = false;
        for (QString& line : lines)
            if (const QString translated = tr.retranslated(line, contexts); !translated.isNull()) line = translated, any = true;
        if (any) now = lines.join(QLatin1Char('\n'));
    }
    if (now.isNull()) return;
    if (origin) g_chosen.insert(chosenKey(owner, slot, now), *origin);
    if (now != shown) set(now);
}

// The words a widget shows that are properties: Qt's (a label's text, a button's, a group's
// title, tool tips, placeholders, spin box affixes, a progress format) by name, and every
// writable text property our own widgets declare (a chart's title, axis label and legend).
// What a user types (a line edit's text, a combo box's current text) is no property named here.
bool showsWords(const QWidget* w, const QMetaObject* declaredBy, const QByteArray& name)
{
    static const QSet<QByteArray> qtWords{"windowTitle", "toolTip", "statusTip", "whatsThis", "accessibleName",
                                          "accessibleDescription", "title", "placeholderText", "format",
                                          "suffix", "prefix", "specialValueText"};
    if (QByteArray(declaredBy->className()).startsWith("ts::")) return true;
    if (name == "text") return qobject_cast<const QLabel*>(w) || qobject_cast<const QAbstractButton*>(w);
    return qtWords.contains(name);
}

void retranslateProperties(const RememberingTranslator& tr, const Contexts& contexts, QWidget* w)
{
    for (const QMetaObject* mo = w->metaObject(); mo; mo = mo->superClass())
        for (int i = mo->propertyOffset(); i < mo->propertyCount(); ++i) {  // its own, not its bases'
            const QMetaProperty property = mo->property(i);
            if (!property.isWritable() || !showsWords(w, mo, property.name())) continue;
            if (property.metaType().id() == QMetaType::QString) {
                update(tr, contexts, w, property.name(), property.read(w).toString(), [&](const QString& s) { property.write(w, s); });
            } else if (property.metaType().id() == QMetaType::QStringList) {
                QStringList texts = property.read(w).toStringList();
                bool changed = false;
                for (QString& text : texts)
                    update(tr, contexts, w, property.name(), text, [&](const QString& s) { text = s, changed = true; });
                if (changed) property.write(w, texts);
            }
        }
}

void retranslateItems(const RememberingTranslator& tr, const Contexts& ctx, QStandardItem* item)
{
    if (!item) return;
    update(tr, ctx, item, "text", item->text(), [item](const QString& s) { item->setText(s); });
    update(tr, ctx, item, "toolTip", item->toolTip(), [item](const QString& s) { item->setToolTip(s); });
    for (int row = 0; row < item->rowCount(); ++row)
        for (int column = 0; column < item->columnCount(); ++column) retranslateItems(tr, ctx, item->child(row, column));
}

void retranslateTree(const RememberingTranslator& tr, const Contexts& ctx, QTreeWidgetItem* item)
{
    for (int c = 0; c < item->columnCount(); ++c) {
        update(tr, ctx, item, "text", item->text(c), [item, c](const QString& s) { item->setText(c, s); });
        update(tr, ctx, item, "toolTip", item->toolTip(c), [item, c](const QString& s) { item->setToolTip(c, s); });
    }
    for (int i = 0; i < item->childCount(); ++i) retranslateTree(tr, ctx, item->child(i));
}

void retranslateWidget(const RememberingTranslator& tr, QWidget* w)
{
    const Contexts ctx = contextsOf(w);
    retranslateProperties(tr, ctx, w);

    if (auto* bar = qobject_cast<QTabBar*>(w)) {
        for (int i = 0; i < bar->count(); ++i) {
            update(tr, ctx, bar, "tabText", bar->tabText(i), [bar, i](const QString& s) { bar->setTabText(i, s); });
            update(tr, ctx, bar, "tabToolTip", bar->tabToolTip(i), [bar, i](const QString& s) { bar->setTabToolTip(i, s); });
        }
    } else if (auto* combo = qobject_cast<QComboBox*>(w)) {
        if (qobject_cast<QStandardItemModel*>(combo->model()))  // other models translate in data()
            for (int i = 0; i < combo->count(); ++i) {
                update(tr, ctx, combo, "itemText", combo->itemText(i), [combo, i](const QString& s) { combo->setItemText(i, s); });
                const QString tip = combo->itemData(i, Qt::ToolTipRole).toString();
                update(tr, ctx, combo, "itemToolTip", tip, [combo, i](const QString& s) { combo->setItemData(i, s, Qt::ToolTipRole); });
            }
    } else if (auto* list = qobject_cast<QListWidget*>(w)) {
        for (int i = 0; i < list->count(); ++i) {
            QListWidgetItem* item = list->item(i);
            update(tr, ctx, item, "text", item->text(), [item](const QString& s) { item->setText(s); });
            update(tr, ctx, item, "toolTip", item->toolTip(), [item](const QString& s) { item->setToolTip(s); });
        }
    } else if (auto* tree = qobject_cast<QTreeWidget*>(w)) {
        retranslateTree(tr, ctx, tree->headerItem());
        for (int i = 0; i < tree->topLevelItemCount(); ++i) retranslateTree(tr, ctx, tree->topLevelItem(i));
    } else if (auto* table = qobject_cast<QTableWidget*>(w)) {
        for (int c = 0; c < table->columnCount(); ++c)
            if (QTableWidgetItem* h = table->horizontalHeaderItem(c))
                update(tr, ctx, h, "text", h->text(), [h](const QString& s) { h->setText(s); });
        for (int r = 0; r < table->rowCount(); ++r) {
            if (QTableWidgetItem* h = table->verticalHeaderItem(r))
                update(tr, ctx, h, "text", h->text(), [h](const QString& s) { h->setText(s); });
            for (int c = 0; c < table->columnCount(); ++c)
                if (QTableWidgetItem* item = table->item(r, c)) {
                    update(tr, ctx, item, "text", item->text(), [item](const QString& s) { item->setText(s); });
                    update(tr, ctx, item, "toolTip", item->toolTip(), [item](const QString& s) { item->setToolTip(s); });
                }
        }
    } else if (auto* view = qobject_cast<QAbstractItemView*>(w)) {
        if (auto* model = qobject_cast<QStandardItemModel*>(view->model())) {
            for (int c = 0; c < model->columnCount(); ++c) retranslateItems(tr, ctx, model->horizontalHeaderItem(c));
            for (int r = 0; r < model->rowCount(); ++r) retranslateItems(tr, ctx, model->verticalHeaderItem(r));
            retranslateItems(tr, ctx, model->invisibleRootItem());
        }
    }
}

// An action's text without its mnemonic: "&Save" and "保存(&S)" both read "Save" / "保存".
QString withoutMnemonic(QString text)
{
    static const QRegularExpression chinese(QStringLiteral("\\(&.\\)$"));
    return text.remove(chinese).remove(QLatin1Char('&'));
}

void retranslateAction(const RememberingTranslator& tr, QAction* a)
{
    const Contexts ctx = contextsOf(a->parent());
    // A tool tip made of the text and the shortcut, "Save (Ctrl+S)", follows the text.
    const QString shortcut = a->shortcut().toString(QKeySequence::NativeText);
    const QString keyed = shortcut.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(shortcut);
    const bool tipFollowsText = !keyed.isEmpty() && a->toolTip() == withoutMnemonic(a->text()) + keyed;
    update(tr, ctx, a, "text", a->text(), [a](const QString& s) { a->setText(s); });
    if (tipFollowsText) a->setToolTip(withoutMnemonic(a->text()) + keyed);
    else update(tr, ctx, a, "toolTip", a->toolTip(), [a](const QString& s) { a->setToolTip(s); });
    update(tr, ctx, a, "statusTip", a->statusTip(), [a](const QString& s) { a->setStatusTip(s); });
    update(tr, ctx, a, "whatsThis", a->whatsThis(), [a](const QString& s) { a->setWhatsThis(s); });
}

// Every widget and every action of every window, each visited once.
void retranslateOpenWindows(const RememberingTranslator& tr)
{
    QSet<QAction*> actions;
    for (QWidget* w : QApplication::allWidgets()) {
        retranslateWidget(tr, w);
        for (QAction* a : w->actions()) actions.insert(a);
        if (w->isWindow())  // menus' and action groups' actions too
            for (QAction* a : w->findChildren<QAction*>()) actions.insert(a);
    }
    for (QAction* a : std::as_const(actions)) retranslateAction(tr, a);
}

}  // namespace

bool LiveLanguage::use(const QString& language)
{
    QCoreApplication* app = QCoreApplication::instance();
    if (!app) return false;
    if (!g_translator) {
        g_translator = new RememberingTranslator(app);
        QCoreApplication::installTranslator(g_translator);
    }
    const QLocale locale = language.isEmpty() ? QLocale::system() : QLocale(language);
    // Loaded, not installed: the remembering translator asks them in order.
    const QList<QTranslator*> files = Translations::load(language, nullptr);
    if (locale.language() != QLocale::English && !language.isEmpty() && files.isEmpty()) return false;
    QLocale::setDefault(locale);
    g_translator->setFiles(files);
    g_current = language;

    QEvent event(QEvent::LanguageChange);
    if (qobject_cast<QApplication*>(app)) {
        retranslateOpenWindows(*g_translator);
        // Then, at once, what pages compose from their data they compose again (changeEvent),
        // from the texts just translated; Qt's own widgets too. QApplication would post it.
        for (QWidget* window : QApplication::topLevelWidgets()) QCoreApplication::sendEvent(window, &event);
    } else {
        QCoreApplication::sendEvent(app, &event);
    }
    return true;
}

QString LiveLanguage::current() { return g_current; }

}  // namespace ts::ui

#include "glossary.h"

#include <QFile>
#include <QLocale>
#include <QtDebug>

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <set>
#include <stdexcept>

namespace ts::ui {

namespace {

const char* const kResource = ":/glossary/glossary.yaml";

[[noreturn]] void fail(const std::string& source, const YAML::Node& node, const std::string& what)
{
    const YAML::Mark mark = node.Mark();
    throw std::runtime_error(source + ":" + std::to_string(mark.line + 1) + ":" + std::to_string(mark.column + 1) + ": " + what);
}

QString scalar(const std::string& source, const YAML::Node& node, const std::string& name)
{
    if (!node.IsScalar()) fail(source, node, name + ": expected text");
    return QString::fromStdString(node.as<std::string>()).trimmed();
}

// {en: ..., zh: ...}; a language left out reads as empty, which check() reports.
GlossaryText text(const std::string& source, const YAML::Node& entry, const std::string& name)
{
    const YAML::Node node = entry[name];
    if (!node) return {};
    if (!node.IsMap()) fail(source, node, name + ": expected {en: ..., zh: ...}");
    GlossaryText t;
    if (node["en"]) t.en = scalar(source, node["en"], name + ".en");
    if (node["zh"]) t.zh = scalar(source, node["zh"], name + ".zh");
    return t;
}

QStringList list(const std::string& source, const YAML::Node& entry, const std::string& name)
{
    const YAML::Node node = entry[name];
    QStringList out;
    if (!node) return out;
    if (!node.IsSequence()) fail(source, node, name + ": expected a list [a, b]");
    for (const YAML::Node& item : node) out << scalar(source, item, name);
    return out;
}

bool hasChinese(const QString& s)
{
    return std::any_of(s.begin(), s.end(), [](QChar c) { return c.unicode() >= 0x4E00 && c.unicode() <= 0x9FFF; });
}

// Every searchable text of an entry, lower-cased, the titles apart.
QString titles(const GlossaryEntry& e) { return (e.title.en + QLatin1Char('\n') + e.title.zh + QLatin1Char('\n') + e.id).toLower(); }
QString body(const GlossaryEntry& e)
{
    return QStringList{e.what.en, e.what.zh, e.when.en, e.when.zh, e.numbers.en, e.numbers.zh, e.options.join(QLatin1Char(' '))}
        .join(QLatin1Char('\n'))
        .toLower();
}

}  // namespace

const Glossary& Glossary::studio()
{
    static const Glossary glossary = [] {
        QFile file(QString::fromLatin1(kResource));
        Glossary g;
        if (!file.open(QIODevice::ReadOnly)) {
            g.m_problem = QStringLiteral("%1: %2").arg(QString::fromLatin1(kResource), file.errorString());
        } else {
            try {
                g = fromYaml(file.readAll().toStdString(), kResource);
            } catch (const std::exception& e) {
                g.m_problem = QString::fromStdString(e.what());
            }
        }
        if (!g.m_problem.isEmpty()) qWarning().noquote() << "glossary:" << g.m_problem;
        return g;
    }();
    return glossary;
}

Glossary Glossary::fromYaml(const std::string& yamlText, const std::string& source)
{
    YAML::Node root;
    try {
        root = YAML::Load(yamlText);
    } catch (const YAML::Exception& e) {
        throw std::runtime_error(source + ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1) +
                                 ": not valid YAML (" + e.msg + ")");
    }
    const YAML::Node entries = root["entries"];
    if (!root.IsMap() || !entries || !entries.IsSequence()) fail(source, root, "expected a list under 'entries:'");
    Glossary g;
    std::set<QString> ids;
    for (const YAML::Node& node : entries) {
        if (!node.IsMap()) fail(source, node, "an entry must be a map (id, title, what, when, numbers, related)");
        if (!node["id"]) fail(source, node, "an entry without an id");
        GlossaryEntry e;
        e.id = scalar(source, node["id"], "id");
        if (e.id.isEmpty()) fail(source, node["id"], "an empty id");
        if (!ids.insert(e.id).second) fail(source, node["id"], "id '" + e.id.toStdString() + "' is used twice");
        if (!node["title"]) fail(source, node, "entry '" + e.id.toStdString() + "' has no title");
        e.title = text(source, node, "title");
        e.what = text(source, node, "what");
        e.when = text(source, node, "when");
        e.numbers = text(source, node, "numbers");
        e.related = list(source, node, "related");
        e.options = list(source, node, "options");
        e.rules = list(source, node, "rules");
        g.m_entries.push_back(std::move(e));
    }
    return g;
}

const GlossaryEntry* Glossary::entry(const QString& id) const
{
    for (const GlossaryEntry& e : m_entries)
        if (e.id == id) return &e;
    return nullptr;
}

QString Glossary::entryForOption(const QString& key) const
{
    for (const GlossaryEntry& e : m_entries)
        if (e.options.contains(key)) return e.id;
    return {};
}

QString Glossary::entryForRule(const QString& ruleId) const
{
    for (const GlossaryEntry& e : m_entries)
        if (e.rules.contains(ruleId)) return e.id;
    return {};
}

QStringList Glossary::search(const QString& query) const
{
    const QString q = query.simplified().toLower();
    const QStringList words = q.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (words.isEmpty()) return {};
    // Best first: a title that is the query, one that starts with it, one holding every word,
    // then the entries whose text holds them; the file's order within each.
    std::vector<std::pair<int, QString>> found;
    for (const GlossaryEntry& e : m_entries) {
        const QString t = titles(e), all = t + QLatin1Char('\n') + body(e);
        const auto holds = [&](const QString& s) {
            return std::all_of(words.begin(), words.end(), [&](const QString& w) { return s.contains(w); });
        };
        const QString en = e.title.en.toLower(), zh = e.title.zh.toLower();
        int rank = -1;
        if (en == q || zh == q || e.id == q) rank = 0;
        else if (en.startsWith(q) || zh.startsWith(q)) rank = 1;
        else if (holds(t)) rank = 2;
        else if (holds(all)) rank = 3;
        if (rank >= 0) found.emplace_back(rank, e.id);
    }
    std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    QStringList ids;
    for (const auto& [rank, id] : found) ids << id;
    return ids;
}

QStringList Glossary::check() const
{
    QStringList problems;
    std::set<QString> options, rules;
    for (const GlossaryEntry& e : m_entries) {
        const std::pair<const char*, const GlossaryText*> fields[] = {
            {"title", &e.title}, {"what", &e.what}, {"when", &e.when}, {"numbers", &e.numbers}};
        for (const auto& [name, t] : fields) {
            if (t->en.isEmpty()) problems << QStringLiteral("%1: %2 has no English").arg(e.id, QLatin1String(name));
            if (t->zh.isEmpty()) problems << QStringLiteral("%1: %2 has no Chinese").arg(e.id, QLatin1String(name));
            if (!t->zh.isEmpty() && !hasChinese(t->zh)) problems << QStringLiteral("%1: %2.zh is not Chinese").arg(e.id, QLatin1String(name));
            if (hasChinese(t->en)) problems << QStringLiteral("%1: %2.en holds Chinese").arg(e.id, QLatin1String(name));
        }
        for (const QString& r : e.related) {
            if (r == e.id) problems << QStringLiteral("%1: related to itself").arg(e.id);
            else if (!entry(r)) problems << QStringLiteral("%1: related entry '%2' does not exist").arg(e.id, r);
        }
        for (const QString& o : e.options)
            if (!options.insert(o).second) problems << QStringLiteral("%1: option %2 belongs to another entry too").arg(e.id, o);
        for (const QString& r : e.rules)
            if (!rules.insert(r).second) problems << QStringLiteral("%1: rule %2 belongs to another entry too").arg(e.id, r);
    }
    return problems;
}

bool Glossary::chineseByDefault() { return QLocale().language() == QLocale::Chinese; }

}  // namespace ts::ui

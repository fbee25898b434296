// The studio's bilingual glossary (issue 19 item 3): the seeds' practices and their numbers,
// each entry in English and Simplified Chinese. The content is data, not code:
// resources/glossary/glossary.yaml, compiled in as :/glossary/glossary.yaml and read here with
// yaml-cpp. Entries name the experiment options and the diagnostics they explain, so an
// option's tooltip and a diagnostic card can each offer "more…".
#pragma once

#include <QString>
#include <QStringList>

#include <string>
#include <vector>

namespace ts::ui {

struct GlossaryText {
    QString en, zh;
    const QString& in(bool chinese) const { return chinese ? zh : en; }
};

struct GlossaryEntry {
    QString id;  // "learning_rate"
    GlossaryText title, what, when, numbers;
    QStringList related;  // other entries' ids
    QStringList options;  // experiment option keys ("optimizer.lr")
    QStringList rules;    // diagnostic rule ids ("diag.loss_rising")
};

class Glossary {
public:
    // The studio's glossary, read once from the resource. Should the resource not read, it is
    // empty and problem() says why (the browser shows that).
    static const Glossary& studio();
    // Reads a glossary's YAML. Throws std::runtime_error "source:line:column: what" for text
    // that is no glossary (a missing id or title, a repeated id, a field of the wrong shape).
    static Glossary fromYaml(const std::string& text, const std::string& source);

    const std::vector<GlossaryEntry>& entries() const { return m_entries; }
    const GlossaryEntry* entry(const QString& id) const;
    // The entry explaining option `key` or diagnostic `ruleId`; empty when there is none.
    QString entryForOption(const QString& key) const;
    QString entryForRule(const QString& ruleId) const;
    // Ids of the entries holding every word of `query` (case-insensitive, either language,
    // option keys too), best first: a title that is the query, one starting with it, one holding
    // every word, then the rest; empty query: none.
    QStringList search(const QString& query) const;
    // What is wrong with the content, one line each: a language missing from a field, a related
    // id that names no entry, an option or rule claimed by two entries. Empty when sound.
    QStringList check() const;
    QString problem() const { return m_problem; }

    // Whether entries are shown in Chinese: the studio's language (the default QLocale).
    static bool chineseByDefault();

private:
    std::vector<GlossaryEntry> m_entries;
    QString m_problem;
};

}  // namespace ts::ui

#include "translations.h"

#include <QCoreApplication>
#include <QDir>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

namespace ts::ui {

namespace {
const QString kResourceDir = QStringLiteral(":/i18n");
const QString kPrefix = QStringLiteral("trainstudio_");

QTranslator* tryLoad(const QLocale& locale, const QString& name, const QString& dir, QObject* owner)
{
    auto* translator = new QTranslator(owner);
    // load(QLocale, ...) walks locale.uiLanguages(): zh_CN, zh-Hans-CN, ... as Qt documents.
    if (translator->load(locale, name, QStringLiteral("_"), dir)) return translator;
    delete translator;
    return nullptr;
}
}  // namespace

QStringList Translations::available()
{
    QStringList languages{QStringLiteral("en")};
    const QStringList files = QDir(kResourceDir).entryList({kPrefix + QStringLiteral("*.qm")}, QDir::Files, QDir::Name);
    for (const QString& file : files) languages << file.mid(kPrefix.size()).chopped(3);
    return languages;
}

QList<QTranslator*> Translations::load(const QString& language, QObject* owner)
{
    const QLocale locale = language.isEmpty() ? QLocale::system() : QLocale(language);
    QList<QTranslator*> loaded;
    // English is the source language: forcing it means loading nothing, whatever the system says.
    if (locale.language() == QLocale::English) return loaded;
    if (QTranslator* t = tryLoad(locale, QStringLiteral("trainstudio"), kResourceDir, owner)) loaded << t;
    // Qt's own strings (standard buttons, the About Qt box, --help); absent without qt6-translations-l10n.
    if (QTranslator* t = tryLoad(locale, QStringLiteral("qtbase"), QLibraryInfo::path(QLibraryInfo::TranslationsPath), owner))
        loaded << t;
    return loaded;
}

QList<QTranslator*> Translations::install(const QString& language, QObject* owner)
{
    if (!language.isEmpty()) QLocale::setDefault(QLocale(language));
    QList<QTranslator*> installed;
    for (QTranslator* t : load(language, owner)) {
        if (QCoreApplication::installTranslator(t)) installed << t;
        else delete t;
    }
    return installed;
}

void Translations::uninstall(const QList<QTranslator*>& translators)
{
    for (QTranslator* t : translators) {
        QCoreApplication::removeTranslator(t);
        delete t;
    }
}

}  // namespace ts::ui

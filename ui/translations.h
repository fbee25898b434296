// Language selection: TrainStudio's own translations are compiled into the binary (resource
// prefix :/i18n) so an uninstalled build finds them; Qt's come from the system when present.
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

class QObject;
class QTranslator;

namespace ts::ui {

class Translations {
public:
    // "en" (the source language) plus every language with a compiled-in translation.
    static QStringList available();

    // Loads, without installing, the translators for `language` (empty: the system's): the
    // studio's own and Qt's, in the order to ask them; none for English.
    static QList<QTranslator*> load(const QString& language, QObject* owner);
    // Installs translators for `language` ("zh_CN", "en"), or for the system locale when it is
    // empty, and makes that language the default QLocale when it is given. The translators
    // are children of `owner`; remove them with uninstall() (tests switch languages).
    static QList<QTranslator*> install(const QString& language, QObject* owner);
    static void uninstall(const QList<QTranslator*>& translators);
};

}  // namespace ts::ui

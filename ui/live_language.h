// Switching the studio's language while it runs, without a retranslateUi() beside every
// constructor. The one translator the application installs remembers, for every text it
// hands out, the (context, source) it came from; on a switch, retranslateOpenWindows() walks
// every widget and action and asks for each text's source again in the new language. Texts
// filled from a template ("Device: %1") are matched against the remembered templates and
// refilled with the same values. Texts a page computes from its data are refreshed by the
// page itself on QEvent::LanguageChange (models' data() calls tr() each time it is drawn).
#pragma once

#include <QString>

namespace ts::ui {

class LiveLanguage {
public:
    // Makes `language` ("zh_CN", "en"; empty: the system's) the studio's language: installs
    // its translators into the running application, sets the default QLocale, and translates
    // every open window's texts. Needs a QCoreApplication. Returns false when no translation
    // of that language is compiled in (English needs none and always succeeds).
    static bool use(const QString& language);

    // What the last use() was given: "" for the system's language.
    static QString current();
};

}  // namespace ts::ui

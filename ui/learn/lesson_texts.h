// The words of the lessons (engine/learn/lessons.h keeps their checks): a title and a one-line
// goal per lesson through tr(), and the lesson's text, a short HTML page per language compiled
// in under :/lessons/<language>/<id>.html (resources/lessons/).
#pragma once

#include <QCoreApplication>
#include <QString>

#include <string>

namespace ts::ui {

class LessonTexts {
    Q_DECLARE_TR_FUNCTIONS(LessonTexts)
public:
    static QString title(const std::string& lessonId);
    static QString goal(const std::string& lessonId);
    // The text in the default locale's language (Simplified Chinese or English), else English;
    // empty for an unknown lesson.
    static QString body(const std::string& lessonId);
    // "zh_CN" when the default locale is Chinese, else "en": the folder of body().
    static QString language();
};

}  // namespace ts::ui

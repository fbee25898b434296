// A count in the user's locale ("60,000"): one spelling for every panel of the Datasets page.
#pragma once

#include <QLocale>
#include <QString>

#include <cstdint>

namespace ts::ui {

inline QString countText(std::int64_t n) { return QLocale().toString(qlonglong(n)); }

}  // namespace ts::ui

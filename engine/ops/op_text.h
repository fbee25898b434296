// Included by op files only. The help texts an op carries are English and marked with
// QT_TRANSLATE_NOOP("AttrHelp", ...): the UI's lupdate scans engine/ops/ and collects them for
// the .ts files, and the studio translates them when it shows them. The engine keeps the text
// as it is; the definition is Qt's own, so the two never disagree.
#pragma once
#ifndef QT_TRANSLATE_NOOP
#define QT_TRANSLATE_NOOP(scope, x) x
#endif

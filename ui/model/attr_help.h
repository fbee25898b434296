// What each op is and what each of its attributes does, for the Model page's palette, op popup
// and property editor: the studio's words (translated, context "AttrHelp"), keyed by the
// engine's op types and attribute names. The advice is the seeds' (shared/seeds): "Dropout p
// 0.1-0.5", "BatchNorm momentum 0.1, 0.01 for small batches", "label_smoothing 0.1", ...
#pragma once

#include <QString>

#include "types/attrs.h"

namespace ts {
class Op;
}  // namespace ts

namespace ts::ui {

// One line ("Fully connected layer: y = xWᵀ + b"); for an op without its own text, a generic
// line naming the type.
QString opDescription(const QString& opType);
// What the attribute does and how to set it. Without its own text: a generic one naming the
// type, the default and the allowed values (from the op's AttrSpec when the op is registered),
// so a new op's attributes still get a tooltip.
QString attributeHelp(const QString& opType, const QString& attr);

// Whether the texts above are written for it rather than the generic fallback (tests check
// every registered op and attribute has its own).
bool hasOpDescription(const QString& opType);
bool hasAttributeHelp(const QString& opType, const QString& attr);

// The value as a person types it: "3, 3" for a list, "0.1", "true", a name unquoted.
QString attrValueText(const ts::AttrValue& value);
// "an integer", "a list of 2 integers", ... (translated)
QString attrTypeText(const ts::AttrSpec& spec);
// "Default: 1" / "Required" / "One of: ..." lines for a tooltip, plain text.
QString attrDefaultText(const ts::AttrSpec& spec);

// A rich-text tooltip for an op: its description, its inputs, its attributes with defaults.
QString opToolTip(const ts::Op& op);

}  // namespace ts::ui

// Help for the engine's ops and their attributes, in the studio's language. The English texts
// live beside each op (Op::help, AttrSpec::help, marked QT_TRANSLATE_NOOP("AttrHelp", ...));
// lupdate collects them from engine/ops/ and each lookup here translates.
#include "attr_help.h"

#include <QCoreApplication>
#include <QLocale>
#include <QStringList>

#include <algorithm>

#include "ops/op.h"
#include "ops/registry.h"

namespace ts::ui {

namespace {

const char* const kContext = "AttrHelp";

QString translated(const char* text) { return QCoreApplication::translate(kContext, text); }

const ts::Op* registered(const QString& opType) { return ts::OpRegistry::builtin().find(opType.toStdString()); }

const ts::AttrSpec* findSpec(const std::vector<ts::AttrSpec>& specs, const QString& attr)
{
    for (const ts::AttrSpec& s : specs)
        if (QString::fromStdString(s.name) == attr) return &s;
    return nullptr;
}

// The op's own texts, kept beside it (ops/*.cpp) and collected for translation by lupdate.
QString ownOpText(const QString& opType)
{
    const ts::Op* op = registered(opType);
    return op && !op->help().empty() ? translated(op->help().c_str()) : QString();
}

QString ownAttrText(const QString& opType, const QString& attr)
{
    const ts::Op* op = registered(opType);
    if (!op) return {};
    const std::vector<ts::AttrSpec> specs = op->attrSpecs();
    const ts::AttrSpec* spec = findSpec(specs, attr);
    return spec && !spec->help.empty() ? translated(spec->help.c_str()) : QString();
}

}  // namespace

QString opDescription(const QString& opType)
{
    if (const QString text = ownOpText(opType); !text.isEmpty()) return text;
    return QCoreApplication::translate("AttrHelp", "The %1 op").arg(opType);
}

QString attributeHelp(const QString& opType, const QString& attr)
{
    if (const QString text = ownAttrText(opType, attr); !text.isEmpty()) return text;
    const ts::Op* op = ts::OpRegistry::builtin().find(opType.toStdString());
    if (!op) return QCoreApplication::translate("AttrHelp", "Attribute %1 of %2.").arg(attr, opType);
    const std::vector<ts::AttrSpec> specs = op->attrSpecs();
    const ts::AttrSpec* spec = findSpec(specs, attr);
    if (!spec) return QCoreApplication::translate("AttrHelp", "%1 takes no attribute %2.").arg(opType, attr);
    return QCoreApplication::translate("AttrHelp", "Attribute %1 of %2: %3. %4")
        .arg(attr, opType, attrTypeText(*spec), attrDefaultText(*spec));
}

bool hasOpDescription(const QString& opType) { return !ownOpText(opType).isEmpty(); }
bool hasAttributeHelp(const QString& opType, const QString& attr) { return !ownAttrText(opType, attr).isEmpty(); }

QString attrValueText(const ts::AttrValue& value)
{
    const QLocale c = QLocale::c();  // values are written as in YAML and code, whatever the UI language
    const auto number = [&](double x) { return c.toString(x, 'g', QLocale::FloatingPointShortest); };
    return std::visit(
        [&](const auto& x) -> QString {
            using T = std::decay_t<decltype(x)>;
            if constexpr (std::is_same_v<T, bool>) return x ? QStringLiteral("true") : QStringLiteral("false");
            else if constexpr (std::is_same_v<T, std::string>) return QString::fromStdString(x);
            else if constexpr (std::is_same_v<T, std::int64_t>) return QString::number(x);
            else if constexpr (std::is_same_v<T, double>) return number(x);
            else {
                QStringList parts;
                for (const auto& v : x) {
                    if constexpr (std::is_same_v<std::decay_t<decltype(v)>, double>) parts << number(v);
                    else parts << QString::number(v);
                }
                return parts.join(QStringLiteral(", "));
            }
        },
        value);
}

QString attrTypeText(const ts::AttrSpec& spec)
{
    switch (spec.type) {
    case ts::AttrType::Int: return QCoreApplication::translate("AttrHelp", "an integer");
    case ts::AttrType::Float: return QCoreApplication::translate("AttrHelp", "a number");
    case ts::AttrType::Bool: return QCoreApplication::translate("AttrHelp", "on or off");
    case ts::AttrType::String: return QCoreApplication::translate("AttrHelp", "a name");
    case ts::AttrType::Ints:
        return spec.listLength > 0 ? QCoreApplication::translate("AttrHelp", "%1 integers, or one for all").arg(spec.listLength)
                                   : QCoreApplication::translate("AttrHelp", "integers separated by commas");
    case ts::AttrType::Floats:
        return spec.listLength > 0 ? QCoreApplication::translate("AttrHelp", "%1 numbers, or one for all").arg(spec.listLength)
                                   : QCoreApplication::translate("AttrHelp", "numbers separated by commas");
    }
    return {};
}

QString attrDefaultText(const ts::AttrSpec& spec)
{
    QString text;
    if (!spec.defaultValue) text = QCoreApplication::translate("AttrHelp", "Required.");
    else {
        const QString value = attrValueText(*spec.defaultValue);
        text = value.isEmpty() ? QCoreApplication::translate("AttrHelp", "Default: empty.")
                               : QCoreApplication::translate("AttrHelp", "Default: %1.").arg(value);
    }
    if (!spec.choices.empty()) {
        QStringList names;
        for (const std::string& c : spec.choices) names << QString::fromStdString(c);
        text += QLatin1Char(' ') + QCoreApplication::translate("AttrHelp", "One of: %1.").arg(names.join(QStringLiteral(", ")));
    }
    return text;
}

QString opToolTip(const ts::Op& op)
{
    const QString type = QString::fromStdString(op.type());
    QString html = QStringLiteral("<p><b>%1</b></p><p>%2</p>").arg(type.toHtmlEscaped(), opDescription(type).toHtmlEscaped());

    QStringList inputs;
    const int shown = op.maxInputs() < 0 ? std::max(op.minInputs(), 2) : op.maxInputs();
    for (int i = 0; i < shown; ++i) inputs << QString::fromStdString(op.inputName(i)).toHtmlEscaped();
    if (op.maxInputs() < 0) inputs << QStringLiteral("…");
    html += QStringLiteral("<p>%1 %2</p>")
                .arg(QCoreApplication::translate("AttrHelp", "Inputs:").toHtmlEscaped(), inputs.join(QStringLiteral(", ")));

    const std::vector<ts::AttrSpec> specs = op.attrSpecs();
    if (specs.empty()) {
        html += QStringLiteral("<p>%1</p>").arg(QCoreApplication::translate("AttrHelp", "No attributes.").toHtmlEscaped());
        return html;
    }
    QStringList rows;
    for (const ts::AttrSpec& s : specs) {
        const QString value = !s.defaultValue ? QCoreApplication::translate("AttrHelp", "required")
                                              : attrValueText(*s.defaultValue);
        rows << QStringLiteral("<code>%1</code> = %2").arg(QString::fromStdString(s.name).toHtmlEscaped(),
                                                           value.isEmpty() ? QStringLiteral("[]") : value.toHtmlEscaped());
    }
    html += QStringLiteral("<p>%1<br>%2</p>")
                .arg(QCoreApplication::translate("AttrHelp", "Attributes:").toHtmlEscaped(), rows.join(QStringLiteral("<br>")));
    return html;
}

}  // namespace ts::ui

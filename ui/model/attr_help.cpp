// Help for the engine's ops and their attributes. Strings are marked with QT_TRANSLATE_NOOP so
// lupdate collects them; each lookup translates. An attribute's text is looked up for its op
// first, then for any op ("*"): eps, bias and init mean the same wherever they appear.
#include "attr_help.h"

#include <QCoreApplication>
#include <QLocale>
#include <QStringList>

#include <algorithm>
#include <cstring>

#include "ops/op.h"
#include "ops/registry.h"

namespace ts::ui {

namespace {

const char* const kContext = "AttrHelp";

struct OpText {
    const char* op;
    const char* text;
};

const OpText kOps[] = {
    // Layers
    {"Linear", QT_TRANSLATE_NOOP("AttrHelp", "Fully connected layer: y = xWᵀ + b")},
    {"Conv2d", QT_TRANSLATE_NOOP("AttrHelp", "2-D convolution over [N, C, H, W] images: learned filters slide over the plane")},
    {"Dropout", QT_TRANSLATE_NOOP("AttrHelp", "Zeroes a random share p of the values while training (and scales the rest by 1/(1-p)); identity when evaluating")},
    {"Embedding", QT_TRANSLATE_NOOP("AttrHelp", "Looks up a learned vector for each integer index (words, categories)")},
    // Activations
    {"ReLU", QT_TRANSLATE_NOOP("AttrHelp", "max(0, x): the default activation, fast and well understood")},
    {"LeakyReLU", QT_TRANSLATE_NOOP("AttrHelp", "x for x > 0, negative_slope · x otherwise: a ReLU whose units cannot die")},
    {"GELU", QT_TRANSLATE_NOOP("AttrHelp", "x · Φ(x), a smooth ReLU: the usual choice in Transformers")},
    {"SiLU", QT_TRANSLATE_NOOP("AttrHelp", "x · sigmoid(x) (Swish), a smooth ReLU used in modern CNNs")},
    {"Sigmoid", QT_TRANSLATE_NOOP("AttrHelp", "1 / (1 + e⁻ˣ): squashes to (0, 1); saturates, so avoid it in deep hidden layers")},
    {"Tanh", QT_TRANSLATE_NOOP("AttrHelp", "tanh(x): squashes to (-1, 1), centred at zero; saturates like the sigmoid")},
    {"Softmax", QT_TRANSLATE_NOOP("AttrHelp", "Turns scores into probabilities that sum to 1 over the last dimension (not before CrossEntropy, which applies it itself)")},
    // Normalization
    {"BatchNorm1d", QT_TRANSLATE_NOOP("AttrHelp", "Batch normalization of [N, C] or [N, C, L]: each channel standardised over the batch")},
    {"BatchNorm2d", QT_TRANSLATE_NOOP("AttrHelp", "Batch normalization of [N, C, H, W] images: each channel standardised over the batch and the plane")},
    {"LayerNorm", QT_TRANSLATE_NOOP("AttrHelp", "Layer normalization: each sample standardised over its last dimension; independent of the batch size")},
    {"GroupNorm", QT_TRANSLATE_NOOP("AttrHelp", "Group normalization: channels standardised in groups per sample; works with small batches")},
    // Pooling
    {"MaxPool2d", QT_TRANSLATE_NOOP("AttrHelp", "Keeps the largest value of each window: halves the image with kernel 2")},
    {"AvgPool2d", QT_TRANSLATE_NOOP("AttrHelp", "Averages each window of the image")},
    {"GlobalAvgPool", QT_TRANSLATE_NOOP("AttrHelp", "The mean of each channel's whole plane: [N, C, H, W] becomes [N, C], ready for a Linear head")},
    // Structure
    {"Flatten", QT_TRANSLATE_NOOP("AttrHelp", "Joins the dimensions from start_dim on into one: [N, C, H, W] becomes [N, C·H·W]")},
    {"Reshape", QT_TRANSLATE_NOOP("AttrHelp", "Gives each sample a new shape with the same number of values")},
    {"Add", QT_TRANSLATE_NOOP("AttrHelp", "Adds its inputs element by element (residual connections); the shapes must match")},
    {"Concat", QT_TRANSLATE_NOOP("AttrHelp", "Joins its inputs along one axis (channels by default)")},
    // Losses
    {"CrossEntropy", QT_TRANSLATE_NOOP("AttrHelp", "Softmax cross-entropy of logits against class indices: the loss for classification")},
    {"MSE", QT_TRANSLATE_NOOP("AttrHelp", "Mean squared error between prediction and target: the loss for regression")},
    {"BCEWithLogits", QT_TRANSLATE_NOOP("AttrHelp", "Binary cross-entropy on logits, for yes/no and multi-label targets; more stable than Sigmoid followed by a BCE")},
};

struct AttrText {
    const char* op;  // "*": any op with an attribute of that name
    const char* attr;
    const char* text;
};

const AttrText kAttrs[] = {
    // Shared meanings
    {"*", "bias", QT_TRANSLATE_NOOP("AttrHelp", "Adds a learned bias. Turn it off when a normalization layer follows (its shift does the same).")},
    {"*", "init", QT_TRANSLATE_NOOP("AttrHelp", "How the weights start. kaiming_normal (the default) or kaiming_uniform for ReLU networks; "
                                    "xavier for tanh or sigmoid; pytorch (uniform ±1/sqrt(fan_in), also for the bias) reproduces "
                                    "a PyTorch recipe; zeros only for tests (every unit would learn the same).")},
    {"*", "eps", QT_TRANSLATE_NOOP("AttrHelp", "Added to the variance before the square root so it is never zero. Keep the default 1e-5.")},
    {"*", "affine", QT_TRANSLATE_NOOP("AttrHelp", "Learns a scale and a shift per channel after normalizing. Keep it on unless you know why not.")},
    {"*", "kernel_size", QT_TRANSLATE_NOOP("AttrHelp", "The window's height and width (one number for both, or \"3, 5\").")},
    {"*", "padding", QT_TRANSLATE_NOOP("AttrHelp", "Zeros added around the image on each side (height, width).")},

    {"Linear", "in_features", QT_TRANSLATE_NOOP("AttrHelp", "The input's features. 0 takes them from the input; a number is checked against it.")},
    {"Linear", "out_features", QT_TRANSLATE_NOOP("AttrHelp", "The output's features: the layer's width, or the number of classes for the last layer.")},

    {"Conv2d", "in_channels", QT_TRANSLATE_NOOP("AttrHelp", "The input's channels. 0 takes them from the input; a number is checked against it.")},
    {"Conv2d", "out_channels", QT_TRANSLATE_NOOP("AttrHelp", "The number of filters, so the output's channels. Often doubled when the image is halved (32, 64, 128).")},
    {"Conv2d", "kernel_size", QT_TRANSLATE_NOOP("AttrHelp", "The filter's height and width (one number for both, or \"3, 5\"). 3 is the usual choice.")},
    {"Conv2d", "stride", QT_TRANSLATE_NOOP("AttrHelp", "How far the filter moves between outputs; 2 halves the image (instead of a pooling layer).")},
    {"Conv2d", "padding", QT_TRANSLATE_NOOP("AttrHelp", "Zeros added around the image on each side. kernel_size / 2 (1 for a 3×3 kernel) keeps the size.")},
    {"Conv2d", "dilation", QT_TRANSLATE_NOOP("AttrHelp", "The spacing between the filter's taps: 2 sees a wider area with the same weights.")},
    {"Conv2d", "groups", QT_TRANSLATE_NOOP("AttrHelp", "Splits the channels into groups convolved separately; in and out channels must divide by it. "
                                           "groups = in_channels is a depthwise convolution.")},

    {"MaxPool2d", "kernel_size", QT_TRANSLATE_NOOP("AttrHelp", "The window's height and width; 2 halves the image.")},
    {"AvgPool2d", "kernel_size", QT_TRANSLATE_NOOP("AttrHelp", "The window's height and width; 2 halves the image.")},
    {"MaxPool2d", "stride", QT_TRANSLATE_NOOP("AttrHelp", "How far the window moves; 0 means the kernel size (windows that do not overlap).")},
    {"AvgPool2d", "stride", QT_TRANSLATE_NOOP("AttrHelp", "How far the window moves; 0 means the kernel size (windows that do not overlap).")},
    {"AvgPool2d", "count_include_pad", QT_TRANSLATE_NOOP("AttrHelp", "Whether padded zeros count in the average at the borders (on: divide by the whole window).")},

    {"*", "num_features", QT_TRANSLATE_NOOP("AttrHelp", "The input's channels. 0 takes them from the input; a number is checked against it.")},
    {"*", "momentum", QT_TRANSLATE_NOOP("AttrHelp", "How fast the running statistics used for evaluation follow the batches: running = (1 - momentum) · running + "
                                        "momentum · batch. 0.1 is the default; with small batches try 0.01 for smoother statistics. Below "
                                        "a batch of about 8, prefer GroupNorm or LayerNorm.")},
    {"LayerNorm", "normalized_size", QT_TRANSLATE_NOOP("AttrHelp", "The size of the last dimension. 0 takes it from the input; a number is checked against it.")},
    {"LayerNorm", "elementwise_affine", QT_TRANSLATE_NOOP("AttrHelp", "Learns a scale and a shift per feature after normalizing. Keep it on unless you know why not.")},
    {"GroupNorm", "num_groups", QT_TRANSLATE_NOOP("AttrHelp", "How many groups the channels are split into; the channels must divide by it. 32 (or fewer for "
                                                  "narrow layers) is common; 1 is a layer norm over C, H, W.")},
    {"GroupNorm", "num_channels", QT_TRANSLATE_NOOP("AttrHelp", "The input's channels. 0 takes them from the input; a number is checked against it.")},

    {"LeakyReLU", "negative_slope", QT_TRANSLATE_NOOP("AttrHelp", "The slope for negative inputs; 0.01 is usual, 0.2 in GANs.")},
    {"Softmax", "dim", QT_TRANSLATE_NOOP("AttrHelp", "The dimension that sums to 1. Only the last one is supported: -1.")},
    {"Dropout", "p", QT_TRANSLATE_NOOP("AttrHelp", "The share of values dropped while training: 0.1–0.5; after dense layers, not right before "
                                       "batch norm (its statistics would differ between training and evaluation).")},

    {"Flatten", "start_dim", QT_TRANSLATE_NOOP("AttrHelp", "The first dimension joined; 1 keeps only the batch dimension apart.")},
    {"Reshape", "shape", QT_TRANSLATE_NOOP("AttrHelp", "The new shape of one sample, without the batch dimension, e.g. \"1, 28, 28\"; one -1 is "
                                           "worked out from the rest.")},
    {"Concat", "axis", QT_TRANSLATE_NOOP("AttrHelp", "The axis joined along (1: channels or features; negative counts from the end). The "
                                         "other dimensions must match; the batch axis 0 cannot be joined.")},

    {"Embedding", "num_embeddings", QT_TRANSLATE_NOOP("AttrHelp", "How many different indices there are (the vocabulary or category count); an index must be below it.")},
    {"Embedding", "embedding_dim", QT_TRANSLATE_NOOP("AttrHelp", "The length of each learned vector.")},
    {"Embedding", "init", QT_TRANSLATE_NOOP("AttrHelp", "How the vectors start: normal (standard normal, as PyTorch), xavier_normal or xavier_uniform; "
                                            "zeros only for tests.")},

    {"CrossEntropy", "label_smoothing", QT_TRANSLATE_NOOP("AttrHelp", "Moves this share of each target's probability onto the other classes, so the model is "
                                                          "less over-confident; 0.1 is a common start. It raises the loss's floor, so compare runs "
                                                          "with the same value.")},
    {"CrossEntropy", "class_weights", QT_TRANSLATE_NOOP("AttrHelp", "One weight per class, e.g. \"1, 1, 5\", for imbalanced data: about the inverse class "
                                                        "frequency, scaled to a sensible range (too large a weight makes the model over-predict that "
                                                        "class). Empty: every class weighs 1.")},
};

QString translated(const char* text) { return QCoreApplication::translate(kContext, text); }

const ts::Op* registered(const QString& opType) { return ts::OpRegistry::builtin().find(opType.toStdString()); }

const ts::AttrSpec* findSpec(const std::vector<ts::AttrSpec>& specs, const QString& attr);

// The op's own text (ops/*.cpp, collected for translation by lupdate), else the table above.
// TODO(registry): the tables go once every op carries its help.
QString ownOpText(const QString& opType)
{
    if (const ts::Op* op = registered(opType); op && !op->help().empty()) return translated(op->help().c_str());
    const QByteArray type = opType.toUtf8();
    for (const OpText& t : kOps)
        if (type == t.op) return translated(t.text);
    return {};
}

QString ownAttrText(const QString& opType, const QString& attr)
{
    if (const ts::Op* op = registered(opType)) {
        const std::vector<ts::AttrSpec> specs = op->attrSpecs();
        if (const ts::AttrSpec* spec = findSpec(specs, attr); spec && !spec->help.empty())
            return translated(spec->help.c_str());
    }
    const QByteArray type = opType.toUtf8(), name = attr.toUtf8();
    for (const AttrText& t : kAttrs)
        if (type == t.op && name == t.attr) return translated(t.text);
    for (const AttrText& t : kAttrs)
        if (std::strcmp(t.op, "*") == 0 && name == t.attr) return translated(t.text);
    return {};
}

const ts::AttrSpec* findSpec(const std::vector<ts::AttrSpec>& specs, const QString& attr)
{
    for (const ts::AttrSpec& s : specs)
        if (QString::fromStdString(s.name) == attr) return &s;
    return nullptr;
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

// The Model page's op palette, op popup and node property editor, driven by keyboard and mouse
// as a person would, against the engine's real registry: every registered op is listed under
// its category and drags out as its type; the popup filters by what a wire accepts and by what
// is typed; the property editor is generated from Conv2d's schema, applies each accepted value
// once (normalised as the engine does), refuses bad ones with the reason, keeps the focus while
// the page re-shows the node, resets and renames; every op and attribute has its own help.
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QMimeData>
#include <QScrollArea>
#include <QSignalSpy>
#include <QToolButton>
#include <QTreeView>
#include <QTreeWidget>
#include <QtTest>

#include "typing.h"

#include <set>

#include "ops/registry.h"
#include "ui/model/attr_help.h"
#include "ui/model/node_properties.h"
#include "ui/model/op_palette.h"
#include "ui/model/op_popup.h"
#include "studio_suite.h"

using namespace ts;
using ts::ui::NodeProperties;
using ts::ui::OpPalette;
using ts::ui::OpPopup;

namespace {

std::set<QString> registered(const std::function<bool(const Op&)>& keep = {})
{
    std::set<QString> out;
    for (const std::string& type : OpRegistry::builtin().types())
        if (!keep || keep(*OpRegistry::builtin().find(type))) out.insert(QString::fromStdString(type));
    return out;
}

std::set<QString> asSet(const QStringList& list) { return {list.begin(), list.end()}; }

// The proxy index of an op in the palette's tree.
QModelIndex paletteIndex(const OpPalette& palette, const QString& type)
{
    const QAbstractItemModel* model = palette.view()->model();
    for (int g = 0; g < model->rowCount(); ++g) {
        const QModelIndex group = model->index(g, 0);
        for (int r = 0; r < model->rowCount(group); ++r)
            if (model->index(r, 0, group).data().toString() == type) return model->index(r, 0, group);
    }
    return {};
}

Node conv1()
{
    Node n{"conv1", "Conv2d", Attrs{{"out_channels", std::int64_t{32}}, {"kernel_size", std::int64_t{3}}}, {"image"}};
    return n;
}

// A page as the lead's: the document is the truth, every signal edits it and shows the node again.
struct FakeDocument {
    Node node;
    void connect(NodeProperties& props)
    {
        QObject::connect(&props, &NodeProperties::attributeChanged, &props,
                         [this, &props](const QString&, const QString& attr, const AttrValue& v) {
                             node.attrs.set(attr.toStdString(), v);
                             props.showNode(node);
                         });
    }
};

}  // namespace

class TestModelWidgets : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { qRegisterMetaType<ts::AttrValue>(); }

    // Exactly the registry's ops, each under its category's group, groups in the category order.
    void paletteListsEveryRegisteredOp()
    {
        OpPalette palette;
        QCOMPARE(asSet(palette.opTypes()), registered());
        QCOMPARE(palette.opTypes().size(), static_cast<int>(registered().size()));  // none twice
        int lastCategory = -1;
        for (const QString& type : palette.opTypes()) {
            const Op* op = OpRegistry::builtin().find(type.toStdString());
            QCOMPARE(palette.groupOf(type), ui::opCategoryTitle(op->category()));
            QVERIFY2(static_cast<int>(op->category()) >= lastCategory, qPrintable(type));
            lastCategory = static_cast<int>(op->category());
        }
        QCOMPARE(palette.groupOf("Conv2d"), QString("Layers"));
        QCOMPARE(palette.groupOf("CrossEntropy"), QString("Losses"));
        // Groups open, each op with a tooltip naming its inputs and attributes.
        const QAbstractItemModel* model = palette.view()->model();
        for (int g = 0; g < model->rowCount(); ++g) QVERIFY(palette.view()->isExpanded(model->index(g, 0)));
        const QString tip = paletteIndex(palette, "CrossEntropy").data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains("logits") && tip.contains("target") && tip.contains("label_smoothing"), qPrintable(tip));
        QVERIFY(paletteIndex(palette, "Conv2d").data(Qt::ToolTipRole).toString().contains("kernel_size</code> = required"));
    }

    void paletteSearchFindsByNameAndDescription()
    {
        OpPalette palette;
        palette.show();
        QTest::keyClicks(palette.searchField(), "norm");
        const std::set<QString> norms{"BatchNorm1d", "BatchNorm2d", "GroupNorm", "LayerNorm"};
        QCOMPARE(asSet(palette.visibleOpTypes()), norms);
        QCOMPARE(palette.view()->model()->rowCount(), 1);  // only the Normalization group
        QVERIFY(palette.view()->isExpanded(palette.view()->model()->index(0, 0)));

        palette.setFilterText("NORM");  // any case
        QCOMPARE(asSet(palette.visibleOpTypes()), norms);

        // By meaning: what is shown is exactly what matches the type or the description.
        palette.setFilterText("fully connected");
        QCOMPARE(palette.visibleOpTypes(), QStringList{"Linear"});
        palette.setFilterText("relu");
        for (const QString& type : palette.opTypes())
            QCOMPARE(palette.visibleOpTypes().contains(type),
                     type.contains("relu", Qt::CaseInsensitive) || ui::opDescription(type).contains("relu", Qt::CaseInsensitive));
        QVERIFY(palette.visibleOpTypes().contains("GELU"));  // "a smooth ReLU"

        palette.setFilterText("no such op");
        QVERIFY(palette.visibleOpTypes().isEmpty());
        palette.setFilterText("");
        QCOMPARE(palette.visibleOpTypes(), palette.opTypes());
    }

    void paletteDragsTheOpType()
    {
        OpPalette palette;
        const QAbstractItemModel* model = palette.view()->model();
        QVERIFY(model->mimeTypes().contains(ui::kOpMimeType));
        const QModelIndex conv = paletteIndex(palette, "Conv2d");
        QVERIFY(model->flags(conv) & Qt::ItemIsDragEnabled);
        std::unique_ptr<QMimeData> mime(model->mimeData({conv}));
        QVERIFY(mime);
        QCOMPARE(mime->data(ui::kOpMimeType), QByteArray("Conv2d"));
        QCOMPARE(QString::fromUtf8(mime->data(ui::kOpMimeType)), QString("Conv2d"));
        const QModelIndex group = model->index(0, 0);
        QVERIFY(!(model->flags(group) & Qt::ItemIsDragEnabled));
        QVERIFY(!model->mimeData({group}));
        QVERIFY(model->supportedDragActions() & Qt::CopyAction);
    }

    void paletteActivatesByEnterAndDoubleClick()
    {
        OpPalette palette;
        palette.resize(260, 600);
        palette.show();
        QVERIFY(QTest::qWaitForWindowExposed(&palette));
        QSignalSpy activated(&palette, &OpPalette::opActivated);

        const QModelIndex conv = paletteIndex(palette, "Conv2d");
        palette.view()->setCurrentIndex(conv);
        QTest::keyClick(palette.view(), Qt::Key_Return);
        QCOMPARE(activated.size(), 1);
        QCOMPARE(activated.takeFirst().at(0).toString(), QString("Conv2d"));

        const QRect rect = palette.view()->visualRect(paletteIndex(palette, "Dropout"));
        // A person's double-click: a click (which only selects), then the double-click.
        QTest::mouseClick(palette.view()->viewport(), Qt::LeftButton, {}, rect.center());
        QCOMPARE(activated.size(), 0);
        QTest::mouseDClick(palette.view()->viewport(), Qt::LeftButton, {}, rect.center());
        QCOMPARE(activated.size(), 1);
        QCOMPARE(activated.takeFirst().at(0).toString(), QString("Dropout"));

        // Type and Enter: the op whose name starts with the text, though GELU comes first.
        palette.searchField()->setFocus();
        QTest::keyClicks(palette.searchField(), "relu");
        QTest::keyClick(palette.searchField(), Qt::Key_Return);
        QCOMPARE(activated.size(), 1);
        QCOMPARE(activated.takeFirst().at(0).toString(), QString("ReLU"));
    }

    void popupFiltersByWhatItAcceptsAndWhatIsTyped()
    {
        OpPopup popup;
        QSignalSpy picked(&popup, &OpPopup::picked);
        popup.open(QPoint(50, 50), [](const Op& op) { return op.isLoss(); });
        QVERIFY(QTest::qWaitForWindowExposed(&popup));
        QCOMPARE(asSet(popup.visibleOps()), registered([](const Op& op) { return op.isLoss(); }));
        QCOMPARE(asSet(popup.visibleOps()), (std::set<QString>{"BCEWithLogits", "CrossEntropy", "Huber", "L1", "MSE"}));
        QTRY_COMPARE(QApplication::focusWidget(), static_cast<QWidget*>(popup.searchField()));

        QTest::keyClicks(popup.searchField(), "cross");  // CrossEntropy, and BCEWithLogits by its description
        QCOMPARE(asSet(popup.visibleOps()), (std::set<QString>{"BCEWithLogits", "CrossEntropy"}));
        QCOMPARE(popup.currentOp(), QString("CrossEntropy"));  // the name that starts so
        QTest::keyClick(popup.searchField(), Qt::Key_Up);
        QCOMPARE(popup.currentOp(), QString("BCEWithLogits"));
        QTest::keyClick(popup.searchField(), Qt::Key_Down);
        QCOMPARE(popup.currentOp(), QString("CrossEntropy"));
        QTest::keyClick(popup.searchField(), Qt::Key_Return);
        QCOMPARE(picked.size(), 1);
        QCOMPARE(picked.takeFirst().at(0).toString(), QString("CrossEntropy"));
        QVERIFY(!popup.isVisible());

        // Unfiltered it lists every op and the Transformer block; a typed filter survives no
        // reopening; Esc closes unpicked.
        popup.open(QPoint(50, 50));
        std::set<QString> all = registered();
        all.insert(QString::fromLatin1(ts::ui::kTransformerBlockEntry));
        QCOMPARE(asSet(popup.visibleOps()), all);
        QTest::keyClicks(popup.searchField(), "transformer b");  // by its title
        QCOMPARE(popup.visibleOps(), QStringList{QString::fromLatin1(ts::ui::kTransformerBlockEntry)});
        QTest::keyClick(popup.searchField(), Qt::Key_Return);
        QCOMPARE(picked.takeFirst().at(0).toString(), QString::fromLatin1(ts::ui::kTransformerBlockEntry));
        popup.open(QPoint(50, 50));
        QVERIFY(popup.searchField()->text().isEmpty());
        QTest::keyClicks(popup.searchField(), "zzz");
        QVERIFY(popup.visibleOps().isEmpty());
        QVERIFY(popup.currentOp().isEmpty());
        QTest::keyClick(popup.searchField(), Qt::Key_Return);  // nothing to pick
        QCOMPARE(picked.size(), 0);
        QTest::keyClick(popup.searchField(), Qt::Key_Escape);
        QVERIFY(!popup.isVisible());
        QCOMPARE(picked.size(), 0);

        // A click picks.
        popup.open(QPoint(50, 50), [](const Op& op) { return op.category() == OpCategory::Pooling; });
        QVERIFY(QTest::qWaitForWindowExposed(&popup));
        QTreeWidgetItem* item = popup.list()->findItems("MaxPool2d", Qt::MatchExactly).value(0);
        QVERIFY(item);
        QTest::mouseClick(popup.list()->viewport(), Qt::LeftButton, {}, popup.list()->visualItemRect(item).center());
        QCOMPARE(picked.size(), 1);
        QCOMPARE(picked.takeFirst().at(0).toString(), QString("MaxPool2d"));
    }

    // One editor per attribute of Conv2d's schema, of the kind its type asks for.
    void conv2dHasAnEditorPerAttribute()
    {
        NodeProperties props;
        props.showNode(conv1());
        const std::vector<AttrSpec> specs = OpRegistry::builtin().find("Conv2d")->attrSpecs();
        QCOMPARE(props.attributes().size(), static_cast<int>(specs.size()));
        for (const AttrSpec& s : specs) {
            QWidget* w = props.field(QString::fromStdString(s.name));
            QVERIFY2(w, s.name.c_str());
            if (s.type == AttrType::Bool) QVERIFY2(qobject_cast<QCheckBox*>(w), s.name.c_str());
            else if (!s.choices.empty()) QVERIFY2(qobject_cast<QComboBox*>(w), s.name.c_str());
            else QVERIFY2(qobject_cast<QLineEdit*>(w), s.name.c_str());
            QVERIFY2(!w->toolTip().isEmpty(), s.name.c_str());
        }
        // Values as the engine normalises them; the default shown only where it differs.
        QCOMPARE(qobject_cast<QLineEdit*>(props.field("kernel_size"))->text(), QString("3, 3"));
        QCOMPARE(qobject_cast<QLineEdit*>(props.field("stride"))->text(), QString("1, 1"));
        QCOMPARE(qobject_cast<QLineEdit*>(props.field("out_channels"))->text(), QString("32"));
        QVERIFY(qobject_cast<QCheckBox*>(props.field("bias"))->isChecked());
        QVERIFY(props.defaultHint("stride").isEmpty());
        QVERIFY(!props.resetButton("stride")->isEnabled());   // not set in the node
        QVERIFY(!props.resetButton("out_channels")->isEnabled());  // required: no default to go back to
        QCOMPARE(props.nameField()->text(), QString("conv1"));

        // The combo box offers exactly the schema's choices.
        auto* init = qobject_cast<QComboBox*>(props.field("init"));
        QStringList offered;
        for (int i = 0; i < init->count(); ++i) offered << init->itemText(i);
        QStringList choices;
        for (const AttrSpec& s : specs)
            if (s.name == "init")
                for (const std::string& c : s.choices) choices << QString::fromStdString(c);
        QCOMPARE(offered, choices);
        QCOMPARE(init->currentText(), QString("kaiming_normal"));
    }

    void typingAValidValueEmitsItNormalisedOnce()
    {
        NodeProperties props;
        props.show();
        QVERIFY(QTest::qWaitForWindowActive(&props));
        props.showNode(conv1());
        QSignalSpy changed(&props, &NodeProperties::attributeChanged);
        auto* kernel = qobject_cast<QLineEdit*>(props.field("kernel_size"));

        typeReplacing(kernel, "5");  // the field emptied first ("" is refused), then "5", then Enter
        QCOMPARE(changed.size(), 1);
        QCOMPARE(changed.at(0).at(0).toString(), QString("conv1"));
        QCOMPARE(changed.at(0).at(1).toString(), QString("kernel_size"));
        QCOMPARE(changed.at(0).at(2).value<AttrValue>(), AttrValue(std::vector<std::int64_t>{5, 5}));
        QVERIFY(props.problem("kernel_size").isEmpty());
        QCOMPARE(props.defaultHint("kernel_size"), QString());  // required: no default to show

        // A value written another way ("5, 5" for [5, 5]) is no change.
        typeReplacing(kernel, "5, 5");
        QCOMPARE(changed.size(), 1);

        auto* stride = qobject_cast<QLineEdit*>(props.field("stride"));
        typeReplacing(stride, "2");
        QCOMPARE(changed.size(), 2);
        QCOMPARE(changed.at(1).at(2).value<AttrValue>(), AttrValue(std::vector<std::int64_t>{2, 2}));
        QCOMPARE(props.defaultHint("stride"), QString("Default: 1, 1"));
        QVERIFY(props.resetButton("stride")->isEnabled());

        auto* bias = qobject_cast<QCheckBox*>(props.field("bias"));
        QTest::mouseClick(bias, Qt::LeftButton, {}, bias->rect().center());
        QCOMPARE(changed.size(), 3);
        QCOMPARE(changed.at(2).at(1).toString(), QString("bias"));
        QCOMPARE(changed.at(2).at(2).value<AttrValue>(), AttrValue(false));

        auto* init = qobject_cast<QComboBox*>(props.field("init"));
        init->setFocus();
        QTest::keyClick(init, Qt::Key_Down);  // kaiming_normal -> kaiming_uniform
        QCOMPARE(changed.size(), 4);
        QCOMPARE(changed.at(3).at(2).value<AttrValue>(), AttrValue(std::string("kaiming_uniform")));
    }

    void aRefusedValueIsNotEmittedAndSaysWhy()
    {
        NodeProperties props;
        props.show();
        QVERIFY(QTest::qWaitForWindowActive(&props));
        props.showNode(conv1());
        QSignalSpy changed(&props, &NodeProperties::attributeChanged);
        auto* kernel = qobject_cast<QLineEdit*>(props.field("kernel_size"));
        const QColor normalBase = kernel->palette().color(QPalette::Base);

        typeReplacing(kernel, "0");
        QCOMPARE(changed.size(), 0);
        QVERIFY2(props.problem("kernel_size").contains(">= 1"), qPrintable(props.problem("kernel_size")));
        QVERIFY(props.problem("kernel_size").contains("kernel_size"));
        QCOMPARE(kernel->text(), QString("0"));  // what was typed stays, to be corrected
        QVERIFY(kernel->palette().color(QPalette::Base) != normalBase);  // red

        typeReplacing(kernel, "abc");
        QCOMPARE(changed.size(), 0);
        QVERIFY2(props.problem("kernel_size").contains("\"abc\""), qPrintable(props.problem("kernel_size")));
        typeReplacing(kernel, "3, 3, 3");  // parses, but Conv2d takes two
        QCOMPARE(changed.size(), 0);
        QVERIFY2(props.problem("kernel_size").contains("2 values"), qPrintable(props.problem("kernel_size")));

        typeReplacing(qobject_cast<QLineEdit*>(props.field("out_channels")), "-4");
        QCOMPARE(changed.size(), 0);
        QVERIFY(props.problem("out_channels").contains(">= 1"));

        // Corrected: the reason and the red go, the value is emitted.
        typeReplacing(kernel, "7");
        QCOMPARE(changed.size(), 1);
        QVERIFY(props.problem("kernel_size").isEmpty());
        QCOMPARE(kernel->palette().color(QPalette::Base), normalBase);

        // A value the file has but the engine refuses is shown with the engine's reason.
        Node bad = conv1();
        bad.name = "conv9";
        bad.attrs.set("stride", std::int64_t{0});
        props.showNode(bad);
        QCOMPARE(qobject_cast<QLineEdit*>(props.field("stride"))->text(), QString("0"));
        QVERIFY(props.problem("stride").contains(">= 1"));
        QVERIFY(props.problem("kernel_size").isEmpty());  // another node: the old reason is gone
    }

    void resetEmitsAttributeReset()
    {
        NodeProperties props;
        Node n = conv1();
        n.attrs.set("padding", std::vector<std::int64_t>{1, 1});
        props.showNode(n);
        QCOMPARE(props.defaultHint("padding"), QString("Default: 0, 0"));
        QSignalSpy reset(&props, &NodeProperties::attributeReset);
        QAbstractButton* button = props.resetButton("padding");
        QVERIFY(button->isEnabled());
        button->click();
        QCOMPARE(reset.size(), 1);
        QCOMPARE(reset.at(0).at(0).toString(), QString("conv1"));
        QCOMPARE(reset.at(0).at(1).toString(), QString("padding"));
        // Until the page answers, the field already shows the default.
        QCOMPARE(qobject_cast<QLineEdit*>(props.field("padding"))->text(), QString("0, 0"));
        QVERIFY(!button->isEnabled());
    }

    void renameEmitsOnceWhenFinished()
    {
        NodeProperties props;
        props.show();
        QVERIFY(QTest::qWaitForWindowActive(&props));
        props.showNode(conv1());
        QSignalSpy renamed(&props, &NodeProperties::renameRequested);
        typeReplacing(props.nameField(), "stem");  // keys, then Enter
        props.field("out_channels")->setFocus();  // and the focus leaves: editingFinished again
        QCOMPARE(renamed.size(), 1);
        QCOMPARE(renamed.at(0).at(0).toString(), QString("conv1"));
        QCOMPARE(renamed.at(0).at(1).toString(), QString("stem"));

        // The page renames and shows the node again: the same node, nothing asked twice.
        Node n = conv1();
        n.name = "stem";
        props.showNode(n);
        QCOMPARE(props.nameField()->text(), QString("stem"));
        typeReplacing(props.nameField(), "  ");  // empty: refused, the name kept
        QCOMPARE(renamed.size(), 1);
        QCOMPARE(props.nameField()->text(), QString("stem"));
        typeReplacing(props.nameField(), "stem");  // unchanged
        QCOMPARE(renamed.size(), 1);

        // A page that refuses (the name is taken) shows the node again: the field says its name,
        // and the same name may be asked for again later.
        QObject::connect(&props, &NodeProperties::renameRequested, &props, [&props, n] { props.showNode(n); });
        typeReplacing(props.nameField(), "fc1");
        QCOMPARE(renamed.size(), 2);
        QCOMPARE(props.nameField()->text(), QString("stem"));
        typeReplacing(props.nameField(), "fc1");
        QCOMPARE(renamed.size(), 3);
    }

    // The page shows the node again after every edit: typing is not interrupted.
    void showingTheSameNodeKeepsFocusAndCursor()
    {
        NodeProperties props;
        props.show();
        QVERIFY(QTest::qWaitForWindowActive(&props));
        FakeDocument doc{conv1()};
        doc.node.attrs.set("kernel_size", std::int64_t{7});
        doc.connect(props);
        props.showNode(doc.node);
        QSignalSpy changed(&props, &NodeProperties::attributeChanged);
        auto* kernel = qobject_cast<QLineEdit*>(props.field("kernel_size"));
        kernel->setFocus();
        kernel->selectAll();
        QTest::keyClicks(kernel, "3, 5");  // "3" -> [3, 3]; "3," and "3, " unchanged; "3, 5" -> [3, 5]
        QCOMPARE(changed.size(), 2);
        QCOMPARE(doc.node.attrs.get("kernel_size"), AttrValue(std::vector<std::int64_t>{3, 5}));
        QCOMPARE(props.field("kernel_size"), static_cast<QWidget*>(kernel));  // not rebuilt
        QVERIFY(kernel->hasFocus());
        QCOMPARE(kernel->text(), QString("3, 5"));
        QCOMPARE(kernel->cursorPosition(), 4);

        // Mid-typing ("3, " is not yet a value) while another attribute changes elsewhere.
        QTest::keyClick(kernel, Qt::Key_Backspace);
        doc.node.attrs.set("out_channels", std::int64_t{64});
        props.showNode(doc.node);
        QCOMPARE(kernel->text(), QString("3, "));
        QCOMPARE(kernel->cursorPosition(), 3);
        QVERIFY(kernel->hasFocus());
        QCOMPARE(qobject_cast<QLineEdit*>(props.field("out_channels"))->text(), QString("64"));

        // Cheap: the page calls it on every keystroke (generous bound: 2 ms a call on a loaded CI machine).
        QElapsedTimer timer;
        timer.start();
        for (int i = 0; i < 200; ++i) props.showNode(doc.node);
        const double perCall = double(timer.nsecsElapsed()) / 200 / 1e6;
        qInfo("showNode of the same Conv2d: %.3f ms a call", perCall);
        QVERIFY(perCall < 2.0);

        // A checkpoint toggle is one signal too.
        QSignalSpy checkpoint(&props, &NodeProperties::checkpointChanged);
        props.checkpointBox()->click();
        QCOMPARE(checkpoint.size(), 1);
        QCOMPARE(checkpoint.at(0).at(1).toBool(), true);
    }

    void unknownOpsAndAttributesAreShownReadOnly()
    {
        NodeProperties props;
        Node mystery{"m1", "Swish2", Attrs{{"beta", 1.5}}, {"x"}};
        props.showNode(mystery);
        QCOMPARE(props.attributes(), QStringList{"beta"});
        auto* beta = qobject_cast<QLineEdit*>(props.field("beta"));
        QVERIFY(beta && beta->isReadOnly());
        QCOMPARE(beta->text(), QString("1.5"));
        bool noted = false;  // the note says why it is read-only
        for (const QLabel* l : props.findChildren<QLabel*>()) noted = noted || l->text().contains("no op \"Swish2\"");
        QVERIFY(noted);

        Node linear{"fc", "Linear", Attrs{{"out_features", std::int64_t{10}}, {"dropout", 0.5}}, {"x"}};
        props.showNode(linear);
        QCOMPARE(props.attributes(), (QStringList{"in_features", "out_features", "bias", "init", "tie_weight", "dropout"}));
        QVERIFY(props.problem("dropout").contains("Linear takes no attribute"));
        QSignalSpy reset(&props, &NodeProperties::attributeReset);
        props.resetButton("dropout")->click();
        QCOMPARE(reset.size(), 1);
        QCOMPARE(reset.at(0).at(1).toString(), QString("dropout"));

        Node relu{"act", "ReLU", {}, {"fc"}};
        props.showNode(relu);
        QVERIFY(props.attributes().isEmpty());

        props.showNothing("3 nodes selected");
        QCOMPARE(props.message(), QString("3 nodes selected"));
        QVERIFY(props.attributes().isEmpty());
        props.showNode(conv1());
        props.setError("node 'conv1' (Conv2d): input must have rank 4");
        QCOMPARE(props.errorText(), QString("node 'conv1' (Conv2d): input must have rank 4"));
        props.setError({});
        QVERIFY(props.errorText().isEmpty());
    }

    // Fails when an op or an attribute is registered without its own text: write it in attr_help.cpp.
    void everyOpAndAttributeHasItsOwnHelp()
    {
        for (const std::string& type : OpRegistry::builtin().types()) {
            const QString t = QString::fromStdString(type);
            QVERIFY2(ui::hasOpDescription(t), qPrintable("no description for " + t));
            QVERIFY(!ui::opDescription(t).isEmpty());
            for (const AttrSpec& s : OpRegistry::builtin().find(type)->attrSpecs()) {
                const QString a = QString::fromStdString(s.name);
                QVERIFY2(ui::hasAttributeHelp(t, a), qPrintable("no help for " + t + "." + a));
            }
        }
        QCOMPARE(ui::opDescription("Linear"), QString::fromUtf8("Fully connected layer: y = xWᵀ + b"));
        QVERIFY(ui::attributeHelp("Dropout", "p").contains(QString::fromUtf8("0.1–0.5")));
        QVERIFY(ui::attributeHelp("CrossEntropy", "label_smoothing").contains("0.1"));
        QVERIFY(ui::attributeHelp("BatchNorm2d", "momentum").contains("0.01"));
        QVERIFY(ui::attributeHelp("Linear", "init").contains("kaiming"));
        QVERIFY(ui::attributeHelp("Linear", "init").contains("1/sqrt(fan_in)"));

        // The fallback names the type, default and choices, so a new op's attribute has a tooltip.
        QVERIFY(!ui::hasAttributeHelp("Conv2d", "no_such"));
        QVERIFY(ui::attributeHelp("Swish2", "beta").contains("beta"));
        QVERIFY(!ui::hasOpDescription("Swish2"));
        QVERIFY(ui::opDescription("Swish2").contains("Swish2"));
        AttrSpec spec{"mode", AttrType::String, AttrValue(std::string("fast")), {}, 0, {"fast", "exact"}};
        QCOMPARE(ui::attrDefaultText(spec), QString("Default: fast. One of: fast, exact."));
        QCOMPARE(ui::attrValueText(AttrValue(1e-5)), QString("1e-05"));
        QCOMPARE(ui::attrValueText(AttrValue(std::vector<double>{0.5, 2})), QString("0.5, 2"));
    }

    // Nothing cut off at this scale (ctest runs it at 1 and at QT_SCALE_FACTOR=1.5); PNGs to look at.
    // The red banner appears below the fields: shown or hidden, no field moves (a click aimed
    // at padding as the banner appeared once landed on dilation).
    void theErrorBannerNeverMovesTheFields()
    {
        // As on the page: in a scroll area, shorter than the editor.
        QScrollArea scroll;
        auto* owned = new NodeProperties;
        NodeProperties& props = *owned;
        scroll.setWidget(owned);
        scroll.setWidgetResizable(true);
        scroll.setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);  // as the page has it: a long banner must not narrow the fields
        scroll.resize(320, 400);
        scroll.show();
        QVERIFY(QTest::qWaitForWindowExposed(&scroll));
        props.showNode(conv1());
        // Where each field starts and how wide it is: what a click aims at (a line edit may
        // gain or lose a pixel of height as the form re-rounds its rows).
        auto geometries = [&] {
            QTest::qWait(20);  // every posted relayout done
            QList<QRect> out{QRect(props.nameField()->mapTo(&props, QPoint()), QSize(props.nameField()->width(), 1))};
            for (const QString& attr : props.attributes())
                out << QRect(props.field(attr)->mapTo(&props, QPoint()), QSize(props.field(attr)->width(), 1));
            return out;
        };
        const QList<QRect> before = geometries();
        QCOMPARE(before.size(), props.attributes().size() + 1);
        props.setError("node 'conv1' (Conv2d, groups=1): input has 3 channels, in_channels says 1; a message long enough "
                       "to wrap over several lines of the inspector, as the engine's shape errors do");
        QVERIFY(!props.errorText().isEmpty());
        QCOMPARE(geometries(), before);
        props.setError({});
        QCOMPARE(geometries(), before);
    }

    // Every op's description wraps whole, however narrow the inspector (MaxPool2d's and
    // CrossEntropy's were cut at the bottom).
    void opDescriptionsAreNeverClipped()
    {
        NodeProperties props;
        props.resize(240, 900);
        props.show();
        QVERIFY(QTest::qWaitForWindowExposed(&props));
        const QLabel* note = props.findChild<QLabel*>(QStringLiteral("opDescription"));
        QVERIFY(note);
        for (const std::string& type : OpRegistry::builtin().types()) {
            Node n;
            n.name = "n";
            n.op = type;
            props.showNode(n);
            QApplication::processEvents();
            QVERIFY2(note->height() >= note->heightForWidth(note->width()),
                     qPrintable(QString("%1: %2 px tall, needs %3").arg(QString::fromStdString(type)).arg(note->height()).arg(note->heightForWidth(note->width()))));
        }
    }

    void screenshotsAndNothingTruncated()
    {
        const QString scale = qEnvironmentVariable("QT_SCALE_FACTOR", "1");
        QDir().mkpath(TS_SCREENSHOT_DIR);

        OpPalette palette;
        palette.resize(palette.sizeHint().width(), 640);
        palette.show();
        QVERIFY(QTest::qWaitForWindowExposed(&palette));
        for (const QString& type : palette.opTypes()) {  // every name whole in its row
            const QRect row = palette.view()->visualRect(paletteIndex(palette, type));
            QVERIFY2(row.left() + palette.view()->fontMetrics().horizontalAdvance(type) < palette.view()->viewport()->width(),
                     qPrintable(type));
        }
        const QString palettePng = QString("%1/model_palette_scale%2.png").arg(TS_SCREENSHOT_DIR, scale);
        QVERIFY(palette.grab().save(palettePng));
        qInfo("%s (%dx%d)", qPrintable(palettePng), palette.width(), palette.height());

        NodeProperties props;
        props.show();
        QVERIFY(QTest::qWaitForWindowActive(&props));
        Node n = conv1();
        n.attrs.set("padding", std::int64_t{1});
        props.showNode(n);
        typeReplacing(qobject_cast<QLineEdit*>(props.field("stride")), "0");  // a reason on screen too
        props.setError("node 'conv1' (Conv2d, groups=1): input has 3 channels, in_channels says 1");
        props.resize(props.sizeHint());
        QTest::qWait(50);
        for (const QString& attr : props.attributes()) {
            if (const auto* e = qobject_cast<QLineEdit*>(props.field(attr)))
                QVERIFY2(e->fontMetrics().horizontalAdvance(e->text()) < e->width(), qPrintable(attr));
            if (const auto* c = qobject_cast<QComboBox*>(props.field(attr)))
                QVERIFY2(c->width() >= c->minimumSizeHint().width(), qPrintable(attr));
        }
        for (const QLabel* l : props.findChildren<QLabel*>())
            if (l->isVisible() && !l->wordWrap()) QVERIFY2(l->width() >= l->sizeHint().width(), qPrintable(l->text()));
        const QString propsPng = QString("%1/model_node_properties_scale%2.png").arg(TS_SCREENSHOT_DIR, scale);
        QVERIFY(props.grab().save(propsPng));
        qInfo("%s (%dx%d)", qPrintable(propsPng), props.width(), props.height());

        OpPopup popup;
        popup.open(QPoint(20, 20));
        QVERIFY(QTest::qWaitForWindowExposed(&popup));
        QTest::keyClicks(popup.searchField(), "pool");
        const QString popupPng = QString("%1/model_op_popup_scale%2.png").arg(TS_SCREENSHOT_DIR, scale);
        QVERIFY(popup.grab().save(popupPng));
        qInfo("%s (%dx%d)", qPrintable(popupPng), popup.width(), popup.height());
    }
};

int main(int argc, char** argv) { return runStudioSuite<TestModelWidgets>(argc, argv); }
#include "tst_model_widgets.moc"

// The Datasets page for text data (issue 40): the samples listed as texts, one sample's tokens,
// the length histogram and the vocabulary, on small text folders written here and checked
// against counts made here (std::map over the characters, lengths by std::string::size of ASCII
// text, bins by integer division).
#include <QApplication>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QMouseEvent>
#include <QProgressBar>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "text_file.h"
#include "data/dataset.h"
#include "data/text_statistics.h"
#include "data/tokenizer.h"
#include "scratch_home.h"
#include "ui/datasets/dataset_list.h"
#include "ui/datasets/datasets_page.h"
#include "ui/datasets/statistics_histogram.h"
#include "ui/datasets/text_panels.h"
#include "ui/datasets/text_sample_detail.h"
#include "ui/datasets/text_sample_model.h"
#include "ui/datasets/token_text.h"
#include "ui/datasets/token_view.h"
#include "ui/datasets/vocabulary_model.h"
#include "widgets/image_grid.h"

using namespace ts;
namespace fs = std::filesystem;

namespace {

using test::writeText;

const std::vector<std::string> kJokes = {
    "Why did the chicken cross the road?", "Knock knock.", "To get\nto the other side, of course.", "Ha!",
    "A horse walks into a bar; the barman asks why the long face.", "Puns are bad.", "Two fish in a tank.", "Boo."};
const std::vector<std::string> kFood = {
    "Eat your greens.", "Pie is good\tand so is cake.", "Bread.", "An apple a day keeps the doctor away, they say.",
    "Soup!", "Cheese, glorious cheese, and more cheese."};
constexpr std::int64_t kContext = 24;

bool tabShown(QTabWidget* tabs, const QString& title)
{
    for (int i = 0; i < tabs->count(); ++i)
        if (tabs->tabText(i) == title) return tabs->isTabVisible(i);
    return false;
}

QWidget* tabPage(QTabWidget* tabs, const QString& title)
{
    for (int i = 0; i < tabs->count(); ++i)
        if (tabs->tabText(i) == title) return tabs->widget(i);
    return nullptr;
}

// The histogram's bar heights of split `s`.
std::vector<std::int64_t> barValues(ui::StatisticsHistogram* h, int s)
{
    std::vector<std::int64_t> out;
    for (auto it = h->bars(s)->data()->constBegin(); it != h->bars(s)->data()->constEnd(); ++it) out.push_back(std::int64_t(it->value));
    return out;
}

// WCAG 2's contrast ratio of two colours, from their relative luminance.
double contrast(const QColor& a, const QColor& b)
{
    const auto luminance = [](const QColor& c) {
        const auto channel = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
        return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
    };
    const double x = luminance(a), y = luminance(b);
    return (std::max(x, y) + 0.05) / (std::min(x, y) + 0.05);
}

// Shows the page and opens `spec` on it; false (with the failure recorded) when it does not open.
bool showOpened(ui::DatasetsPage& page, const DatasetSpec& spec)
{
    page.resize(1200, 800);
    page.show();
    if (!QTest::qWaitForWindowExposed(&page)) return false;
    QSignalSpy opened(&page, &ui::DatasetsPage::datasetOpened);
    page.openSpec(spec, {});
    if (opened.count() == 0 && !opened.wait(20000)) return false;
    if (!page.opened().ok()) qWarning("%s", qPrintable(page.message()));
    return page.opened().ok();
}

}  // namespace

class TestDatasetsText : public QObject {
    Q_OBJECT
private slots:
    void textFolderListsTokensLengthsAndVocabulary()
    {
        QTemporaryDir ws, data;
        auto fortunes = [](const std::vector<std::string>& texts) {
            std::string s;
            for (const auto& t : texts) s += t + "\n%\n";
            return s;
        };
        writeText(data.path().toStdString() + "/jokes", fortunes(kJokes));
        writeText(data.path().toStdString() + "/food", fortunes(kFood));
        std::vector<std::string> texts = kJokes;  // in sample order: the classes as listed
        texts.insert(texts.end(), kFood.begin(), kFood.end());
        DatasetSpec spec;
        spec.format = "text_folder";
        spec.path = data.path().toStdString();
        spec.separator = "%";
        spec.classes = {"jokes", "food"};
        spec.context = kContext;
        spec.validationFraction = 0.25;
        spec.splitSeed = 3;

        ui::DatasetsPage page(Workspace::open(ws.path().toStdString()));
        QVERIFY(showOpened(page, spec));

        // The texts are listed (not the image grid), each with its class, cut to the context.
        QVERIFY(page.textList()->isVisible());
        QVERIFY(!page.grid()->isVisible());
        ui::TextSampleModel* rows = page.textModel();
        QCOMPARE(rows->rowCount(), int(texts.size()));
        for (int r = 0; r < rows->rowCount(); ++r) {
            const std::int64_t i = rows->sampleAt(r).index;
            QCOMPARE(rows->text(r).toStdString(), texts[std::size_t(i)].substr(0, kContext));
            QCOMPARE(rows->index(r, ui::TextSampleModel::ClassColumn).data().toString(), QString(i < 8 ? "jokes" : "food"));
        }
        // The tabs for text; none for images.
        QTabWidget* tabs = page.sidePanels();
        for (const char* t : {"Tokens", "Lengths", "Vocabulary", "Statistics"}) QVERIFY2(tabShown(tabs, t), t);
        for (const char* t : {"Sample", "Augmentation"}) QVERIFY2(!tabShown(tabs, t), t);
        QCOMPARE(tabs->currentWidget(), static_cast<QWidget*>(page.textPanels()->detail()));  // in the Sample tab's place

        ui::TextPanels* panels = page.textPanels();
        QTRY_VERIFY_WITH_TIMEOUT(!panels->isCounting() && panels->counted().has_value(), 10000);
        QVERIFY(!panels->progress()->isVisible());
        const auto& split = page.opened().split;
        QCOMPARE(split.validation.size(), std::size_t(4));  // a quarter of 14, rounded

        // Vocabulary: counts of the training split's characters as the model sees them (cut).
        std::map<std::string, std::int64_t> expected;
        std::set<char> all;
        for (const auto& t : texts) all.insert(t.begin(), t.end());
        for (const std::int64_t i : split.train)
            for (char c : texts[std::size_t(i)].substr(0, kContext)) ++expected[std::string(1, c)];
        ui::VocabularyModel* vocabulary = panels->vocabularyModel();
        QCOMPARE(vocabulary->rowCount(), int(all.size()));  // padding is no row
        const Tokenizer* tokenizer = textTokenizer(*page.opened().files->train);
        std::int64_t most = 0;
        for (int r = 0; r < vocabulary->rowCount(); ++r) {
            const std::int64_t id = vocabulary->idAt(r);
            const std::string piece = tokenizer->piece(id);
            QCOMPARE(vocabulary->index(r, ui::VocabularyModel::CountColumn).data(ui::VocabularyModel::SortRole).toLongLong(),
                     expected.count(piece) ? expected[piece] : 0);
            most = std::max(most, expected.count(piece) ? expected[piece] : 0);
        }
        QVERIFY(panels->vocabularySummary()->text().contains(QString("%1 tokens in the vocabulary").arg(all.size())));
        // Sorted by count, most first: the view's first row is the most frequent character.
        QTableView* table = panels->vocabularyView();
        table->sortByColumn(ui::VocabularyModel::CountColumn, Qt::DescendingOrder);
        QCOMPARE(table->model()->index(0, ui::VocabularyModel::CountColumn).data(ui::VocabularyModel::SortRole).toLongLong(), most);
        // Control characters are visible: the tab and the line break have rows of their own.
        QVERIFY(!table->model()->match(table->model()->index(0, 0), Qt::DisplayRole, QStringLiteral("⇥"), 1, Qt::MatchExactly).isEmpty());
        QVERIFY(!table->model()->match(table->model()->index(0, 0), Qt::DisplayRole, QStringLiteral("↵"), 1, Qt::MatchExactly).isEmpty());
        QVERIFY(!table->model()->match(table->model()->index(0, 0), Qt::DisplayRole, QStringLiteral("␣"), 1, Qt::MatchExactly).isEmpty());
        QCOMPARE(ui::visibleToken("\a"), QStringLiteral("<U+0007>"));

        // Lengths: the whole texts' lengths in bins of 2 up to the context, and those it cuts.
        const std::int64_t width = lengthBinWidth(kContext, 16);
        QCOMPARE(width, 2);
        std::vector<std::int64_t> bins(std::size_t(kContext / width) + 1, 0);
        std::int64_t cut = 0;
        for (const std::int64_t i : split.train) {
            const auto n = std::int64_t(texts[std::size_t(i)].size());
            if (n > kContext) ++cut;
            ++bins[n > kContext ? bins.size() - 1 : std::size_t((n - 1) / width)];
        }
        QVERIFY(cut > 0);
        ui::StatisticsHistogram* histogram = panels->histogram();
        QCOMPARE(histogram->splitCount(), 2);
        QCOMPARE(barValues(histogram, 0), bins);
        QVERIFY(panels->lengthsSummary()->text().contains(QString("%1 (").arg(cut)));
        // A click on the last bar lists the training texts the context cuts.
        tabs->setCurrentWidget(tabPage(tabs, "Lengths"));
        QTRY_VERIFY(histogram->isVisible() && histogram->height() > 100);
        histogram->replot();
        const QPointF bar = histogram->barCenter(0, int(bins.size()) - 1);
        QTest::mouseClick(histogram, Qt::LeftButton, {}, bar.toPoint());
        QTRY_COMPARE(rows->rowCount(), int(cut));
        for (int r = 0; r < rows->rowCount(); ++r) QVERIFY(texts[std::size_t(rows->sampleAt(r).index)].size() > std::size_t(kContext));

        // Tokens: a cut text shows every token, those past the context pale; hover names the id.
        page.textList()->setCurrentIndex(rows->index(0, 0));
        const std::string& text = texts[std::size_t(rows->sampleAt(0).index)];
        ui::TextSampleDetail* detail = panels->detail();
        ui::TokenView* tokens = detail->tokens();
        tabs->setCurrentWidget(detail);
        QCOMPARE(tokens->tokens().size(), text.size());
        for (std::size_t t = 0; t < text.size(); ++t) {
            QCOMPARE(tokenizer->piece(tokens->tokens()[t].id), std::string(1, text[t]));
            QCOMPARE(tokens->tokens()[t].faint, std::int64_t(t) >= kContext);
        }
        QVERIFY(tokens->background(0) != tokens->background(1));
        QCOMPARE(tokens->background(0), tokens->background(2));
        // Readable on a light and on a dark palette: the text keeps WCAG's 4.5:1 contrast over
        // both tints, and the tints differ from each other.
        for (const auto& [base, ink] : {std::pair{QColor(255, 255, 255), QColor(0, 0, 0)}, std::pair{QColor(30, 30, 30), QColor(230, 230, 230)}}) {
            QPalette palette = tokens->palette();
            palette.setColor(QPalette::Base, base);
            palette.setColor(QPalette::Text, ink);
            ui::TokenView view;
            view.setPalette(palette);
            view.setTokens({{1, "a"}, {2, "b"}});
            QVERIFY2(contrast(ink, view.background(0)) >= 4.5, qPrintable(view.background(0).name()));
            QVERIFY2(contrast(ink, view.background(1)) >= 4.5, qPrintable(view.background(1).name()));
            QVERIFY(contrast(view.background(0), view.background(1)) > 1.1);
        }
        QTRY_VERIFY(tokens->tokenRect(2).isValid() && tokens->isVisible());
        QTest::mouseMove(tokens, tokens->tokenRect(2).center());
        QTRY_COMPARE(tokens->hoveredToken(), 2);
        QVERIFY2(detail->hoverLabel()->text().contains(QString("id %1").arg(tokens->tokens()[2].id)), qPrintable(detail->hoverLabel()->text()));
        QVERIFY(detail->facts().contains(QString("cut off")));

        // A short text: its tokens only, the padding counted but not drawn.
        page.setFilter({});
        const int shortRow = [&] {
            for (int r = 0; r < rows->rowCount(); ++r)
                if (texts[std::size_t(rows->sampleAt(r).index)] == "Ha!") return r;
            return -1;
        }();
        QVERIFY(shortRow >= 0);
        page.textList()->setCurrentIndex(rows->index(shortRow, 0));
        QCOMPARE(tokens->tokens().size(), std::size_t(3));
        QVERIFY2(detail->facts().contains(QString("padded with %1 more").arg(kContext - 3)), qPrintable(detail->facts()));
    }

    // A CSV of texts (text_column) is listed as texts, as a text folder is, not as a table of
    // columns; its catalogue key reopens it as texts.
    void csvOfTextsListsTexts()
    {
        QTemporaryDir ws, data;
        std::string csv = "topic,text\n";
        std::vector<std::string> texts = kJokes;
        texts.insert(texts.end(), kFood.begin(), kFood.end());
        for (std::size_t i = 0; i < texts.size(); ++i) {
            std::string quoted;
            for (char c : texts[i]) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
            csv += std::string(i < kJokes.size() ? "jokes" : "food") + ",\"" + quoted + "\"\n";
        }
        writeText(data.filePath("t.csv").toStdString(), csv);
        DatasetSpec spec;
        spec.format = "csv";
        spec.path = data.filePath("t.csv").toStdString();
        spec.textColumn = "text";
        spec.labelColumn = "topic";
        spec.context = kContext;
        spec.validationFraction = 0.25;

        ui::DatasetsPage page(Workspace::open(ws.path().toStdString()));
        QVERIFY(showOpened(page, spec));
        QVERIFY(page.textList()->isVisible());
        QVERIFY(!page.grid()->isVisible());
        ui::TextSampleModel* rows = page.textModel();
        QCOMPARE(rows->rowCount(), int(texts.size()));
        for (int r = 0; r < rows->rowCount(); ++r) {
            const std::int64_t i = rows->sampleAt(r).index;
            QCOMPARE(rows->text(r).toStdString(), texts[std::size_t(i)].substr(0, kContext));
            QCOMPARE(rows->index(r, ui::TextSampleModel::ClassColumn).data().toString(),
                     QString(std::size_t(i) < kJokes.size() ? "jokes" : "food"));
        }
        QTabWidget* tabs = page.sidePanels();
        QVERIFY(tabShown(tabs, "Tokens") && tabShown(tabs, "Lengths") && tabShown(tabs, "Vocabulary"));
        DatasetRecord record;
        record.format = "csv";
        record.key = datasetKey(spec, "");
        QCOMPARE(ui::specOfRecord(record).textColumn, std::string("text"));
    }

    void languageModelBlocksAndLines()
    {
        QTemporaryDir ws, data;
        std::string text;
        for (int i = 0; i < 40; ++i) text += std::string(std::size_t(3 + (i * 7) % 13), char('a' + i % 26)) + (i % 5 ? " x\n" : "\n\n");
        writeText(data.path().toStdString() + "/corpus.txt", text);
        DatasetSpec spec;
        spec.format = "text";
        spec.path = data.path().toStdString();
        spec.context = 8;
        spec.validationFraction = 0;

        ui::DatasetsPage page(Workspace::open(ws.path().toStdString()));
        QVERIFY(showOpened(page, spec));

        // Blocks of 8 characters, in order, where each starts instead of a class.
        ui::TextSampleModel* rows = page.textModel();
        const std::int64_t blocks = page.opened().files->train->size();
        QCOMPARE(blocks, std::int64_t((text.size() - 1) / 8));
        QCOMPARE(rows->rowCount(), int(blocks));
        QVERIFY(rows->blocks());
        QCOMPARE(rows->headerData(ui::TextSampleModel::ClassColumn, Qt::Horizontal).toString(), QString("Starts at"));
        for (int r = 0; r < rows->rowCount(); ++r) QCOMPARE(rows->text(r).toStdString(), text.substr(std::size_t(r) * 8, 8));
        QVERIFY(rows->index(0, ui::TextSampleModel::ClassColumn).data().toString().startsWith("corpus.txt:1"));
        QTabWidget* tabs = page.sidePanels();
        QVERIFY(!tabShown(tabs, "Statistics"));  // a block's "class" is its last token
        QVERIFY(tabShown(tabs, "Tokens") && tabShown(tabs, "Lengths") && tabShown(tabs, "Vocabulary"));

        ui::TextPanels* panels = page.textPanels();
        QTRY_VERIFY_WITH_TIMEOUT(!panels->isCounting() && panels->counted().has_value(), 10000);
        // The lines of the text the blocks cover, in bins of 1 up to the context, and longer.
        const std::string covered = text.substr(0, std::size_t(blocks * 8));
        std::vector<std::int64_t> bins(9, 0);
        std::map<std::string, std::int64_t> counts;
        std::int64_t line = 0, lines = 0;
        for (char c : covered) {
            ++counts[std::string(1, c)];
            if (c == '\n') {
                ++bins[line > 8 ? 8 : std::size_t(std::max<std::int64_t>(line, 1) - 1)];
                ++lines;
                line = 0;
            } else {
                ++line;
            }
        }
        if (line > 0) ++bins[line > 8 ? 8 : std::size_t(line - 1)], ++lines;
        QCOMPARE(barValues(panels->histogram(), 0), bins);
        QVERIFY2(panels->lengthsSummary()->text().contains(QString("Every block has 8 tokens")), qPrintable(panels->lengthsSummary()->text()));
        QVERIFY(panels->lengthsSummary()->text().contains(QString("%1 lines").arg(lines)));
        ui::VocabularyModel* vocabulary = panels->vocabularyModel();
        const Tokenizer* tokenizer = textTokenizer(*page.opened().files->train);
        for (int r = 0; r < vocabulary->rowCount(); ++r)
            QCOMPARE(vocabulary->countOf(vocabulary->idAt(r)), counts[tokenizer->piece(vocabulary->idAt(r))]);

        // A block's tokens: a line break ends a row of tokens.
        page.textList()->setCurrentIndex(rows->index(0, 0));
        const auto& cells = panels->detail()->tokens()->tokens();
        QCOMPARE(cells.size(), std::size_t(8));
        for (std::size_t t = 0; t < 8; ++t) QCOMPARE(cells[t].lineBreak, text[t] == '\n');
    }
};

int main(int argc, char** argv)
{
    QTemporaryDir home;  // a scratch HOME before Qt starts: no user cache or settings touched
    if (!home.isValid()) return 1;
    useScratchHome(home.path());
    QApplication app(argc, argv);
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    TestDatasetsText test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_datasets_text.moc"

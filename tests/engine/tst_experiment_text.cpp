// Experiment files as the studio edits them: the lenient draft (a broken model is still
// read, its problems pinned to nodes), the lossless saver (unchanged parts keep their bytes,
// an attribute change touches one line, an option's edit only that option's lines, in every
// shipped experiment and lesson file) and the `layout:` section.
#include <QtTest>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "io/yaml/experiment_text.h"
#include "io/yaml/experiment_yaml.h"
#include "../common/shipped_experiment_rows.h"

using namespace ts;

namespace {

const std::string kExperiments = std::string(TS_SOURCE_DIR) + "/experiments";

std::string readText(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<std::string> linesOf(const std::string& text)
{
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    return lines;
}

// The lines of `a` and `b` between their common first and last lines: what an edit removed
// and what it added, exact for an edit in one place.
struct LineDiff {
    std::vector<std::string> removed, added;
};
LineDiff lineDiff(const std::string& a, const std::string& b)
{
    const auto x = linesOf(a), y = linesOf(b);
    std::size_t head = 0;
    while (head < x.size() && head < y.size() && x[head] == y[head]) ++head;
    std::size_t tail = 0;
    while (tail < x.size() - head && tail < y.size() - head && x[x.size() - 1 - tail] == y[y.size() - 1 - tail]) ++tail;
    return {std::vector<std::string>(x.begin() + head, x.end() - tail), std::vector<std::string>(y.begin() + head, y.end() - tail)};
}

// Every line that is in `a` but not in `b` and the other way round, by the longest common
// subsequence of lines: for edits in several places.
LineDiff changedLines(const std::string& a, const std::string& b)
{
    const auto x = linesOf(a), y = linesOf(b);
    std::vector<std::vector<std::size_t>> common(x.size() + 1, std::vector<std::size_t>(y.size() + 1, 0));
    for (std::size_t i = x.size(); i-- > 0;)
        for (std::size_t j = y.size(); j-- > 0;)
            common[i][j] = x[i] == y[j] ? common[i + 1][j + 1] + 1 : std::max(common[i + 1][j], common[i][j + 1]);
    LineDiff d;
    std::size_t i = 0, j = 0;
    while (i < x.size() || j < y.size()) {
        if (i < x.size() && j < y.size() && x[i] == y[j]) ++i, ++j;
        else if (j == y.size() || (i < x.size() && common[i + 1][j] >= common[i][j + 1])) d.removed.push_back(x[i++]);
        else d.added.push_back(y[j++]);
    }
    return d;
}

// `text` with its first occurrence of `from` replaced by `to` (the expected edit, written independently).
std::string replaced(std::string text, const std::string& from, const std::string& to)
{
    const auto at = text.find(from);
    if (at == std::string::npos) throw std::runtime_error("not in the text: " + from);
    return text.replace(at, from.size(), to);
}

ExperimentDraft draftOf(const std::string& text) { return parseExperimentDraft(text, "x.yaml"); }

Node& nodeNamed(ExperimentSpec& s, const std::string& name)
{
    for (Node& n : s.model.nodes)
        if (n.name == name) return n;
    throw std::runtime_error("no node " + name);
}

// A hand-written file with comments everywhere: at the top, beside keys, inside sections and
// flow mappings, between sections, at the end.
const char* kCommented = R"(# A hand-written experiment.
# Two lines of header.
name: commented        # the name
description: "A test: with a colon"

dataset:               # where the images are
  format: idx
  # a comment line inside a section
  path: /usr/share/datasets/fashion-mnist
  validation_fraction: 0.0   # no validation split

# about the model
model:
  # before the layers
  layers:
    - Flatten              # 784 features
    - Linear:              # a block mapping
        out_features: 64   # hidden units
        init: pytorch
    - BatchNorm1d
    - ReLU
    - Dropout: {p: 0.1}    # a flow mapping
    - Linear: {out_features: 10, init: pytorch}   # logits
    - CrossEntropy
# about the optimizer
optimizer: {type: sgd, lr: 0.1, momentum: 0.9}  # fast

training:
  epochs: 1     # one pass
  batch_size: 32
  # the end
)";

// A valid experiment in the nodes form (a residual add) for the draft and nodes-form tests.
const char* kNodes = R"(name: n
dataset: {format: idx, path: /nowhere}
model:
  nodes:
    - {name: flat, op: Flatten, inputs: [image]}
    - {name: fc1, op: Linear, out_features: 32}   # first
    - {name: act, op: ReLU}
    - {name: fc2, op: Linear, out_features: 32}
    - {name: add, op: Add, inputs: [fc2, fc1]}
    - {name: head, op: Linear, out_features: 10}
    - {name: loss, op: CrossEntropy, inputs: [head, label]}
training: {epochs: 1, batch_size: 8}
)";

// A file with a comment on every line, block sections throughout, defaults spelt out
// (beta1, seed, every_epochs) and numbers spelt as people write them.
const char* kEveryLineCommented = R"(# Header: a comment on every line.
name: every_line   # its name
description: Numbers spelt by hand   # kept as written
dataset:   # the data
  format: idx   # IDX files
  path: /usr/share/datasets/fashion-mnist   # where
  validation_fraction: 0.10   # a tenth
  split_seed: 7   # seeded
  normalize:   # per channel
    mean: [0.2860]   # Fashion-MNIST's mean
    std:   # a block list
      - 0.3530   # and its deviation
  augment:   # training only
    horizontal_flip: true   # mirror
  loader:   # how batches are made
    num_workers: 0   # in the main thread
model:   # the network
  layers:   # in order
    - Flatten   # 784 features
    - Linear: {out_features: 10}   # logits
    - CrossEntropy   # the loss
optimizer:   # block form
  type: adam   # Adam
  lr: 1e-3   # spelt 1e-3
  weight_decay: 3.0E-4   # spelt 3.0E-4
  beta1: 0.90   # the default, spelt out
schedule:   # cosine
  type: cosine   # annealing
  min_lr: 1.0e-5   # its floor
training:   # options
  epochs: 5   # five
  batch_size: 64   # small
  seed: 0   # the default, spelt out
  checkpoint:   # block form
    every_epochs: 1   # the default, spelt out
    keep_last: 2   # two
# the end
)";

// The expected edits, made with plain string search (no YAML parser) so that they check the
// saver independently. A path names keys from the top: "dataset.normalize.mean".
struct Range {
    std::size_t begin = 0, end = 0;
};

std::size_t lineStartOf(const std::string& t, std::size_t pos) { return pos == 0 ? 0 : t.rfind('\n', pos - 1) + 1; }
std::size_t nextLineOf(const std::string& t, std::size_t pos)
{
    const std::size_t nl = t.find('\n', pos);
    return nl == std::string::npos ? t.size() : nl + 1;
}
bool blankOrComment(const std::string& t, std::size_t line)
{
    const std::size_t c = t.find_first_not_of(' ', line);
    return c == std::string::npos || t[c] == '\n' || t[c] == '#';
}

// The value after a key's colon: a bracketed flow collection, or a scalar up to a comma, a
// brace, a comment or the line's end; empty when the value is a block below the key.
Range valueAt(const std::string& t, std::size_t afterColon)
{
    std::size_t b = afterColon;
    while (b < t.size() && t[b] == ' ') ++b;
    std::size_t e = b;
    if (b < t.size() && (t[b] == '[' || t[b] == '{')) {
        for (int depth = 0; e < t.size(); ++e) {
            if (t[e] == '[' || t[e] == '{') ++depth;
            if ((t[e] == ']' || t[e] == '}') && --depth == 0) return {b, e + 1};
        }
    }
    while (e < t.size() && t[e] != '\n' && t[e] != ',' && t[e] != '}' && !(t[e] == '#' && t[e - 1] == ' ')) ++e;
    while (e > b && t[e - 1] == ' ') --e;
    return {b, e};
}

struct Found {
    std::size_t key = 0;  // where the key starts
    Range value;          // as valueAt
    Range inside;         // a flow mapping's text inside its braces, or a block value's lines
    bool flow = false;    // the key is an entry of a flow mapping
};

// The key `name` in `within`: at a line's start (after spaces), or after '{' or ", ", not in a comment.
std::optional<Found> findKey(const std::string& t, Range within, const std::string& name, bool topLevel)
{
    for (std::size_t p = t.find(name + ":", within.begin); p != std::string::npos && p < within.end; p = t.find(name + ":", p + 1)) {
        const std::size_t line = lineStartOf(t, p);
        const std::string before = t.substr(line, p - line);
        if (before.find('#') != std::string::npos) continue;
        const bool flow = before.ends_with("{") || before.ends_with(", ");
        if (!flow && (before.find_first_not_of(' ') != std::string::npos || (topLevel && p != line))) continue;
        Found f{p, valueAt(t, p + name.size() + 1), {}, flow};
        if (f.value.begin != f.value.end) {
            f.inside = {f.value.begin + 1, f.value.end - 1};
        } else {  // the block below: lines indented deeper than the key
            f.inside = {nextLineOf(t, p), nextLineOf(t, p)};
            for (std::size_t l = f.inside.begin; l < t.size(); l = nextLineOf(t, l)) {
                if (blankOrComment(t, l)) continue;
                if (t.find_first_not_of(' ', l) - l <= p - line) break;
                f.inside.end = nextLineOf(t, l);
            }
        }
        return f;
    }
    return std::nullopt;
}

std::optional<Found> find(const std::string& t, const std::string& path)
{
    std::optional<Found> f;
    Range within{0, t.size()};
    for (std::size_t from = 0; from <= path.size();) {
        const std::size_t dot = std::min(path.find('.', from), path.size());
        f = findKey(t, within, path.substr(from, dot - from), from == 0);
        if (!f) return std::nullopt;
        within = f->inside;
        from = dot + 1;
    }
    return f;
}

Found at(const std::string& t, const std::string& path)
{
    if (auto f = find(t, path)) return *f;
    throw std::runtime_error("not in the text: " + path);
}

std::string withValue(std::string t, const std::string& path, const std::string& value)
{
    const Range r = at(t, path).value;
    return t.replace(r.begin, r.end - r.begin, value);
}

// `entry` ("key: value") added to the mapping at `path`: before a flow mapping's closing
// brace, or as a line after a block mapping's last, indented as its first.
std::string withEntry(std::string t, const std::string& path, const std::string& entry)
{
    const Found f = at(t, path);
    if (f.value.begin != f.value.end) return t.insert(f.value.end - 1, ", " + entry);
    std::size_t last = f.inside.begin;
    for (std::size_t l = f.inside.begin; l < f.inside.end; l = nextLineOf(t, l))
        if (!blankOrComment(t, l)) last = l;
    const std::size_t indent = t.find_first_not_of(' ', f.inside.begin) - f.inside.begin;
    return t.insert(nextLineOf(t, last), std::string(indent, ' ') + entry + "\n");
}

// The key at `path` gone: its `key: value` from a flow mapping, or its lines from a block one.
std::string without(std::string t, const std::string& path)
{
    const Found f = at(t, path);
    if (f.flow) {
        const std::size_t comma = t.rfind(',', f.key);
        const bool first = t[t.find_last_not_of(' ', f.key - 1)] == '{';
        if (first) return t.erase(f.key, t.find_first_not_of(' ', f.value.end + 1) - f.key);
        return t.erase(comma, f.value.end - comma);
    }
    const std::size_t line = lineStartOf(t, f.key);
    const std::size_t end = f.value.begin != f.value.end ? nextLineOf(t, f.key) : std::max(f.inside.end, nextLineOf(t, f.key));
    return t.erase(line, end - line);
}

// A line inserted after the one-line section `section`.
std::string withLineAfter(std::string t, const std::string& section, const std::string& line)
{
    return t.insert(nextLineOf(t, at(t, section).key), line + "\n");
}

// Whether every line the edit changed names one of `keys`: nothing else was touched.
bool onlyLinesNaming(const LineDiff& d, const std::vector<std::string>& keys)
{
    auto names = [&](const std::string& line) {
        return std::any_of(keys.begin(), keys.end(), [&](const std::string& k) { return line.find(k) != std::string::npos; });
    };
    return std::all_of(d.removed.begin(), d.removed.end(), names) && std::all_of(d.added.begin(), d.added.end(), names);
}

std::string shown(const std::string& what, const std::string& out, const std::string& expected)
{
    return what + ":\n--- saved\n" + out + "--- expected\n" + expected;
}

}  // namespace

class TestExperimentText : public QObject {
    Q_OBJECT
private slots:
    void shippedFilesSaveUnchanged_data() { addShippedExperimentRows(kExperiments); }
    // Saving what was read gives the file back byte for byte; a layout added is appended after
    // everything else, and moving one node then changes one line.
    void shippedFilesSaveUnchanged()
    {
        QFETCH(QString, file);
        const std::string path = file.toStdString();
        const std::string text = readText(path);
        ExperimentSpec spec = loadExperiment(path);
        QCOMPARE(updateExperimentText(text, spec), text);

        std::vector<std::string> names;
        for (const auto& in : spec.model.inputs) names.push_back(in.name);
        for (const auto& n : spec.model.nodes) names.push_back(n.name);
        for (std::size_t i = 0; i < names.size(); ++i) spec.layout.positions[names[i]] = NodePosition{0, 100.0 * static_cast<double>(i)};
        const std::string laidOut = updateExperimentText(text, spec);
        QVERIFY2(laidOut.starts_with(text), laidOut.c_str());  // every byte of the file kept
        QVERIFY(laidOut.find("\nlayout:\n  positions:\n    " + names[0] + ": [0, 0]\n") != std::string::npos);
        QCOMPARE(static_cast<int>(linesOf(laidOut).size() - linesOf(text).size()), 1 + 1 + 1 + static_cast<int>(names.size()));
        QVERIFY(parseExperimentDraft(laidOut, path).spec == spec);

        ExperimentSpec moved = spec;
        moved.layout.positions[names[3]] = NodePosition{40, 325.5};
        const std::string after = updateExperimentText(laidOut, moved);
        const LineDiff d = lineDiff(laidOut, after);
        QCOMPARE(d.removed, std::vector<std::string>{"    " + names[3] + ": [0, 300]"});
        QCOMPARE(d.added, std::vector<std::string>{"    " + names[3] + ": [40, 325.5]"});
        QCOMPARE(linesOf(after).size(), linesOf(laidOut).size());
        QVERIFY(parseExperimentDraft(after, path).spec == moved);
        QCOMPARE(updateExperimentText(after, spec), laidOut);  // moving it back restores the file
    }

    // Every number of every node of every shipped file, changed one at a time, and every
    // node's checkpoint flag: one line of the file changes, and it reads back as edited.
    void everyShippedAttributeEditsOneLine_data() { shippedFilesSaveUnchanged_data(); }
    void everyShippedAttributeEditsOneLine()
    {
        QFETCH(QString, file);
        const std::string path = file.toStdString();
        const std::string text = readText(path);
        const ExperimentSpec spec = loadExperiment(path);
        int edits = 0;
        auto check = [&](const ExperimentSpec& edited, const std::string& what) {
            const std::string out = updateExperimentText(text, edited);
            const LineDiff d = lineDiff(text, out);
            QVERIFY2(d.removed.size() == 1 && d.added.size() == 1, (what + ":\n" + out).c_str());
            QVERIFY2(parseExperimentDraft(out, path).spec == edited, (what + ":\n" + out).c_str());
            ++edits;
        };
        for (std::size_t i = 0; i < spec.model.nodes.size(); ++i) {
            for (const auto& [key, value] : spec.model.nodes[i].attrs.values()) {
                ExperimentSpec edited = spec;
                if (const auto* n = std::get_if<std::int64_t>(&value)) edited.model.nodes[i].attrs.set(key, *n + 1);
                else if (const auto* x = std::get_if<double>(&value)) edited.model.nodes[i].attrs.set(key, *x / 2);
                else continue;
                check(edited, spec.model.nodes[i].name + "." + key);
            }
            ExperimentSpec toggled = spec;
            toggled.model.nodes[i].checkpoint = !toggled.model.nodes[i].checkpoint;
            check(toggled, spec.model.nodes[i].name + " checkpoint");
        }
        QVERIFY(edits > static_cast<int>(spec.model.nodes.size()));
    }

    void commentedFileRoundTrips()
    {
        const ExperimentDraft d = draftOf(kCommented);
        QVERIFY2(d.issues.empty(), d.issues.empty() ? "" : d.issues.front().message.c_str());
        QCOMPARE(updateExperimentText(kCommented, d.spec), std::string(kCommented));
        // A changed optimizer is rewritten alone, its comment kept; the rest keeps its bytes.
        ExperimentSpec s = d.spec;
        s.optimizer.lr = 0.05;
        const std::string lr = updateExperimentText(kCommented, s);
        QCOMPARE(lr, replaced(kCommented, "optimizer: {type: sgd, lr: 0.1, momentum: 0.9}  # fast",
                              "optimizer: {type: sgd, lr: 0.05, momentum: 0.9}  # fast"));
        // A section the file lacks goes where the writer puts it: the schedule after the optimizer.
        s = d.spec;
        s.schedule.type = "cosine";
        const std::string cosine = updateExperimentText(kCommented, s);
        QCOMPARE(cosine, replaced(kCommented, "# fast\n", "# fast\nschedule: {type: cosine}\n"));
        QVERIFY(draftOf(cosine).spec == s);
        // A section back to its defaults goes away.
        QCOMPARE(updateExperimentText(cosine, d.spec), std::string(kCommented));
        // Training changed: only the value changes, its comment and the section's kept.
        s = d.spec;
        s.training.epochs = 3;
        QCOMPARE(updateExperimentText(kCommented, s), replaced(kCommented, "  epochs: 1     # one pass", "  epochs: 3     # one pass"));
    }

    // Every shipped experiment and lesson starting file, and a file commented on every line:
    // saved unchanged it keeps its bytes; one edit of each kind of option changes exactly the
    // lines of that edit (the expected text is made by string search), and reads back as edited.
    void everyOptionEditChangesItsLines_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("text");
        int files = 0;
        for (const std::string& dir : {kExperiments, kExperiments + "/lessons"}) {
            std::vector<std::filesystem::path> paths;
            for (const auto& e : std::filesystem::directory_iterator(dir))
                if (e.path().extension() == ".yaml") paths.push_back(e.path());
            std::sort(paths.begin(), paths.end());
            for (const auto& p : paths) {
                const std::string name = std::filesystem::relative(p, kExperiments).string();
                QTest::newRow(name.c_str()) << QString::fromStdString(p.string()) << QString::fromStdString(readText(p.string()));
                ++files;
            }
        }
        QVERIFY2(files >= 12, "too few shipped experiments and lessons");
        QTest::newRow("every line commented") << "every_line.yaml" << QString(kEveryLineCommented);
    }
    void everyOptionEditChangesItsLines()
    {
        QFETCH(QString, source);
        QFETCH(QString, text);
        const std::string path = source.toStdString(), original = text.toStdString();
        const ExperimentDraft read = parseExperimentDraft(original, path);
        QVERIFY2(read.issues.empty(), read.issues.empty() ? "" : read.issues.front().message.c_str());
        const ExperimentSpec base = read.spec;
        QCOMPARE(updateExperimentText(original, base), original);  // no edit: the same bytes

        auto check = [&](const std::string& what, const ExperimentSpec& edited, const std::string& expected,
                         const std::vector<std::string>& keys) {
            const std::string out = updateExperimentText(original, edited);
            const LineDiff d = changedLines(original, out);
            QVERIFY2(!d.removed.empty() || !d.added.empty(), shown(what, out, expected).c_str());
            QVERIFY2(onlyLinesNaming(d, keys), shown(what, out, expected).c_str());
            QVERIFY2(out == expected, shown(what, out, expected).c_str());
            QVERIFY2(parseExperimentDraft(out, path).spec == edited, shown(what, out, expected).c_str());
        };
        const bool hasSchedule = find(original, "schedule").has_value();

        ExperimentSpec e = base;
        e.name = "renamed_experiment";
        check("name", e, withValue(original, "name", "renamed_experiment"), {"name:"});
        e = base;
        e.optimizer.lr = 0.0123;
        check("optimizer.lr", e, withValue(original, "optimizer.lr", "0.0123"), {"lr:"});
        e = base;
        e.training.epochs = 7;
        check("training.epochs", e, withValue(original, "training.epochs", "7"), {"epochs:"});
        e = base;
        e.training.batchSize = 48;
        check("training.batch_size", e, withValue(original, "training.batch_size", "48"), {"batch_size:"});

        // The schedule's type and two of its keys: set and added in place, or the section added.
        e = base;
        QVERIFY(base.schedule.stepSize == ScheduleSpec{}.stepSize && base.schedule.gamma == ScheduleSpec{}.gamma);
        e.schedule.type = "step";
        e.schedule.stepSize = 3;
        e.schedule.gamma = 0.5;
        const std::string step = hasSchedule ? withEntry(withEntry(withValue(original, "schedule.type", "step"), "schedule", "step_size: 3"),
                                                         "schedule", "gamma: 0.5")
                                             : withLineAfter(original, "optimizer", "schedule: {type: step, step_size: 3, gamma: 0.5}");
        check("schedule step", e, step, {"schedule", "type:", "step_size:", "gamma:"});
        if (hasSchedule) {  // back to a constant rate: the section goes
            e.schedule = ScheduleSpec{};
            check("schedule constant", e, without(original, "schedule"), {"schedule", "type:", "min_lr:", "warmup_steps:", "max_lr:"});
        }

        // The split: set where the file has it, else a line at the end of the dataset section.
        e = base;
        e.dataset.validationFraction = 0.25;
        check("dataset.validation_fraction", e,
              find(original, "dataset.validation_fraction") ? withValue(original, "dataset.validation_fraction", "0.25")
                                                            : withEntry(original, "dataset", "validation_fraction: 0.25"),
              {"validation_fraction:"});

        // Normalisation: the mean changed (the std keeps its spelling), or from_statistics off (the key goes).
        e = base;
        if (!base.dataset.normalizeMean.empty()) {
            e.dataset.normalizeMean = {0.5};
            check("dataset.normalize.mean", e, withValue(original, "dataset.normalize.mean", "[0.5]"), {"mean:"});
        } else if (base.dataset.format != "text" && base.dataset.format != "text_folder" &&  // token ids are not normalised,
                   !base.dataset.sequence.enabled()) {  // a time series by its training period (data/time_series_dataset.h)
            QVERIFY(base.dataset.normalizeFromStatistics);
            e.dataset.normalizeFromStatistics = false;
            check("dataset.normalize.from_statistics", e, without(original, "dataset.normalize"), {"normalize:"});
        }

        // Augmentation: horizontal flip turned on (a key added, or the augment mapping added) or off.
        e = base;
        e.dataset.horizontalFlip = !base.dataset.horizontalFlip;
        const bool hasAugment = find(original, "dataset.augment").has_value();
        const std::string flipped = base.dataset.horizontalFlip ? without(original, "dataset.augment")
                                    : hasAugment               ? withEntry(original, "dataset.augment", "horizontal_flip: true")
                                                               : withEntry(original, "dataset", "augment: {horizontal_flip: true}");
        check("dataset.augment.horizontal_flip", e, flipped, {"augment:", "horizontal_flip:"});
    }

    // Values spelt out at their defaults, which the writer leaves out, are edited where they
    // stand; a nested mapping back to its defaults goes; flow mappings lose a key in place.
    void defaultsSpeltOutAndFlowMappings()
    {
        const std::string text = kEveryLineCommented;
        const ExperimentSpec base = draftOf(text).spec;
        ExperimentSpec e = base;
        e.optimizer.beta1 = 0.95;  // `beta1: 0.90` is the default
        QCOMPARE(updateExperimentText(text, e), replaced(text, "  beta1: 0.90   #", "  beta1: 0.95   #"));
        e = base;
        e.training.checkpoint.keepLast = 5;
        QCOMPARE(updateExperimentText(text, e), replaced(text, "    keep_last: 2   #", "    keep_last: 5   #"));
        e.training.checkpoint.keepLast = CheckpointSpec{}.keepLast;  // every key at its default: the mapping goes
        std::string out = updateExperimentText(text, e);
        QCOMPARE(out, replaced(text, "  checkpoint:   # block form\n    every_epochs: 1   # the default, spelt out\n    keep_last: 2   # two\n", ""));
        QVERIFY(draftOf(out).spec == e);
        e = base;
        e.dataset.normalizeStd = {0.25};  // an item of a block list
        QCOMPARE(updateExperimentText(text, e), replaced(text, "      - 0.3530   #", "      - 0.25   #"));
        e.dataset.normalizeMean = {0.5, 0.4};  // lists of another length: written anew where they stand
        e.dataset.normalizeStd = {0.25, 0.2};
        out = updateExperimentText(text, e);
        QCOMPARE(out, replaced(replaced(text, "mean: [0.2860]", "mean: [0.5, 0.4]"), "    std:   # a block list\n      - 0.3530   # and its deviation\n",
                               "    std: [0.25, 0.2]   # and its deviation\n"));
        QVERIFY(draftOf(out).spec == e);
        e = base;
        e.training.earlyStopping.enabled = true;  // a nested mapping the file lacks: a line at the end of its section
        QCOMPARE(updateExperimentText(text, e), replaced(text, "    keep_last: 2   # two\n",
                                                         "    keep_last: 2   # two\n  early_stopping: {metric: val_loss, patience: 5}\n"));

        const std::string resnetPath = kExperiments + "/fashion_mnist_resnet.yaml";
        const std::string resnet = readText(resnetPath);
        const ExperimentSpec r = loadExperiment(resnetPath);
        e = r;
        e.optimizer.nesterov = false;
        QCOMPARE(updateExperimentText(resnet, e), replaced(resnet, "momentum: 0.9, nesterov: true, weight", "momentum: 0.9, weight"));
        e.optimizer.type = "adam";  // the first key set, a middle one and the last one gone
        e.optimizer.momentum = 0;
        e.optimizer.weightDecay = 0;
        out = updateExperimentText(resnet, e);
        QCOMPARE(out, replaced(resnet, "{type: sgd, lr: 0.1, momentum: 0.9, nesterov: true, weight_decay: 0.0005}", "{type: adam, lr: 0.1}"));
        QVERIFY(parseExperimentDraft(out, resnetPath).spec == e);
        e = r;
        e.dataset.randomCropPadding = 0;  // the only augmentation off: the augment line goes
        QCOMPARE(updateExperimentText(resnet, e), replaced(resnet, "  augment: {random_crop_padding: 2}\n", ""));
    }

    // Where a value's text cannot be edited in place (a literal block), its section is written
    // anew as the writer writes it; the rest of the file keeps its bytes.
    void sectionsThatCannotBeEditedInPlaceAreRewritten()
    {
        const std::string text = replaced(kEveryLineCommented, "description: Numbers spelt by hand   # kept as written\n",
                                          "description: |\n  Two lines\n  of text.\n");
        ExperimentSpec e = draftOf(text).spec;
        QCOMPARE(e.description, std::string("Two lines\nof text.\n"));
        QCOMPARE(updateExperimentText(text, e), text);
        e.description = "One line";
        QCOMPARE(updateExperimentText(text, e), replaced(text, "description: |\n  Two lines\n  of text.\n", "description: One line\n"));
        e = draftOf(text).spec;
        e.name = "other";  // the literal block beside it is left alone
        QCOMPARE(updateExperimentText(text, e), replaced(text, "name: every_line   #", "name: other   #"));

        // Edited key by key, `early_stopping: {enabled: false}` would stay off (its presence is
        // what turns it on): the result is read back, and the training section written anew.
        const std::string off = replaced(kCommented, "  batch_size: 32\n", "  batch_size: 32\n  early_stopping: {enabled: false}\n");
        e = draftOf(off).spec;
        QVERIFY(!e.training.earlyStopping.enabled);
        e.training.earlyStopping.enabled = true;
        const std::string on = updateExperimentText(off, e);
        QVERIFY(draftOf(on).spec == e);
        QCOMPARE(on, off.substr(0, off.find("training:")) + "training:\n  epochs: 1\n  batch_size: 32\n  early_stopping: {metric: val_loss, patience: 5}\n");
    }

    // One attribute changed: exactly its line changes, as the independent replacement says.
    void changedAttributeTouchesOneLine()
    {
        // A flow mapping with a comment after it on the same line.
        const std::string mlpPath = kExperiments + "/fashion_mnist_mlp.yaml";
        const std::string mlp = readText(mlpPath);
        ExperimentSpec s = loadExperiment(mlpPath);
        nodeNamed(s, "linear1").attrs.set("out_features", std::int64_t(300));
        std::string out = updateExperimentText(mlp, s);
        QCOMPARE(out, replaced(mlp, "- Linear: {out_features: 512, init: pytorch}  # 784 -> 512;",
                               "- Linear: {out_features: 300, init: pytorch}  # 784 -> 512;"));
        QCOMPARE(lineDiff(mlp, out).added.size(), std::size_t(1));
        QVERIFY(parseExperimentDraft(out, mlpPath).spec == s);

        // A block mapping, one key a line.
        ExperimentSpec c = draftOf(kCommented).spec;
        nodeNamed(c, "linear1").attrs.set("out_features", std::int64_t(128));
        out = updateExperimentText(kCommented, c);
        QCOMPARE(out, replaced(kCommented, "        out_features: 64   # hidden units", "        out_features: 128   # hidden units"));

        // The nodes form.
        ExperimentSpec n = draftOf(kNodes).spec;
        nodeNamed(n, "fc2").attrs.set("out_features", std::int64_t(64));
        out = updateExperimentText(kNodes, n);
        QCOMPARE(out, replaced(kNodes, "- {name: fc2, op: Linear, out_features: 32}", "- {name: fc2, op: Linear, out_features: 64}"));
        QVERIFY(draftOf(out).spec == n);

        // Another spelling of the same value is no change: kernel_size 3 is [3, 3].
        const std::string cnnPath = kExperiments + "/fashion_mnist_cnn.yaml";
        const std::string cnn = readText(cnnPath);
        ExperimentSpec k = loadExperiment(cnnPath);
        nodeNamed(k, "conv1").attrs.set("kernel_size", std::vector<std::int64_t>{3, 3});
        QCOMPARE(updateExperimentText(cnn, k), cnn);
        nodeNamed(k, "conv1").attrs.set("kernel_size", std::vector<std::int64_t>{5, 5});
        QCOMPARE(updateExperimentText(cnn, k),
                 replaced(cnn, "out_channels: 32, kernel_size: 3,", "out_channels: 32, kernel_size: [5, 5],"));
    }

    void addedAndRemovedAttributesTouchTheirNode()
    {
        const std::string cnnPath = kExperiments + "/fashion_mnist_cnn.yaml";
        const std::string cnn = readText(cnnPath);
        const ExperimentSpec base = loadExperiment(cnnPath);

        ExperimentSpec s = base;  // a bare layer gains an attribute
        nodeNamed(s, "batchnorm1").attrs.set("momentum", 0.2);
        std::string out = updateExperimentText(cnn, s);
        QCOMPARE(out, replaced(cnn, "    - BatchNorm2d\n", "    - BatchNorm2d: {momentum: 0.2}\n"));
        QVERIFY(parseExperimentDraft(out, cnnPath).spec == s);
        QCOMPARE(updateExperimentText(out, base), cnn);  // and loses it again: the bare layer comes back

        s = base;  // an attribute removed from a flow mapping
        Attrs attrs;
        for (const auto& [k, v] : nodeNamed(s, "conv1").attrs.values())
            if (k != "init") attrs.set(k, v);
        nodeNamed(s, "conv1").attrs = attrs;
        out = updateExperimentText(cnn, s);
        QCOMPARE(out, replaced(cnn, "- Conv2d: {out_channels: 32, kernel_size: 3, padding: 1, init: pytorch}",
                               "- Conv2d: {out_channels: 32, kernel_size: 3, padding: 1}"));

        // A block mapping: removing drops the key's line, adding puts one under the last key.
        ExperimentSpec c = draftOf(kCommented).spec;
        Attrs kept;
        kept.set("out_features", std::int64_t(64));
        nodeNamed(c, "linear1").attrs = kept;
        out = updateExperimentText(kCommented, c);
        QCOMPARE(out, replaced(kCommented, "        init: pytorch\n    - BatchNorm1d", "    - BatchNorm1d"));
        nodeNamed(c, "linear1").attrs.set("bias", false);
        out = updateExperimentText(kCommented, c);
        QCOMPARE(out, replaced(kCommented, "        init: pytorch\n", "        bias: false\n"));
        QVERIFY(draftOf(out).spec == c);
    }

    void checkpointToggleTouchesItsLine()
    {
        const std::string mlpPath = kExperiments + "/fashion_mnist_mlp.yaml";
        const std::string mlp = readText(mlpPath);
        const ExperimentSpec base = loadExperiment(mlpPath);
        ExperimentSpec s = base;
        nodeNamed(s, "linear2").checkpoint = true;
        nodeNamed(s, "relu1").checkpoint = true;
        const std::string on = updateExperimentText(mlp, s);
        std::string expected = replaced(mlp, "    - ReLU\n", "    - ReLU: {checkpoint: true}\n");
        expected = replaced(expected, "- Linear: {out_features: 256, init: pytorch}",
                            "- Linear: {out_features: 256, init: pytorch, checkpoint: true}");
        QCOMPARE(on, expected);
        QVERIFY(parseExperimentDraft(on, mlpPath).spec == s);
        QCOMPARE(updateExperimentText(on, base), mlp);

        ExperimentSpec c = draftOf(kCommented).spec;  // in a block mapping: one line more
        nodeNamed(c, "linear1").checkpoint = true;
        QCOMPARE(updateExperimentText(kCommented, c),
                 replaced(kCommented, "        init: pytorch\n", "        init: pytorch\n        checkpoint: true\n"));
    }

    // Nodes added, deleted or renamed: the model section is rewritten, everything else kept.
    void structuralChangesRewriteTheModelOnly()
    {
        const std::string cnnPath = kExperiments + "/fashion_mnist_cnn.yaml";
        const std::string cnn = readText(cnnPath);
        const ExperimentSpec base = loadExperiment(cnnPath);
        const std::string before = cnn.substr(0, cnn.find("model:\n"));
        const std::string after = cnn.substr(cnn.find("\noptimizer:"));

        ExperimentSpec added = base;
        added.model.nodes.insert(added.model.nodes.begin() + 3, Node{"dropout9", "Dropout", Attrs{{"p", 0.1}}, {"relu1"}});
        added.model.nodes[4].inputs = {"dropout9"};
        ExperimentSpec removed = base;
        removed.model.nodes.erase(removed.model.nodes.begin() + 1);  // batchnorm1
        removed.model.nodes[1].inputs = {"conv1"};
        ExperimentSpec renamed = base;
        nodeNamed(renamed, "classifier").name = "head";
        renamed.model.nodes.back().inputs = {"head", "label"};

        for (const ExperimentSpec* s : {&added, &removed, &renamed}) {
            const std::string out = updateExperimentText(cnn, *s);
            QVERIFY2(out.starts_with(before), out.c_str());
            QVERIFY2(out.ends_with(after), out.c_str());
            QVERIFY2(out.find("# block 1") == std::string::npos, out.c_str());  // the section was rewritten
            QVERIFY(parseExperimentDraft(out, cnnPath).spec == *s);
        }
        QVERIFY(updateExperimentText(cnn, renamed).find("- Linear: {name: head, out_features: 10, init: pytorch}") != std::string::npos);
    }

    void otherSpellingsAndForms()
    {
        // A layer written `- BatchNorm2d:` (an empty value) gains an attribute in place.
        const std::string text = replaced(kCommented, "    - BatchNorm1d\n", "    - BatchNorm1d:\n");
        ExperimentSpec s = draftOf(text).spec;
        QCOMPARE(updateExperimentText(text, s), text);
        nodeNamed(s, "batchnorm1").attrs.set("eps", 0.001);
        QCOMPARE(updateExperimentText(text, s), replaced(text, "    - BatchNorm1d:\n", "    - BatchNorm1d: {eps: 0.001}\n"));
        // A nodes-form item gains and loses keys on its own line.
        ExperimentSpec n = draftOf(kNodes).spec;
        nodeNamed(n, "fc1").attrs.set("bias", false);
        QCOMPARE(updateExperimentText(kNodes, n),
                 replaced(kNodes, "{name: fc1, op: Linear, out_features: 32}   # first",
                          "{name: fc1, op: Linear, out_features: 32, bias: false}   # first"));
        // Empty or unreadable text: the writer's file.
        QCOMPARE(updateExperimentText("", n), experimentToYaml(n));
        QCOMPARE(updateExperimentText("model: [", n), experimentToYaml(n));
    }

    // A model that does not check is still read: the node is there, its problem pinned to it;
    // the strict reader refuses the same file with the same message.
    void draftKeepsBrokenNodes_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("node");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("words");
        QTest::newRow("unknown op") << "{name: act, op: ReLU}" << "{name: act, op: Relu6x, alpha: 2}" << "act" << 7 << 23 << "unknown op 'Relu6x'";
        QTest::newRow("bad attribute") << "{name: fc2, op: Linear, out_features: 32}" << "{name: fc2, op: Linear, out_features: -4}" << "fc2"
                                       << 8 << 45 << "out_features";
        QTest::newRow("unknown attribute") << "{name: fc2, op: Linear, out_features: 32}"
                                           << "{name: fc2, op: Linear, out_features: 32, widht: 3}" << "fc2" << 8 << 49 << "unknown attribute 'widht'";
        QTest::newRow("shape") << "{name: fc2, op: Linear, out_features: 32}" << "{name: fc2, op: Linear, out_features: 16}" << "add" << 9 << 7
                               << "add";
        QTest::newRow("missing input") << "inputs: [fc2, fc1]" << "inputs: [fc2, fc9]" << "add" << 9 << 42 << "'fc9'";
    }
    void draftKeepsBrokenNodes()
    {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QString, node);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, words);
        const std::string text = replaced(kNodes, from.toStdString(), to.toStdString());
        const ExperimentDraft d = draftOf(text);
        QVERIFY(d.usable);
        QCOMPARE(d.spec.model.nodes.size(), std::size_t(7));
        QVERIFY(d.nodeIssues.count(node.toStdString()));
        const ExperimentIssue& issue = d.nodeIssues.at(node.toStdString());
        QCOMPARE(issue.line, line);
        QCOMPARE(issue.column, column);
        QVERIFY2(issue.message.find(words.toStdString()) != std::string::npos, issue.message.c_str());
        QCOMPARE(d.nodeIssues.size(), std::size_t(1));

        QTemporaryDir dir;
        const std::string path = dir.filePath("broken.yaml").toStdString();
        std::ofstream(path) << text;
        try {
            loadExperiment(path);
            QFAIL("loadExperiment took a broken model");
        } catch (const ExperimentError& e) {
            QCOMPARE(e.issues(), d.issues);
            QCOMPARE(e.issues().front(), issue);
        }
        const ExperimentDraft loaded = loadExperimentDraft(path);
        QCOMPARE(loaded.issues, d.issues);
        QCOMPARE(loaded.spec.sourceFile, path);

        // Saved back unchanged, and an edit elsewhere touches only its own line.
        QCOMPARE(updateExperimentText(text, d.spec), text);
        ExperimentSpec s = d.spec;
        nodeNamed(s, "head").attrs.set("out_features", std::int64_t(12));
        QCOMPARE(updateExperimentText(text, s),
                 replaced(text, "{name: head, op: Linear, out_features: 10}", "{name: head, op: Linear, out_features: 12}"));
    }

    void draftHoldsAttributesAsWritten()
    {
        const ExperimentDraft unknown = draftOf(replaced(kNodes, "{name: act, op: ReLU}", "{name: act, op: Relu6x, alpha: 2, mode: fast}"));
        const Node& act = unknown.spec.model.nodes[2];
        QCOMPARE(act.op, std::string("Relu6x"));
        QCOMPARE(act.attrs.getInt("alpha"), std::int64_t(2));
        QCOMPARE(act.attrs.getString("mode"), std::string("fast"));
        const ExperimentDraft refused = draftOf(replaced(kNodes, "out_features: 32}   # first", "out_features: -4, bias: maybe}"));
        QCOMPARE(refused.spec.model.nodes[1].attrs.getInt("out_features"), std::int64_t(-4));
        QCOMPARE(refused.spec.model.nodes[1].attrs.getString("bias"), std::string("maybe"));
        QCOMPARE(refused.issues.size(), std::size_t(2));  // both refused values, each at its place
        QCOMPARE(refused.nodeIssues.at("fc1").column, 45);
        // A fine file: no issue, usable; the strict reader agrees on the spec.
        const ExperimentDraft fine = draftOf(kNodes);
        QVERIFY(fine.usable && fine.issues.empty() && fine.nodeIssues.empty());
        QVERIFY(fine.spec == parseExperiment(kNodes, "x.yaml"));
    }

    void draftOfUnreadableFile()
    {
        const ExperimentDraft syntax = draftOf("name: x\nmodel:\n  layers: [Flatten, {Linear: \n");
        QVERIFY(!syntax.usable);
        QCOMPARE(syntax.issues.size(), std::size_t(1));
        QVERIFY(syntax.issues.front().line > 0);
        QVERIFY2(syntax.issues.front().message.starts_with("YAML syntax"), syntax.issues.front().message.c_str());
        const ExperimentDraft noModel = draftOf("name: x\ntraining: {epochs: 1}\n");
        QVERIFY(!noModel.usable);
        QCOMPARE(noModel.issues.front().message, std::string("missing key 'model' (layers: or nodes: describing the network)"));
        const ExperimentDraft missing = loadExperimentDraft("/nonexistent/x.yaml");
        QVERIFY(!missing.usable);
        QCOMPARE(missing.issues.front().line, 0);
    }

    void layoutRoundTrip()
    {
        ExperimentSpec s = draftOf(kNodes).spec;
        s.layout.positions["image"] = NodePosition{0, 0};
        s.layout.positions["fc1"] = NodePosition{12.5, -40};
        s.layout.positions["gone"] = NodePosition{7, 8};  // a name the model does not have: kept
        s.layout.blocks.push_back(ModelBlock{"res", {"fc2", "add"}, true});
        s.layout.blocks.push_back(ModelBlock{"tail", {"head"}, false});
        const std::string text = experimentToYaml(s);
        QVERIFY2(text.ends_with("\nlayout:\n  positions:\n    image: [0, 0]\n    fc1: [12.5, -40]\n    gone: [7, 8]\n"
                                "  blocks:\n    - {name: res, nodes: [fc2, add], collapsed: true}\n    - {name: tail, nodes: [head]}\n"),
                 text.c_str());
        QVERIFY(parseExperiment(text, "x.yaml") == s);
        // Rounded to a tenth on saving.
        s.layout.positions["fc1"] = NodePosition{12.34, 99.96};
        QVERIFY(experimentToYaml(s).find("    fc1: [12.3, 100]\n") != std::string::npos);
        // A block changed is one line changed; a block added is one line more.
        const ExperimentSpec laid = parseExperiment(text, "x.yaml");
        ExperimentSpec b = laid;
        b.layout.blocks[0].collapsed = false;
        LineDiff d = lineDiff(text, updateExperimentText(text, b));
        QCOMPARE(d.removed, std::vector<std::string>{"    - {name: res, nodes: [fc2, add], collapsed: true}"});
        QCOMPARE(d.added, std::vector<std::string>{"    - {name: res, nodes: [fc2, add]}"});
        b = laid;
        b.layout.blocks.push_back(ModelBlock{"third", {"act"}, false});
        const std::string third = updateExperimentText(text, b);
        QCOMPARE(third, text + "    - {name: third, nodes: [act]}\n");
        QVERIFY(parseExperiment(third, "x.yaml") == b);
        // An unchanged entry keeps its own spelling and comment.
        const std::string handWritten = replaced(text, "    gone: [7, 8]\n", "    gone: [7.0, 8]   # old name\n");
        ExperimentSpec m = laid;
        m.layout.positions["image"] = NodePosition{5, 5};
        QCOMPARE(updateExperimentText(handWritten, m), replaced(handWritten, "image: [0, 0]", "image: [5, 5]"));
        // The layout emptied: the section goes.
        ExperimentSpec none = laid;
        none.layout = {};
        QCOMPARE(updateExperimentText(text, none), experimentToYaml(none));
    }

    void layoutErrors_data()
    {
        QTest::addColumn<QString>("layout");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("message");
        // kNodes has 12 lines, then a blank one: the layout starts at line 14.
        QTest::newRow("one number") << "layout:\n  positions:\n    fc1: [3]\n" << 16 << 10
                                    << "layout: the position of 'fc1' must be two numbers [x, y], got 1 value";
        QTest::newRow("a word") << "layout:\n  positions:\n    fc1: [3, up]\n" << 16 << 14
                                << "layout: the position of 'fc1' must be two numbers [x, y], got 'up'";
        QTest::newRow("a scalar") << "layout:\n  positions: {fc1: 5}\n" << 15 << 20
                                  << "layout: the position of 'fc1' must be two numbers [x, y], got '5'";
        QTest::newRow("no name") << "layout:\n  blocks:\n    - {nodes: [fc1]}\n" << 16 << 7
                                 << "layout: a block needs a name, e.g. {name: res1, nodes: [conv1, bn1]}";
        QTest::newRow("node twice") << "layout:\n  blocks:\n    - {name: b, nodes: [fc1, act, fc1]}\n" << 16 << 35
                                    << "layout: block 'b' names node 'fc1' twice";
        QTest::newRow("shared node") << "layout:\n  blocks:\n    - {name: a, nodes: [fc1, act]}\n    - {name: b, nodes: [act]}\n" << 17 << 25
                                     << "layout: node 'act' is in block 'a' (line 16) and in block 'b'; a node belongs to one block at most";
        QTest::newRow("unknown key") << "layout:\n  position: {}\n" << 15 << 3 << "unknown key 'position' in layout (did you mean 'positions'?)";
    }
    void layoutErrors()
    {
        QFETCH(QString, layout);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, message);
        const std::string text = std::string(kNodes) + "\n" + layout.toStdString();
        try {
            parseExperiment(text, "x.yaml");
            QFAIL("a bad layout was taken");
        } catch (const ExperimentError& e) {
            QCOMPARE(e.issues().size(), std::size_t(1));
            QCOMPARE(QString::fromStdString(e.message()), message);
            QCOMPARE(e.line(), line);
            QCOMPARE(e.column(), column);
        }
        QVERIFY(draftOf(text).usable);  // a bad layout leaves the model to draw
    }
};

QTEST_APPLESS_MAIN(TestExperimentText)
#include "tst_experiment_text.moc"

// Time-series forecasting data (dataset.sequence): the windows and targets of a small CSV
// against the rows computed here, the split by time, statistics from the training period
// only, dates as the time column, the YAML round trip, and each bad input's message.
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>
#include <functional>
#include <sstream>

#include "data/time_series_dataset.h"
#include "io/yaml/experiment_yaml.h"

using namespace ts;

namespace {

// Row i of the series: t = i, a = i^2 / 4, b = sin(i) + i, c = 10 - 3i (b is forecast).
double colA(int i) { return i * i / 4.0; }
double colB(int i) { return std::sin(i) + i; }
double colC(int i) { return 10.0 - 3.0 * i; }

std::string seriesCsv(int rows, const std::function<double(int, double)>& change = {})
{
    std::ostringstream s;
    s.precision(17);
    s << "t,a,b,c\n";
    for (int i = 0; i < rows; ++i) {
        const double b = change ? change(i, colB(i)) : colB(i);
        s << i << ',' << colA(i) << ',' << b << ',' << colC(i) << '\n';
    }
    return s.str();
}

// Population mean and standard deviation of f over rows [0, end).
std::pair<double, double> meanStd(const std::function<double(int)>& f, int end)
{
    double sum = 0, sq = 0;
    for (int i = 0; i < end; ++i) sum += f(i);
    const double mean = sum / end;
    for (int i = 0; i < end; ++i) sq += (f(i) - mean) * (f(i) - mean);
    return {mean, std::sqrt(sq / end)};
}

struct Fixture {
    QTemporaryDir dir;
    std::string path;
    explicit Fixture(const std::string& text, const char* name = "series.csv")
        : path(dir.filePath(name).toStdString())
    {
        std::ofstream(path, std::ios::binary) << text;
    }
};

// 30 rows; length 3, horizon 2, stride 2; validation and test the last 20 % each.
DatasetSpec seriesSpec(const std::string& path)
{
    DatasetSpec d;
    d.format = "csv";
    d.path = path;
    d.validationFraction = 0.2;
    d.sequence = SequenceSpec{.time = "t", .length = 3, .horizon = 2, .stride = 2, .target = {"b"}, .features = {"a", "c"},
                              .testFraction = 0.2};
    return d;
}

std::string errorOf(const std::string& csv, const std::function<void(DatasetSpec&)>& adjust = {})
{
    Fixture f(csv);
    DatasetSpec spec = seriesSpec(f.path);
    if (adjust) adjust(spec);
    try {
        readTimeSeries(f.path, spec);
    } catch (const DataError& e) {
        return e.what();
    }
    return "(no error)";
}

}  // namespace

class TstTimeSeries : public QObject {
    Q_OBJECT

private slots:
    void windowsAndTargetsAreTheRowsNormalised()
    {
        Fixture f(seriesCsv(30));
        const TimeSeriesSplits s = readTimeSeries(f.path, seriesSpec(f.path));
        // The training period is rows [0, 18): its mean and deviation normalise every split.
        const auto [ma, sa] = meanStd(colA, 18);
        const auto [mb, sb] = meanStd(colB, 18);
        const auto [mc, sc] = meanStd(colC, 18);
        QCOMPARE(s.scaling.featureMean.size(), std::size_t(2));
        QVERIFY(std::abs(s.scaling.featureMean[0] - ma) < 1e-9 && std::abs(s.scaling.featureStddev[0] - sa) < 1e-9);
        QVERIFY(std::abs(s.scaling.featureMean[1] - mc) < 1e-9 && std::abs(s.scaling.featureStddev[1] - sc) < 1e-9);
        QVERIFY(std::abs(s.scaling.targetMean[0] - mb) < 1e-9 && std::abs(s.scaling.targetStddev[0] - sb) < 1e-9);

        QCOMPARE(s.train->sampleShape(), (Shape{3, 2}));
        QCOMPARE(s.train->targetShape(), (Shape{2, 1}));
        QCOMPARE(s.train->targetKind(), TargetKind::Values);
        QCOMPARE(s.train->targetNames(), std::vector<std::string>{"b"});
        for (const auto* d : {s.train.get(), s.validation.get(), s.test.get()}) {
            QVERIFY(d);
            for (std::int64_t w = 0; w < d->size(); ++w) {
                const int start = int(d->starts()[std::size_t(w)]);
                float x[6], y[2];
                QCOMPARE(d->get(w, x), std::int64_t(0));
                d->getValues(w, y);
                for (int r = 0; r < 3; ++r) {
                    QCOMPARE(x[r * 2], float((colA(start + r) - ma) / sa));
                    QCOMPARE(x[r * 2 + 1], float((colC(start + r) - mc) / sc));
                }
                for (int h = 0; h < 2; ++h) QCOMPARE(y[h], float((colB(start + 3 + h) - mb) / sb));
                // Undoing the scaling gives the data's units back.
                QVERIFY(std::abs(y[1] * s.scaling.targetStddev[0] + s.scaling.targetMean[0] - colB(start + 4)) < 1e-5);
                QCOMPARE(d->sampleSource(w), f.path + ":" + std::to_string(start + 2));  // the header is line 1
            }
        }
    }

    void splitIsByTimeAndDropsStraddlingWindows()
    {
        Fixture f(seriesCsv(30));
        const TimeSeriesSplits s = readTimeSeries(f.path, seriesSpec(f.path));
        // Windows of 5 rows every 2 rows; periods [0, 18), [18, 24), [24, 30): by hand.
        QCOMPARE(s.train->starts(), (std::vector<std::int64_t>{0, 2, 4, 6, 8, 10, 12}));
        QCOMPARE(s.validation->starts(), (std::vector<std::int64_t>{18}));
        QCOMPARE(s.test->starts(), (std::vector<std::int64_t>{24}));
        // No validation or test window begins before a training window's last row.
        const std::int64_t lastTrainRow = s.train->starts().back() + 4;
        QVERIFY(s.validation->starts().front() > lastTrainRow);
        QVERIFY(s.test->starts().front() > s.validation->starts().back() + 4);

        // No test fraction: the test split is null and validation runs to the end.
        DatasetSpec spec = seriesSpec(f.path);
        spec.sequence.testFraction = 0;
        spec.sequence.stride = 1;
        const TimeSeriesSplits t = readTimeSeries(f.path, spec);
        QVERIFY(!t.test);
        QCOMPARE(t.train->size(), std::int64_t(20));  // starts 0..19, ends <= 24
        QCOMPARE(t.validation->starts(), (std::vector<std::int64_t>{24, 25}));
    }

    void statisticsComeFromTheTrainingPeriodOnly()
    {
        // The same series with the target raised by 1000 after the training period: the
        // scaling and every training window stay as they were; the later windows do not.
        Fixture same(seriesCsv(30));
        Fixture raised(seriesCsv(30, [](int i, double b) { return i >= 18 ? b + 1000 : b; }));
        const TimeSeriesSplits a = readTimeSeries(same.path, seriesSpec(same.path));
        const TimeSeriesSplits b = readTimeSeries(raised.path, seriesSpec(raised.path));
        QCOMPARE(b.scaling.targetMean, a.scaling.targetMean);
        QCOMPARE(b.scaling.targetStddev, a.scaling.targetStddev);
        for (std::int64_t w = 0; w < a.train->size(); ++w) {
            float ya[2], yb[2];
            a.train->getValues(w, ya);
            b.train->getValues(w, yb);
            QCOMPARE(yb[0], ya[0]);
            QCOMPARE(yb[1], ya[1]);
        }
        float ya[2], yb[2];
        a.test->getValues(0, ya);
        b.test->getValues(0, yb);
        QVERIFY(std::abs((yb[0] - ya[0]) * a.scaling.targetStddev[0] - 1000) < 1e-2);
    }

    void datesStepByDays()
    {
        // Weekly dates across a month, a year and a leap day.
        std::string csv = "date,v\n";
        const char* dates[] = {"2019-12-18", "2019-12-25", "2020-01-01", "2020-01-08", "2020-02-19", "2020-02-26", "2020-03-04"};
        for (int i = 0; i < 4; ++i) csv += std::string(dates[i]) + "," + std::to_string(i) + "\n";
        Fixture even(csv + "2020-01-15,4\n2020-01-22,5\n");
        DatasetSpec spec;
        spec.format = "csv";
        spec.validationFraction = 0;
        spec.sequence = SequenceSpec{.time = "date", .length = 2, .horizon = 1, .target = {"v"}, .testFraction = 0};
        QCOMPARE(readTimeSeries(even.path, spec).train->size(), std::int64_t(4));
        Fixture leap("date,v\n2020-02-19,1\n2020-02-26,2\n2020-03-04,3\n2020-03-11,4\n");
        QCOMPARE(readTimeSeries(leap.path, spec).train->size(), std::int64_t(2));
        Fixture gap(csv + std::string(dates[4]) + ",4\n");  // 2020-01-08 -> 2020-02-19: 5 weeks missing
        try {
            readTimeSeries(gap.path, spec);
            QFAIL("a gap of five weeks was accepted");
        } catch (const DataError& e) {
            const std::string m = e.what();
            QVERIFY2(m.find(gap.path + ":6:") == 0 && m.find("gap") != std::string::npos &&
                         m.find("5 rows missing") != std::string::npos && m.find("fill") != std::string::npos, e.what());
        }
    }

    void badInputNamesThePlaceAndTheWayOut()
    {
        const auto has = [](const std::string& m, std::initializer_list<const char*> parts) {
            for (const char* p : parts)
                if (m.find(p) == std::string::npos) return false;
            return true;
        };
        // Rows 4 and 5 (lines 6 and 7) swapped: line 7's time goes back.
        std::string swapped = seriesCsv(30);
        {
            std::vector<std::string> lines;
            std::istringstream in(swapped);
            for (std::string l; std::getline(in, l);) lines.push_back(l);
            std::swap(lines[5], lines[6]);
            swapped.clear();
            for (const auto& l : lines) swapped += l + "\n";
        }
        std::string m = errorOf(swapped);
        QVERIFY2(has(m, {"series.csv:7:", "'t'", "not increasing", "sort the file"}), m.c_str());

        m = errorOf(seriesCsv(30, [](int i, double b) { return i == 9 ? std::nan("") : b; }));  // "nan" is no number
        QVERIFY2(has(m, {"series.csv:11:", "column 3 ('b')", "'nan', not a number", "target rows"}), m.c_str());

        std::string missing = seriesCsv(30);
        const std::size_t row7 = missing.find("\n7,") + 1;
        missing.erase(row7, missing.find('\n', row7) + 1 - row7);  // row 7 left out: 6 then 8, on line 9
        m = errorOf(missing);
        QVERIFY2(has(m, {"series.csv:9:", "gap", "(1 row missing)", "fill the gap"}), m.c_str());

        std::string empty = "t,a,b,c\n";
        for (int i = 0; i < 30; ++i)
            empty += std::to_string(i) + "," + (i == 13 ? std::string() : std::to_string(colA(i))) + ",1,2\n";
        m = errorOf(empty);
        QVERIFY2(has(m, {"series.csv:15:", "column 2 ('a')", "is empty", "fill the missing value"}), m.c_str());
        // Row 29 is in no window with stride 2 (starts 0, 2, .. 24 end at row 28): its gap is harmless.
        std::string tail = "t,a,b,c\n";
        for (int i = 0; i < 30; ++i) tail += std::to_string(i) + "," + (i == 29 ? "" : "1") + ",1,2\n";
        QCOMPARE(errorOf(tail), std::string("(no error)"));

        m = errorOf(seriesCsv(4));
        QVERIFY2(has(m, {"series.csv:5:", "4 rows", "length + horizon = 3 + 2", "shorten"}), m.c_str());

        m = errorOf(seriesCsv(30), [](DatasetSpec& d) { d.sequence.target = {"price"}; });
        QVERIFY2(has(m, {"series.csv:1:", "target column 'price'", "'t', 'a', 'b', 'c'"}), m.c_str());

        std::string words = "t,a,b,c\n";
        for (int i = 0; i < 30; ++i) words += std::to_string(i) + ",1,high,2\n";
        m = errorOf(words);
        QVERIFY2(has(m, {"series.csv:5:", "column 3 ('b')", "'high', not a number", "must hold numbers"}), m.c_str());

        m = errorOf(seriesCsv(30), [](DatasetSpec& d) { d.validationFraction = 0.1; });  // 3 rows, no window of 5
        QVERIFY2(has(m, {"validation period holds 3 rows", "raise dataset.validation_fraction"}), m.c_str());
    }

    void sequenceThroughTheYaml()
    {
        Fixture f(seriesCsv(30));
        const std::string yaml = "name: t\ndataset:\n  format: csv\n  path: " + f.path +
                                 "\n  validation_fraction: 0.2\n"
                                 "  sequence: {time: t, length: 3, horizon: 2, stride: 2, target: [b], features: [a, c], "
                                 "test_fraction: 0.2}\n"
                                 "model:\n  layers:\n    - LSTM: {hidden_size: 4, return: last}\n    - Linear: {out_features: 2}\n"
                                 "    - Reshape: {shape: [2, 1]}\n    - MSE\n"
                                 "training: {epochs: 1, batch_size: 2}\n";
        const ExperimentSpec spec = parseExperiment(yaml, "t.yaml");
        QCOMPARE(spec.dataset.sequence, seriesSpec(f.path).sequence);
        QCOMPARE(parseExperiment(experimentToYaml(spec), "again.yaml").dataset, spec.dataset);
        QCOMPARE(spec.model.inputs[0].shape, (Shape{3, 2}));  // implied: a window of rows in
        QCOMPARE(spec.model.inputs[1].shape, (Shape{2, 1}));  // the horizon's targets out, f32
        QCOMPARE(spec.model.inputs[1].dtype, DType::F32);

        const DatasetSplits splits = openDataset(spec.dataset, "", "");
        QCOMPARE(splits.train->size(), std::int64_t(7));
        QCOMPARE(splits.trainStatistics.targetMean.size(), std::size_t(1));
        QVERIFY(std::abs(splits.trainStatistics.targetMean[0] - meanStd(colB, 18).first) < 1e-9);

        // The reader normalises the series itself: a second normalisation or an image transform is refused.
        for (const auto& adjust : std::vector<std::function<void(DatasetSpec&)>>{
                 [](DatasetSpec& d) { d.normalizeFromStatistics = true; }, [](DatasetSpec& d) { d.horizontalFlip = true; }}) {
            DatasetSpec d = spec.dataset;
            adjust(d);
            try {
                openDataset(d, "", "");
                QFAIL("normalize or augment was accepted on a time series");
            } catch (const DataError& e) {
                const std::string m = e.what();
                QVERIFY2(m.find("leave") != std::string::npos && m.find("dataset.") == 0, e.what());
            }
        }

        // sequence needs its length and target, and a csv.
        try {
            parseExperiment("name: t\ndataset: {format: csv, path: a.csv, sequence: {horizon: 2}}\n", "bad.yaml");
            QFAIL("a sequence without length and target was accepted");
        } catch (const std::exception& e) {
            const std::string m = e.what();
            QVERIFY2(m.find("length") != std::string::npos && m.find("target") != std::string::npos, e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TstTimeSeries)
#include "tst_time_series.moc"

// Seeing attention (issue 40): the weights a MultiHeadAttention node gives one sample.
//
// 1. ops/attention_weights.h against PyTorch's nn.MultiheadAttention(6, 3, bias, batch_first=True)
//    called as m(x, x, x, need_weights=True, average_attn_weights=False, attn_mask=...,
//    key_padding_mask=...), PyTorch 1.13 (Debian's python3-torch), float32, printed with 8 digits:
//      seq = lambda shape, a, b, scale=1.0: torch.tensor([scale * math.sin(a * i + b) for i in
//                range(math.prod(shape))], dtype=torch.float32).reshape(shape)
//      m.in_proj_weight = seq([18, 6], 0.3, 0.2, 0.5); m.in_proj_bias = seq([18], 0.5, 0.1, 0.5)
//      x = seq([1, 4, 6], 0.7, 0.4); attn_mask = torch.triu(torch.ones(4, 4, dtype=torch.bool), 1)
//      key_padding_mask: True at key 3 ("padded"), at key 2 ("causal_padded_nobias")
//      _, w = m(...); print(w.flatten())   # [heads, queries, keys]
//    Tolerance 1e-6: float rounding of sums of six terms; a wrong mask or head moves a weight by ~0.1.
//    A row whose every key is hidden is NaN in PyTorch and zeros here, as the fused primitive's output.
// 2. jobs/attention_maps.h on tiny models trained here (a ViT of 2x2 patches on 4x4 images, a
//    causal character model): rows sum to 1, causal rows see no later key, and the weights are
//    the model's: softmax-weighted values through out_proj give the node's own output, as the
//    fused primitive computed it in a separate inference executor, to 2e-5.
#include <QtTest>

#include <cmath>
#include <cstring>
#include <fstream>
#include <random>

#include "backend/cpu/cpu_backend.h"
#include "data/tokenizer.h"
#include "exec/executor.h"
#include "idx_files.h"
#include "io/checkpoint/checkpoint.h"
#include "io/yaml/experiment_yaml.h"
#include "jobs/attention_maps.h"
#include "jobs/job.h"
#include "ops/attention_weights.h"
#include "store/resume_source.h"
#include "store/run_reader.h"
#include "tiny_transformers.h"
#include "train/run_control.h"

using namespace ts;

namespace {

using i64 = std::int64_t;

std::vector<float> seq(i64 n, double a, double b, double scale = 1.0)
{
    std::vector<float> out(std::size_t(n), 0.0f);
    for (i64 i = 0; i < n; ++i) out[std::size_t(i)] = float(scale * std::sin(a * double(i) + b));
    return out;
}

const std::vector<float> kPlain{
    0.21197906f, 0.49416286f, 0.088847063f, 0.20501101f, 0.097225875f, 0.24520719f, 0.55876863f, 0.09879826f,
    0.41541716f, 0.095221631f, 0.075787075f, 0.4135741f, 0.21817718f, 0.48539999f, 0.085501596f, 0.21092118f,
    0.19253828f, 0.36769816f, 0.24868625f, 0.19107722f, 0.072652631f, 0.12930353f, 0.72291422f, 0.075129598f,
    0.40559629f, 0.042790048f, 0.13673455f, 0.41487908f, 0.19964534f, 0.36085397f, 0.24141243f, 0.1980883f,
    0.13755704f, 0.64508975f, 0.085117221f, 0.13223597f, 0.13218266f, 0.34910735f, 0.38626659f, 0.13244334f,
    0.42978874f, 0.06825655f, 0.071748182f, 0.43020651f, 0.14313836f, 0.63549531f, 0.083767556f, 0.13759874f};
const std::vector<float> kCausal{
    1.0f, 0.0f, 0.0f, 0.0f, 0.28392667f, 0.71607333f, 0.0f, 0.0f, 0.70838815f, 0.16237624f, 0.12923555f, 0.0f,
    0.21817718f, 0.48539999f, 0.085501596f, 0.21092118f, 1.0f, 0.0f, 0.0f, 0.0f, 0.35974452f, 0.64025545f, 0.0f, 0.0f,
    0.69318372f, 0.073130265f, 0.23368596f, 0.0f, 0.19964534f, 0.36085397f, 0.24141243f, 0.1980883f, 1.0f, 0.0f, 0.0f,
    0.0f, 0.27464241f, 0.72535759f, 0.0f, 0.0f, 0.75428861f, 0.11979174f, 0.12591961f, 0.0f, 0.14313836f, 0.63549531f,
    0.083767556f, 0.13759874f};
const std::vector<float> kPadded{
    0.266644f, 0.62159705f, 0.11175886f, 0.0f, 0.1078847f, 0.27208915f, 0.62002617f, 0.0f, 0.70838815f, 0.16237624f,
    0.12923555f, 0.0f, 0.27649608f, 0.61514771f, 0.10835623f, 0.0f, 0.23801814f, 0.45455289f, 0.30742893f, 0.0f,
    0.078554399f, 0.13980719f, 0.78163844f, 0.0f, 0.69318372f, 0.073130265f, 0.23368596f, 0.0f, 0.24896176f,
    0.44999215f, 0.30104616f, 0.0f, 0.15851896f, 0.74339306f, 0.098087981f, 0.0f, 0.15236199f, 0.40240297f,
    0.44523501f, 0.0f, 0.75428861f, 0.11979174f, 0.12591961f, 0.0f, 0.16597652f, 0.73689055f, 0.097132936f, 0.0f};
const std::vector<float> kCausalPaddedNoBias{
    1.0f, 0.0f, 0.0f, 0.0f, 0.30343238f, 0.69656765f, 0.0f, 0.0f, 0.82737499f, 0.17262496f, 0.0f, 0.0f,
    0.25006112f, 0.50639176f, 0.0f, 0.24354716f, 1.0f, 0.0f, 0.0f, 0.0f, 0.28407332f, 0.71592665f, 0.0f, 0.0f,
    0.8700251f, 0.12997495f, 0.0f, 0.0f, 0.22046505f, 0.56427538f, 0.0f, 0.21525949f, 1.0f, 0.0f, 0.0f, 0.0f,
    0.32069936f, 0.67930061f, 0.0f, 0.0f, 0.88701987f, 0.1129801f, 0.0f, 0.0f, 0.18070565f, 0.64343905f, 0.0f,
    0.17585528f};

// Every weight of a [heads, queries, keys] map within `tolerance` of the reference.
void compareWeights(const std::vector<float>& got, const std::vector<float>& want, double tolerance)
{
    QCOMPARE(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i)
        if (!(std::abs(double(got[i]) - double(want[i])) <= tolerance))
            QFAIL(qPrintable(QStringLiteral("weight %1: %2, expected %3").arg(i).arg(double(got[i]), 0, 'g', 9).arg(double(want[i]), 0, 'g', 9)));
}

// Each row sums to 1 (or is all zeros, where `emptyRow` says so), and a causal row puts nothing after its query.
void checkRows(const AttentionMap& map)
{
    for (i64 h = 0; h < map.heads; ++h)
        for (i64 i = 0; i < map.queries; ++i) {
            double sum = 0;
            for (i64 j = 0; j < map.keys; ++j) {
                const float w = map.at(h, i, j);
                QVERIFY(w >= 0.0f && w <= 1.0f);
                if (map.causal && j > i) QCOMPARE(w, 0.0f);
                sum += w;
            }
            QVERIFY2(std::abs(sum - 1.0) < 1e-5, qPrintable(QStringLiteral("%1 head %2 row %3 sums to %4")
                                                                 .arg(QString::fromStdString(map.node)).arg(h).arg(i).arg(sum)));
        }
}

std::int64_t train(const ExperimentSpec& spec, const std::string& workspaceDir, const std::string& cacheDir)
{
    struct Quiet : TrainListener {
        void onEvent(const TrainEvent&) override {}
    } quiet;
    JobEnvironment env;
    env.workspaceDir = workspaceDir;
    env.cacheDir = cacheDir;
    env.systemSampleSeconds = 0;
    RunControl control;
    TrainJob job;
    job.experiment = spec;
    const JobResult result = runJob(job, env, control, quiet);
    if (result.finished.outcome != FinishedEvent::Outcome::Finished) qWarning("%s", result.finished.message.text.c_str());
    return result.finished.outcome == FinishedEvent::Outcome::Finished ? result.runId : -1;
}

// The attention node's input and output for one input, from an inference executor of the model
// cut after that node (its output is then the graph's, kept to the end), with the checkpoint's
// weights: what the fused primitive computed, independently of jobs/attention_maps.
struct NodeValues {
    std::vector<float> x, y, inW, inB, outW, outB;
};

NodeValues nodeValues(const ExperimentSpec& spec, const std::string& weightsPath, const std::string& node,
                      const std::string& inputName, const Tensor& input)
{
    Graph cut = spec.model;
    auto last = std::find_if(cut.nodes.begin(), cut.nodes.end(), [&](const Node& n) { return n.name == node; });
    cut.nodes.erase(last + 1, cut.nodes.end());
    std::erase_if(cut.inputs, [](const GraphInput& in) { return in.name == "label"; });
    cut.output = node;
    cut.loss.clear();
    CpuBackend backend;
    Executor exec(checkGraph(cut, 1), backend, /*training=*/false);
    const Checkpoint checkpoint = loadCheckpoint(weightsPath);
    for (Parameter& p : exec.parameters())
        for (const auto& [name, t] : checkpoint.weights)
            if (name == p.name) std::memcpy(p.value.raw(), t.raw(), t.bytes());
    exec.setInput(inputName, input);
    exec.forward();
    const auto host = [](const Tensor& t) { return std::vector<float>(t.data<float>(), t.data<float>() + t.numel()); };
    NodeValues v;
    const CheckedGraph& g = exec.graph();
    v.x = host(exec.value(g.values[std::size_t(g.nodes.back().inputs[0])].name));
    v.y = host(exec.value(node));
    v.inW = host(exec.findParameter(node + ".in_proj_weight")->value);
    v.inB = host(exec.findParameter(node + ".in_proj_bias")->value);
    v.outW = host(exec.findParameter(node + ".out_proj.weight")->value);
    v.outB = host(exec.findParameter(node + ".out_proj.bias")->value);
    return v;
}

// y = (weights v) W_out^T + b_out with v = x W_v^T + b_v, for the map's queries, against the node's output.
void checkReproducesOutput(const AttentionMap& map, const NodeValues& v, i64 channels)
{
    const i64 d = channels / map.heads;
    for (i64 i = 0; i < map.queries; ++i) {
        std::vector<double> o(std::size_t(channels), 0.0);
        for (i64 h = 0; h < map.heads; ++h)
            for (i64 j = 0; j < map.keys; ++j)
                for (i64 e = 0; e < d; ++e) {
                    const i64 row = 2 * channels + h * d + e;  // W_v's row of this output channel
                    double value = v.inB[std::size_t(row)];
                    for (i64 k = 0; k < channels; ++k)
                        value += double(v.x[std::size_t(j * channels + k)]) * v.inW[std::size_t(row * channels + k)];
                    o[std::size_t(h * d + e)] += double(map.at(h, i, j)) * value;
                }
        for (i64 c = 0; c < channels; ++c) {
            double y = v.outB[std::size_t(c)];
            for (i64 k = 0; k < channels; ++k) y += o[std::size_t(k)] * v.outW[std::size_t(c * channels + k)];
            const double want = v.y[std::size_t(i * channels + c)];
            QVERIFY2(std::abs(y - want) <= 2e-5 + 1e-4 * std::abs(want),
                     qPrintable(QStringLiteral("query %1 channel %2: %3 from the weights, %4 from the model").arg(i).arg(c).arg(y).arg(want)));
        }
    }
}

}  // namespace

class TestAttentionMaps : public QObject {
    Q_OBJECT

    QTemporaryDir m_root;
    std::string m_ws, m_cache;
    ExperimentSpec m_vit, m_gpt;
    i64 m_vitRun = -1, m_gptRun = -1;

    PredictorOptions options(i64 run, const std::string& checkpoint = "best") const
    {
        PredictorOptions o;
        o.workspaceDir = m_ws;
        o.runId = run;
        o.checkpoint = checkpoint;
        o.device = "cpu";
        o.cacheDir = m_cache;
        return o;
    }
    std::string weightsPath(i64 run, const CheckpointRecord& chosen) const
    {
        (void)run;
        return absoluteCheckpointPath(Workspace{m_ws}, chosen.path);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_root.isValid());
        m_ws = m_root.filePath("ws").toStdString();
        m_cache = m_root.filePath("cache").toStdString();
        const QString data = m_root.filePath("idx");
        QVERIFY(QDir().mkpath(data));
        test::writeIdxPair(data.toStdString(), "train", 120, 1, 20);
        test::writeIdxPair(data.toStdString(), "t10k", 30, 2, 20);
        m_vit = parseExperiment(test::tinyVitYaml(data).toStdString(), m_root.filePath("vit.yaml").toStdString());
        m_vitRun = train(m_vit, m_ws, m_cache);
        QVERIFY(m_vitRun > 0);

        const std::string soup = test::tinyWordSoup();
        const QString textFile = m_root.filePath("soup.txt");
        std::ofstream(textFile.toStdString()) << soup;
        m_gpt = parseExperiment(test::tinyGptYaml(textFile, soup).toStdString(), m_root.filePath("gpt.yaml").toStdString());
        m_gptRun = train(m_gpt, m_ws, m_cache);
        QVERIFY(m_gptRun > 0);
    }

    void weightsAgreeWithPyTorch_data()
    {
        QTest::addColumn<bool>("causal");
        QTest::addColumn<int>("paddedKey");  // -1: no mask
        QTest::addColumn<bool>("bias");
        QTest::addColumn<std::vector<float>>("expected");
        QTest::newRow("plain") << false << -1 << true << kPlain;
        QTest::newRow("causal") << true << -1 << true << kCausal;
        QTest::newRow("padded") << false << 3 << true << kPadded;
        QTest::newRow("causal_padded_nobias") << true << 2 << false << kCausalPaddedNoBias;
    }
    void weightsAgreeWithPyTorch()
    {
        QFETCH(bool, causal);
        QFETCH(int, paddedKey);
        QFETCH(bool, bias);
        QFETCH(std::vector<float>, expected);
        const std::vector<float> w = seq(18 * 6, 0.3, 0.2, 0.5), b = seq(18, 0.5, 0.1, 0.5), x = seq(4 * 6, 0.7, 0.4);
        std::vector<float> mask(4, 1.0f);
        if (paddedKey >= 0) mask[std::size_t(paddedKey)] = 0.0f;
        AttentionWeightsInput in;
        in.x = x.data();
        in.tokens = 4, in.channels = 6, in.heads = 3;
        in.inProjWeight = w.data();
        in.inProjBias = bias ? b.data() : nullptr;
        in.keyMask = paddedKey >= 0 ? mask.data() : nullptr;
        in.causal = causal;
        compareWeights(attentionWeights(in), expected, 1e-6);
    }

    void aRowWithNoKeyIsZeros()
    {
        const std::vector<float> w = seq(18 * 6, 0.3, 0.2, 0.5), x = seq(4 * 6, 0.7, 0.4);
        const std::vector<float> mask{0.0f, 1.0f, 1.0f, 1.0f};  // causal: query 0 sees only key 0, padding
        AttentionWeightsInput in;
        in.x = x.data();
        in.tokens = 4, in.channels = 6, in.heads = 3;
        in.inProjWeight = w.data();
        in.keyMask = mask.data();
        in.causal = true;
        const std::vector<float> got = attentionWeights(in);
        for (i64 h = 0; h < 3; ++h) {
            for (i64 j = 0; j < 4; ++j) QCOMPARE(got[std::size_t(h * 16 + j)], 0.0f);
            double sum = 0;
            for (i64 j = 0; j < 4; ++j) sum += got[std::size_t(h * 16 + 4 + j)];
            QVERIFY(std::abs(sum - 1.0) < 1e-6);
            QCOMPARE(got[std::size_t(h * 16 + 4)], 0.0f);  // key 0 is padding for every query
        }
        in.heads = 4;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, attentionWeights(in));
    }

    void imageSampleIsTheModels()
    {
        AttentionMaps maps(options(m_vitRun));
        QVERIFY(!maps.readsText());
        QCOMPARE(maps.splitName(), std::string("test"));
        QCOMPARE(maps.sampleCount(), i64(30));
        QCOMPARE(maps.nodeNames(), std::vector<std::string>{"attn"});
        const AttentionSample sample = maps.datasetSample(4);
        QCOMPARE(sample.imageShape, (Shape{1, 4, 4}));
        QCOMPARE(sample.className, std::string("1"));  // idx class names are the digits; sample 4 is class 4 % 3
        QCOMPARE(sample.maps.size(), std::size_t(1));
        const AttentionMap& map = sample.maps[0];
        QCOMPARE(map.heads, i64(2));
        QCOMPARE(map.queries, i64(4));  // 2x2 patches of a 4x4 image
        QCOMPARE(map.keys, i64(4));
        QVERIFY(!map.causal && !map.masked);
        checkRows(map);

        Tensor image = Tensor::empty(Shape{1, 1, 4, 4});
        for (i64 i = 0; i < 16; ++i) image.data<float>()[i] = (sample.image[std::size_t(i)] - 0.5f) / 0.25f;  // the yaml's normalize
        const NodeValues values = nodeValues(m_vit, weightsPath(m_vitRun, maps.checkpoint()), "attn", "image", image);
        checkReproducesOutput(map, values, 8);

        QVERIFY_THROWS_EXCEPTION(std::out_of_range, maps.datasetSample(30));
        QVERIFY_THROWS_EXCEPTION(std::logic_error, maps.textSample("a"));
    }

    void textSampleIsTheModels()
    {
        AttentionMaps maps(options(m_gptRun));
        QVERIFY(maps.readsText());
        QCOMPARE(maps.context(), i64(8));
        const AttentionSample sample = maps.textSample("the cat");
        QCOMPARE(sample.tokens.size(), std::size_t(8));
        const std::vector<std::string> seven(sample.tokens.begin(), sample.tokens.begin() + 7);
        QCOMPARE(seven, (std::vector<std::string>{"t", "h", "e", " ", "c", "a", "t"}));
        const AttentionMap& map = sample.maps.at(0);
        QVERIFY(map.causal);
        QCOMPARE(map.queries, i64(7));  // the text's tokens, not the filler after them
        QCOMPARE(map.keys, i64(7));
        checkRows(map);

        const Tokenizer tokenizer = Tokenizer::parse(loadCheckpoint(weightsPath(m_gptRun, maps.checkpoint())).state.tokenizer);
        Tensor ids = Tensor::empty(Shape{1, 8}, DType::I64);
        const std::vector<i64> encoded = tokenizer.encode("the catt");  // the last token fills the window
        std::copy(encoded.begin(), encoded.end(), ids.data<i64>());
        const NodeValues values = nodeValues(m_gpt, weightsPath(m_gptRun, maps.checkpoint()), "attn", "tokens", ids);
        checkReproducesOutput(map, values, 8);

        // Longer than the context: its first 8 tokens.
        QCOMPARE(maps.textSample("the cat sat on").maps.at(0).queries, i64(8));
        QVERIFY_THROWS_EXCEPTION(TokenizeError, maps.textSample("the zebra"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, maps.textSample(""));
    }

    void anyCheckpoint()
    {
        AttentionMaps first(options(m_gptRun, "1")), last(options(m_gptRun, "last"));
        QCOMPARE(first.checkpoint().epoch, i64(1));
        QCOMPARE(last.checkpoint().epoch, i64(2));
        const std::vector<float> a = first.textSample("a cat ran").maps[0].weights;
        const std::vector<float> b = last.textSample("a cat ran").maps[0].weights;
        QCOMPARE(a.size(), b.size());
        double change = 0;
        for (std::size_t i = 0; i < a.size(); ++i) change = std::max(change, double(std::abs(a[i] - b[i])));
        QVERIFY2(change > 1e-3, qPrintable(QString::number(change)));  // another epoch, other weights
    }

    void aModelWithoutAttentionIsRefused()
    {
        ExperimentSpec mlp = m_vit;
        mlp.model.nodes.erase(mlp.model.nodes.begin() + 3, mlp.model.nodes.begin() + 6);  // ln, attn, add
        mlp.model.nodes[3].inputs = {"to_tokens"};
        const i64 run = train(mlp, m_ws, m_cache);
        QVERIFY(run > 0);
        try {
            AttentionMaps maps(options(run));
            QFAIL("a model without attention was accepted");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(std::string(e.what()).find("no MultiHeadAttention layer") != std::string::npos, e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestAttentionMaps)
#include "tst_attention_maps.moc"

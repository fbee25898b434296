#include "jobs/attention_maps.h"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <stdexcept>

#include "backend/backend.h"
#include "data/dataset.h"
#include "data/loader.h"
#include "data/subset_dataset.h"
#include "data/tokenizer.h"
#include "exec/executor.h"
#include "graph/graph.h"
#include "graph/training_check.h"
#include "io/checkpoint/checkpoint.h"
#include "io/yaml/experiment_yaml.h"
#include "jobs/job_parts.h"
#include "jobs/log_notes.h"
#include "ops/attention_weights.h"
#include "store/label_overlay.h"
#include "store/resume_source.h"
#include "store/run_reader.h"
#include "train/evaluation.h"

namespace ts {

namespace {

const char* const kAttention = "MultiHeadAttention";

std::vector<float> hostCopy(Backend& backend, const Tensor& t)
{
    std::vector<float> out(std::size_t(t.numel()));
    backend.copyToHost(out.data(), t.raw(), t.bytes());
    return out;
}

// The first `used` queries and keys of a [heads, tokens, tokens] map.
void crop(AttentionMap& map, std::int64_t used)
{
    std::vector<float> kept(std::size_t(map.heads * used * used));
    for (std::int64_t h = 0; h < map.heads; ++h)
        for (std::int64_t i = 0; i < used; ++i)
            std::copy_n(map.weights.begin() + (h * map.queries + i) * map.keys, used,
                        kept.begin() + (h * used + i) * used);
    map.weights = std::move(kept);
    map.queries = map.keys = used;
}

}  // namespace

struct AttentionMaps::Impl {
    ExperimentSpec spec;
    CheckpointRecord chosen;
    std::vector<Message> notes;
    Backend* backend = nullptr;
    CheckedGraph graph;
    GraphBinding binding;
    std::unique_ptr<Executor> exec;
    std::vector<std::size_t> attentionNodes;
    // Text models
    Tokenizer tokenizer;
    bool text = false;
    std::int64_t context = 0;
    // Other models: the split samples come from, and what normalisation reads.
    std::shared_ptr<Dataset> split;
    std::string splitName;
    DatasetStatistics statistics;

    void setLabelsToZero()  // the loss runs in forward too; any valid class will do
    {
        for (const ValueInfo& v : graph.values)
            if (v.producer < 0 && v.name == kLabelInput) exec->setInput(v.name, Tensor::zeros(v.spec.shape, v.spec.dtype));
    }

    // Forward in eval mode, then each attention node's weights from the input it received.
    // `used`: the real tokens of a text; a causal or masked node's map keeps only those.
    std::vector<AttentionMap> collect(std::int64_t used)
    {
        exec->forward();
        std::vector<AttentionMap> maps;
        for (const std::size_t i : attentionNodes) {
            const CheckedNode& node = graph.nodes[i];
            const Tensor x = exec->value(graph.values[std::size_t(node.inputs[0])].name);
            const std::vector<float> hx = hostCopy(*backend, x);
            const std::vector<float> w = hostCopy(*backend, exec->findParameter(node.name + ".in_proj_weight")->value);
            std::vector<float> b, mask;
            if (node.attrs.getBool("bias")) b = hostCopy(*backend, exec->findParameter(node.name + ".in_proj_bias")->value);
            if (node.inputs.size() > 1) mask = hostCopy(*backend, exec->value(graph.values[std::size_t(node.inputs[1])].name));
            AttentionWeightsInput in;
            in.x = hx.data();
            in.tokens = x.shape()[1];
            in.channels = x.shape()[2];
            in.heads = node.attrs.getInt("heads");
            in.inProjWeight = w.data();
            in.inProjBias = b.empty() ? nullptr : b.data();
            in.keyMask = mask.empty() ? nullptr : mask.data();
            in.causal = node.attrs.getBool("causal");
            AttentionMap map;
            map.node = node.name;
            map.heads = in.heads;
            map.queries = map.keys = in.tokens;
            map.causal = in.causal;
            map.masked = in.keyMask != nullptr;
            map.weights = attentionWeights(in);
            if ((map.causal || map.masked) && used < in.tokens) crop(map, used);
            maps.push_back(std::move(map));
        }
        return maps;
    }
};

AttentionMaps::AttentionMaps(const PredictorOptions& options) : impl_(std::make_unique<Impl>())
{
    Impl& m = *impl_;
    if (options.workspaceDir.empty()) throw std::invalid_argument("showing attention needs the workspace that holds the run");
    const Workspace workspace{std::filesystem::absolute(options.workspaceDir).lexically_normal().string()};
    RunReader reader(workspace);
    if (!reader.run(options.runId))
        throw std::invalid_argument("run " + std::to_string(options.runId) + " is not in " + workspace.databasePath() +
                                    " (trainstudio-cli runs list shows the runs there)");
    LogNotes collector(m.notes, MessageId::PredictNoBestCheckpoint);
    m.chosen = chooseCheckpoint(reader.checkpoints(options.runId), options.runId, options.checkpoint, collector);
    const std::string weightsPath = absoluteCheckpointPath(workspace, m.chosen.path);
    const Checkpoint checkpoint = loadCheckpoint(weightsPath, m.chosen.sha256);
    if (m.chosen.step == 0 && m.chosen.epoch == 0) {  // a file the store did not name: its own position
        m.chosen.step = checkpoint.state.step;
        m.chosen.epoch = checkpoint.state.epoch - 1;
    }
    m.spec = parseExperiment(checkpoint.state.experimentYaml, weightsPath);
    m.graph = checkGraph(m.spec.model, 1);
    for (std::size_t i = 0; i < m.graph.nodes.size(); ++i) {
        m.graph.nodes[i].checkpoint = false;  // a checkpointed segment would drop the inputs read after forward
        if (m.graph.nodes[i].op->type() == kAttention) m.attentionNodes.push_back(i);
    }
    if (m.attentionNodes.empty())
        throw std::invalid_argument("this model has no MultiHeadAttention layer: there is no attention to show");
    m.binding = GraphBinding::of(m.graph);
    JobEnvironment env;
    env.cacheDir = options.cacheDir;
    m.backend = &jobBackend(env, options.device.empty() ? m.spec.training.device : options.device, collector,
                            BackendPurpose::Predict);
    // A training plan, run in eval mode: it keeps every value an attention node reads until
    // that node's backward, so they can be read after forward (an inference plan reuses their
    // buffers within a layer or two). For one sample the extra memory is small.
    m.exec = std::make_unique<Executor>(m.graph, *m.backend, /*training=*/true);
    m.exec->setTraining(false);
    restoreWeights(*m.exec, checkpoint.weights, weightsPath);
    const int lastForward = int(m.graph.nodes.size()) - 1;
    for (const std::size_t i : m.attentionNodes)
        for (const int v : m.graph.nodes[i].inputs)
            if (m.exec->plan().values[std::size_t(v)].end < lastForward)
                throw std::logic_error("the memory plan reuses the input of '" + m.graph.nodes[i].name + "' before forward ends");

    const Tensor input = m.exec->value(m.binding.input);
    m.text = input.dtype() == DType::I64;
    if (m.text) {
        if (checkpoint.state.tokenizer.empty())
            throw std::invalid_argument(weightsPath + " holds no tokenizer: the model reads token ids but was not trained on text");
        m.tokenizer = Tokenizer::parse(checkpoint.state.tokenizer);
        m.context = input.shape().rank() == 2 ? input.shape()[1] : 0;
        if (m.context < 1) throw std::invalid_argument("the model reads token ids of shape " + input.shape().str() + ", not [1, tokens]");
        return;
    }
    const DatasetSplits splits =
        openExperimentDataset(m.spec, jobCacheDirectory(env), runLabelOverlay(workspace, options.runId));
    m.statistics = splits.trainStatistics;
    if (splits.test) m.split = splits.test, m.splitName = "test";
    else if (splits.validation) m.split = splits.validation, m.splitName = "validation";
    else m.split = splits.train, m.splitName = "training";
}

AttentionMaps::~AttentionMaps() = default;

bool AttentionMaps::readsText() const { return impl_->text; }
std::int64_t AttentionMaps::context() const { return impl_->context; }
const std::string& AttentionMaps::splitName() const { return impl_->splitName; }
std::int64_t AttentionMaps::sampleCount() const { return impl_->split ? impl_->split->size() : 0; }
const CheckpointRecord& AttentionMaps::checkpoint() const { return impl_->chosen; }
const std::vector<Message>& AttentionMaps::notes() const { return impl_->notes; }

std::vector<std::string> AttentionMaps::nodeNames() const
{
    std::vector<std::string> names;
    for (const std::size_t i : impl_->attentionNodes) names.push_back(impl_->graph.nodes[i].name);
    return names;
}

AttentionSample AttentionMaps::datasetSample(std::int64_t index)
{
    Impl& m = *impl_;
    if (m.text) throw std::logic_error("this model reads text: textSample");
    if (index < 0 || index >= m.split->size())
        throw std::out_of_range("sample " + std::to_string(index) + " is outside the " + m.splitName + " split (0 to " +
                                std::to_string(m.split->size() - 1) + ")");
    // The experiment's own loader, as evaluation reads a sample: its normalisation, no augmentation.
    LoaderOptions options;
    options.batchSize = 1;
    options.seed = m.spec.training.seed;
    options.dropLast = options.shuffle = options.augment = false;
    options.batchAllocator = &m.backend->hostAllocator();
    DatasetSpec data = m.spec.dataset;
    data.sampler = "sequential";
    data.numWorkers = 0;
    Loader loader(std::make_shared<SubsetDataset>(m.split, std::vector<std::int64_t>{index}, m.splitName), data,
                  m.statistics, options);
    loader.startEpoch(0);
    Batch batch;
    if (!loader.next(batch)) throw std::logic_error("the loader gave no batch for one sample");
    feedBatch(*m.exec, m.binding, batch);

    AttentionSample out;
    out.maps = m.collect(std::numeric_limits<std::int64_t>::max());  // every token is real
    out.imageShape = m.split->sampleShape();
    out.image.resize(std::size_t(out.imageShape.numel()));
    const std::int64_t label = m.split->get(index, out.image.data());
    const std::vector<std::string> names = m.split->classNames();
    if (label >= 0 && label < std::int64_t(names.size())) out.className = names[std::size_t(label)];
    return out;
}

AttentionSample AttentionMaps::textSample(const std::string& text)
{
    Impl& m = *impl_;
    if (!m.text) throw std::logic_error("this model reads " + m.binding.input + ", not text: datasetSample");
    std::vector<std::int64_t> ids = m.tokenizer.encode(text);
    if (ids.empty()) throw std::invalid_argument("the text is empty: type a few words to see what the model attends to");
    const std::int64_t used = std::min<std::int64_t>(m.context, std::int64_t(ids.size()));
    // After the text: padding for a padded tokenizer (the model masks it), else the last token
    // repeated, as generation fills its window (a causal model never looks at it).
    Tensor window = Tensor::empty(Shape{1, m.context}, DType::I64);
    std::int64_t* w = window.data<std::int64_t>();
    for (std::int64_t t = 0; t < m.context; ++t)
        w[t] = t < used ? ids[std::size_t(t)] : m.tokenizer.padded() ? m.tokenizer.paddingId() : ids[std::size_t(used - 1)];
    m.exec->setInput(m.binding.input, window);
    m.setLabelsToZero();

    AttentionSample out;
    out.maps = m.collect(used);
    for (std::int64_t t = 0; t < m.context; ++t) out.tokens.push_back(m.tokenizer.piece(w[t]));
    return out;
}

}  // namespace ts

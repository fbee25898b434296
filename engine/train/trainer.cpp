// The run as a whole: set-up, the epoch loop with evaluation, plateau schedule and early
// stopping, the overfit verdict, the test split and the final event. The per-batch work is
// in train_epoch.cpp.
#include "train/trainer.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <new>
#include <thread>

#include "backend/backend.h"
#include "backend/math_precision.h"
#include "dist/bucket_reducer.h"
#include "dist/communicator.h"
#include "dist/metric_reduction.h"
#include "exec/cpu_fallback.h"
#include "optim/schedule_preview.h"
#include "optim/weight_decay.h"
#include "train/data_fit.h"
#include "tensor/checked_size.h"
#include "train/memory_advice.h"
#include "data/tokenizer.h"
#include "train/text_sampler.h"

namespace ts {

Trainer::Trainer(ExperimentSpec spec, DatasetSplits splits, Backend& backend, TrainerOptions options)
    : spec_(std::move(spec)), splits_(std::move(splits)), backend_(backend), options_(std::move(options)),
      control_(options_.control ? options_.control : &ownControl_),
      comm_(options_.communicator ? options_.communicator : &SingleCommunicator::instance())
{
    const std::int64_t limit = spec_.training.maxSteps;  // the experiment's budget, or the caller's if smaller
    if (limit > 0 && (options_.maxSteps == 0 || limit < options_.maxSteps)) options_.maxSteps = limit;
}

Trainer::~Trainer() = default;

void Trainer::publish(const TrainEvent& event)
{
    for (TrainListener* l : listeners_) l->onEvent(event);
}

void Trainer::log(LogEvent::Level level, Message message) { publish(LogEvent{level, std::move(message)}); }

double Trainer::elapsed() const
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void Trainer::setup()
{
    const TrainingSpec& t = spec_.training;
    if (!splits_.train) throw std::invalid_argument("the dataset has no training split");
    checkBatching(t);
    checkDataFitsModel(splits_, spec_.model);  // before any epoch: a mismatch names the file
    classes_ = splits_.train->numClasses();

    // Before the executor plans its buffers: convolution workspaces depend on the precision.
    const auto precision = parseMathPrecision(t.precision);
    if (!precision) throw std::invalid_argument("training.precision '" + t.precision + "': expected f32, tf32, bf16 or f16");
    backend_.setMathPrecision(*precision);  // the backend is shared: every run sets its own
    scaler_ = LossScaler(*precision == MathPrecision::F16, t.initialLossScale);

    // Data parallel: each rank runs its shard of every global batch (dist/communicator.h).
    const int ranks = comm_->size(), rank = comm_->rank();
    if (ranks > 1) {
        if (t.batchSize % ranks != 0)
            throw std::invalid_argument("training.batch_size " + std::to_string(t.batchSize) + " cannot be split evenly over " +
                                        std::to_string(ranks) + " ranks: choose a multiple of " + std::to_string(ranks) + ", e.g. --set training.batch_size=" +
                                        std::to_string((t.batchSize / ranks + 1) * ranks) +
                                        " (it is the global batch; each rank trains batch_size / ranks samples)");
        if (comm_->bufferDevice() != backend_.device().kind)
            throw std::invalid_argument("the " + comm_->name() + " communicator exchanges " +
                                        std::string(deviceKindName(comm_->bufferDevice())) + " buffers but this run trains on " +
                                        backend_.name() + ": train on the " + std::string(deviceKindName(comm_->bufferDevice())) +
                                        " (--device) or use a build with the matching communicator");
    }
    const std::int64_t localBatch = t.batchSize / ranks;
    // Before the first collective: a rank that stops answering fails the run, never hangs it.
    if (ranks > 1) comm_->setTimeout(t.distTimeoutSeconds);

    // Graph errors surface here, with the batch size the run uses, before any data moves.
    // Refused before anything is allocated: past the free memory a run fails part-way on a GPU
    // and swaps until the kernel kills it on the CPU. Ranks on one machine share its RAM.
    const int sharing = backend_.device().kind == DeviceKind::CPU && ranks > 1 ? std::max(1, launchEnvironment().localSize) : 1;
    // Within the budget, never to the last byte (train/memory_advice.h: the margin the machine keeps).
    MemoryBudget budget = memoryBudget(backend_);
    budget.usable /= std::size_t(sharing);
    CheckedGraph graph;
    MemoryPlan memoryPlan;
    try {
        graph = checkGraph(spec_.model, localBatch);
        memoryPlan = planMemory(graph, backend_, /*training=*/true);
    } catch (const GraphError& e) {  // sizes past 64-bit arithmetic: say which batch would fit
        if (e.kind() != GraphError::Kind::TooLarge) throw;
        const std::string note = largestBatchNote(spec_, backend_, budget, localBatch, ranks);
        throw std::runtime_error(std::string(e.what()) + (note.empty() ? "" : "\n" + note));
    } catch (const SizeOverflow& e) {
        const std::string note = largestBatchNote(spec_, backend_, budget, localBatch, ranks);
        throw std::runtime_error("at batch " + std::to_string(localBatch) + ", " + e.what() + (note.empty() ? "" : "\n" + note));
    }
    if (auto refusal = memoryRefusal(spec_, localBatch, runMemory(memoryPlan, spec_.optimizer), backend_, budget,
                                     sharing > 1 ? "per rank (" + std::to_string(sharing) + " ranks share this machine)" : "here",
                                     ranks))
        throw std::runtime_error(*refusal);
    exec_ = std::make_unique<Executor>(std::move(graph), std::move(memoryPlan), backend_, /*training=*/true);
    binding_ = GraphBinding::of(exec_->graph());
    exec_->initParameters(t.seed);  // the same on every rank (and rank 0's are broadcast anyway)
    // Dropout differs per rank: rank r > 0 draws from another stream; rank 0 keeps the seed, so a
    // single process and rank 0 draw alike. Augmentation already differs: it follows a sample's
    // global position in the epoch (loader.h), the same as in a single process.
    exec_->setSeed(rank == 0 ? t.seed : t.seed ^ (0x9E3779B97F4A7C15ULL * std::uint64_t(rank)));
    buckets_ = planGradientBuckets(static_cast<std::size_t>(exec_->flatGradients().numel()));
    const char* overlap = std::getenv("TRAINSTUDIO_OVERLAP_ALLREDUCE");
    if (ranks > 1 && comm_->bufferDevice() == DeviceKind::CPU && !(overlap && std::string(overlap) == "0")) {
        frontierAfter_ = gradientFrontiers(*exec_);
        reducer_ = std::make_unique<BucketReducer>(*comm_, buckets_);
    }
    syncBatchNorm_ = t.syncBatchNorm && ranks > 1;
    if (syncBatchNorm_)
        exec_->setCrossRankSum([this](float* data, std::size_t count) {
            collective([&] { comm_->allReduceSum(data, count); });
        });
    optimizer_ = makeOptimizer(spec_.optimizer, *exec_);
    evaluator_ = std::make_unique<Evaluator>(spec_.model, backend_, classes_, t.topK);
    if (spec_.schedule.type == "plateau") plateau_.emplace(spec_.schedule, spec_.optimizer.lr);

    LoaderOptions train;
    train.batchSize = t.batchSize;
    train.seed = t.seed;
    // Batches are assembled where the backend copies from fastest: pinned memory on CUDA.
    train.batchAllocator = &backend_.hostAllocator();
    LoaderOptions eval = train;  // evaluation is not sharded: rank 0 evaluates the whole split
    train.shardIndex = rank;
    train.shardCount = ranks;
    eval.dropLast = false;
    eval.shuffle = false;
    eval.augment = false;
    if (t.overfitBatches > 0) {
        LoaderOptions fixed = eval;
        fixed.dropLast = true;  // every fixed batch fits the training executor
        trainLoader_ = std::make_unique<Loader>(splits_.train, spec_.dataset, splits_.trainStatistics, fixed);
        loadFixedBatches();
        batchesPerEpoch_ = static_cast<std::int64_t>(fixedBatches_.size());
    } else {
        trainLoader_ = std::make_unique<Loader>(splits_.train, spec_.dataset, splits_.trainStatistics, train);
        batchesPerEpoch_ = trainLoader_->batchesPerEpoch();
        if (splits_.validation && splits_.validation->size() > 0)
            valLoader_ = std::make_unique<Loader>(splits_.validation, spec_.dataset, splits_.trainStatistics, eval);
        if (splits_.test && splits_.test->size() > 0)
            testLoader_ = std::make_unique<Loader>(splits_.test, spec_.dataset, splits_.trainStatistics, eval);
    }
    // The same step arithmetic as the studio's schedule preview (optim/schedule_preview.h).
    const StepPlan plan = planSteps(t, batchesPerEpoch_, splits_.train->size(), options_.maxSteps);
    stepsPerEpoch_ = plan.stepsPerEpoch;
    totalSteps_ = plan.totalSteps;

    if (t.earlyStopping.enabled) early_.emplace(t.earlyStopping);
    if (!options_.checkpointDir.empty() && rank == 0) policy_.emplace(t.checkpoint, options_.checkpointDir);
    if (options_.systemSampleSeconds > 0)
        monitor_ = std::make_unique<SystemMonitor>(
            0.5, backend_.device().kind == DeviceKind::CUDA ? backend_.device().index : -1);
    if (backend_.device().kind == DeviceKind::CPU) {
        // Ranks on one machine share its cores: automatic means an equal share each, fixed (the
        // governor would count the other ranks as other programs and swing meanwhile; an early
        // look before they start gave every rank all the cores: 2 ranks x 2 threads on 2 cores
        // trained the MLP 3x slower than 2 x 1).
        int threads = int(t.threads);
        if (threads == 0 && ranks > 1)
            threads = std::max(1, int(std::thread::hardware_concurrency()) / std::max(1, launchEnvironment().localSize));
        cpuThreads_.emplace(threads);
    }
    if (options_.resume) restoreFrom(*options_.resume);
    broadcastParameters();  // after a resume too: every rank continues from rank 0's weights
}

void Trainer::broadcastParameters()
{
    if (comm_->size() == 1) return;
    backend_.synchronize();
    for (Parameter& p : exec_->parameters())  // trainable and buffers (running statistics)
        if (p.value.dtype() == DType::F32) comm_->broadcast(p.value.data<float>(), static_cast<std::size_t>(p.value.numel()), 0);
}

void Trainer::collective(const std::function<void()>& fn)
{
    if (reducer_)
        reducer_->run(fn);
    else
        fn();
}

bool Trainer::anyRankTrue(bool local)
{
    collective([&] { local = comm_->anyTrue(local); });
    return local;
}

std::vector<double> Trainer::rankThroughputs(std::int64_t localSamples, double busySeconds)
{
    if (comm_->size() == 1) return {};
    std::vector<double> rates(static_cast<std::size_t>(comm_->size()), 0.0);
    rates[static_cast<std::size_t>(comm_->rank())] = busySeconds > 0 ? double(localSamples) / busySeconds : 0.0;
    comm_->allReduceSumHost(rates.data(), rates.size());  // each slot has one non-zero term
    return rates;
}

void Trainer::agreeOnGroup(bool& bad, double& loss, std::int64_t& samples)
{
    if (comm_->size() == 1) return;
    double v[3] = {bad ? 1.0 : 0.0, loss, static_cast<double>(samples)};
    comm_->allReduceSumHost(v, 3);
    bad = v[0] > 0;
    loss = v[1];
    samples = static_cast<std::int64_t>(v[2]);
}

void Trainer::reduceEpochSums(EpochTotals& totals)
{
    if (comm_->size() == 1) return;
    MetricSums sums = totals.running.sums();
    allReduceMetricSums(*comm_, sums);
    totals.running.restore(sums);
}

void Trainer::announce()
{
    const TrainingSpec& t = spec_.training;
    StartedEvent e;
    e.runId = options_.runId;
    e.experiment = spec_.name;
    e.device = backend_.name();
    e.dataset = splits_.train->description();
    e.precision = t.precision;
    e.epochs = t.epochs;
    e.firstEpoch = firstEpoch_;
    e.firstStep = step_;
    e.stepsPerEpoch = stepsPerEpoch_;
    e.totalSteps = totalSteps_;
    e.batchesPerEpoch = batchesPerEpoch_;
    e.batchSize = t.batchSize;
    e.accumulationSteps = t.accumulationSteps;
    e.ranks = comm_->size();
    e.trainSamples = t.overfitBatches > 0 ? batchesPerEpoch_ * t.batchSize : splits_.train->size();
    if (valLoader_) e.validationSamples = splits_.validation->size();
    if (testLoader_) e.testSamples = splits_.test->size();
    e.memory = runMemory(exec_->plan(), spec_.optimizer);
    e.cpuNodes = exec_->plan().cpuNodes();
    publish(e);
    std::vector<std::string> memory = runMemoryArgs(e.memory, spec_.optimizer.type);
    memory.insert(memory.begin(), backend_.name());
    log(LogEvent::Level::Info, makeMessage(MessageId::TrainMemoryPlanned, std::move(memory)));
    if (std::optional<Message> decay = weightDecayMessage(exec_->graph(), spec_.optimizer))  // its parameter groups
        log(LogEvent::Level::Info, std::move(*decay));
    for (Message& m : describeCpuPasses(exec_->graph(), exec_->plan(), backend_.name()))
        log(LogEvent::Level::Info, std::move(m));
    if (cpuThreads_)
        log(LogEvent::Level::Info, makeMessage(cpuThreads_->automatic() ? MessageId::TrainCpuThreadsAuto
                                                                         : MessageId::TrainCpuThreadsFixed,
                                               {std::to_string(cpuThreads_->threads())}));
}

void Trainer::loadFixedBatches()
{
    const std::int64_t wanted = spec_.training.overfitBatches;
    trainLoader_->startEpoch(0);
    Batch batch;
    while (static_cast<std::int64_t>(fixedBatches_.size()) < wanted && trainLoader_->next(batch)) {
        Batch copy = batch;  // the loader may recycle its buffers: keep private copies
        copy.inputs = batch.inputs.clone();
        copy.labels = batch.labels.clone();
        fixedBatches_.push_back(std::move(copy));
    }
    trainLoader_.reset();  // the rest of the epoch is never needed: stop the workers
    const std::int64_t got = static_cast<std::int64_t>(fixedBatches_.size());
    std::vector<std::string> args{std::to_string(got), std::to_string(spec_.training.batchSize)};
    if (got < wanted) args.push_back(std::to_string(wanted));
    log(LogEvent::Level::Info,
        makeMessage(got < wanted ? MessageId::TrainOverfitModeFewer : MessageId::TrainOverfitMode, std::move(args)));
}

// A language model writes after each epoch from the same prompt with the same seed, so its
// samples in the run's log show gibberish turning into words as the model alone changes.
void Trainer::publishTextSample(std::int64_t epoch)
{
    if (splits_.tokenizer.empty() || splits_.train->targetShape().rank() == 0 || comm_->rank() != 0) return;
    const Dataset& data = splits_.validation ? *splits_.validation : *splits_.train;
    std::vector<float> block(static_cast<std::size_t>(data.sampleShape().numel()));
    data.get(0, block.data());
    std::vector<std::int64_t> start;
    for (std::size_t t = 0; t < std::min<std::size_t>(block.size(), 16); ++t) start.push_back(std::int64_t(block[t]));
    TextSampler sampler(spec_, captureWeights(*exec_), splits_.tokenizer, backend_);
    GenerateOptions o;
    o.prompt = sampler.tokenizer().decode(start);
    o.length = 100;
    o.temperature = 0.8;
    o.seed = spec_.training.seed;
    // The prompt rides along (unused by the text) so that a viewer can set it apart.
    log(LogEvent::Level::Info,
        makeMessage(MessageId::TrainTextSample, {std::to_string(epoch), sampler.generate(o), o.prompt}));
}

// How many characters each token id stands for: 1 for characters and bytes, a learned
// tokenizer's piece lengths (in code points) otherwise.
const std::vector<int>& Trainer::pieceCharacters() const
{
    if (pieceCharacters_.empty() && !splits_.tokenizer.empty()) {
        const Tokenizer t = Tokenizer::parse(splits_.tokenizer);
        pieceCharacters_.assign(static_cast<std::size_t>(t.size()), 1);
        if (Tokenizer::learned(t.kind()))
            for (std::int64_t id = 0; id < t.size(); ++id)
                pieceCharacters_[std::size_t(id)] = int(std::count_if(t.piece(id).begin(), t.piece(id).end(),
                                                                      [](char c) { return (c & 0xC0) != 0x80; }));
    }
    return pieceCharacters_;
}

std::map<std::string, double> Trainer::summary(const TaskMetrics& m, const std::string& prefix) const
{
    std::map<std::string, double> metrics = m.summary(prefix);
    if (m.classification() && splits_.train->targetShape().rank() > 0)
        addLanguageModelMetrics(metrics, prefix, charactersPerToken(*m.classification(), pieceCharacters()));
    return metrics;
}

std::map<std::string, double> Trainer::evaluateSplit(Loader& loader, const std::string& prefix, bool& stopped)
{
    std::map<std::string, double> metrics;
    if (comm_->rank() == 0) {
        TaskMetrics m = newMetrics();
        stopped = !evaluator_->evaluate(*exec_, loader, m, control_);
        metrics = summary(m, prefix);
    }
    broadcastMetrics(*comm_, metrics, stopped);  // every rank decides as rank 0 does
    return metrics;
}

FinishedEvent Trainer::run()
{
    start_ = std::chrono::steady_clock::now();
    FinishedEvent finished;
    std::map<std::string, double>& last = lastMetrics_;
    std::optional<double> firstTrainLoss;
    try {
        setup();
        announce();
        const TrainingSpec& t = spec_.training;
        const bool overfit = t.overfitBatches > 0;
        bool warnedMissing = false;
        auto metricOrWarn = [&](const std::string& name) -> std::optional<double> {
            if (auto it = last.find(name); it != last.end()) return it->second;
            if (!warnedMissing)
                log(LogEvent::Level::Warning,
                    makeMessage(overfit ? MessageId::TrainMetricMissingOverfit : MessageId::TrainMetricMissingNoValidation,
                                {name}));
            warnedMissing = true;
            return std::nullopt;
        };

        for (std::int64_t epoch = firstEpoch_; epoch <= t.epochs; ++epoch) {
            EpochTotals totals{newMetrics()};
            // A run resumed mid-epoch continues that epoch's sums: it reports what an
            // uninterrupted epoch would, not only the batches after the resume.
            if (epoch == firstEpoch_ && firstBatch_ > 0 && resumedSums_) {
                // The checkpoint's sums are all ranks' together: rank 0 carries them.
                if (comm_->rank() == 0) totals.running.restore(*resumedSums_);
                totals.priorSeconds = resumedSums_->seconds;
                totals.priorWaitSeconds = resumedSums_->waitSeconds;
            }
            const EpochResult r = trainEpoch(epoch, totals, epoch == firstEpoch_ ? firstBatch_ : 0);
            if (r == EpochResult::Failed) {
                finished.outcome = FinishedEvent::Outcome::Failed;
                finished.message = failure_;
                break;
            }
            reduceEpochSums(totals);  // every rank: the epoch's metrics as one process counts them
            if (r == EpochResult::Stopped) {
                finished.outcome = FinishedEvent::Outcome::Stopped;
                finished.message = makeMessage(MessageId::TrainStopped, {std::to_string(step_), std::to_string(epoch)});
                writeCheckpoint(epoch, stopBatch_, &totals);  // resumable from exactly here
                break;
            }
            EpochEvent e;
            e.epoch = epoch;
            e.step = step_;
            e.metrics = summary(totals.running, "train");
            // Without a validation split the test split is evaluated each epoch instead, as
            // PyTorch's reference recipe does: curves to watch, named test_* so nobody takes
            // them for a held-out selection set.
            if (Loader* held = valLoader_ ? valLoader_.get() : testLoader_.get()) {
                bool stopped = false;
                auto val = evaluateSplit(*held, valLoader_ ? "val" : "test", stopped);
                if (stopped) {
                    finished.outcome = FinishedEvent::Outcome::Stopped;
                    finished.message = makeMessage(MessageId::TrainStoppedInEvaluation, {std::to_string(epoch)});
                    writeCheckpoint(epoch, batchesPerEpoch_, &totals);  // resuming re-runs this evaluation
                    break;
                }
                e.metrics.insert(val.begin(), val.end());
            }
            e.seconds = totals.seconds;
            e.pausedSeconds = totals.pausedSeconds;
            e.dataWaitFraction = totals.seconds > 0 ? totals.waitSeconds / totals.seconds : 0;
            last = e.metrics;
            if (!firstTrainLoss) firstTrainLoss = e.metrics["train_loss"];
            publish(e);
            publishTextSample(epoch);

            if (plateau_)
                if (auto v = metricOrWarn(spec_.schedule.metric)) plateau_->update(*v, lowerIsBetter(spec_.schedule.metric));
            bool stopEarly = false;
            if (early_)
                if (auto v = metricOrWarn(t.earlyStopping.metric); v && early_->update(*v)) {
                    stopEarly = true;
                    finished.outcome = FinishedEvent::Outcome::EarlyStopped;
                    finished.message = makeMessage(
                        MessageId::TrainEarlyStopped,
                        {std::to_string(epoch), t.earlyStopping.metric, numberArg(t.earlyStopping.minDelta),
                         std::to_string(early_->epochsWithoutImprovement()), numberArg(early_->best()),
                         std::to_string(early_->bestEpoch() + 1)});
                }
            if (policy_ && (stopEarly || epoch == t.epochs || policy_->due(epoch, t.epochs))) writeCheckpoint(epoch + 1, 0);
            if (stopEarly || (options_.maxSteps > 0 && step_ >= options_.maxSteps)) break;
        }

        if (overfit && firstTrainLoss && last.count("train_loss")) {
            const double a = *firstTrainLoss, b = last["train_loss"];
            std::vector<std::string> args{numberArg(a), numberArg(b), std::to_string(fixedBatches_.size())};
            if (b < 0.05 || b < 0.1 * a)
                log(LogEvent::Level::Info, makeMessage(MessageId::TrainOverfitLearns, std::move(args)));
            else
                log(LogEvent::Level::Warning, makeMessage(MessageId::TrainOverfitStuck, std::move(args)));
        }
        finished.metrics = last;
        const auto outcome = finished.outcome;
        // Already measured on the final weights when the test split stood in for validation.
        const bool testedLast = !valLoader_ && last.count("test_loss");
        if (testLoader_ && !testedLast && comm_->rank() == 0 &&
            (outcome == FinishedEvent::Outcome::Finished || outcome == FinishedEvent::Outcome::EarlyStopped)) {
            TaskMetrics m = newMetrics();
            if (evaluator_->evaluate(*exec_, *testLoader_, m, control_))
                for (const auto& [k, v] : summary(m, "test")) finished.metrics[k] = v;
        }
        if (outcome == FinishedEvent::Outcome::Finished && finished.message.text.empty())
            finished.message = makeMessage(MessageId::TrainFinished, {std::to_string(t.epochs), std::to_string(step_)});
    } catch (const DeviceOutOfMemory& e) {
        finished.outcome = FinishedEvent::Outcome::Failed;
        std::string text = e.what();
        finished.metrics = last;
        try {  // the run's own blocks are free again once unwound: they count as available
            text += "\n" + outOfMemoryAdvice(spec_, backend_, e.deviceFree + e.stats.reserved);
        } catch (const std::exception& adviceError) {
            text += std::string("\n(no memory plan: ") + adviceError.what() + ")";
        }
        finished.message = Message{std::move(text)};
    } catch (const std::bad_alloc&) {  // host memory (the CPU allocator, a loader's buffers): said plainly
        finished.outcome = FinishedEvent::Outcome::Failed;
        finished.metrics = last;
        std::string text = "out of memory: the system refused an allocation for the run";
        try {
            text += "\n" + outOfMemoryAdvice(spec_, backend_, memoryBudget(backend_).usable);
        } catch (const std::exception&) {
        }
        finished.message = Message{std::move(text)};
    } catch (const std::exception& e) {
        finished.outcome = FinishedEvent::Outcome::Failed;
        finished.message = Message{e.what()};
        finished.metrics = last;
    }
    publish(finished);
    return finished;
}

}  // namespace ts

// Labels and help for the experiment's options. Strings are marked with QT_TRANSLATE_NOOP so
// lupdate collects them; each lookup translates. Advice follows the seeds' guides.
#include "option_help.h"

#include <QCoreApplication>

namespace ts::ui {

namespace {

struct Help {
    const char* key;
    const char* label;
    const char* help;
};

const Help kHelp[] = {
    // Optimizer
    {"optimizer.type", QT_TRANSLATE_NOOP("OptionHelp", "Optimizer"),
     QT_TRANSLATE_NOOP("OptionHelp", "The update rule. adam is a safe default; prefer adamw when you use weight decay "
                       "(its decay is decoupled from the gradient); sgd with momentum 0.9 often generalises well but "
                       "needs a tuned learning rate.")},
    {"optimizer.lr", QT_TRANSLATE_NOOP("OptionHelp", "Learning rate"),
     QT_TRANSLATE_NOOP("OptionHelp", "The size of every update, the most important setting. Start at 1e-3 (Adam) and "
                       "watch the loss curve: if it oscillates or explodes, lower it (1e-4, 1e-5); if it hardly moves, "
                       "raise it. The learning-rate finder suggests one.")},
    {"optimizer.momentum", QT_TRANSLATE_NOOP("OptionHelp", "Momentum"),
     QT_TRANSLATE_NOOP("OptionHelp", "The share of the previous update carried into the next (SGD, RMSprop). 0.9 is the "
                       "usual value; 0 turns it off.")},
    {"optimizer.nesterov", QT_TRANSLATE_NOOP("OptionHelp", "Nesterov momentum"),
     QT_TRANSLATE_NOOP("OptionHelp", "SGD only: takes the gradient after a look-ahead step along the momentum, often a "
                       "little faster. Needs momentum > 0.")},
    {"optimizer.beta1", QT_TRANSLATE_NOOP("OptionHelp", "Beta 1"),
     QT_TRANSLATE_NOOP("OptionHelp", "Adam and AdamW: decay of the running mean of gradients. The default 0.9 rarely "
                       "needs changing.")},
    {"optimizer.beta2", QT_TRANSLATE_NOOP("OptionHelp", "Beta 2"),
     QT_TRANSLATE_NOOP("OptionHelp", "Adam and AdamW: decay of the running mean of squared gradients. The default 0.999 "
                       "rarely needs changing.")},
    {"optimizer.eps", QT_TRANSLATE_NOOP("OptionHelp", "Epsilon"),
     QT_TRANSLATE_NOOP("OptionHelp", "Adam, AdamW and RMSprop: a small number added to the denominator so it is never "
                       "zero. Keep the default 1e-8.")},
    {"optimizer.alpha", QT_TRANSLATE_NOOP("OptionHelp", "Smoothing (alpha)"),
     QT_TRANSLATE_NOOP("OptionHelp", "RMSprop: decay of the running mean of squared gradients; 0.99 is the usual value.")},

    // Schedule and warm-up
    {"schedule.type", QT_TRANSLATE_NOOP("OptionHelp", "Schedule"),
     QT_TRANSLATE_NOOP("OptionHelp", "How the learning rate changes during the run: constant; step, multistep or "
                       "exponential decay by epoch; cosine annealing, with or without restarts; one-cycle (up, then "
                       "down; often converges faster than a fixed rate); plateau (lowers the rate when the validation "
                       "metric stalls). Train once at a constant rate and look at the curve first.")},
    {"schedule.warmup_steps", QT_TRANSLATE_NOOP("OptionHelp", "Warm-up steps"),
     QT_TRANSLATE_NOOP("OptionHelp", "Optimizer steps over which the rate rises linearly from start factor x lr to lr, "
                       "under any schedule. It avoids the early blow-ups of a large rate; Transformer-like models "
                       "almost always need a few hundred. 0: no warm-up.")},
    {"schedule.warmup_start_factor", QT_TRANSLATE_NOOP("OptionHelp", "Warm-up start factor"),
     QT_TRANSLATE_NOOP("OptionHelp", "The fraction of the learning rate the warm-up starts from (0: from zero).")},
    {"schedule.step_size", QT_TRANSLATE_NOOP("OptionHelp", "Step size (epochs)"),
     QT_TRANSLATE_NOOP("OptionHelp", "Step schedule: the rate is multiplied by gamma every this many epochs, e.g. every "
                       "10 epochs by 0.1.")},
    {"schedule.milestones", QT_TRANSLATE_NOOP("OptionHelp", "Milestones (epochs)"),
     QT_TRANSLATE_NOOP("OptionHelp", "Multistep schedule: the epochs at which the rate is multiplied by gamma, "
                       "increasing, e.g. 30, 60, 90.")},
    {"schedule.gamma", QT_TRANSLATE_NOOP("OptionHelp", "Decay factor (gamma)"),
     QT_TRANSLATE_NOOP("OptionHelp", "The multiplier of each decay: every step size epochs (step), at each milestone "
                       "(multistep) or every epoch (exponential, where 0.9-0.99 is typical). 0.1 divides the rate by "
                       "ten.")},
    {"schedule.min_lr", QT_TRANSLATE_NOOP("OptionHelp", "Minimum learning rate"),
     QT_TRANSLATE_NOOP("OptionHelp", "The rate the cosine schedules anneal down to, and the floor below which plateau "
                       "never lowers it.")},
    {"schedule.restart_epochs", QT_TRANSLATE_NOOP("OptionHelp", "First period (epochs)"),
     QT_TRANSLATE_NOOP("OptionHelp", "Cosine with restarts: the length of the first cycle. Fit it to the number of "
                       "epochs: a period too short restarts before the model has converged.")},
    {"schedule.restart_multiplier", QT_TRANSLATE_NOOP("OptionHelp", "Period multiplier"),
     QT_TRANSLATE_NOOP("OptionHelp", "Cosine with restarts: each cycle is this many times longer than the one before (1: "
                       "equal cycles, 2: doubling).")},
    {"schedule.max_lr", QT_TRANSLATE_NOOP("OptionHelp", "Peak learning rate"),
     QT_TRANSLATE_NOOP("OptionHelp", "One-cycle: the highest rate, reached after the rising fraction of the run (0: 10 x "
                       "the learning rate). The learning-rate finder's suggestion is a good peak.")},
    {"schedule.pct_start", QT_TRANSLATE_NOOP("OptionHelp", "Rising fraction"),
     QT_TRANSLATE_NOOP("OptionHelp", "One-cycle: the fraction of the run spent raising the rate to its peak; 0.3 is the "
                       "usual value.")},
    {"schedule.metric", QT_TRANSLATE_NOOP("OptionHelp", "Watched metric"),
     QT_TRANSLATE_NOOP("OptionHelp", "Plateau: the metric whose stalling lowers the rate, such as val_loss or val_acc "
                       "(losses should fall, accuracies rise). It needs a validation split.")},
    {"schedule.factor", QT_TRANSLATE_NOOP("OptionHelp", "Reduction factor"),
     QT_TRANSLATE_NOOP("OptionHelp", "Plateau: the rate is multiplied by this when the metric stalls (0.1 divides it by "
                       "ten).")},
    {"schedule.patience", QT_TRANSLATE_NOOP("OptionHelp", "Patience (epochs)"),
     QT_TRANSLATE_NOOP("OptionHelp", "Plateau: epochs without improvement before the rate is lowered.")},
    {"schedule.threshold", QT_TRANSLATE_NOOP("OptionHelp", "Improvement threshold"),
     QT_TRANSLATE_NOOP("OptionHelp", "Plateau: the relative change of the metric that counts as an improvement (1e-4: "
                       "0.01%).")},

    // Regularisation
    {"optimizer.weight_decay", QT_TRANSLATE_NOOP("OptionHelp", "Weight decay"),
     QT_TRANSLATE_NOOP("OptionHelp", "Pulls the weights towards zero against overfitting. Prefer AdamW to Adam for it "
                       "(Adam adds it to the gradient, AdamW decouples it); 0.01-0.1 is typical: too much underfits, "
                       "too little does nothing.")},
    {"optimizer.decay_all", QT_TRANSLATE_NOOP("OptionHelp", "Decay all parameters"),
     QT_TRANSLATE_NOOP("OptionHelp", "Off (the default): weight decay applies only to the weight matrices and kernels of "
                       "Linear, convolution and attention layers, not to biases, normalisation scales and shifts or "
                       "embedding and position tables, as Transformers are trained. On: to every parameter, as "
                       "torch.optim does when given all parameters in one group.")},
    {"training.clip_grad_norm", QT_TRANSLATE_NOOP("OptionHelp", "Clip gradient norm"),
     QT_TRANSLATE_NOOP("OptionHelp", "Scales the gradients down when their total norm exceeds this, against exploding "
                       "gradients (nearly a must for RNNs and Transformers). 1.0 is a common start; norms often above "
                       "10 point to too high a rate or a bad initialisation. 0: off.")},
    {"training.clip_grad_value", QT_TRANSLATE_NOOP("OptionHelp", "Clip gradient value"),
     QT_TRANSLATE_NOOP("OptionHelp", "Clamps every gradient element to plus or minus this value. Clipping the norm is "
                       "usually the better choice. 0: off.")},
    {"dataset.augment.random_resized_crop", QT_TRANSLATE_NOOP("OptionHelp", "Random resized crop"),
     QT_TRANSLATE_NOOP("OptionHelp", "Augmentation: takes a random part of each training image, at least this fraction of "
                       "its area with an aspect ratio between 3:4 and 4:3, and resizes it back to the whole (torchvision's "
                       "RandomResizedCrop; 0.08 is its default, 0.5 is gentler). Evaluation sees whole images. 0: off.")},
    {"dataset.augment.random_crop_padding", QT_TRANSLATE_NOOP("OptionHelp", "Random crop padding"),
     QT_TRANSLATE_NOOP("OptionHelp", "Augmentation: pads each training image by this many pixels and crops it back at a "
                       "random offset, so the model sees shifted copies (4 is common for 32x32 images). 0: off.")},
    {"dataset.augment.horizontal_flip", QT_TRANSLATE_NOOP("OptionHelp", "Horizontal flip"),
     QT_TRANSLATE_NOOP("OptionHelp", "Augmentation: mirrors half of the training images left to right. Right for "
                       "photographs, wrong where direction matters (digits, text).")},

    // Batch and accumulation
    {"training.epochs", QT_TRANSLATE_NOOP("OptionHelp", "Epochs"),
     QT_TRANSLATE_NOOP("OptionHelp", "Passes over the training split. With early stopping the run may end sooner.")},
    {"training.batch_size", QT_TRANSLATE_NOOP("OptionHelp", "Batch size"),
     QT_TRANSLATE_NOOP("OptionHelp", "Samples per forward and backward pass. Larger batches take more memory and usually "
                       "tolerate a larger learning rate; when memory runs out, lower it and accumulate gradients "
                       "instead.")},
    {"training.accumulation_steps", QT_TRANSLATE_NOOP("OptionHelp", "Gradient accumulation"),
     QT_TRANSLATE_NOOP("OptionHelp", "Micro-batches whose gradients are summed before each optimizer step (the loss "
                       "divided by their number), so batch size x this acts as one large batch when memory is short. "
                       "Each update takes longer, and batch norm still sees the small batch.")},
    {"training.sync_batchnorm", QT_TRANSLATE_NOOP("OptionHelp", "Synchronised batch norm"),
     QT_TRANSLATE_NOOP("OptionHelp", "When the run trains on several processes, batch norm computes its mean and variance "
                       "over the whole global batch instead of each process's share: the run then follows a single "
                       "process's, at the cost of three small exchanges per batch norm layer in each step.")},
    {"training.dist_timeout_s", QT_TRANSLATE_NOOP("OptionHelp", "Distributed timeout (s)"),
     QT_TRANSLATE_NOOP("OptionHelp", "When the run trains on several processes: how long one exchange waits for the "
                       "others. A process that stops answering (stopped, hung, unreachable) then fails the run with a "
                       "message naming it and its host, and the run resumes from its last checkpoint. It must exceed the "
                       "longest time the first process works alone (evaluation, checkpoints). 0: wait forever.")},
    {"training.max_steps", QT_TRANSLATE_NOOP("OptionHelp", "Maximum steps"),
     QT_TRANSLATE_NOOP("OptionHelp", "Ends the run after this many optimizer steps, inside an epoch if need be; the "
                       "learning-rate schedule spans these steps. Compares runs by a fixed budget. 0: the epochs decide.")},
    {"training.overfit_batches", QT_TRANSLATE_NOOP("OptionHelp", "Overfit batches"),
     QT_TRANSLATE_NOOP("OptionHelp", "Sanity check: train on this many fixed batches only. A sound model and pipeline "
                       "drive the loss close to zero on them; if not, look for a bug before tuning anything. 0: off.")},

    // Precision and memory
    {"training.device", QT_TRANSLATE_NOOP("OptionHelp", "Device"),
     QT_TRANSLATE_NOOP("OptionHelp", "Where to train: auto (a GPU when there is one, else the CPU), cpu, cuda, or cuda:N "
                       "for the N-th GPU.")},
    {"training.threads", QT_TRANSLATE_NOOP("OptionHelp", "CPU threads"),
     QT_TRANSLATE_NOOP("OptionHelp", "How many threads the CPU backend computes with. 0, automatic: the cores other "
                       "programs leave idle, followed during the run, so a busy desktop does not slow training "
                       "many times over. Results are the same with any count.")},
    {"training.precision", QT_TRANSLATE_NOOP("OptionHelp", "Matrix precision"),
     QT_TRANSLATE_NOOP("OptionHelp", "What matrix products compute in: f32 (the exact reference), tf32, bf16 or f16; "
                       "weights, activations and gradients stay f32, so it speeds up tensor-core GPUs without saving "
                       "memory. Prefer bf16 on Ampere and newer (no loss scaling); f16 adds a dynamic loss scaler.")},
    {"training.loss_scale", QT_TRANSLATE_NOOP("OptionHelp", "Initial loss scale"),
     QT_TRANSLATE_NOOP("OptionHelp", "f16 only: the loss is multiplied by this before the backward pass so small "
                       "gradients do not vanish; the scaler lowers it after an overflow and raises it again while steps "
                       "stay finite. 65536 rarely needs changing; a scale that keeps falling points to a numerical "
                       "problem in the model.")},

    // Checkpoints and early stopping
    {"training.checkpoint.every_epochs", QT_TRANSLATE_NOOP("OptionHelp", "Checkpoint every (epochs)"),
     QT_TRANSLATE_NOOP("OptionHelp", "Writes a checkpoint (weights and training state) every this many epochs and at the "
                       "end, to resume, fork or evaluate later. 0: only the final one.")},
    {"training.checkpoint.keep_last", QT_TRANSLATE_NOOP("OptionHelp", "Keep last"),
     QT_TRANSLATE_NOOP("OptionHelp", "How many recent checkpoints to keep, besides the best one. The last 3 plus the best "
                       "saves disk without losing the one you want.")},
    {"training.checkpoint.metric", QT_TRANSLATE_NOOP("OptionHelp", "Best checkpoint by"),
     QT_TRANSLATE_NOOP("OptionHelp", "The metric that picks the best checkpoint, such as val_acc or val_loss (losses "
                       "should fall, accuracies rise).")},
    {"training.early_stopping.enabled", QT_TRANSLATE_NOOP("OptionHelp", "Early stopping"),
     QT_TRANSLATE_NOOP("OptionHelp", "Stops training when the watched metric has not improved for patience epochs: less "
                       "overfitting, less time wasted. It needs a validation split.")},
    {"training.early_stopping.metric", QT_TRANSLATE_NOOP("OptionHelp", "Watched metric"),
     QT_TRANSLATE_NOOP("OptionHelp", "The metric early stopping watches; val_loss is the usual one.")},
    {"training.early_stopping.patience", QT_TRANSLATE_NOOP("OptionHelp", "Patience (epochs)"),
     QT_TRANSLATE_NOOP("OptionHelp", "Epochs without improvement before training stops. 5 to 10 is typical: too few stops "
                       "too early, too many wastes compute.")},
    {"training.early_stopping.min_delta", QT_TRANSLATE_NOOP("OptionHelp", "Minimum improvement"),
     QT_TRANSLATE_NOOP("OptionHelp", "The smallest change of the metric that counts as an improvement.")},

    // Data loading
    {"dataset.validation_fraction", QT_TRANSLATE_NOOP("OptionHelp", "Validation fraction"),
     QT_TRANSLATE_NOOP("OptionHelp", "The share of the training split held out (seeded) for validation, which early "
                       "stopping, the plateau schedule and the best checkpoint need. 0: the test split is evaluated "
                       "after each epoch instead.")},
    {"dataset.split_seed", QT_TRANSLATE_NOOP("OptionHelp", "Split seed"),
     QT_TRANSLATE_NOOP("OptionHelp", "Decides which samples are held out for validation, so runs compare on the same "
                       "split.")},
    {"dataset.resize", QT_TRANSLATE_NOOP("OptionHelp", "Resize images"),
     QT_TRANSLATE_NOOP("OptionHelp", "Image folders: how an image of another size becomes image_shape. crop keeps the "
                       "aspect ratio, fits the short side and cuts the centre (torchvision's Resize + CenterCrop); pad "
                       "keeps it, fits the long side and fills the rest with black; stretch changes the aspect ratio "
                       "(circles become ellipses). The run's log says how many images were resized.")},
    {"dataset.text_column", QT_TRANSLATE_NOOP("OptionHelp", "Text column"),
     QT_TRANSLATE_NOOP("OptionHelp", "CSV tables of texts: the column whose cells are the texts to classify; "
                       "label_column gives each text's class. Empty: the table holds numbers (features). The texts "
                       "are tokenized, padded and cut as a text folder's are (tokenizer, context), and a row with "
                       "an empty text is left out (the run's log says how many).")},
    {"dataset.tokenizer", QT_TRANSLATE_NOOP("OptionHelp", "Tokenizer"),
     QT_TRANSLATE_NOOP("OptionHelp", "Text: how the text becomes tokens. characters gives one token per character that "
                       "occurs in the text (a small vocabulary, long sequences); bytes one per byte, 256 in all, so any "
                       "text can be encoded later; bpe and unigram learn vocab_size tokens (whole words and common parts "
                       "of words) from the training split with SentencePiece, so sequences are shorter. The vocabulary "
                       "is kept with the run's checkpoints.")},
    {"dataset.vocab_size", QT_TRANSLATE_NOOP("OptionHelp", "Vocabulary size"),
     QT_TRANSLATE_NOOP("OptionHelp", "Text with the bpe or unigram tokenizer (required there; characters and bytes ignore "
                       "it): how many tokens SentencePiece learns, each character of the text among them. 512 is a "
                       "start; a larger vocabulary gives shorter sequences but rarer tokens. The model's Embedding "
                       "num_embeddings and its output layer's out_features must equal it.")},
    {"dataset.context", QT_TRANSLATE_NOOP("OptionHelp", "Context length"),
     QT_TRANSLATE_NOOP("OptionHelp", "Text: how many tokens the model sees at once; the text is cut into blocks this long, "
                       "and the model learns to predict the next token at every position. Longer contexts cost memory "
                       "and time in attention. Text classification (text_folder, or csv with text_column): the longest "
                       "text read (max_length); shorter texts are padded with token 0, longer ones cut, and the run's log "
                       "says how many.")},
    {"dataset.normalize.from_statistics", QT_TRANSLATE_NOOP("OptionHelp", "Normalise from statistics"),
     QT_TRANSLATE_NOOP("OptionHelp", "Normalise with the mean and standard deviation measured on the dataset (cached) "
                       "instead of the values given here.")},
    {"dataset.normalize.mean", QT_TRANSLATE_NOOP("OptionHelp", "Mean"),
     QT_TRANSLATE_NOOP("OptionHelp", "Per-channel value subtracted from the inputs, one per channel (0.286 for "
                       "Fashion-MNIST). Inputs on very different scales slow or stop convergence.")},
    {"dataset.normalize.std", QT_TRANSLATE_NOOP("OptionHelp", "Standard deviation"),
     QT_TRANSLATE_NOOP("OptionHelp", "Per-channel divisor applied after the mean, one per channel, each above zero (0.353 "
                       "for Fashion-MNIST).")},
    {"dataset.loader.sampler", QT_TRANSLATE_NOOP("OptionHelp", "Sampler"),
     QT_TRANSLATE_NOOP("OptionHelp", "The order of training samples: random (shuffled each epoch), sequential, weighted "
                       "(by class weight) or class_balanced (every class equally often). For imbalanced classes use "
                       "weighted or class_balanced, and judge by recall and F1 rather than accuracy.")},
    {"dataset.loader.class_weights", QT_TRANSLATE_NOOP("OptionHelp", "Class weights"),
     QT_TRANSLATE_NOOP("OptionHelp", "Weighted sampler: a relative weight per class, e.g. the inverse of each class's "
                       "frequency; they need not sum to 1. Too large a weight makes the model over-predict that class.")},
    {"dataset.loader.replacement", QT_TRANSLATE_NOOP("OptionHelp", "With replacement"),
     QT_TRANSLATE_NOOP("OptionHelp", "Weighted sampler: draw with replacement, so samples of rare classes can repeat "
                       "within an epoch.")},
    {"dataset.loader.num_workers", QT_TRANSLATE_NOOP("OptionHelp", "Loader workers"),
     QT_TRANSLATE_NOOP("OptionHelp", "Threads that read, decode and augment batches while the model trains. Half to two "
                       "thirds of the CPU cores is a good start; 0 loads on the training thread. Raise it when the GPU "
                       "waits for data.")},
    {"dataset.loader.prefetch", QT_TRANSLATE_NOOP("OptionHelp", "Prefetch batches"),
     QT_TRANSLATE_NOOP("OptionHelp", "Batches prepared ahead of training, so a slow batch does not stall a step.")},
    {"dataset.loader.cache", QT_TRANSLATE_NOOP("OptionHelp", "Cache decoded samples"),
     QT_TRANSLATE_NOOP("OptionHelp", "Decodes the dataset once into a memory-mapped file in the workspace cache, so later "
                       "epochs and runs skip decoding; it takes disk space.")},

    // Seed and logging
    {"training.seed", QT_TRANSLATE_NOOP("OptionHelp", "Seed"),
     QT_TRANSLATE_NOOP("OptionHelp", "Drives parameter initialisation, shuffling, dropout and augmentation: the same seed "
                       "repeats a run. Try a few to see how much results vary.")},
    {"training.deterministic", QT_TRANSLATE_NOOP("OptionHelp", "Deterministic"),
     QT_TRANSLATE_NOOP("OptionHelp", "Uses deterministic algorithms on the GPU, so runs repeat bit for bit, at some cost "
                       "in speed.")},
    {"training.skip_non_finite_loss", QT_TRANSLATE_NOOP("OptionHelp", "Skip non-finite losses"),
     QT_TRANSLATE_NOOP("OptionHelp", "Skips a step whose loss is NaN or infinite instead of stopping the run. Better find "
                       "the cause: too high a learning rate, a log of zero, a division by zero.")},
    {"training.log_every_steps", QT_TRANSLATE_NOOP("OptionHelp", "Log every (steps)"),
     QT_TRANSLATE_NOOP("OptionHelp", "How often training metrics are recorded: 1 logs every step; every 100 steps keeps "
                       "long runs small.")},
    {"training.top_k", QT_TRANSLATE_NOOP("OptionHelp", "Top-k accuracy"),
     QT_TRANSLATE_NOOP("OptionHelp", "The k of each top-k accuracy to report (1 is plain accuracy), e.g. 1, 5.")},
};

const Help* find(const std::string& key)
{
    for (const Help& h : kHelp)
        if (key == h.key) return &h;
    return nullptr;
}

}  // namespace

QString optionLabel(const std::string& key)
{
    const Help* h = find(key);
    return h ? QCoreApplication::translate("OptionHelp", h->label) : QString::fromStdString(key);
}

QString optionHelp(const std::string& key)
{
    const Help* h = find(key);
    return h ? QCoreApplication::translate("OptionHelp", h->help) : QString();
}

QString optionGroupTitle(ts::OptionGroup group)
{
    switch (group) {
    case ts::OptionGroup::Optimizer: return QCoreApplication::translate("OptionHelp", "Optimizer");
    case ts::OptionGroup::Schedule: return QCoreApplication::translate("OptionHelp", "Schedule and warm-up");
    case ts::OptionGroup::Regularisation: return QCoreApplication::translate("OptionHelp", "Regularisation");
    case ts::OptionGroup::Batch: return QCoreApplication::translate("OptionHelp", "Batch and accumulation");
    case ts::OptionGroup::Precision: return QCoreApplication::translate("OptionHelp", "Precision and memory");
    case ts::OptionGroup::Checkpoints: return QCoreApplication::translate("OptionHelp", "Checkpoints and early stopping");
    case ts::OptionGroup::DataLoading: return QCoreApplication::translate("OptionHelp", "Data loading");
    case ts::OptionGroup::Run: return QCoreApplication::translate("OptionHelp", "Seed and logging");
    }
    return {};
}

std::vector<std::string> optionHelpKeys()
{
    std::vector<std::string> keys;
    for (const Help& h : kHelp) keys.emplace_back(h.key);
    return keys;
}

}  // namespace ts::ui

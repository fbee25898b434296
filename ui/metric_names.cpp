#include "metric_names.h"

namespace ts::ui {

QString MetricNames::split(const QString& split)
{
    if (split == QLatin1String("test")) return tr("test");
    if (split == QLatin1String("val")) return tr("validation");
    if (split == QLatin1String("train")) return tr("training");
    return split;
}

QString MetricNames::label(const QString& metric)
{
    if (metric == QLatin1String("loss")) return tr("Loss (per step)");
    if (metric == QLatin1String("lr")) return tr("Learning rate");
    if (metric == QLatin1String("grad_norm")) return tr("Gradient norm");
    if (metric == QLatin1String("samples_per_s")) return tr("Throughput (samples/s)");
    // "<split>_<measure>": the store's per-epoch metrics.
    const qsizetype cut = metric.indexOf(QLatin1Char('_'));
    if (cut > 0) {
        const QString split = metric.left(cut), measure = metric.mid(cut + 1);
        const bool known = split == QLatin1String("test") || split == QLatin1String("val") || split == QLatin1String("train");
        if (known && measure == QLatin1String("loss")) {
            if (split == QLatin1String("test")) return tr("Test loss");
            if (split == QLatin1String("val")) return tr("Validation loss");
            return tr("Training loss (epoch)");
        }
        if (known && measure == QLatin1String("acc")) {
            if (split == QLatin1String("test")) return tr("Test accuracy");
            if (split == QLatin1String("val")) return tr("Validation accuracy");
            return tr("Training accuracy");
        }
        if (known && measure == QLatin1String("macro_f1")) {
            if (split == QLatin1String("test")) return tr("Test macro F1");
            if (split == QLatin1String("val")) return tr("Validation macro F1");
            return tr("Training macro F1");
        }
        if (known && measure == QLatin1String("bpc")) {  // a language model's (train/metrics.h)
            if (split == QLatin1String("test")) return tr("Test bits per character");
            if (split == QLatin1String("val")) return tr("Validation bits per character");
            return tr("Training bits per character");
        }
        if (known && measure == QLatin1String("ppl")) {
            if (split == QLatin1String("test")) return tr("Test perplexity");
            if (split == QLatin1String("val")) return tr("Validation perplexity");
            return tr("Training perplexity");
        }
        if (known && measure.startsWith(QLatin1String("top")) && measure.endsWith(QLatin1String("_acc")))  // test_top5_acc
            return tr("%1 top-%2 accuracy").arg(split == QLatin1String("test") ? tr("Test")
                                                : split == QLatin1String("val") ? tr("Validation") : tr("Training"),
                                                measure.mid(3, measure.size() - 7));
    }
    return metric;
}

}  // namespace ts::ui

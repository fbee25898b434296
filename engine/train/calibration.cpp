#include "train/calibration.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace ts {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

void requireSamples(const std::vector<Prediction>& predictions, const char* what)
{
    if (predictions.empty())
        throw std::invalid_argument(std::string(what) + " needs at least one sample; the evaluation holds none");
}

std::size_t firstMax(const std::vector<float>& row)
{
    return std::size_t(std::max_element(row.begin(), row.end()) - row.begin());
}

// log p, with an underflowed 0 read as the smallest positive float (see applyTemperature).
double logProbability(float p)
{
    return std::log(double(std::max(p, std::numeric_limits<float>::denorm_min())));
}

// Mean NLL of softmax(z / T) with z = log p, exact in double (the log-sum-exp shifted by its max).
double scaledNll(const std::vector<Prediction>& predictions, double inverseT)
{
    double sum = 0;
    for (const Prediction& p : predictions) {
        double top = -std::numeric_limits<double>::infinity();
        for (float q : p.probabilities) top = std::max(top, logProbability(q) * inverseT);
        double exps = 0;
        for (float q : p.probabilities) exps += std::exp(logProbability(q) * inverseT - top);
        sum += top + std::log(exps) - logProbability(p.probabilities.at(std::size_t(p.label))) * inverseT;
    }
    return sum / double(predictions.size());
}

}  // namespace

std::vector<ReliabilityBin> reliabilityBins(const std::vector<Prediction>& predictions, int bins)
{
    requireSamples(predictions, "the reliability diagram");
    std::vector<ReliabilityBin> out(static_cast<std::size_t>(bins));
    std::vector<double> correct(out.size(), 0), confidence(out.size(), 0);
    for (std::size_t b = 0; b < out.size(); ++b) {
        out[b].lower = double(b) / bins;
        out[b].upper = double(b + 1) / bins;
    }
    for (const Prediction& p : predictions) {
        const std::size_t top = firstMax(p.probabilities);
        const double c = p.probabilities[top];
        // The b with b/bins < c <= (b+1)/bins, compared against the same edges as above so a
        // confidence on an edge lands where the (lower, upper] rule puts it.
        auto b = std::size_t(std::clamp(std::ceil(c * bins) - 1, 0.0, double(bins - 1)));
        while (b > 0 && c <= out[b].lower) --b;
        while (b + 1 < out.size() && c > out[b].upper) ++b;
        ++out[b].count;
        correct[b] += std::int64_t(top) == p.label;
        confidence[b] += c;
    }
    for (std::size_t b = 0; b < out.size(); ++b) {
        const double n = double(out[b].count);
        out[b].accuracy = n > 0 ? correct[b] / n : kNaN;
        out[b].confidence = n > 0 ? confidence[b] / n : kNaN;
    }
    return out;
}

double expectedCalibrationError(const std::vector<ReliabilityBin>& bins)
{
    double n = 0, ece = 0;
    for (const ReliabilityBin& b : bins) n += double(b.count);
    for (const ReliabilityBin& b : bins)
        if (b.count > 0) ece += double(b.count) / n * std::fabs(b.accuracy - b.confidence);
    return ece;
}

double negativeLogLikelihood(const std::vector<Prediction>& predictions)
{
    requireSamples(predictions, "the negative log-likelihood");
    constexpr double eps = std::numeric_limits<double>::epsilon();
    double sum = 0;
    for (const Prediction& p : predictions) {
        double rowSum = 0;
        for (float q : p.probabilities) rowSum += std::clamp(double(q), eps, 1 - eps);
        sum -= std::log(std::clamp(double(p.probabilities.at(std::size_t(p.label))), eps, 1 - eps) / rowSum);
    }
    return sum / double(predictions.size());
}

double brierScore(const std::vector<Prediction>& predictions)
{
    requireSamples(predictions, "the Brier score");
    double sum = 0;
    for (const Prediction& p : predictions)
        for (std::size_t k = 0; k < p.probabilities.size(); ++k) {
            const double d = double(p.probabilities[k]) - (std::int64_t(k) == p.label ? 1.0 : 0.0);
            sum += d * d;
        }
    return sum / double(predictions.size());
}

Calibration calibration(const std::vector<Prediction>& predictions)
{
    Calibration c;
    c.bins = reliabilityBins(predictions);
    c.ece = expectedCalibrationError(c.bins);
    c.nll = negativeLogLikelihood(predictions);
    c.brier = brierScore(predictions);
    return c;
}

std::vector<Prediction> applyTemperature(const std::vector<Prediction>& predictions, double temperature)
{
    if (!(temperature > 0) || !std::isfinite(temperature))
        throw std::invalid_argument("temperature scaling needs a finite T > 0, got " + std::to_string(temperature));
    std::vector<Prediction> out = predictions;
    std::vector<double> z;
    for (Prediction& p : out) {
        z.resize(p.probabilities.size());
        double top = -std::numeric_limits<double>::infinity(), sum = 0;
        for (std::size_t k = 0; k < z.size(); ++k) top = std::max(top, z[k] = logProbability(p.probabilities[k]) / temperature);
        for (double& v : z) sum += v = std::exp(v - top);
        for (std::size_t k = 0; k < z.size(); ++k) p.probabilities[k] = float(z[k] / sum);
        p.predicted = std::int64_t(firstMax(p.probabilities));
        p.confidence = p.probabilities[std::size_t(p.predicted)];
    }
    return out;
}

double temperatureNll(const std::vector<Prediction>& predictions, double temperature)
{
    requireSamples(predictions, "temperature scaling");
    return scaledNll(predictions, 1 / temperature);
}

TemperatureFit fitTemperature(const std::vector<Prediction>& predictions)
{
    requireSamples(predictions, "fitting a temperature");
    TemperatureFit fit;
    const double lo = std::log(0.01), hi = std::log(100.0), tolerance = 1e-7;
    const auto nllAt = [&](double logT) {
        ++fit.evaluations;
        return scaledNll(predictions, std::exp(-logT));
    };
    const double invPhi = (std::sqrt(5.0) - 1) / 2;  // 0.618...: each step keeps one inner point
    double a = lo, b = hi;
    double x1 = b - invPhi * (b - a), x2 = a + invPhi * (b - a);
    double f1 = nllAt(x1), f2 = nllAt(x2);
    while (b - a > tolerance) {
        if (f1 <= f2) {
            b = x2, x2 = x1, f2 = f1;
            x1 = b - invPhi * (b - a), f1 = nllAt(x1);
        } else {
            a = x1, x1 = x2, f1 = f2;
            x2 = a + invPhi * (b - a), f2 = nllAt(x2);
        }
    }
    const double logT = (a + b) / 2;
    fit.temperature = std::exp(logT);
    fit.atBound = logT - lo < 10 * tolerance || hi - logT < 10 * tolerance;
    fit.nllBefore = scaledNll(predictions, 1.0);
    fit.nllAfter = scaledNll(predictions, 1 / fit.temperature);
    if (fit.nllAfter > fit.nllBefore) {  // flat to rounding: T = 1 is as good, and changes nothing
        fit.temperature = 1;
        fit.nllAfter = fit.nllBefore;
    }
    return fit;
}

}  // namespace ts

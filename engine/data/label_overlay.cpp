#include "data/label_overlay.h"

#include <algorithm>
#include <sstream>

#include "data/dataset_statistics.h"

namespace ts {

RelabelledDataset::RelabelledDataset(std::shared_ptr<const Dataset> parent, std::vector<std::int64_t> labels)
    : parent_(std::move(parent)), labels_(std::move(labels))
{
}

std::int64_t RelabelledDataset::get(std::int64_t index, float* out) const
{
    parent_->get(index, out);
    return labels_[static_cast<std::size_t>(index)];
}

OverlaidSplit applyLabelOverlay(std::shared_ptr<const Dataset> files, const LabelOverlay& overlay, const std::string& split,
                                const std::string& path)
{
    OverlaidSplit out;
    const std::int64_t n = files->size();
    out.excluded.assign(static_cast<std::size_t>(n), false);
    std::vector<std::int64_t> labels;
    const auto wayOut = [&](const LabelMark& m) {
        return "; clear the mark (trainstudio-cli data mark EXPERIMENT.yaml --split " + split + " --sample " +
               std::to_string(m.sample) + " --clear, or on the Datasets page)";
    };
    for (const LabelMark& m : overlay.marks) {
        if (m.split != split) continue;
        if (m.sample < 0 || m.sample >= n)
            throw DataError(path, -1, "label overlay: " + split + " sample " + std::to_string(m.sample) + " is marked '" +
                                          labelActionName(m.action) + "' but the " + split + " split of " + path +
                                          " holds " + std::to_string(n) + " samples (did the files change?)" + wayOut(m));
        if (m.action == LabelMark::Action::Exclude) {
            if (!out.excluded[static_cast<std::size_t>(m.sample)]) ++out.excludedCount;
            out.excluded[static_cast<std::size_t>(m.sample)] = true;
            continue;
        }
        if (m.label < 0 || m.label >= files->numClasses())
            throw DataError(path, -1, "label overlay: " + split + " sample " + std::to_string(m.sample) +
                                          " is relabelled to class " + std::to_string(m.label) + " but the dataset has " +
                                          std::to_string(files->numClasses()) + " classes (0.." +
                                          std::to_string(files->numClasses() - 1) + ")" + wayOut(m));
        if (labels.empty()) labels = files->labels();
        labels[static_cast<std::size_t>(m.sample)] = m.label;
        ++out.relabelled;
    }
    out.data = labels.empty() ? files : std::make_shared<RelabelledDataset>(std::move(files), std::move(labels));
    return out;
}

std::string labelOverlayText(const LabelOverlay& overlay)
{
    std::vector<LabelMark> marks = overlay.marks;
    std::sort(marks.begin(), marks.end(), [](const LabelMark& a, const LabelMark& b) {
        return a.split != b.split ? a.split < b.split : a.sample < b.sample;
    });
    std::ostringstream s;
    for (const LabelMark& m : marks) {
        s << m.split << ' ' << m.sample << ' ' << labelActionName(m.action);
        if (m.action == LabelMark::Action::Relabel) s << ' ' << m.label;
        s << '\n';
    }
    return s.str();
}

std::string labelOverlayHash(const LabelOverlay& overlay)
{
    return overlay.empty() ? std::string() : hashHex(labelOverlayText(overlay));
}

}  // namespace ts

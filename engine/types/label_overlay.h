// The label overlay: the user's corrections to a dataset's labels, kept in the store (table
// label_overlay) and applied by the loader (data/label_overlay.h) so the dataset files are never
// modified. A mark addresses a sample of a file split ("train" or "test", as the reader
// produced it, before validation is carved out) by its index in that file split.
// Plain data: the store keeps it, data/ applies it, jobs/ pass it from one to the other.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace ts {

struct LabelMark {
    enum class Action { Relabel, Exclude };
    std::string split;          // "train" | "test"
    std::int64_t sample = 0;    // index in the file split
    Action action = Action::Exclude;
    std::int64_t label = -1;    // the new label (Relabel); -1 for Exclude

    bool operator==(const LabelMark&) const = default;
};

struct LabelOverlay {
    std::vector<LabelMark> marks;  // at most one per (split, sample); any order

    bool empty() const { return marks.empty(); }
    std::int64_t count(LabelMark::Action action) const
    {
        std::int64_t n = 0;
        for (const auto& m : marks) n += m.action == action;
        return n;
    }
    bool operator==(const LabelOverlay&) const = default;
};

// "relabel" | "exclude", as the store and the CLI write them.
inline const char* labelActionName(LabelMark::Action a) { return a == LabelMark::Action::Relabel ? "relabel" : "exclude"; }

}  // namespace ts

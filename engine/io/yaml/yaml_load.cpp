#include "io/yaml/yaml_load.h"

#include <sstream>
#include <vector>

#include <yaml-cpp/eventhandler.h>

namespace ts::yamlio {
namespace {

// Sizes every node as a walk would see it (an alias counts its anchor's whole node).
class ExpansionCounter : public YAML::EventHandler {
public:
    void OnDocumentStart(const YAML::Mark&) override {}
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override { leaf(mark, anchor); }
    void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor, const std::string&) override { leaf(mark, anchor); }
    void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override
    {
        if (anchor >= sizes_.size() || sizes_[anchor] == kOpen)
            throw YAML::ParserException(mark, "this alias is inside the node its anchor names: the value would contain itself");
        aliased_ += sizes_[anchor] - 1;
        if (aliased_ > kMaxAliasedNodes)
            throw YAML::ParserException(mark, "the aliases up to here repeat more than " + std::to_string(kMaxAliasedNodes) +
                                                  " values (an alias bomb?): write the values out, or alias less");
        add(sizes_[anchor]);
    }
    void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t anchor, YAML::EmitterStyle::value) override { open(anchor); }
    void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t anchor, YAML::EmitterStyle::value) override { open(anchor); }
    void OnSequenceEnd() override { close(); }
    void OnMapEnd() override { close(); }

private:
    static constexpr std::uint64_t kOpen = ~std::uint64_t(0);
    struct Open {
        YAML::anchor_t anchor;
        std::uint64_t size;
    };

    void name(YAML::anchor_t anchor, std::uint64_t size)
    {
        if (anchor == YAML::NullAnchor) return;
        if (anchor >= sizes_.size()) sizes_.resize(anchor + 1, 0);
        sizes_[anchor] = size;
    }
    void add(std::uint64_t size)
    {
        if (!stack_.empty()) stack_.back().size += size;
    }
    void leaf(const YAML::Mark&, YAML::anchor_t anchor)
    {
        name(anchor, 1);
        add(1);
    }
    void open(YAML::anchor_t anchor)
    {
        name(anchor, kOpen);
        stack_.push_back({anchor, 1});
    }
    void close()
    {
        const Open done = stack_.back();
        stack_.pop_back();
        name(done.anchor, done.size);
        add(done.size);
    }

    std::vector<std::uint64_t> sizes_;  // by anchor id; kOpen while its node is being read
    std::vector<Open> stack_;
    std::uint64_t aliased_ = 0;
};

}  // namespace

YAML::Node loadBounded(const std::string& text)
{
    // Only texts with an alias need the counting pass; of the first document, the one
    // YAML::Load reads (yaml-cpp 0.7's HandleNextDocument never returns false after a text
    // such as "," followed by an alias: looping over documents hung, found by fuzz_experiment).
    if (text.find('*') != std::string::npos) {
        std::istringstream in(text);
        YAML::Parser parser(in);
        ExpansionCounter counter;
        parser.HandleNextDocument(counter);
    }
    return YAML::Load(text);
}

}  // namespace ts::yamlio

// `trainstudio-cli ops`: every op of the registry (rule 3: the one list) with its category, help,
// attributes and which backends run its forward and backward. Support is learnt, not declared:
// the op's first case is traced (a dry run, ops/op_trace.h) and each backend is asked about
// every primitive it calls. The CUDA backend answers without a GPU (cudaSupports).
#include <algorithm>
#include <cstdio>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "backend/backend.h"
#include "backend/devices.h"
#include "commands.h"
#include "format.h"
#include "json_output.h"
#include "ops/registry.h"
#include "selftest/op_case_run.h"

namespace ts::cli {

namespace {

// A backend as `ops` reports it: asked about primitives, or unavailable and why.
struct BackendAnswer {
    std::string name;
    std::function<bool(Primitive)> supports;  // null: `unavailable` says why
    std::string unavailable;                  // "not built", "unknown (...)"
};

std::vector<BackendAnswer> backends()
{
    std::vector<BackendAnswer> out{{"cpu", [](Primitive p) { return cpuBackend().supports(p, DType::F32); }, {}}};
    const CudaRuntimeInfo cuda = queryCudaLibraries();  // loads the CUDA backend's module, no GPU needed
    if (!cuda.compiledIn) out.push_back({"cuda", nullptr, "not built"});
    else if (cuda.runtimeVersion.empty()) out.push_back({"cuda", nullptr, "unknown (" + cuda.reason + ")"});
    else out.push_back({"cuda", [](Primitive p) { return cudaSupports(p, DType::F32); }, {}});
    return out;
}

// The primitives forward and backward call, from the op's first case; forward in training
// and in inference mode (batch norm calls others in each).
struct OpCalls {
    bool traced = false;  // false: the op has no case to trace
    std::vector<PrimitiveCall> forward, backward;
};

OpCalls traceFirstCase(const Op& op)
{
    const std::vector<OpCase> cases = op.cases();
    if (cases.empty()) return {};
    OpCalls calls{true, traceOpCase(op, cases[0], OpPass::TrainingForward), traceOpCase(op, cases[0], OpPass::TrainingBackward)};
    const std::vector<PrimitiveCall> inference = traceOpCase(op, cases[0], OpPass::InferenceForward);
    calls.forward.insert(calls.forward.end(), inference.begin(), inference.end());
    return calls;
}

// The primitives in `calls` the backend lacks, each once, by name.
std::vector<std::string> missing(const BackendAnswer& b, const std::vector<PrimitiveCall>& calls)
{
    std::vector<std::string> names;
    for (const PrimitiveCall& c : calls) {
        const std::string name(primitiveName(c.primitive));
        if (!b.supports(c.primitive) && std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
    return names;
}

std::string join(const std::vector<std::string>& items, const char* separator)
{
    std::string text;
    for (const std::string& s : items) text += (text.empty() ? "" : separator) + s;
    return text;
}

// "yes", "no (upsample2dForward)", "not built", "unknown (no case to trace)".
std::string supportText(const BackendAnswer& b, const OpCalls& calls, bool backward)
{
    if (!b.supports) return b.unavailable;
    if (!calls.traced) return "unknown (no case to trace)";
    const std::vector<std::string> lacking = missing(b, backward ? calls.backward : calls.forward);
    return lacking.empty() ? "yes" : "no (" + join(lacking, ", ") + ")";
}

Json supportJson(const BackendAnswer& b, const OpCalls& calls, bool backward)
{
    if (!b.supports) return {{"known", false}, {"reason", b.unavailable}};
    if (!calls.traced) return {{"known", false}, {"reason", "no case to trace"}};
    const std::vector<std::string> lacking = missing(b, backward ? calls.backward : calls.forward);
    return {{"known", true}, {"supported", lacking.empty()}, {"missing", lacking}};
}

// The type as YAML writes it: "int", "ints", "string".
std::string typeName(AttrType t)
{
    switch (t) {
    case AttrType::Int: return "int";
    case AttrType::Float: return "float";
    case AttrType::Bool: return "bool";
    case AttrType::String: return "string";
    case AttrType::Ints: return "ints";
    case AttrType::Floats: return "floats";
    }
    return "?";
}

// "int", "ints[2]" (a list of two; one number stands for both).
std::string typeText(const AttrSpec& a)
{
    return typeName(a.type) + (a.listLength > 0 ? "[" + std::to_string(a.listLength) + "]" : "");
}

// `text` after `indent`, broken between words so that lines stay within 80 columns.
void printWrapped(const std::string& text, std::size_t indent)
{
    constexpr std::size_t kWidth = 80;
    std::string line;
    auto flush = [&] {
        std::printf("%*s%s\n", int(indent), "", line.c_str());
        line.clear();
    };
    for (std::size_t begin = 0; begin < text.size();) {
        const std::size_t end = std::min(text.find(' ', begin), text.size());
        const std::string word = text.substr(begin, end - begin);
        if (!line.empty() && indent + line.size() + 1 + word.size() > kWidth) flush();
        line += (line.empty() ? "" : " ") + word;
        begin = end + 1;
    }
    if (!line.empty()) flush();
}

Json attrValueJson(const AttrValue& v)
{
    return std::visit([](const auto& x) { return Json(x); }, v);
}

void printOp(const Op& op, const OpCalls& calls, const std::vector<BackendAnswer>& answers)
{
    std::printf("%s [%s]\n", op.type().c_str(), opCategoryName(op.category()).c_str());
    printWrapped(op.help(), 2);
    for (bool backward : {false, true}) {
        std::vector<std::string> parts;
        for (const BackendAnswer& b : answers) parts.push_back(b.name + ": " + supportText(b, calls, backward));
        std::printf("  %-9s %s\n", backward ? "backward" : "forward", join(parts, ", ").c_str());
    }
    const std::vector<AttrSpec> specs = op.attrSpecs();
    std::size_t nameWidth = 0, typeWidth = 0;
    for (const AttrSpec& a : specs) nameWidth = std::max(nameWidth, a.name.size()), typeWidth = std::max(typeWidth, typeText(a).size());
    for (const AttrSpec& a : specs) {
        const std::string value = a.defaultValue ? "default " + attrValueString(*a.defaultValue) : "required";
        std::printf("  %-*s  %-*s  %s\n", int(nameWidth), a.name.c_str(), int(typeWidth), typeText(a).c_str(), value.c_str());
        if (!a.choices.empty()) printWrapped("one of: " + join(a.choices, ", "), 6);
        printWrapped(a.help, 6);
    }
}

Json opJson(const Op& op, const OpCalls& calls, const std::vector<BackendAnswer>& answers)
{
    Json attrs = Json::array();
    for (const AttrSpec& a : op.attrSpecs()) {
        Json j{{"name", a.name}, {"type", typeName(a.type)}};
        if (a.listLength > 0) j["length"] = a.listLength;
        j["required"] = !a.defaultValue;
        j["default"] = a.defaultValue ? attrValueJson(*a.defaultValue) : Json(nullptr);
        j["choices"] = a.choices;
        j["help"] = a.help;
        attrs.push_back(std::move(j));
    }
    Json support = Json::object();
    for (const BackendAnswer& b : answers)
        support[b.name] = {{"forward", supportJson(b, calls, false)}, {"backward", supportJson(b, calls, true)}};
    return {{"op", op.type()},
            {"category", opCategoryName(op.category())},
            {"help", op.help()},
            {"inputs", {{"min", op.minInputs()}, {"max", op.maxInputs()}}},
            {"attributes", std::move(attrs)},
            {"backends", std::move(support)}};
}

// The ops asked for (all when none is named), by category in the palette's order, then name.
std::vector<const Op*> chosenOps(const std::vector<std::string>& names)
{
    const OpRegistry& registry = OpRegistry::builtin();
    std::vector<const Op*> ops;
    for (const std::string& name : names) {
        const Op* op = registry.find(name);
        if (!op) throw std::invalid_argument("no op named '" + name + "' (the ops: " + join(registry.types(), ", ") + ")");
        ops.push_back(op);
    }
    if (names.empty())
        for (const std::string& type : registry.types()) ops.push_back(registry.find(type));
    std::stable_sort(ops.begin(), ops.end(), [](const Op* a, const Op* b) {
        return a->category() != b->category() ? a->category() < b->category() : a->type() < b->type();
    });
    return ops;
}

}  // namespace

int opsCommand(const std::vector<std::string>& args)
{
    const Options o = parseOptions(args, {}, {"--json"});
    const bool json = o.flags.count("--json") != 0;
    const std::vector<const Op*> ops = chosenOps(o.positional);
    const std::vector<BackendAnswer> answers = backends();
    for (std::size_t i = 0; i < ops.size(); ++i) {
        const OpCalls calls = traceFirstCase(*ops[i]);
        if (json) {
            printJson(opJson(*ops[i], calls, answers));
            continue;
        }
        if (i) std::printf("\n");
        printOp(*ops[i], calls, answers);
    }
    return 0;
}

}  // namespace ts::cli

// Prints the help of command_help.h's table.
#include "command_help.h"

#include <algorithm>
#include <cstdio>

namespace ts::cli {

namespace {

constexpr std::string_view kWorkspaceRule =
    "Workspace (studio.db and checkpoints/): --workspace DIR, else\n"
    "$TRAINSTUDIO_WORKSPACE, else $XDG_DATA_HOME/trainstudio/workspace or\n"
    "~/.local/share/trainstudio/workspace; the studio uses the same rule.\n";

// Each line of `text` after `first` (the first line) or `indent` (the others).
void printLines(std::string_view text, std::string_view first, std::string_view indent)
{
    for (std::size_t begin = 0, line = 0; begin <= text.size(); ++line) {
        const std::size_t end = std::min(text.find('\n', begin), text.size());
        const std::string_view prefix = line == 0 ? first : indent;
        std::printf("%.*s%.*s\n", int(prefix.size()), prefix.data(), int(end - begin), text.data() + begin);
        begin = end + 1;
    }
}

// The usage's forms after `first` (the first form) or `next` (the others); a line that
// starts with a space continues its form, after `continuation`.
void printUsage(std::string_view usage, std::string_view first, std::string_view next, std::string_view continuation)
{
    for (std::size_t begin = 0, line = 0; begin <= usage.size(); ++line) {
        const std::size_t end = std::min(usage.find('\n', begin), usage.size());
        const std::string_view text = usage.substr(begin, end - begin);
        const std::string_view prefix = line == 0 ? first : text.starts_with(' ') ? continuation : next;
        std::printf("%.*s%.*s\n", int(prefix.size()), prefix.data(), int(text.size()), text.data());
        begin = end + 1;
    }
}

std::size_t nameWidth()
{
    std::size_t width = 0;
    for (const CommandHelp& c : kCommands) width = std::max(width, c.name.size());
    return width;
}

void printEntry(const CommandHelp& c, std::size_t width)
{
    const std::string first = "  " + std::string(c.name) + std::string(width + 2 - c.name.size(), ' ');
    const std::string indent(first.size(), ' ');
    printLines(c.text, first, indent);
    printUsage(c.usage, indent + "  ", indent + "  ", indent + "  ");
}

}  // namespace

const CommandHelp* findCommand(const std::vector<std::string>& args)
{
    for (const CommandHelp& c : kCommands) {
        const std::size_t space = c.name.find(' ');
        const bool match = space == std::string_view::npos
                               ? !args.empty() && args[0] == c.name
                               : args.size() >= 2 && args[0] == c.name.substr(0, space) && args[1] == c.name.substr(space + 1);
        if (match) return &c;
    }
    return nullptr;
}

void printOverallHelp()
{
    std::printf(
        "Usage: trainstudio-cli [--help] [--version] <command> [options]\n"
        "       trainstudio-cli <command> --help\n"
        "\n"
        "Design, train and compare neural networks from the command line.\n"
        "\n"
        "Commands:\n");
    const std::size_t width = nameWidth();
    for (const CommandHelp& c : kCommands) printEntry(c, width);
    std::printf(
        "\n"
        "Options:\n"
        "  -h, --help     show this help; after a command, that command's help\n"
        "  -V, --version  show the version\n"
        "\n"
        "%.*s",
        int(kWorkspaceRule.size()), kWorkspaceRule.data());
}

void printCommandHelp(const CommandHelp& c)
{
    // A form's continuation lines start under its command's name.
    printUsage(c.usage, "Usage: trainstudio-cli ", "       trainstudio-cli ", std::string(21, ' '));
    std::printf("\n");
    printLines(c.text, "", "");
    std::printf("\nOptions:\n  -h, --help  show this help\n");
    if (c.usage.find("--workspace") != std::string_view::npos)
        std::printf("\n%.*s", int(kWorkspaceRule.size()), kWorkspaceRule.data());
}

void printGroupHelp(std::string_view group)
{
    std::printf("Usage: trainstudio-cli %.*s <sub-command> [options]\n\n", int(group.size()), group.data());
    const std::size_t width = nameWidth();
    for (const CommandHelp& c : kCommands)
        if (c.name.size() > group.size() && c.name.substr(0, group.size()) == group && c.name[group.size()] == ' ')
            printEntry(c, width);
}

}  // namespace ts::cli

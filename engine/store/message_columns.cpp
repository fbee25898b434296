#include "store/message_columns.h"

namespace ts::store {

namespace {
constexpr char kEnd = '\x1f';
}

std::string encodeMessageArgs(const std::vector<std::string>& args)
{
    std::string column;
    for (const std::string& a : args) column += a + kEnd;  // ended, not separated: {""} differs from {}
    return column;
}

std::vector<std::string> decodeMessageArgs(const std::string& column)
{
    std::vector<std::string> args;
    std::size_t start = 0;
    for (std::size_t end; (end = column.find(kEnd, start)) != std::string::npos; start = end + 1)
        args.push_back(column.substr(start, end - start));
    return args;
}

}  // namespace ts::store

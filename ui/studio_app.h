// Everything the `trainstudio` executable does, kept in the library so main.cpp stays one
// line and tests can reach the same code: application identity, command line, language,
// the main window, and the --screenshot mode for headless checks.
#pragma once

namespace ts::ui {

int runStudio(int argc, char** argv);

}  // namespace ts::ui

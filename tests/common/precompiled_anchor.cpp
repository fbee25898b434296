// Compiles nothing: the target that builds the precompiled header its suites share (tests/CMakeLists.txt).

// Nothing: the target exists to build the tests' precompiled header (CMakeLists.txt).

# CMake generated Testfile for 
# Source directory: /work/main/tests
# Build directory: /work/main/_build/tests
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
add_test(pagesim_tests "/work/main/_build/tests/pagesim_tests")
set_tests_properties(pagesim_tests PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tests/CMakeLists.txt;5;add_test;/work/main/tests/CMakeLists.txt;0;")

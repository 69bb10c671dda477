
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/main/tests/cpp/main.cpp" "tests/CMakeFiles/pagesim_tests.dir/cpp/main.cpp.o" "gcc" "tests/CMakeFiles/pagesim_tests.dir/cpp/main.cpp.o.d"
  "/work/main/tests/cpp/test_conformance.cpp" "tests/CMakeFiles/pagesim_tests.dir/cpp/test_conformance.cpp.o" "gcc" "tests/CMakeFiles/pagesim_tests.dir/cpp/test_conformance.cpp.o.d"
  "/work/main/tests/cpp/test_errors.cpp" "tests/CMakeFiles/pagesim_tests.dir/cpp/test_errors.cpp.o" "gcc" "tests/CMakeFiles/pagesim_tests.dir/cpp/test_errors.cpp.o.d"
  "/work/main/tests/cpp/test_hand_traced.cpp" "tests/CMakeFiles/pagesim_tests.dir/cpp/test_hand_traced.cpp.o" "gcc" "tests/CMakeFiles/pagesim_tests.dir/cpp/test_hand_traced.cpp.o.d"
  "/work/main/tests/cpp/test_naive_models.cpp" "tests/CMakeFiles/pagesim_tests.dir/cpp/test_naive_models.cpp.o" "gcc" "tests/CMakeFiles/pagesim_tests.dir/cpp/test_naive_models.cpp.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  "/work/main/_build/CMakeFiles/pagesim.dir/DependInfo.cmake"
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")


# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/main/libsim/src/engine.cpp" "CMakeFiles/pagesim_objects.dir/libsim/src/engine.cpp.o" "gcc" "CMakeFiles/pagesim_objects.dir/libsim/src/engine.cpp.o.d"
  "/work/main/libsim/src/error.cpp" "CMakeFiles/pagesim_objects.dir/libsim/src/error.cpp.o" "gcc" "CMakeFiles/pagesim_objects.dir/libsim/src/error.cpp.o.d"
  "/work/main/libsim/src/params.cpp" "CMakeFiles/pagesim_objects.dir/libsim/src/params.cpp.o" "gcc" "CMakeFiles/pagesim_objects.dir/libsim/src/params.cpp.o.d"
  "/work/main/libsim/src/registry.cpp" "CMakeFiles/pagesim_objects.dir/libsim/src/registry.cpp.o" "gcc" "CMakeFiles/pagesim_objects.dir/libsim/src/registry.cpp.o.d"
  "/work/main/libsim/src/result.cpp" "CMakeFiles/pagesim_objects.dir/libsim/src/result.cpp.o" "gcc" "CMakeFiles/pagesim_objects.dir/libsim/src/result.cpp.o.d"
  "/work/main/libsim/src/swap.cpp" "CMakeFiles/pagesim_objects.dir/libsim/src/swap.cpp.o" "gcc" "CMakeFiles/pagesim_objects.dir/libsim/src/swap.cpp.o.d"
  "/work/main/libsim/src/trace.cpp" "CMakeFiles/pagesim_objects.dir/libsim/src/trace.cpp.o" "gcc" "CMakeFiles/pagesim_objects.dir/libsim/src/trace.cpp.o.d"
  "/work/main/policies/belady.cpp" "CMakeFiles/pagesim_objects.dir/policies/belady.cpp.o" "gcc" "CMakeFiles/pagesim_objects.dir/policies/belady.cpp.o.d"
  "/work/main/policies/clock.cpp" "CMakeFiles/pagesim_objects.dir/policies/clock.cpp.o" "gcc" "CMakeFiles/pagesim_objects.dir/policies/clock.cpp.o.d"
  "/work/main/policies/fifo.cpp" "CMakeFiles/pagesim_objects.dir/policies/fifo.cpp.o" "gcc" "CMakeFiles/pagesim_objects.dir/policies/fifo.cpp.o.d"
  "/work/main/policies/lru.cpp" "CMakeFiles/pagesim_objects.dir/policies/lru.cpp.o" "gcc" "CMakeFiles/pagesim_objects.dir/policies/lru.cpp.o.d"
  "/work/main/policies/random.cpp" "CMakeFiles/pagesim_objects.dir/policies/random.cpp.o" "gcc" "CMakeFiles/pagesim_objects.dir/policies/random.cpp.o.d"
  "/work/main/traces/src/generators.cpp" "CMakeFiles/pagesim_objects.dir/traces/src/generators.cpp.o" "gcc" "CMakeFiles/pagesim_objects.dir/traces/src/generators.cpp.o.d"
  "/work/main/traces/src/line_reader.cpp" "CMakeFiles/pagesim_objects.dir/traces/src/line_reader.cpp.o" "gcc" "CMakeFiles/pagesim_objects.dir/traces/src/line_reader.cpp.o.d"
  "/work/main/traces/src/text_trace.cpp" "CMakeFiles/pagesim_objects.dir/traces/src/text_trace.cpp.o" "gcc" "CMakeFiles/pagesim_objects.dir/traces/src/text_trace.cpp.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")

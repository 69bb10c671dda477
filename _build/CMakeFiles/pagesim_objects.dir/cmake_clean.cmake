file(REMOVE_RECURSE
  "CMakeFiles/pagesim_objects.dir/libsim/src/engine.cpp.o"
  "CMakeFiles/pagesim_objects.dir/libsim/src/engine.cpp.o.d"
  "CMakeFiles/pagesim_objects.dir/libsim/src/error.cpp.o"
  "CMakeFiles/pagesim_objects.dir/libsim/src/error.cpp.o.d"
  "CMakeFiles/pagesim_objects.dir/libsim/src/params.cpp.o"
  "CMakeFiles/pagesim_objects.dir/libsim/src/params.cpp.o.d"
  "CMakeFiles/pagesim_objects.dir/libsim/src/registry.cpp.o"
  "CMakeFiles/pagesim_objects.dir/libsim/src/registry.cpp.o.d"
  "CMakeFiles/pagesim_objects.dir/libsim/src/result.cpp.o"
  "CMakeFiles/pagesim_objects.dir/libsim/src/result.cpp.o.d"
  "CMakeFiles/pagesim_objects.dir/libsim/src/swap.cpp.o"
  "CMakeFiles/pagesim_objects.dir/libsim/src/swap.cpp.o.d"
  "CMakeFiles/pagesim_objects.dir/libsim/src/trace.cpp.o"
  "CMakeFiles/pagesim_objects.dir/libsim/src/trace.cpp.o.d"
  "CMakeFiles/pagesim_objects.dir/policies/belady.cpp.o"
  "CMakeFiles/pagesim_objects.dir/policies/belady.cpp.o.d"
  "CMakeFiles/pagesim_objects.dir/policies/clock.cpp.o"
  "CMakeFiles/pagesim_objects.dir/policies/clock.cpp.o.d"
  "CMakeFiles/pagesim_objects.dir/policies/fifo.cpp.o"
  "CMakeFiles/pagesim_objects.dir/policies/fifo.cpp.o.d"
  "CMakeFiles/pagesim_objects.dir/policies/lru.cpp.o"
  "CMakeFiles/pagesim_objects.dir/policies/lru.cpp.o.d"
  "CMakeFiles/pagesim_objects.dir/policies/random.cpp.o"
  "CMakeFiles/pagesim_objects.dir/policies/random.cpp.o.d"
  "CMakeFiles/pagesim_objects.dir/traces/src/generators.cpp.o"
  "CMakeFiles/pagesim_objects.dir/traces/src/generators.cpp.o.d"
  "CMakeFiles/pagesim_objects.dir/traces/src/line_reader.cpp.o"
  "CMakeFiles/pagesim_objects.dir/traces/src/line_reader.cpp.o.d"
  "CMakeFiles/pagesim_objects.dir/traces/src/text_trace.cpp.o"
  "CMakeFiles/pagesim_objects.dir/traces/src/text_trace.cpp.o.d"
)

# Per-language clean rules from dependency scanning.
foreach(lang CXX)
  include(CMakeFiles/pagesim_objects.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()

file(REMOVE_RECURSE
  "CMakeFiles/pagesim_tests.dir/cpp/main.cpp.o"
  "CMakeFiles/pagesim_tests.dir/cpp/main.cpp.o.d"
  "CMakeFiles/pagesim_tests.dir/cpp/test_conformance.cpp.o"
  "CMakeFiles/pagesim_tests.dir/cpp/test_conformance.cpp.o.d"
  "CMakeFiles/pagesim_tests.dir/cpp/test_errors.cpp.o"
  "CMakeFiles/pagesim_tests.dir/cpp/test_errors.cpp.o.d"
  "CMakeFiles/pagesim_tests.dir/cpp/test_hand_traced.cpp.o"
  "CMakeFiles/pagesim_tests.dir/cpp/test_hand_traced.cpp.o.d"
  "CMakeFiles/pagesim_tests.dir/cpp/test_naive_models.cpp.o"
  "CMakeFiles/pagesim_tests.dir/cpp/test_naive_models.cpp.o.d"
  "pagesim_tests"
  "pagesim_tests.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang CXX)
  include(CMakeFiles/pagesim_tests.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()

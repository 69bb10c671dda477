file(REMOVE_RECURSE
  "libpagesim.pdb"
  "libpagesim.so"
)

# Per-language clean rules from dependency scanning.
foreach(lang CXX)
  include(CMakeFiles/pagesim.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()

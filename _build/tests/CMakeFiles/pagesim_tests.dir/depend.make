# Empty dependencies file for pagesim_tests.
# This may be replaced when dependencies are built.

# Empty compiler generated dependencies file for pagesim.
# This may be replaced when dependencies are built.

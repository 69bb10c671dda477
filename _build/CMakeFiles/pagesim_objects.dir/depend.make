# Empty dependencies file for pagesim_objects.
# This may be replaced when dependencies are built.

# git_hash.cmake -- write git_hash.c with the source tree's current commit, at build time (not at
# configure time), and touch it only when the hash changes.
# cmake -DSRC=<source dir> -DIN=<git_hash.c.in> -DOUT=<git_hash.c> -P git_hash.cmake
execute_process(COMMAND git rev-parse --short=12 HEAD WORKING_DIRECTORY ${SRC}
                OUTPUT_VARIABLE MXGOLD_GIT OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT MXGOLD_GIT)
  set(MXGOLD_GIT unknown)
endif()
configure_file(${IN} ${OUT} @ONLY)

# The C/C++ allocator every opbench executable runs on (engine/base/allocator.h says why).
#   -DOPBENCH_ALLOCATOR=auto      (default) gperftools' tcmalloc_minimal when it is installed
#                                 (Debian: libtcmalloc-minimal4, which packaging/setup.sh
#                                 installs), the C library's malloc otherwise
#   -DOPBENCH_ALLOCATOR=tcmalloc  tcmalloc_minimal or a configure error
#   -DOPBENCH_ALLOCATOR=system    the C library's malloc
# Sanitizer and fuzzing builds always use the system allocator (ASan replaces malloc itself).
# Sets OPBENCH_ALLOCATOR_LIB (linked PUBLIC by opbench_base, so every executable that links
# the engine gets it) and OPBENCH_ALLOCATOR_NAME (shown by the About box).
set(OPBENCH_ALLOCATOR "auto" CACHE STRING "Allocator: auto, tcmalloc or system")
set_property(CACHE OPBENCH_ALLOCATOR PROPERTY STRINGS auto tcmalloc system)

set(OPBENCH_ALLOCATOR_LIB "")
set(OPBENCH_ALLOCATOR_NAME "glibc malloc")
if(OPBENCH_SANITIZE OR OPBENCH_FUZZ)
  if(OPBENCH_ALLOCATOR STREQUAL "tcmalloc")
    message(FATAL_ERROR "OPBENCH_ALLOCATOR=tcmalloc cannot be combined with sanitizers or fuzzing")
  endif()
elseif(NOT OPBENCH_ALLOCATOR STREQUAL "system")
  # Only the runtime package is needed: its versioned file is named as a fallback.
  find_library(OPBENCH_TCMALLOC_LIBRARY NAMES tcmalloc_minimal libtcmalloc_minimal.so.4)
  if(OPBENCH_TCMALLOC_LIBRARY)
    set(OPBENCH_ALLOCATOR_LIB "${OPBENCH_TCMALLOC_LIBRARY}")
    set(OPBENCH_ALLOCATOR_NAME "tcmalloc (gperftools)")
  elseif(OPBENCH_ALLOCATOR STREQUAL "tcmalloc")
    message(FATAL_ERROR "OPBENCH_ALLOCATOR=tcmalloc: libtcmalloc_minimal not found (apt install libtcmalloc-minimal4)")
  endif()
endif()
message(STATUS "opbench allocator: ${OPBENCH_ALLOCATOR_NAME}")

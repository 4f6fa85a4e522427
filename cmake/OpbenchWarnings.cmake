# opbench_set_warnings(target): the project's warning set; errors when OPBENCH_WERROR is ON.
function(opbench_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow=local -Wnon-virtual-dtor
    -Wno-missing-field-initializers)
  if(OPBENCH_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  target_compile_definitions(${target} PRIVATE QT_NO_URL_CAST_FROM_STRING QT_NO_NARROWING_CONVERSIONS_IN_CONNECT)
endfunction()

# opbench_add_library(name SOURCES ... PUBLIC_LIBS ... PRIVATE_LIBS ...)
# A static library whose include root is the repository root (#include "engine/api/object.h").
function(opbench_add_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;PUBLIC_LIBS;PRIVATE_LIBS" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  target_include_directories(${name} PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>
                                            $<INSTALL_INTERFACE:include/opbench>)
  target_link_libraries(${name} PUBLIC ${ARG_PUBLIC_LIBS} PRIVATE ${ARG_PRIVATE_LIBS})
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  opbench_set_warnings(${name})
endfunction()

# opbench_engine_library(name [RECURSE] PUBLIC_LIBS ... PRIVATE_LIBS ...)
# Globs the .cpp/.h files of the calling folder (and, with RECURSE, of its subfolders) into one
# static library (so adding a file pair needs no CMake edit). A folder with no .cpp yet yields an
# INTERFACE library.
function(opbench_engine_library name)
  cmake_parse_arguments(ARG "RECURSE" "" "PUBLIC_LIBS;PRIVATE_LIBS" ${ARGN})
  set(_glob GLOB)
  if(ARG_RECURSE)
    set(_glob GLOB_RECURSE)
  endif()
  file(${_glob} _srcs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cpp)
  file(${_glob} _hdrs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.h)
  if(_srcs)
    opbench_add_library(${name} SOURCES ${_srcs} ${_hdrs}
      PUBLIC_LIBS ${ARG_PUBLIC_LIBS} PRIVATE_LIBS ${ARG_PRIVATE_LIBS})
  else()
    add_library(${name} INTERFACE)
    target_include_directories(${name} INTERFACE $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>
                                                 $<INSTALL_INTERFACE:include/opbench>)
    target_link_libraries(${name} INTERFACE ${ARG_PUBLIC_LIBS})
  endif()
endfunction()

# cmake -DSOURCE_DIR=<repo> -P cmake/CheckBoundaries.cmake
# The layering rules, checked on every source's #include lines (ctest: tst_boundaries). Fails
# naming each file and include that breaks a rule:
#   1. ui/, app/, bench/ and examples/ use the engine's public headers only: no "_p.h" and
#      nothing under an internal/ folder (tests may, they test internals);
#   2. engine/apiserver depends on engine/api only, never on the runtime, the operator or the
#      workbench (it must serve any client);
#   3. the runtime (engine/api, client, queue, cache, controller, manager) never includes the
#      operator, the workbench or the API server (it knows no operator);
#   4. nothing under engine/ includes ui/ or a QtGui/QtWidgets header (the engine is headless).
if(NOT SOURCE_DIR)
  message(FATAL_ERROR "CheckBoundaries: pass -DSOURCE_DIR=<repository root>")
endif()

set(_violations "")
function(_check_folder folder regex rule)
  file(GLOB_RECURSE _files "${SOURCE_DIR}/${folder}/*.h" "${SOURCE_DIR}/${folder}/*.cpp")
  foreach(_f IN LISTS _files)
    file(STRINGS "${_f}" _lines REGEX "^[ \t]*#[ \t]*include")
    foreach(_l IN LISTS _lines)
      if(_l MATCHES "${regex}")
        file(RELATIVE_PATH _rel "${SOURCE_DIR}" "${_f}")
        string(STRIP "${_l}" _l)
        list(APPEND _violations "${_rel}: ${_l}  (${rule})")
      endif()
    endforeach()
  endforeach()
  set(_violations "${_violations}" PARENT_SCOPE)
endfunction()

foreach(_folder ui app bench examples)
  _check_folder(${_folder} "[\"<]engine/.*(_p\\.h|/internal/)" "engine-internal header outside the engine")
endforeach()
_check_folder(engine/apiserver "\"engine/(client|cache|queue|controller|manager|operator|workbench)/"
              "engine/apiserver depends on engine/api only")
foreach(_folder api client queue cache controller manager)
  _check_folder(engine/${_folder} "\"engine/(operator|workbench|apiserver)/"
                "the runtime does not know the operator, the workbench or the API server")
endforeach()
_check_folder(engine "(\"ui/|<Qt(Gui|Widgets)|<Q(Widget|MainWindow|Painter|Pixmap|Image)>)"
              "the engine is headless")

list(LENGTH _violations _n)
if(_n GREATER 0)
  string(REPLACE ";" "\n  " _text "${_violations}")
  message(FATAL_ERROR "${_n} include(s) break the layering rules:\n  ${_text}")
endif()
message(STATUS "layering rules hold")

# cmake -DSOURCE_DIR=<repo> -P tests/workbench/check_workbench_boundary.cmake (ctest:
# tst_workbench_boundary). Runs cmake/CheckBoundaries.cmake on boundary-fixture/, a tree whose
# engine/workbench and ui files include the sample operator and whose app/ file does too: the
# check must fail naming both workbench files (rule 8) and not the app/ one.
execute_process(
  COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${SOURCE_DIR}/tests/workbench/boundary-fixture
          -P ${SOURCE_DIR}/cmake/CheckBoundaries.cmake
  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
set(_all "${_out}${_err}")
if(_rc EQUAL 0)
  message(FATAL_ERROR "CheckBoundaries passed a tree whose workbench includes engine/operator:\n${_all}")
endif()
foreach(_expected "engine/workbench/sample.h: #include <engine/operator/myapplication.h>"
                  "ui/session/hosted.h: #include \"engine/operator/definition.h\""
                  "never the sample operator")
  string(FIND "${_all}" "${_expected}" _at)
  if(_at EQUAL -1)
    message(FATAL_ERROR "CheckBoundaries did not report \"${_expected}\":\n${_all}")
  endif()
endforeach()
string(FIND "${_all}" "app/main.h" _at)
if(NOT _at EQUAL -1)
  message(FATAL_ERROR "CheckBoundaries reported app/, which may include the sample operator:\n${_all}")
endif()
message(STATUS "rule 8 fails on the workbench including the sample operator, and only there")

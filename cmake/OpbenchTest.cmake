# opbench_add_test(tst_name SOURCES ... LIBS ... LABELS unit|integration|compat|ui [TIMEOUT s])
# One Qt Test executable per test, registered with ctest under its labels.
# Every test runs with the offscreen platform and a private XDG_RUNTIME_DIR/HOME so it never
# touches the user's kubeconfig or settings.
function(opbench_add_test name)
  cmake_parse_arguments(ARG "" "TIMEOUT" "SOURCES;LIBS;LABELS" ${ARGN})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 180)
  endif()
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE Qt6::Test opbench_testing ${ARG_LIBS})
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR})
  target_compile_definitions(${name} PRIVATE
    OPBENCH_SOURCE_DIR="${PROJECT_SOURCE_DIR}" OPBENCH_BINARY_DIR="${PROJECT_BINARY_DIR}")
  opbench_set_warnings(${name})
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES
    LABELS "${ARG_LABELS}"
    TIMEOUT ${ARG_TIMEOUT}
    ENVIRONMENT "QT_QPA_PLATFORM=offscreen;XDG_RUNTIME_DIR=${PROJECT_BINARY_DIR}/test-runtime;KUBECONFIG=;HOME=${PROJECT_BINARY_DIR}/test-home;OPBENCH_TEST_CRDS=${PROJECT_SOURCE_DIR}/resources/crds/myapplications.example.com.yaml")
endfunction()

# The installable SDK: `cmake --install build --prefix P` puts the engine libraries (and the
# workbench's UI library when built), their public headers and an exported CMake package in P.
# A user project then does
#   find_package(opbench 0.3 REQUIRED)
#   target_link_libraries(my-operator PRIVATE opbench::runtime)          # + opbench::apiserver, opbench::workbench
#   (tests: opbench::testing for TestApiServer and FakeClock, opbench::faulttest for the fault harness)
# Public headers install under include/opbench with their source paths ("engine/api/object.h"),
# the front door as <opbench/opbench.h>. Internal headers (*_p.h, the API server's machinery,
# the queues' implementations) stay in the source tree.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(_opbench_exported
  opbench_base:base opbench_api:api opbench_client:client opbench_queue:queue opbench_cache:cache
  opbench_controller:controller opbench_webhook:webhook opbench_manager:manager opbench_recording:recording opbench_runtime:runtime
  opbench_apiserver:apiserver opbench_operator:myapplication opbench_workbench:workbench_engine
  opbench_sdk:sdk opbench_embedded:embedded opbench_testing:testing opbench_faulttest:faulttest)
if(TARGET opbench_ui)
  list(APPEND _opbench_exported opbench_ui:workbench)
endif()
set(_opbench_targets "")
foreach(_pair IN LISTS _opbench_exported)
  string(REPLACE ":" ";" _pair "${_pair}")
  list(GET _pair 0 _target)
  list(GET _pair 1 _export)
  set_target_properties(${_target} PROPERTIES EXPORT_NAME ${_export})
  list(APPEND _opbench_targets ${_target})
endforeach()
get_property(_opbench_resources GLOBAL PROPERTY OPBENCH_RESOURCE_TARGETS)

install(TARGETS ${_opbench_targets} ${_opbench_resources} EXPORT opbenchTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  OBJECTS DESTINATION ${CMAKE_INSTALL_LIBDIR}/opbench-objects
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/opbench ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT opbenchTargets NAMESPACE opbench:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/opbench)

# Public headers.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/engine/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/opbench/engine
  FILES_MATCHING PATTERN "*.h"
  PATTERN "*_p.h" EXCLUDE
  PATTERN "apiserver" EXCLUDE
  PATTERN "ratelimitingqueue.h" EXCLUDE
  PATTERN "priorityqueue.h" EXCLUDE)
install(FILES ${PROJECT_SOURCE_DIR}/engine/apiserver/apiserver.h ${PROJECT_SOURCE_DIR}/engine/apiserver/faults.h
              ${PROJECT_SOURCE_DIR}/engine/apiserver/tls.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/opbench/engine/apiserver)
# apiserver.h reports admission webhook calls as WebhookCallRecord.
install(FILES ${PROJECT_SOURCE_DIR}/engine/apiserver/admission/webhookcallrecord.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/opbench/engine/apiserver/admission)
# The front doors an operator includes: <opbench/opbench.h>, <opbench/testing.h>, <opbench/workbench.h>.
install(FILES ${PROJECT_SOURCE_DIR}/engine/opbench.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/opbench)
install(FILES ${PROJECT_SOURCE_DIR}/engine/testing/testing.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/opbench)
if(TARGET opbench_ui)
  install(FILES ${PROJECT_SOURCE_DIR}/ui/workbenchmain.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/opbench/ui)
  install(FILES ${PROJECT_SOURCE_DIR}/ui/workbenchmain.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/opbench RENAME workbench.h)
endif()

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/opbenchConfig.cmake.in
  ${PROJECT_BINARY_DIR}/opbenchConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/opbench)
# 0.x: a minor version may break the API, so 0.3 accepts 0.3.* only.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/opbenchConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/opbenchConfig.cmake ${PROJECT_BINARY_DIR}/opbenchConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/opbench)

# The executables.
foreach(_exe opbench-apiserver opbench-operator opbench opbench-init opbench-gen)
  if(TARGET ${_exe})
    install(TARGETS ${_exe} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  endif()
endforeach()

# cmake -DSOURCE_DIR=<repo> -P cmake/CheckBoundaries.cmake
# The layering rules, checked on every source's #include lines (ctest: tst_boundaries). Fails
# naming each file and include that breaks a rule:
#   1. ui/, app/, bench/ and examples/ use the engine's public headers only: no "_p.h" and
#      nothing under an internal/ folder (tests may, they test internals);
#   2. engine/apiserver depends on engine/api only, never on the runtime, the operator or the
#      workbench (it must serve any client);
#   3. the runtime (engine/api, client, queue, cache, controller, manager) and engine/recording
#      never include the
#      operator, the workbench or the API server (it knows no operator);
#   4. nothing under engine/ includes ui/ or a QtGui/QtWidgets header (the engine is headless);
#   5. engine/base (clock, metrics, logging, allocator) includes no other engine folder;
#   6. nothing outside engine/testing (and tests/, bench/, examples' tests) includes
#      engine/testing: production code never links test support;
#   7. inside engine/apiserver, an area includes only the areas below it in this order
#      (engine/apiserver/CMakeLists.txt says what each holds), and no area includes the
#      assembly at the top (apiserver.h, httpfront.h):
#        http, registry < apply < schema, transform, auth < validation < storage
#        < controllers, admission < handlers < (top)
#   8. the workbench (engine/workbench, ui/) never includes the sample operator (engine/operator):
#      it runs the OperatorDefinition it is given; only app/ (opbench's own main) may pass
#      MyApplication's (tests/workbench/check_workbench_boundary.cmake checks this rule fails).
#   9. engine/webhook (the webhook server, admission, conversion) uses engine/base and engine/api
#      only: the manager runs it, it knows no manager, client or cache.
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
foreach(_folder api client queue cache controller webhook manager recording)
  _check_folder(engine/${_folder} "\"engine/(operator|workbench|apiserver)/"
                "the runtime does not know the operator, the workbench or the API server")
endforeach()
_check_folder(engine/sdk "\"engine/(apiserver|operator|workbench)/"
              "the SDK does not carry the API server: --embedded reaches it through engine/embedded")
foreach(_folder base)
  _check_folder(engine/${_folder} "\"engine/(api|client|queue|cache|controller|manager|apiserver|sdk|operator|workbench|testing)/"
                "engine/base depends on no other engine folder")
endforeach()
_check_folder(engine/webhook "\"engine/(client|queue|cache|controller|manager|sdk)/"
              "engine/webhook depends on engine/base and engine/api only")
foreach(_folder api base client queue cache controller webhook manager recording apiserver sdk operator workbench)
  _check_folder(engine/${_folder} "\"engine/testing/" "production code does not include test support")
endforeach()
foreach(_folder ui app)
  _check_folder(${_folder} "\"engine/testing/" "production code does not include test support")
endforeach()

# Rule 7: the API server's areas, lowest first; each may include its own rank and below.
set(_areas http:0 registry:0 apply:1 schema:2 transform:2 auth:2 validation:3 storage:4 controllers:5 admission:5 handlers:6)
foreach(_pair IN LISTS _areas)
  string(REPLACE ":" ";" _pair "${_pair}")
  list(GET _pair 0 _area)
  list(GET _pair 1 _rank)
  set(_higher "apiserver\\.h|httpfront\\.h")
  foreach(_other IN LISTS _areas)
    string(REPLACE ":" ";" _other "${_other}")
    list(GET _other 0 _oarea)
    list(GET _other 1 _orank)
    if(_orank GREATER _rank)
      string(APPEND _higher "|${_oarea}/")
    endif()
  endforeach()
  _check_folder(engine/apiserver/${_area} "\"engine/apiserver/(${_higher})"
                "engine/apiserver/${_area} includes only lower areas (see engine/apiserver/CMakeLists.txt)")
endforeach()

foreach(_folder engine/workbench ui)
  _check_folder(${_folder} "[\"<]engine/operator/"
                "the workbench runs the definition it is given, never the sample operator (only app/ may)")
endforeach()

_check_folder(engine "(\"ui/|<Qt(Gui|Widgets)|<Q(Widget|MainWindow|Painter|Pixmap|Image)>)"
              "the engine is headless")

list(LENGTH _violations _n)
if(_n GREATER 0)
  string(REPLACE ";" "\n  " _text "${_violations}")
  message(FATAL_ERROR "${_n} include(s) break the layering rules:\n  ${_text}")
endif()
message(STATUS "layering rules hold")

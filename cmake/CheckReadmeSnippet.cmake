# cmake -DSOURCE_DIR=<repo> -P cmake/CheckReadmeSnippet.cmake   (ctest: tst_readme_snippet)
# README.md quotes the sample's reconciler verbatim; this check keeps the quote true. In the
# source (SNIPPET_SOURCE, default engine/operator/reconciler.cpp) each region to quote sits
# between two comment lines starting `// [readme-reconciler]`. In README.md the quote is the
# ```cpp block between two lines `<!-- [readme-reconciler] -->`: the regions in order, each
# pair joined by one elision line (a line whose text starts with `// …`). Fails when the two
# differ, printing both and saying which to change.
cmake_minimum_required(VERSION 3.25)
if(NOT SOURCE_DIR)
  message(FATAL_ERROR "CheckReadmeSnippet: pass -DSOURCE_DIR=<repository root>")
endif()
if(NOT SNIPPET_SOURCE)
  set(SNIPPET_SOURCE engine/operator/reconciler.cpp)
endif()
set(_tag "readme-reconciler")
set(_elided "@ELIDED@")

# The marked regions of the source, joined by the elision sentinel. Work on the raw text (no
# CMake lists: C++ lines carry ';' and '[').
file(READ "${SOURCE_DIR}/${SNIPPET_SOURCE}" _src)
string(REGEX MATCHALL "[^\n]*// \\[${_tag}\\][^\n]*\n" _markers "${_src}")
list(LENGTH _markers _n)
math(EXPR _odd "${_n} % 2")
if(_n EQUAL 0 OR _odd)
  message(FATAL_ERROR "${SNIPPET_SOURCE}: ${_n} `// [${_tag}]` marker line(s); expected pairs around "
                      "the lines README.md quotes")
endif()
set(_expected "")
set(_rest "${_src}")
set(_inside FALSE)
set(_region 0)
while(TRUE)
  string(REGEX MATCH "[^\n]*// \\[${_tag}\\][^\n]*\n" _m "${_rest}")
  if(_m STREQUAL "")
    break()
  endif()
  string(FIND "${_rest}" "${_m}" _at)
  string(LENGTH "${_m}" _mlen)
  if(_inside)
    string(SUBSTRING "${_rest}" 0 ${_at} _text)
    if(_region GREATER 0)
      string(APPEND _expected "${_elided}\n")
    endif()
    string(APPEND _expected "${_text}")
    math(EXPR _region "${_region} + 1")
    set(_inside FALSE)
  else()
    set(_inside TRUE)
  endif()
  math(EXPR _from "${_at} + ${_mlen}")
  string(SUBSTRING "${_rest}" ${_from} -1 _rest)
endwhile()

# The README's quote: the ```cpp block between the two HTML markers.
file(READ "${SOURCE_DIR}/README.md" _readme)
set(_open "<!-- [${_tag}] -->\n```cpp\n")
set(_close "```\n<!-- [${_tag}] -->")
string(FIND "${_readme}" "${_open}" _a)
string(FIND "${_readme}" "${_close}" _b)
if(_a EQUAL -1 OR _b EQUAL -1)
  message(FATAL_ERROR "README.md: no quote found; expected the lines\n  <!-- [${_tag}] -->\n  ```cpp\n"
                      "  ...\n  ```\n  <!-- [${_tag}] -->")
endif()
string(LENGTH "${_open}" _olen)
math(EXPR _start "${_a} + ${_olen}")
math(EXPR _len "${_b} - ${_start}")
if(_len LESS 0)
  message(FATAL_ERROR "README.md: the closing quote marker comes before the opening one")
endif()
string(SUBSTRING "${_readme}" ${_start} ${_len} _quote)
string(REGEX REPLACE "\n[ ]*// …[^\n]*\n" "\n${_elided}\n" _quoted "\n${_quote}")
string(SUBSTRING "${_quoted}" 1 -1 _quoted)

if(NOT _quoted STREQUAL _expected)
  string(REPLACE "${_elided}" "    // … (one elision line between regions)" _want "${_expected}")
  message(FATAL_ERROR
    "README.md's reconciler quote differs from the lines marked in ${SNIPPET_SOURCE}.\n"
    "Copy the marked lines into README.md's ```cpp block (one `// …` line between regions), "
    "or move the `// [${_tag}]` markers.\n"
    "--- marked in ${SNIPPET_SOURCE} ---\n${_want}"
    "--- quoted in README.md ---\n${_quote}")
endif()
message(STATUS "README.md quotes ${SNIPPET_SOURCE} as marked (${_region} region(s))")

# voxrig_add_conformance_test: a CTest that runs `voxrig conform` on a reader.
#
#   voxrig_add_conformance_test(NAME <name> READER <command-or-genex> PROFILES <profile>...
#                               [CODES strict|loose] [EXPECTED_FAILURES <file>] [WRITER]
#                               [LEVEL verdicts|dumps|writers|capabilities] [RECOMMENDED]
#                               [GOLDEN <dir>] [FILTER <substr>]
#                               [JOBS <n>] [TIMEOUT <seconds per run>] [LABELS <label>...]
#                               [ARGS <extra conform arguments>...])
#
# READER is one shell command line (it may hold spaces and generator expressions, e.g.
# "$<TARGET_FILE:my_reader>" or "python3 ${CMAKE_CURRENT_SOURCE_DIR}/reader.py"; no ';'). It is
# run as `READER dump --profile P FILE` (golden/README.md, "The reader protocol"). LEVEL is the
# rung of the adoption ladder (`voxrig conform --level`; default dumps); RECOMMENDED makes the
# recommended cases count too.
# EXPECTED_FAILURES is relative to the current source directory. The test writes
# <name>.junit.xml and <name>.report.json into the current binary directory, and carries the
# labels `conformance` plus LABELS.
# The corpus is VOXRIG_GOLDEN_DIR (set by find_package(voxrig)) unless GOLDEN is given.

function(voxrig_add_conformance_test)
  cmake_parse_arguments(PARSE_ARGV 0 arg "WRITER;RECOMMENDED"
    "NAME;READER;CODES;EXPECTED_FAILURES;LEVEL;GOLDEN;FILTER;JOBS;TIMEOUT" "PROFILES;LABELS;ARGS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "voxrig_add_conformance_test: unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  foreach(required NAME READER PROFILES)
    if(NOT arg_${required})
      message(FATAL_ERROR "voxrig_add_conformance_test: ${required} is required")
    endif()
  endforeach()
  if(NOT TARGET voxrig::voxrig)
    message(FATAL_ERROR "voxrig_add_conformance_test: no voxrig::voxrig target; find_package(voxrig) first")
  endif()

  set(cmd "$<TARGET_FILE:voxrig::voxrig>" conform --reader "${arg_READER}")
  foreach(profile IN LISTS arg_PROFILES)
    list(APPEND cmd --profile ${profile})
  endforeach()
  if(arg_CODES)
    list(APPEND cmd --codes ${arg_CODES})
  endif()
  if(arg_EXPECTED_FAILURES)
    cmake_path(ABSOLUTE_PATH arg_EXPECTED_FAILURES BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND cmd --expected-failures "${arg_EXPECTED_FAILURES}")
  endif()
  if(arg_WRITER)
    list(APPEND cmd --writer)
  endif()
  if(arg_LEVEL)
    list(APPEND cmd --level ${arg_LEVEL})
  endif()
  if(arg_RECOMMENDED)
    list(APPEND cmd --recommended)
  endif()
  if(NOT arg_GOLDEN)
    set(arg_GOLDEN "${VOXRIG_GOLDEN_DIR}")
  endif()
  if(arg_GOLDEN)
    list(APPEND cmd --golden "${arg_GOLDEN}")
  endif()
  if(arg_FILTER)
    list(APPEND cmd --filter "${arg_FILTER}")
  endif()
  if(arg_JOBS)
    list(APPEND cmd --jobs ${arg_JOBS})
  endif()
  if(arg_TIMEOUT)
    list(APPEND cmd --timeout ${arg_TIMEOUT})
  endif()
  list(APPEND cmd
    --junit "${CMAKE_CURRENT_BINARY_DIR}/${arg_NAME}.junit.xml"
    --report "${CMAKE_CURRENT_BINARY_DIR}/${arg_NAME}.report.json"
    ${arg_ARGS})
  add_test(NAME ${arg_NAME} COMMAND ${cmd})
  set_tests_properties(${arg_NAME} PROPERTIES LABELS "conformance;${arg_LABELS}")
endfunction()

# Build helpers for voxrig's own targets: per-target settings, unit-test binaries and the two
# installed libraries. None of these settings is exported to users of the installed package.
#
# voxrig_target_defaults(TARGET [FP_EXACT])
#   Warnings (-Wall -Wextra, -Werror with VOXRIG_WERROR) on TARGET's own sources.
#   FP_EXACT: -ffp-contract=off. D15 requires it of the codec (the unit-quaternion check and
#   every float result must not depend on whether the compiler fuses a*b+c); targets that
#   recompute the codec's floats to compare bit for bit (its unit tests, generators, benchmark
#   baselines) need the same rule to agree with it.
function(voxrig_target_defaults target)
  cmake_parse_arguments(arg "FP_EXACT" "" "" ${ARGN})
  target_compile_options(${target} PRIVATE -Wall -Wextra $<$<BOOL:${VOXRIG_WERROR}>:-Werror>)
  if(arg_FP_EXACT)
    target_compile_options(${target} PRIVATE -ffp-contract=off)
  endif()
endfunction()

# voxrig_unit_tests(NAME LINK libraries... [FP_EXACT])
#   The GoogleTest binary NAME from every tests/*.cpp of the calling folder, linked with the
#   given libraries; its tests are discovered as CTests with label `unit`.
function(voxrig_unit_tests name)
  cmake_parse_arguments(arg "FP_EXACT" "" "LINK" ${ARGN})
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/tests/*.cpp)
  add_executable(${name} ${sources})
  target_link_libraries(${name} PRIVATE ${arg_LINK} GTest::gtest_main)
  target_compile_definitions(${name} PRIVATE VOXRIG_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  if(arg_FP_EXACT)
    voxrig_target_defaults(${name} FP_EXACT)
  else()
    voxrig_target_defaults(${name})
  endif()
  gtest_discover_tests(${name} PROPERTIES LABELS unit DISCOVERY_TIMEOUT 60)
endfunction()

# voxrig_add_installed_library(NAME SOURCES...)
#   The static library voxrig_NAME, exported and installed as voxrig::NAME (alias voxrig::NAME in
#   this build too), with the public headers of ${CMAKE_CURRENT_SOURCE_DIR}/include/voxrig
#   installed beside it. The codec and the conformance judge are the two installed libraries.
function(voxrig_add_installed_library name)
  set(target voxrig_${name})
  add_library(${target} ${ARGN})
  add_library(voxrig::${name} ALIAS ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
  target_include_directories(${target} PUBLIC
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  install(TARGETS ${target} EXPORT voxrigTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/include/voxrig
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endfunction()

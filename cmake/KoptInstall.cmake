# `cmake --install`, the CMake package config (`find_package(kopt)`) and the Debian package (CPack).
# Included once, at the end of the top-level CMakeLists.txt, when every target exists. docs/install.md
# describes the installed layout and the choices made here.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# kopt finds kopt-worker and kopt-compile next to the running executable (executable_dir()), so the three
# programs go to the same folder.
set(KOPT_INSTALL_PROGRAMS kopt kopt-worker kopt-compile)
# The data kopt reads at run time. Always share/kopt, not ${CMAKE_INSTALL_DATADIR}/kopt: find_data_folder
# looks for share/kopt/<name> next to or above the executable (one level above bin/), whatever the
# datadir setting says.
set(KOPT_INSTALL_DATADIR share/kopt)
set(KOPT_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/kopt CACHE STRING
    "Where koptConfig.cmake is installed, relative to the prefix")

# The public libraries: the modules with a public header in include/kopt/. Not exported: kopt_cli and
# kopt_cli_commands (the command line and its commands; no public header, their interface puts src/ on the
# include path and needs CLI11) and the worker's own libraries (kopt_worker_energy, kopt_worker_cupti), which
# only kopt-worker links. Every library these link is exported with them (a static library carries its link
# dependencies).
set(KOPT_PUBLIC_MODULES common task inputs verify measure toolchain compile profile analysis eval report
    tuning search store run optimize propose suite_bench llm generate source_search run_report)
# Targets that only exist for building kopt itself: compile options, no link content. Dropped from the
# installed interface (wrapped in $<BUILD_INTERFACE:...>) instead of exported.
set(KOPT_BUILD_ONLY_TARGETS kopt_warnings)

# How the consumer finds each imported target the exported libraries link, by namespace. A namespace that
# is missing here makes the package config refuse to load (see kopt_collect_export_closure).
set(KOPT_DEPENDENCY_fmt "find_dependency(fmt 9)")
set(KOPT_DEPENDENCY_nlohmann_json "find_dependency(nlohmann_json 3.10)")
set(KOPT_DEPENDENCY_CUDA "find_dependency(CUDAToolkit)")
set(KOPT_DEPENDENCY_Threads "find_dependency(Threads)")
set(KOPT_DEPENDENCY_OpenSSL "find_dependency(OpenSSL COMPONENTS Crypto)")
set(KOPT_DEPENDENCY_SQLite "find_dependency(SQLite3)")
set(KOPT_DEPENDENCY_CURL "find_dependency(CURL)")
# kopt's own imported targets are looked up one by one (key: the name with _ for ::). kopt::re2 is RE2's
# static archive: the installed cmake/KoptRE2.cmake finds it again on the consumer's side.
string(CONCAT KOPT_DEPENDENCY_kopt_re2
       "include(\"\${CMAKE_CURRENT_LIST_DIR}/KoptRE2.cmake\")\n"
       "if(NOT KoptRE2_FOUND)\n"
       "  set(kopt_FOUND FALSE)\n"
       "  string(CONCAT kopt_NOT_FOUND_MESSAGE \"kopt links RE2's static archive, libre2.a, which was not \"\n"
       "         \"found (pkg-config re2, then find_library; Debian: apt-get install libre2-dev pkg-config)\")\n"
       "  return()\n"
       "endif()")
# kopt::hiredis: hiredis's static archive (the evaluation farm's Redis client), found the same way.
string(CONCAT KOPT_DEPENDENCY_kopt_hiredis
       "include(\"\${CMAKE_CURRENT_LIST_DIR}/KoptHiredis.cmake\")\n"
       "if(NOT KoptHiredis_FOUND)\n"
       "  set(kopt_FOUND FALSE)\n"
       "  string(CONCAT kopt_NOT_FOUND_MESSAGE \"kopt links hiredis's static archive, libhiredis.a, which was not \"\n"
       "         \"found (pkg-config hiredis, then find_library; Debian: apt-get install libhiredis-dev pkg-config)\")\n"
       "  return()\n"
       "endif()")

# The link dependency `item` as a target name, or empty when it is not a target (a plain library such as
# dl, or a generator expression other than $<LINK_ONLY:...>, which cannot be followed here). A name with
# `::` is a target even where it is not visible: an imported target found in a module's own folder
# (SQLite::SQLite3 in src/store) is only visible there.
function(kopt_link_item_target item out_var)
  set(name "${item}")
  if(name MATCHES "^\\$<LINK_ONLY:([^$<>]+)>$")
    set(name "${CMAKE_MATCH_1}")
  endif()
  if(name MATCHES "\\$<" OR (NOT TARGET "${name}" AND NOT name MATCHES "::"))
    set(${out_var} "" PARENT_SCOPE)
    return()
  endif()
  if(TARGET "${name}")
    get_target_property(aliased "${name}" ALIASED_TARGET)
    if(aliased)
      set(name "${aliased}")
    endif()
  endif()
  set(${out_var} "${name}" PARENT_SCOPE)
endfunction()

# Every kopt target the libraries in `roots` link, transitively (roots included), into `targets_var`; the
# namespaces of the imported targets they link into `namespaces_var`.
function(kopt_collect_export_closure roots targets_var namespaces_var)
  set(pending ${roots})
  set(closure)
  set(namespaces)
  while(pending)
    list(POP_FRONT pending current)
    if(current IN_LIST closure)
      continue()
    endif()
    list(APPEND closure ${current})
    get_target_property(links ${current} INTERFACE_LINK_LIBRARIES)
    if(NOT links)
      continue()
    endif()
    foreach(item IN LISTS links)
      kopt_link_item_target("${item}" dependency)
      if(NOT dependency)
        if(item MATCHES "\\$<" AND NOT item MATCHES "^\\$<LINK_ONLY:")
          message(WARNING "kopt install: ${current} links '${item}', which the package config cannot follow")
        endif()
        continue()
      endif()
      set(imported TRUE)
      if(TARGET ${dependency})
        get_target_property(imported ${dependency} IMPORTED)
      endif()
      if(imported)
        string(REGEX REPLACE "::.*$" "" namespace "${dependency}")
        if(namespace STREQUAL "kopt")
          string(REPLACE "::" "_" namespace "${dependency}")  # kopt::re2 -> kopt_re2 (see above)
        endif()
        list(APPEND namespaces ${namespace})
      elseif(NOT dependency IN_LIST KOPT_BUILD_ONLY_TARGETS)
        list(APPEND pending ${dependency})
      endif()
    endforeach()
  endwhile()
  list(REMOVE_DUPLICATES namespaces)
  set(${targets_var} ${closure} PARENT_SCOPE)
  set(${namespaces_var} ${namespaces} PARENT_SCOPE)
endfunction()

# Makes a library's interface installable: folders of the source and build trees only hold in the build
# tree (the installed headers come from INCLUDES DESTINATION below), build-only targets are dropped, and
# kopt_task exports as kopt::task.
function(kopt_prepare_export target)
  get_target_property(includes ${target} INTERFACE_INCLUDE_DIRECTORIES)
  if(includes)
    set(rewritten)
    foreach(dir IN LISTS includes)
      if(dir MATCHES "^\\$<")
        list(APPEND rewritten "${dir}")
        continue()
      endif()
      cmake_path(IS_PREFIX PROJECT_SOURCE_DIR "${dir}" NORMALIZE in_source)
      cmake_path(IS_PREFIX PROJECT_BINARY_DIR "${dir}" NORMALIZE in_build)
      if(in_source OR in_build)
        if(NOT dir STREQUAL "${PROJECT_SOURCE_DIR}/include")
          message(WARNING "kopt install: ${target} puts ${dir} on its users' include path; "
                          "an installed kopt has only include/")
        endif()
        list(APPEND rewritten "$<BUILD_INTERFACE:${dir}>")
      else()
        list(APPEND rewritten "${dir}")
      endif()
    endforeach()
    set_property(TARGET ${target} PROPERTY INTERFACE_INCLUDE_DIRECTORIES "${rewritten}")
  endif()
  get_target_property(links ${target} INTERFACE_LINK_LIBRARIES)
  if(links)
    set(rewritten)
    foreach(item IN LISTS links)
      kopt_link_item_target("${item}" dependency)
      if(dependency AND dependency IN_LIST KOPT_BUILD_ONLY_TARGETS)
        list(APPEND rewritten "$<BUILD_INTERFACE:${item}>")
      else()
        list(APPEND rewritten "${item}")
      endif()
    endforeach()
    set_property(TARGET ${target} PROPERTY INTERFACE_LINK_LIBRARIES "${rewritten}")
  endif()
  string(REGEX REPLACE "^kopt_" "" export_name "${target}")
  set_property(TARGET ${target} PROPERTY EXPORT_NAME ${export_name})
endfunction()

# ---- programs and data -------------------------------------------------------------------------------

set(kopt_installed_programs)
foreach(program IN LISTS KOPT_INSTALL_PROGRAMS)
  if(TARGET ${program})
    list(APPEND kopt_installed_programs ${program})
  else()
    message(STATUS "kopt install: ${program} is not built here, not installed")
  endif()
endforeach()
if(kopt_installed_programs)
  # Imported as kopt::kopt, kopt::kopt-worker, kopt::kopt-compile: a program linking kopt::eval passes
  # $<TARGET_FILE:kopt::kopt-worker> as its worker (EvalOptions::worker_path).
  install(TARGETS ${kopt_installed_programs} EXPORT koptTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

set(kopt_data_exclude PATTERN ".kopt" EXCLUDE PATTERN "*.so" EXCLUDE PATTERN "*.cubin" EXCLUDE)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/strategies/ DESTINATION ${KOPT_INSTALL_DATADIR}/strategies
        ${kopt_data_exclude})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/prompts/ DESTINATION ${KOPT_INSTALL_DATADIR}/prompts ${kopt_data_exclude})
# The example tasks are inputs to kopt (`kopt eval share/kopt/examples/sgemm ...`), so they sit with its
# data rather than under share/doc, which minimal systems often leave out.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/examples/ DESTINATION ${KOPT_INSTALL_DATADIR}/examples
        ${kopt_data_exclude})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})

# ---- libraries, headers and the package config --------------------------------------------------------

set(kopt_public_libraries)
foreach(module IN LISTS KOPT_PUBLIC_MODULES)
  if(TARGET kopt_${module})
    list(APPEND kopt_public_libraries kopt_${module})
  endif()
endforeach()
kopt_collect_export_closure("${kopt_public_libraries}" kopt_exported_libraries kopt_imported_namespaces)
foreach(library IN LISTS kopt_exported_libraries)
  kopt_prepare_export(${library})
endforeach()
install(TARGETS ${kopt_exported_libraries} EXPORT koptTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/kopt DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.hpp" PATTERN "detail" EXCLUDE)
install(EXPORT koptTargets NAMESPACE kopt:: DESTINATION ${KOPT_INSTALL_CMAKEDIR})
install(FILES ${CMAKE_CURRENT_LIST_DIR}/KoptRE2.cmake ${CMAKE_CURRENT_LIST_DIR}/KoptHiredis.cmake
              ${CMAKE_CURRENT_LIST_DIR}/KoptStaticArchive.cmake
        DESTINATION ${KOPT_INSTALL_CMAKEDIR})  # kopt::re2, kopt::hiredis

# The find_dependency() lines of koptConfig.cmake, one per namespace the exported libraries link.
set(KOPT_CONFIG_DEPENDENCIES "")
foreach(namespace IN LISTS kopt_imported_namespaces)
  if(DEFINED KOPT_DEPENDENCY_${namespace})
    string(APPEND KOPT_CONFIG_DEPENDENCIES "${KOPT_DEPENDENCY_${namespace}}\n")
  else()
    message(WARNING "kopt install: the exported libraries link ${namespace}:: targets and "
                    "cmake/KoptInstall.cmake does not say how to find them (KOPT_DEPENDENCY_${namespace})")
    string(APPEND KOPT_CONFIG_DEPENDENCIES
           "set(kopt_FOUND FALSE)\nset(kopt_NOT_FOUND_MESSAGE \"kopt was built linking ${namespace}:: "
           "targets that its package config cannot find\")\nreturn()\n")
  endif()
endforeach()
string(REPLACE ";" " " KOPT_EXPORTED_NAMES "${kopt_exported_libraries}")
string(REPLACE "kopt_" "kopt::" KOPT_EXPORTED_NAMES "${KOPT_EXPORTED_NAMES}")

set(KOPT_STRATEGIES_INSTALL_DIR ${KOPT_INSTALL_DATADIR}/strategies)
set(KOPT_PROMPTS_INSTALL_DIR ${KOPT_INSTALL_DATADIR}/prompts)
set(KOPT_EXAMPLES_INSTALL_DIR ${KOPT_INSTALL_DATADIR}/examples)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/koptConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/koptConfig.cmake
                              INSTALL_DESTINATION ${KOPT_INSTALL_CMAKEDIR}
                              PATH_VARS KOPT_STRATEGIES_INSTALL_DIR KOPT_PROMPTS_INSTALL_DIR
                                        KOPT_EXAMPLES_INSTALL_DIR)
# 0.x: every 0.y release accepts a request for 0.z; from 1.0 on, the same major version.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/koptConfigVersion.cmake VERSION ${PROJECT_VERSION}
                                 COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/koptConfig.cmake ${PROJECT_BINARY_DIR}/koptConfigVersion.cmake
        DESTINATION ${KOPT_INSTALL_CMAKEDIR})

# ---- the Debian package (`cpack -G DEB` in the build folder) ------------------------------------------

set(KOPT_PACKAGE_CONTACT "kopt developers" CACHE STRING "The Maintainer field of the Debian package")
set(CPACK_PACKAGE_NAME kopt)
set(CPACK_PACKAGE_VENDOR "kopt")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "${KOPT_PACKAGE_CONTACT}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "makes CUDA kernels faster by search under verification")
string(CONCAT CPACK_PACKAGE_DESCRIPTION
       "kopt proposes, compiles, verifies and times CUDA kernel candidates in an isolated GPU worker and "
       "keeps the fastest verified one. The package holds the kopt, kopt-worker and kopt-compile programs, "
       "the strategy library, the prompt templates, the example tasks, the documentation, and the static "
       "libraries, headers and CMake package config (find_package(kopt)). It needs the CUDA toolkit 13 "
       "(nvcc, NVRTC; NVIDIA's, not a Debian package) and, to run candidates, an NVIDIA GPU and driver.")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
# Debug information would make the package ~200 MB (the programs link every library statically).
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# Depends from the programs' shared libraries (dpkg-shlibdeps). The CUDA libraries come from NVIDIA's
# toolkit, which no Debian package provides here: dpkg-shlibdeps skips them (CPack passes
# --ignore-missing-info), and the description states the requirement.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# nvcc needs a host C++ compiler for launcher-mode candidates.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "g++")
# What find_package(kopt) needs beyond the runtime: the development packages of the exported libraries'
# dependencies.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS
    "cmake, nlohmann-json3-dev, libfmt-dev, libssl-dev, libsqlite3-dev, libcurl4-openssl-dev | libcurl-dev, "
    "libre2-dev, libhiredis-dev, pkg-config")
# `cpack --config CPackSourceConfig.cmake`: the checkout without build folders, git data or run state.
set(CPACK_SOURCE_GENERATOR TGZ)
set(CPACK_SOURCE_IGNORE_FILES "^${PROJECT_SOURCE_DIR}/\\.git/" "^${PROJECT_SOURCE_DIR}/build[^/]*/"
    "^${PROJECT_SOURCE_DIR}/out/" "/\\.kopt/")
include(CPack)

# RE2, the regular expressions of kopt's sources (docs/building.md, "RE2"): Debian's libre2-dev, found with
# pkg-config and linked from its static archive, so that the programs run on a GPU machine that has no
# libre2.so. Defines the imported target kopt::re2 (the archive, with Threads::Threads), which the libraries
# that match patterns link privately, and sets KoptRE2_FOUND.
#
# Included by the top-level CMakeLists.txt and, installed next to it, by koptConfig.cmake: kopt's static
# libraries carry kopt::re2 in their link interface, so a find_package(kopt) consumer links the archive too
# (cmake/KoptInstall.cmake, KOPT_DEPENDENCY_kopt_re2).
if(TARGET kopt::re2)
  set(KoptRE2_FOUND TRUE)
  return()
endif()
set(KoptRE2_FOUND FALSE)
find_package(Threads QUIET)
find_package(PkgConfig QUIET)
if(NOT Threads_FOUND OR NOT PKG_CONFIG_FOUND)
  return()
endif()
pkg_check_modules(kopt_re2_pc QUIET re2)
if(NOT kopt_re2_pc_FOUND)
  return()
endif()
find_library(KOPT_RE2_ARCHIVE NAMES libre2.a HINTS ${kopt_re2_pc_LIBDIR} ${kopt_re2_pc_LIBRARY_DIRS}
             DOC "RE2's static archive (Debian: libre2-dev)")
if(NOT KOPT_RE2_ARCHIVE)
  return()
endif()
add_library(kopt::re2 STATIC IMPORTED)
set_target_properties(kopt::re2 PROPERTIES IMPORTED_LOCATION "${KOPT_RE2_ARCHIVE}"
                                           INTERFACE_LINK_LIBRARIES Threads::Threads)
if(kopt_re2_pc_INCLUDE_DIRS)  # empty for /usr/include, which pkg-config leaves out
  set_target_properties(kopt::re2 PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${kopt_re2_pc_INCLUDE_DIRS}")
endif()
set(KoptRE2_FOUND TRUE)

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
find_package(Threads QUIET)
if(NOT Threads_FOUND)
  set(KoptRE2_FOUND FALSE)
  return()
endif()
include(${CMAKE_CURRENT_LIST_DIR}/KoptStaticArchive.cmake)
kopt_import_static_archive(kopt::re2 re2 libre2.a KoptRE2_FOUND)
if(KoptRE2_FOUND)
  set_target_properties(kopt::re2 PROPERTIES INTERFACE_LINK_LIBRARIES Threads::Threads)
endif()

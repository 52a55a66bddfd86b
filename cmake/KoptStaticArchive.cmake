# kopt_import_static_archive(TARGET PC_MODULE ARCHIVE FOUND_VAR): the imported target TARGET for the static
# archive ARCHIVE (e.g. libre2.a) of the pkg-config module PC_MODULE, with its include folder when
# pkg-config names one; FOUND_VAR is set TRUE in the caller's scope when it was found. kopt links some
# Debian libraries from their archives because the GPU machines lack their shared objects (docs/building.md).
# Used by KoptRE2.cmake and KoptHiredis.cmake (and installed with them: KoptRE2.cmake is read again by a
# find_package(kopt) consumer).
function(kopt_import_static_archive target pc_module archive found_var)
  set(${found_var} FALSE PARENT_SCOPE)
  find_package(PkgConfig QUIET)
  if(NOT PKG_CONFIG_FOUND)
    return()
  endif()
  pkg_check_modules(kopt_${pc_module}_pc QUIET ${pc_module})
  if(NOT kopt_${pc_module}_pc_FOUND)
    return()
  endif()
  string(TOUPPER "KOPT_${pc_module}_ARCHIVE" archive_var)
  find_library(${archive_var} NAMES ${archive}
               HINTS ${kopt_${pc_module}_pc_LIBDIR} ${kopt_${pc_module}_pc_LIBRARY_DIRS}
               DOC "${pc_module}'s static archive")
  if(NOT ${archive_var})
    return()
  endif()
  add_library(${target} STATIC IMPORTED GLOBAL)
  set_target_properties(${target} PROPERTIES IMPORTED_LOCATION "${${archive_var}}")
  if(kopt_${pc_module}_pc_INCLUDE_DIRS)  # empty for /usr/include, which pkg-config leaves out
    set_target_properties(${target} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${kopt_${pc_module}_pc_INCLUDE_DIRS}")
  endif()
  set(${found_var} TRUE PARENT_SCOPE)
endfunction()

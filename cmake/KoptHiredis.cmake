# hiredis, the Redis client of the evaluation farm (docs/distributed.md): Debian's libhiredis-dev, found with
# pkg-config and linked from its static archive, so that kopt runs on a GPU machine that has no
# libhiredis.so (../shared/notes/gpu-machine.md: absent there). Defines the imported target kopt::hiredis
# (the archive), which src/farm links privately, and sets KoptHiredis_FOUND.
if(TARGET kopt::hiredis)
  set(KoptHiredis_FOUND TRUE)
  return()
endif()
include(${CMAKE_CURRENT_LIST_DIR}/KoptStaticArchive.cmake)
kopt_import_static_archive(kopt::hiredis hiredis libhiredis.a KoptHiredis_FOUND)

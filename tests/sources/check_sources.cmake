# ctest `sources_compile` (label cpu): nvcc-compiles every CUDA source under examples/ and tests/gpu/
# for sm_90 (scripts/check_sources.sh). Needs only the toolkit, no GPU.
# Included from tests/CMakeLists.txt.
find_program(KOPT_BASH bash REQUIRED)
add_test(NAME sources_compile
  COMMAND ${KOPT_BASH} ${PROJECT_SOURCE_DIR}/scripts/check_sources.sh -j 2
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(sources_compile PROPERTIES
  LABELS "slow"
  TIMEOUT 1200
  ENVIRONMENT "NVCC=${CMAKE_CUDA_COMPILER}")

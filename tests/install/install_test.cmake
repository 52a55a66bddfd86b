# The install test (ctest label `install`): installs this build into a temporary prefix, builds the
# consumer project (tests/install/consumer) against it with find_package(kopt), and runs the installed
# kopt from outside the source tree to show that it finds its installed data and helper programs.
# Included from tests/CMakeLists.txt. It installs what the default target builds (kopt, kopt-worker,
# kopt-compile, the libraries), never test executables; docs/install.md.
get_filename_component(kopt_install_test_cuda_root "${CUDAToolkit_BIN_DIR}" DIRECTORY)
add_test(NAME Install.ConsumerAndInstalledData
  COMMAND ${CMAKE_COMMAND}
    -DKOPT_BUILD_DIR=${PROJECT_BINARY_DIR}
    -DKOPT_SOURCE_DIR=${PROJECT_SOURCE_DIR}
    -DKOPT_CONSUMER_DIR=${CMAKE_CURRENT_LIST_DIR}/consumer
    -DKOPT_CONFIG=$<CONFIG>
    -DKOPT_VERSION=${PROJECT_VERSION}
    -DKOPT_GENERATOR=${CMAKE_GENERATOR}
    -DKOPT_CXX_COMPILER=${CMAKE_CXX_COMPILER}
    -DKOPT_CUDA_ROOT=${kopt_install_test_cuda_root}
    -P ${CMAKE_CURRENT_LIST_DIR}/run_install_test.cmake)
# Installing copies ~1 MB of data and the libraries; the consumer links the whole static search stack.
set_tests_properties(Install.ConsumerAndInstalledData PROPERTIES LABELS install TIMEOUT 900)

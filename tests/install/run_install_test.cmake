# Run by ctest as `cmake -D... -P run_install_test.cmake` (see install_test.cmake). Steps, each failing
# the test with the command's output:
#   1. `cmake --install` of the build into a fresh prefix outside the source tree; the layout is checked.
#   2. tests/install/consumer configured with CMAKE_PREFIX_PATH=<prefix> (and nothing else that could find
#      kopt), built, run; its output is checked.
#   3. The installed kopt, run from a folder outside the source tree with KOPT_STRATEGIES, KOPT_PROMPTS and
#      KOPT_WORKER unset, finds share/kopt/strategies, share/kopt/prompts and bin/kopt-worker.
#   4. The control: a copy of the same kopt alone in a bin/ folder finds none of them, so step 3 passes
#      because of the install layout and not by some other route.
# On success the scratch folder is removed; on failure it is kept and named in the message.
cmake_minimum_required(VERSION 3.24)

foreach(required KOPT_BUILD_DIR KOPT_SOURCE_DIR KOPT_CONSUMER_DIR KOPT_VERSION KOPT_GENERATOR KOPT_CXX_COMPILER)
  if(NOT DEFINED ${required} OR "${${required}}" STREQUAL "")
    message(FATAL_ERROR "run_install_test.cmake: -D${required}=... is required")
  endif()
endforeach()

set(tmp /tmp)
if(DEFINED ENV{TMPDIR} AND IS_DIRECTORY "$ENV{TMPDIR}")
  set(tmp "$ENV{TMPDIR}")
endif()
string(RANDOM LENGTH 10 ALPHABET abcdefghijklmnopqrstuvwxyz0123456789 suffix)
set(scratch "${tmp}/kopt-install-test-${suffix}")
cmake_path(IS_PREFIX KOPT_SOURCE_DIR "${scratch}" NORMALIZE scratch_in_source)
if(scratch_in_source)
  message(FATAL_ERROR "the scratch folder ${scratch} is inside the source tree ${KOPT_SOURCE_DIR}; "
                      "set TMPDIR to a folder outside it")
endif()
set(prefix "${scratch}/prefix")
set(elsewhere "${scratch}/elsewhere")  # the working directory of every run: neither source nor build tree
file(MAKE_DIRECTORY "${elsewhere}")

function(kopt_fail message)
  message(FATAL_ERROR "${message}\n(kept for a look: ${scratch})")
endfunction()

# Runs the command in ${elsewhere}; sets <name>_rc, <name>_out (stdout) and <name>_err (stderr).
function(kopt_run name)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY "${elsewhere}" RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  set(${name}_rc "${rc}" PARENT_SCOPE)
  set(${name}_out "${out}" PARENT_SCOPE)
  set(${name}_err "${err}" PARENT_SCOPE)
endfunction()

# Runs the command and fails the test unless it exits 0.
function(kopt_run_ok name)
  kopt_run(${name} ${ARGN})
  if(NOT ${name}_rc STREQUAL "0")
    string(REPLACE ";" " " command "${ARGN}")
    kopt_fail("${name}: `${command}` exited ${${name}_rc}\nstdout:\n${${name}_out}\nstderr:\n${${name}_err}")
  endif()
  set(${name}_out "${${name}_out}" PARENT_SCOPE)
  set(${name}_err "${${name}_err}" PARENT_SCOPE)
endfunction()

function(kopt_expect_match name text regex)
  if(NOT text MATCHES "${regex}")
    kopt_fail("${name}: expected a match for '${regex}' in:\n${text}")
  endif()
endfunction()

function(kopt_expect_no_match name text regex)
  if(text MATCHES "${regex}")
    kopt_fail("${name}: expected no match for '${regex}' in:\n${text}")
  endif()
endfunction()

# ---- 1. install ----------------------------------------------------------------------------------------

set(config_args)
if(KOPT_CONFIG)
  set(config_args --config "${KOPT_CONFIG}")
endif()
kopt_run_ok(install "${CMAKE_COMMAND}" --install "${KOPT_BUILD_DIR}" --prefix "${prefix}" ${config_args})

foreach(file bin/kopt bin/kopt-worker bin/kopt-compile include/kopt/task.hpp include/kopt/eval.hpp
        share/kopt/strategies/common/strategy.cuh share/kopt/prompts/generator.v1.md
        share/kopt/examples/sgemm/task.toml share/doc/kopt/install.md share/doc/kopt/README.md)
  if(NOT EXISTS "${prefix}/${file}")
    kopt_fail("layout: ${prefix}/${file} was not installed")
  endif()
endforeach()
# Only kopt's programs go to bin/: no test or benchmark executables.
file(GLOB programs RELATIVE "${prefix}/bin" "${prefix}/bin/*")
list(SORT programs)
if(NOT programs STREQUAL "kopt;kopt-compile;kopt-worker")
  kopt_fail("layout: bin/ holds '${programs}', expected kopt, kopt-compile and kopt-worker")
endif()
file(GLOB_RECURSE config_files "${prefix}/*/koptConfig.cmake")
list(LENGTH config_files config_count)
if(NOT config_count EQUAL 1)
  kopt_fail("layout: expected one koptConfig.cmake under ${prefix}, found '${config_files}'")
endif()

# ---- 2. the consumer project ---------------------------------------------------------------------------

set(consumer_build "${scratch}/consumer-build")
set(consumer_args -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_CXX_COMPILER=${KOPT_CXX_COMPILER}
                  -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
if(KOPT_CONFIG)
  list(APPEND consumer_args -DCMAKE_BUILD_TYPE=${KOPT_CONFIG})
endif()
if(KOPT_CUDA_ROOT)
  list(APPEND consumer_args -DCUDAToolkit_ROOT=${KOPT_CUDA_ROOT})
endif()
kopt_run_ok(consumer_configure "${CMAKE_COMMAND}" -S "${KOPT_CONSUMER_DIR}" -B "${consumer_build}"
            -G "${KOPT_GENERATOR}" ${consumer_args})
file(STRINGS "${consumer_build}/CMakeCache.txt" kopt_dir_line REGEX "^kopt_DIR:")
string(REGEX REPLACE "^kopt_DIR:[A-Z]+=" "" kopt_dir "${kopt_dir_line}")
cmake_path(IS_PREFIX prefix "${kopt_dir}" NORMALIZE found_in_prefix)
if(NOT found_in_prefix)
  kopt_fail("consumer: find_package(kopt) used '${kopt_dir}', not the install in ${prefix}")
endif()
kopt_run_ok(consumer_build "${CMAKE_COMMAND}" --build "${consumer_build}")

kopt_run_ok(consumer "${consumer_build}/kopt_consumer")
kopt_expect_match(consumer "${consumer_out}" "task sgemm: 3 buffers, 3 sizes\n")
kopt_expect_match(consumer "${consumer_out}" "flops\\(odd\\) = 570438\n")  # 2*M*N*K at M=129 N=67 K=33
kopt_expect_match(consumer "${consumer_out}" "tiles\\(odd\\) = 45\n")      # ceil(129/16) * ceil(67/16)
kopt_expect_match(consumer "${consumer_out}" "strategies: [1-9][0-9]* in the library, [1-9][0-9]* apply to sgemm")
kopt_expect_match(consumer "${consumer_out}" "worker: installed\n")

# ---- 3. the installed kopt finds its data and its worker ----------------------------------------------

unset(ENV{KOPT_STRATEGIES})
unset(ENV{KOPT_PROMPTS})
unset(ENV{KOPT_WORKER})
set(task "${prefix}/share/kopt/examples/sgemm")

kopt_run_ok(version "${prefix}/bin/kopt" --version)
kopt_expect_match(version "${version_out}" "${KOPT_VERSION}")
kopt_run_ok(compile_server "${prefix}/bin/kopt-compile" --help)

kopt_run_ok(strategies "${prefix}/bin/kopt" strategies "${task}" --json)
string(JSON library ERROR_VARIABLE json_error GET "${strategies_out}" library)
if(json_error)
  kopt_fail("strategies: the output is not kopt.strategies/1 JSON (${json_error}):\n${strategies_out}")
endif()
cmake_path(COMPARE "${library}" EQUAL "${prefix}/share/kopt/strategies" same_library)
if(NOT same_library)
  kopt_fail("strategies: the installed kopt used the library '${library}', not ${prefix}/share/kopt/strategies")
endif()

# `kopt generate` looks for the prompt templates before it reads the LLM settings: with the templates found
# it stops at the bad KOPT_LLM_BACKEND, without them it stops earlier and says so.
set(ENV{KOPT_LLM_BACKEND} not-a-backend)
set(generate_args generate "${task}" --intent "installed prompts" -o "${elsewhere}/generated.cu")
kopt_run(prompts "${prefix}/bin/kopt" ${generate_args})
kopt_expect_match(prompts "${prompts_err}" "KOPT_LLM_BACKEND")
kopt_expect_no_match(prompts "${prompts_err}" "prompt templates were not found")

# Without a GPU the worker starts and reports that there is none; a missing worker is a different error.
kopt_run(doctor "${prefix}/bin/kopt" doctor --json)
kopt_expect_no_match(doctor "${doctor_out}" "GPU worker executable not found")

# ---- 4. the control: the same kopt without the install around it ---------------------------------------

file(MAKE_DIRECTORY "${scratch}/bare/bin")
file(COPY "${prefix}/bin/kopt" DESTINATION "${scratch}/bare/bin")
set(bare "${scratch}/bare/bin/kopt")
kopt_run(bare_strategies "${bare}" strategies "${task}" --json)
kopt_expect_match(bare_strategies "${bare_strategies_out}${bare_strategies_err}"
                  "strategy library was not found")
kopt_run(bare_prompts "${bare}" ${generate_args})
kopt_expect_match(bare_prompts "${bare_prompts_err}" "prompt templates were not found")
kopt_run(bare_doctor "${bare}" doctor --json)
kopt_expect_match(bare_doctor "${bare_doctor_out}" "GPU worker executable not found")

file(REMOVE_RECURSE "${scratch}")
message(STATUS "install test passed: install layout, find_package(kopt) consumer, installed data found")

# ctest fuzz_text_readers: configures and builds fuzz/ with clang in BINARY, then runs
# the fuzzer from the seed corpus for a fixed number of inputs with a fixed seed (the
# same inputs every run, a few seconds). Arguments: -DSOURCE= -DBINARY= -DCLANGXX= [-DRUNS=]
if(NOT RUNS)
  set(RUNS 100000)
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE}/fuzz -B ${BINARY} -G Ninja -DCMAKE_BUILD_TYPE=
                        -DCMAKE_CXX_COMPILER=${CLANGXX} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring fuzz/ with ${CLANGXX} failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BINARY} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building the fuzzer failed")
endif()
file(REMOVE_RECURSE ${BINARY}/work_corpus)
file(MAKE_DIRECTORY ${BINARY}/work_corpus)
execute_process(COMMAND ${BINARY}/text_reader_fuzzer -seed=1 -runs=${RUNS} -max_len=4096 -artifact_prefix=${BINARY}/
                        ${BINARY}/work_corpus ${SOURCE}/fuzz/corpus RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the fuzzer found a defect (exit ${rc}); the crashing input is ${BINARY}/crash-*")
endif()

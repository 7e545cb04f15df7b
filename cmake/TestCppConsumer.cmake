# ctest cpp_package_consumer: installs the build tree into a scratch prefix, then
# configures, builds and runs examples/cpp_consumer against it with find_package(softfit).
#   cmake -DSOURCE=<repo> -DBINARY=<build dir> -DGENERATOR=<generator> -P cmake/TestCppConsumer.cmake
set(work ${BINARY}/package-test)
file(REMOVE_RECURSE ${work})
function(run_step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}\n${err}")
  endif()
  message(STATUS "${what}: ok")
  set(step_output "${out}" PARENT_SCOPE)
endfunction()
run_step("install" ${CMAKE_COMMAND} --install ${BINARY} --prefix ${work}/install)
run_step("configure the consumer" ${CMAKE_COMMAND} -S ${SOURCE}/examples/cpp_consumer -B ${work}/consumer
         -G ${GENERATOR} -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=${work}/install)
run_step("build the consumer" ${CMAKE_COMMAND} --build ${work}/consumer)
run_step("run the consumer" ${work}/consumer/softfit_consumer)
message("${step_output}")
file(REMOVE_RECURSE ${work})

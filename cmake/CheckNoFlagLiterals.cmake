# Library code names no CLI option: options are typed values in the libraries, and the
# CLI (apps/) and the Python module (python/) put their own option or argument names into
# messages (each library takes the names it reports from its caller). Run by ctest
# (tests/CMakeLists.txt, test "no_flag_literals"):
#   cmake -DSOURCE_DIR=<tree> -P cmake/CheckNoFlagLiterals.cmake
# Prints every string literal starting with "-- in a library source (outside comments)
# and fails when there is one.
set(libraries forward grid scene adjoint observations optim face reconstruct synth cuda)
set(found "")
set(count 0)
foreach(library ${libraries})
  file(GLOB_RECURSE sources ${SOURCE_DIR}/${library}/*.h ${SOURCE_DIR}/${library}/*.cpp ${SOURCE_DIR}/${library}/*.cu
       ${SOURCE_DIR}/${library}/*.cuh)
  foreach(source ${sources})
    file(STRINGS ${source} lines)
    set(number 0)
    foreach(line IN LISTS lines)
      math(EXPR number "${number} + 1")
      string(FIND "${line}" "\"--" at)
      if(at GREATER -1)
        string(FIND "${line}" "//" comment)
        if(comment EQUAL -1 OR comment GREATER at)
          file(RELATIVE_PATH name ${SOURCE_DIR} ${source})
          string(STRIP "${line}" stripped)
          string(APPEND found "${name}:${number}: ${stripped}\n")
          math(EXPR count "${count} + 1")
        endif()
      endif()
    endforeach()
  endforeach()
endforeach()
if(count GREATER 0)
  message("${found}")
  message(FATAL_ERROR "${count} CLI option literal(s) in library code: pass the caller's option names instead")
endif()
message(STATUS "no CLI option literal in library code")

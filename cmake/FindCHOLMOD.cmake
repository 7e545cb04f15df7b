# Finds CHOLMOD from Debian's libsuitesparse-dev and defines CHOLMOD::CHOLMOD.
find_path(CHOLMOD_INCLUDE_DIR cholmod.h PATH_SUFFIXES suitesparse)
find_library(CHOLMOD_LIBRARY cholmod)
find_library(SUITESPARSECONFIG_LIBRARY suitesparseconfig)
find_library(AMD_LIBRARY amd)
find_library(COLAMD_LIBRARY colamd)
find_library(CAMD_LIBRARY camd)
find_library(CCOLAMD_LIBRARY ccolamd)
# Prefer OpenBLAS: libceres-dev pulls in ATLAS, which FindBLAS would otherwise pick
# first, and Debian's generic ATLAS build (reference trsv/gemv) makes CHOLMOD's
# supernodal solves several times slower.
if(NOT DEFINED BLA_VENDOR)
  set(BLA_VENDOR OpenBLAS)
  find_package(BLAS)
  find_package(LAPACK)
  unset(BLA_VENDOR)
endif()
if(NOT BLAS_FOUND OR NOT LAPACK_FOUND)
  find_package(BLAS REQUIRED)
  find_package(LAPACK REQUIRED)
endif()
message(STATUS "CHOLMOD BLAS: ${BLAS_LIBRARIES}")
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(CHOLMOD DEFAULT_MSG CHOLMOD_INCLUDE_DIR CHOLMOD_LIBRARY SUITESPARSECONFIG_LIBRARY AMD_LIBRARY COLAMD_LIBRARY)
if(CHOLMOD_FOUND AND NOT TARGET CHOLMOD::CHOLMOD)
  add_library(CHOLMOD::CHOLMOD INTERFACE IMPORTED)
  set_target_properties(CHOLMOD::CHOLMOD PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${CHOLMOD_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES "${CHOLMOD_LIBRARY};${AMD_LIBRARY};${COLAMD_LIBRARY};${CAMD_LIBRARY};${CCOLAMD_LIBRARY};${SUITESPARSECONFIG_LIBRARY};${LAPACK_LIBRARIES};${BLAS_LIBRARIES}")
endif()

# FastNoise2 from a local checkout, for the noise bench's side-by-side rows (issue 30).
#
# TERRAGRID_FASTNOISE2_DIR (cache variable, or the environment variable scripts/bench.sh passes)
# names a FastNoise2 checkout; TERRAGRID_FASTSIMD_DIR its FastSIMD checkout (default: FastSIMD
# beside it). Neither is downloaded: FastNoise2 fetches FastSIMD with CPM, which is told to use
# the local copy (CPM_FastSIMD_SOURCE) and is refused any download. FastNoise2 is built as its own
# project with clang (TERRAGRID_FASTNOISE2_CXX, default clang++-16: its authors' compiler and the
# one issue 30 measured it with) at -O3, into <build>/fastnoise2, and becomes the imported target
# terragrid_fastnoise2. Without a checkout nothing happens and the bench says n/a.

set(TERRAGRID_FASTNOISE2_DIR "$ENV{TERRAGRID_FASTNOISE2_DIR}" CACHE PATH
    "A local FastNoise2 checkout for the noise bench (empty: none)")
if(NOT TERRAGRID_FASTNOISE2_DIR)
  return()
endif()
if(NOT EXISTS "${TERRAGRID_FASTNOISE2_DIR}/include/FastNoise/FastNoise.h")
  message(FATAL_ERROR "TERRAGRID_FASTNOISE2_DIR='${TERRAGRID_FASTNOISE2_DIR}' is no FastNoise2 "
                      "checkout (no include/FastNoise/FastNoise.h)")
endif()
set(fastsimd_default "$ENV{TERRAGRID_FASTSIMD_DIR}")
if(NOT fastsimd_default)
  get_filename_component(fastsimd_default "${TERRAGRID_FASTNOISE2_DIR}/../FastSIMD" ABSOLUTE)
endif()
set(TERRAGRID_FASTSIMD_DIR "${fastsimd_default}" CACHE PATH
    "The FastSIMD checkout FastNoise2 builds with")
if(NOT EXISTS "${TERRAGRID_FASTSIMD_DIR}/CMakeLists.txt")
  message(FATAL_ERROR "TERRAGRID_FASTSIMD_DIR='${TERRAGRID_FASTSIMD_DIR}' is no FastSIMD checkout "
                      "(FastNoise2 needs one; set TERRAGRID_FASTSIMD_DIR)")
endif()
find_program(TERRAGRID_FASTNOISE2_CXX NAMES clang++-16 clang++ REQUIRED)
string(REGEX REPLACE "clang\\+\\+" "clang" fastnoise2_cc "${TERRAGRID_FASTNOISE2_CXX}")

include(ExternalProject)
set(fastnoise2_build "${CMAKE_BINARY_DIR}/fastnoise2")
set(fastnoise2_library "${fastnoise2_build}/Release/lib/libFastNoise.a")
ExternalProject_Add(fastnoise2_build
  SOURCE_DIR "${TERRAGRID_FASTNOISE2_DIR}"
  BINARY_DIR "${fastnoise2_build}"
  DOWNLOAD_COMMAND ""
  UPDATE_COMMAND ""
  INSTALL_COMMAND ""
  CMAKE_ARGS
    -DCMAKE_BUILD_TYPE=Release
    -DCMAKE_CXX_COMPILER=${TERRAGRID_FASTNOISE2_CXX}
    -DCMAKE_C_COMPILER=${fastnoise2_cc}
    -DCMAKE_CXX_FLAGS_RELEASE=-O3\ -DNDEBUG
    -DCMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER}
    -DCMAKE_POSITION_INDEPENDENT_CODE=ON
    -DBUILD_SHARED_LIBS=OFF
    -DFASTNOISE2_TOOLS=OFF
    -DFASTNOISE2_TESTS=OFF
    -DCPM_FastSIMD_SOURCE=${TERRAGRID_FASTSIMD_DIR}
    -DCPM_DOWNLOAD_ALL=OFF
    -DFETCHCONTENT_FULLY_DISCONNECTED=ON
  BUILD_BYPRODUCTS "${fastnoise2_library}")

add_library(terragrid_fastnoise2 STATIC IMPORTED GLOBAL)
add_dependencies(terragrid_fastnoise2 fastnoise2_build)
# IMPORTED include directories count as system ones: FastNoise2's headers stay quiet under our
# warnings.
# Its headers include FastSIMD's and the dispatch configuration FastSIMD generates in the build
# (made here first: CMake refuses an imported include directory that does not exist yet).
# libFastNoise.a holds FastSIMD's objects too.
file(MAKE_DIRECTORY "${fastnoise2_build}/src/fastsimd/FastSIMD_FastNoise/include")
set_target_properties(terragrid_fastnoise2 PROPERTIES
  IMPORTED_LOCATION "${fastnoise2_library}"
  INTERFACE_INCLUDE_DIRECTORIES
    "${TERRAGRID_FASTNOISE2_DIR}/include;${TERRAGRID_FASTSIMD_DIR}/include;${fastnoise2_build}/src/fastsimd/FastSIMD_FastNoise/include"
  INTERFACE_COMPILE_DEFINITIONS "FASTNOISE_STATIC_LIB;FASTSIMD_STATIC_LIB")

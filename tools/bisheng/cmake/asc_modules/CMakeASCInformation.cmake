# ASC language rules (ascend-twin), after CANN's CMakeASCInformation.cmake: bisheng compiles
# `.asc` sources (host code, kernels, <<<>>>) and links the target.
#   CMAKE_ASC_ARCHITECTURES  dav-2201 ... -> --npu-arch= (default: from SOC_VERSION, else dav-2201)
#   CMAKE_ASC_STANDARD       17 (default) or 20
#   CMAKE_ASC_FLAGS          from env ASCFLAGS; Debug -O0 -g; Release -O3 -DNDEBUG
#   CMAKE_ASC_RUN_MODE       npu|cpu|sim, checked as CANN does (below); everything runs on the CPU twin
set(CMAKE_ASC_FLAGS_INIT "$ENV{ASCFLAGS} ${CMAKE_ASC_FLAGS_INIT}")
set(CMAKE_ASC_FLAGS_DEBUG_INIT "-O0 -g")
set(CMAKE_ASC_FLAGS_RELEASE_INIT "-O3 -DNDEBUG")
set(CMAKE_ASC_FLAGS_MINSIZEREL_INIT "-Os -DNDEBUG")
set(CMAKE_ASC_FLAGS_RELWITHDEBINFO_INIT "-O2 -g -DNDEBUG")
include(CMakeCommonLanguageInclude)

if(NOT CMAKE_ASC_ARCHITECTURES)
  set(_asc_soc "${SOC_VERSION}")
  if(_asc_soc MATCHES "^Ascend310P")
    set(CMAKE_ASC_ARCHITECTURES dav-2002)
  elseif(_asc_soc MATCHES "^Ascend310B")
    set(CMAKE_ASC_ARCHITECTURES dav-3002)
  elseif(_asc_soc MATCHES "^Ascend950")
    set(CMAKE_ASC_ARCHITECTURES dav-3510)
  else()
    set(CMAKE_ASC_ARCHITECTURES dav-2201)
  endif()
endif()
list(GET CMAKE_ASC_ARCHITECTURES 0 _asc_arch)
if(NOT CMAKE_ASC_STANDARD)
  set(CMAKE_ASC_STANDARD 17)
endif()
set(CMAKE_ASC_ARCH_FLAG "--npu-arch=${_asc_arch}")

# CMAKE_ASC_RUN_MODE as in CANN: npu (default), cpu (CPU debug: dav-2002/2201/3510 only; adds
# -g, the C++ ABI 0 and --run-mode=cpu) or sim (simulator: --run-mode=sim). On the twin every
# mode runs kernels on the CPU twin runtime; bisheng notes the --run-mode option once per compile.
if(NOT CMAKE_ASC_RUN_MODE)
  set(CMAKE_ASC_RUN_MODE npu)
endif()
if(NOT CMAKE_ASC_RUN_MODE MATCHES "^(npu|cpu|sim)$")
  message(FATAL_ERROR "CMAKE_ASC_RUN_MODE='${CMAKE_ASC_RUN_MODE}' is not one of npu, cpu, sim")
endif()
if(CMAKE_ASC_RUN_MODE STREQUAL "cpu")
  if(NOT _asc_arch MATCHES "^dav-(2002|2201|3510)$")
    message(FATAL_ERROR "CMAKE_ASC_RUN_MODE=cpu supports dav-2002, dav-2201 and dav-3510, not ${_asc_arch}")
  endif()
  string(APPEND CMAKE_ASC_ARCH_FLAG " -g -D_GLIBCXX_USE_CXX11_ABI=0 --run-mode=cpu")
elseif(CMAKE_ASC_RUN_MODE STREQUAL "sim")
  string(APPEND CMAKE_ASC_ARCH_FLAG " --run-mode=sim")
endif()
# The host half of an .asc file calls CANN's C++ libraries (ge::Shape for the tiling API,
# libgraph_base, libregister), built with the C++ ABI 0; CANN's ABI-free interfaces make other
# ABIs work there, the twin's headers enforce one ABI (twin/graph's ABI guard), so ASC sources
# are compiled with CANN's in every mode.
if(NOT CMAKE_ASC_RUN_MODE STREQUAL "cpu")
  string(APPEND CMAKE_ASC_ARCH_FLAG " -D_GLIBCXX_USE_CXX11_ABI=0")
endif()

set(CMAKE_INCLUDE_FLAG_ASC "-I")
set(CMAKE_INCLUDE_SYSTEM_FLAG_ASC "-isystem ")
set(CMAKE_ASC_COMPILE_OPTIONS_PIC "-fPIC")
set(CMAKE_SHARED_LIBRARY_CREATE_ASC_FLAGS "-shared")
set(CMAKE_SHARED_LIBRARY_SONAME_ASC_FLAG "-Wl,-soname,")
set(CMAKE_SHARED_LIBRARY_RUNTIME_ASC_FLAG "-Wl,-rpath,")
set(CMAKE_SHARED_LIBRARY_RUNTIME_ASC_FLAG_SEP ":")
# CMake reads the executable's own variables when bisheng links an executable (LINKER_LANGUAGE
# ASC): without them a program linked to a SHARED library of .asc sources gets no build RPATH
# and cannot find that library when run from the build tree.
set(CMAKE_EXECUTABLE_RUNTIME_ASC_FLAG "${CMAKE_SHARED_LIBRARY_RUNTIME_ASC_FLAG}")
set(CMAKE_EXECUTABLE_RUNTIME_ASC_FLAG_SEP "${CMAKE_SHARED_LIBRARY_RUNTIME_ASC_FLAG_SEP}")
set(CMAKE_SHARED_LIBRARY_RPATH_LINK_ASC_FLAG "-Wl,-rpath-link,")
set(CMAKE_EXECUTABLE_RPATH_LINK_ASC_FLAG "${CMAKE_SHARED_LIBRARY_RPATH_LINK_ASC_FLAG}")
set(CMAKE_ASC_DEPFILE_FORMAT gcc)
set(CMAKE_ASC_DEPENDS_USE_COMPILER TRUE)
set(CMAKE_DEPFILE_FLAGS_ASC "-MD -MT <DEP_TARGET> -MF <DEP_FILE>")

set(CMAKE_ASC_COMPILE_OBJECT
    "<CMAKE_ASC_COMPILER> <DEFINES> <INCLUDES> -std=c++${CMAKE_ASC_STANDARD} ${CMAKE_ASC_ARCH_FLAG} <FLAGS> -o <OBJECT> -c -x asc <SOURCE>")
set(CMAKE_ASC_LINK_EXECUTABLE
    "<CMAKE_ASC_COMPILER> <FLAGS> <CMAKE_ASC_LINK_FLAGS> <LINK_FLAGS> <OBJECTS> -o <TARGET> <LINK_LIBRARIES>")
set(CMAKE_ASC_CREATE_SHARED_LIBRARY
    "<CMAKE_ASC_COMPILER> <CMAKE_SHARED_LIBRARY_ASC_FLAGS> <LANGUAGE_COMPILE_FLAGS> <LINK_FLAGS> -shared <SONAME_FLAG><TARGET_SONAME> -o <TARGET> <OBJECTS> <LINK_LIBRARIES>")
set(CMAKE_ASC_CREATE_SHARED_MODULE "${CMAKE_ASC_CREATE_SHARED_LIBRARY}")
set(CMAKE_ASC_CREATE_STATIC_LIBRARY "<CMAKE_AR> qc <TARGET> <LINK_FLAGS> <OBJECTS>" "<CMAKE_RANLIB> <TARGET>")
set(CMAKE_ASC_INFORMATION_LOADED 1)

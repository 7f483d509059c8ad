# What 'cmake --install' puts under the prefix (docs/API.md): the tools in
# bin/, the libraries in lib/, the public headers in include/dan/, the CMake
# package in lib/cmake/dan/ (find_package(DAN)) and the pkg-config file
# lib/pkgconfig/dan.pc.

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/dan
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

set(DAN_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/dan)
install(EXPORT DANTargets NAMESPACE DAN:: DESTINATION ${DAN_CMAKE_DIR})
include(CMakePackageConfigHelpers)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/DANConfig.cmake.in
  ${PROJECT_BINARY_DIR}/DANConfig.cmake INSTALL_DESTINATION ${DAN_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/DANConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/DANConfig.cmake
  ${PROJECT_BINARY_DIR}/DANConfigVersion.cmake DESTINATION ${DAN_CMAKE_DIR})

# pkg-config: the DAN libraries from the top layer down, then LLVM (its
# shared library, which needs none of the static archives' system
# libraries).
get_property(DAN_LIBRARIES GLOBAL PROPERTY DAN_LIBRARIES)
set(DAN_PC_LIBS "")
foreach(lib IN LISTS DAN_LIBRARIES)
  get_target_property(type ${lib} TYPE)
  if(NOT type STREQUAL "INTERFACE_LIBRARY")
    set(DAN_PC_LIBS "-l${lib} ${DAN_PC_LIBS}")
  endif()
endforeach()
string(STRIP "${DAN_PC_LIBS}" DAN_PC_LIBS)
set(DAN_PC_LLVM_CFLAGS "-I${LLVM_INCLUDE_DIRS} ${LLVM_DEFINITIONS}")
string(STRIP "${DAN_PC_LLVM_CFLAGS}" DAN_PC_LLVM_CFLAGS)
set(DAN_PC_LLVM_LIBS
  "-L${LLVM_LIBRARY_DIR} -Wl,-rpath,${LLVM_LIBRARY_DIR} -lLLVM-${LLVM_VERSION_MAJOR}")
# The prefix is known only at install time: configure the file then.
install(CODE "
  set(CMAKE_INSTALL_LIBDIR \"${CMAKE_INSTALL_LIBDIR}\")
  set(CMAKE_INSTALL_INCLUDEDIR \"${CMAKE_INSTALL_INCLUDEDIR}\")
  set(PROJECT_VERSION \"${PROJECT_VERSION}\")
  set(DAN_PC_LIBS \"${DAN_PC_LIBS}\")
  set(DAN_PC_LLVM_CFLAGS \"${DAN_PC_LLVM_CFLAGS}\")
  set(DAN_PC_LLVM_LIBS \"${DAN_PC_LLVM_LIBS}\")
  set(CMAKE_INSTALL_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
  configure_file(\"${PROJECT_SOURCE_DIR}/cmake/dan.pc.in\"
    \"${PROJECT_BINARY_DIR}/dan.pc\" @ONLY)
  file(INSTALL \"${PROJECT_BINARY_DIR}/dan.pc\"
    DESTINATION \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/pkgconfig\")
")

# How every DAN library and tool is declared, so that each is installed and
# exported the same way (docs/API.md).
#
#   dan_add_library(NAME SOURCES... [INTERFACE])
#     A static library (an interface library with INTERFACE and no
#     sources) whose public headers are include/dan/...; installed to lib/
#     and exported as DAN::NAME in the DAN CMake package.
#   dan_add_tool(NAME SOURCES... LINK LIBS...)
#     A tool in bin/ of the build and of the installation.
#
# The libraries are recorded in the order they are declared (bottom-up, as
# lib/CMakeLists.txt adds them), which the pkg-config file reverses for its
# link line.

function(dan_add_library name)
  cmake_parse_arguments(ARG "INTERFACE" "" "" ${ARGN})
  if(ARG_INTERFACE)
    add_library(${name} INTERFACE)
    set(scope INTERFACE)
  else()
    add_library(${name} STATIC ${ARG_UNPARSED_ARGUMENTS})
    set(scope PUBLIC)
  endif()
  target_include_directories(${name} ${scope}
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  add_library(DAN::${name} ALIAS ${name})
  install(TARGETS ${name} EXPORT DANTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  set_property(GLOBAL APPEND PROPERTY DAN_LIBRARIES ${name})
endfunction()

function(dan_add_tool name)
  cmake_parse_arguments(ARG "" "" "LINK" ${ARGN})
  add_executable(${name} ${ARG_UNPARSED_ARGUMENTS})
  target_link_libraries(${name} PRIVATE ${ARG_LINK})
  set_target_properties(${name} PROPERTIES
    RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bin)
  install(TARGETS ${name} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endfunction()

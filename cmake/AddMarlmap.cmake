# How marlmap's libraries are declared: static, position independent (the
# plugin and the Python module link them into shared objects), exported as
# Marlmap::<export-name> with their usage requirements on the target.
include_guard(GLOBAL)

set_property(GLOBAL PROPERTY MARLMAP_EXPORTED_TARGETS "")

function(add_marlmap_library target export_name)
  add_library(${target} STATIC ${ARGN})
  add_library(Marlmap::${export_name} ALIAS ${target})
  set_target_properties(${target} PROPERTIES
    POSITION_INDEPENDENT_CODE ON
    EXPORT_NAME ${export_name})
  target_compile_features(${target} PUBLIC cxx_std_17)
  target_include_directories(${target} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  set_property(GLOBAL APPEND PROPERTY MARLMAP_EXPORTED_TARGETS ${target})
endfunction()

# `cmake --install build --prefix P`: headers, the libraries (exported as
# Marlmap::<layer> through P/lib/cmake/Marlmap/MarlmapConfig.cmake), the
# tools, the plugin and the policy library. The plugin, the policy library
# and the Python module are installed, not exported: they are loaded, not
# linked.
include(CMakePackageConfigHelpers)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/marlmap
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/marlmap
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h.inc")

get_property(marlmap_exported GLOBAL PROPERTY MARLMAP_EXPORTED_TARGETS)
install(TARGETS ${marlmap_exported}
        EXPORT MarlmapTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT MarlmapTargets
        NAMESPACE Marlmap::
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Marlmap)

install(TARGETS marlmap-opt marlmap-explore marlmap-cache
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS MarlmapPlugin LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
if(TARGET MarlmapPolicy)
  install(TARGETS MarlmapPolicy LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()

# The config looks for MLIR where this build found it first, then where
# Debian puts it, so that consumers pass only CMAKE_PREFIX_PATH.
set(MARLMAP_MLIR_DIR_AT_BUILD "${MLIR_DIR}")
# The installed policy library, or nothing in a build without LibTorch.
if(TARGET MarlmapPolicy)
  set(MARLMAP_POLICY_LIBRARY_INSTALLED
      "\${PACKAGE_PREFIX_DIR}/${CMAKE_INSTALL_LIBDIR}/libMarlmapPolicy.so")
else()
  set(MARLMAP_POLICY_LIBRARY_INSTALLED "")
endif()
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/MarlmapConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/MarlmapConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Marlmap
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/cmake/MarlmapConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cmake/MarlmapConfig.cmake
              ${PROJECT_BINARY_DIR}/cmake/MarlmapConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Marlmap)

# Installs the library, headers, CLI, a CMake package (find_package(sitemill))
# and a pkg-config file (pkg-config --cflags --libs sitemill).
include(CMakePackageConfigHelpers)

install(TARGETS sitemill EXPORT sitemillTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS sitemill_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/sitemill DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${PROJECT_BINARY_DIR}/include/sitemill/version.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/sitemill)
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE ${PROJECT_SOURCE_DIR}/NOTICE DESTINATION ${CMAKE_INSTALL_DOCDIR})

set(SITEMILL_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/sitemill)
install(EXPORT sitemillTargets NAMESPACE sitemill:: DESTINATION ${SITEMILL_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/sitemillConfig.cmake.in
  ${PROJECT_BINARY_DIR}/sitemillConfig.cmake INSTALL_DESTINATION ${SITEMILL_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/sitemillConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/sitemillConfig.cmake
              ${PROJECT_BINARY_DIR}/sitemillConfigVersion.cmake
        DESTINATION ${SITEMILL_CMAKE_DIR})

get_target_property(SITEMILL_LIBRARY_TYPE sitemill TYPE)
if(SITEMILL_LIBRARY_TYPE STREQUAL "STATIC_LIBRARY")
  set(SITEMILL_PC_LIBS "${SITEMILL_PC_LIBS_PRIVATE} -pthread")
  set(SITEMILL_PC_LIBS_PRIVATE_ONLY "")
else()
  set(SITEMILL_PC_LIBS "")
  set(SITEMILL_PC_LIBS_PRIVATE_ONLY "${SITEMILL_PC_LIBS_PRIVATE} -pthread")
endif()
file(RELATIVE_PATH SITEMILL_PC_TO_PREFIX "/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/")
configure_file(${PROJECT_SOURCE_DIR}/cmake/sitemill.pc.in ${PROJECT_BINARY_DIR}/sitemill.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/sitemill.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The documents that --help, the man pages and the report cite as docs/NAME.md,
# installed as share/doc/sitemill/NAME.md (cli/docs_location.h finds them
# there from the installed binary).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}
        FILES_MATCHING PATTERN "*.md" PATTERN "*.png")

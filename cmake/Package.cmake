# A Debian package of everything `cmake --install` installs (the CLI, the
# library, headers, CMake and pkg-config files, licence, man pages and shell
# completions): `cpack -G DEB` in the build directory writes
# sitemill_<version>_<arch>.deb. Its Depends are computed by dpkg-shlibdeps
# from what the binary links, so they match the Debian release it was built
# on. tests/package/run.sh builds one and installs it into a scratch root.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME sitemill)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_DESCRIPTION
    "sitemill generates sitemaps.org sitemaps from URL lists, exports, built sites, existing sitemaps and access logs, checks them against every rule of the protocol, shows them (report, stats, diff) and announces them (robots.txt, IndexNow, ping). It is a C++ library as well as a command-line tool.")
set(CPACK_PACKAGE_CONTACT "sitemill maintainers <maintainers@sitemill.invalid>")
set(CPACK_PACKAGE_HOMEPAGE_URL "https://github.com/sitemill/sitemill")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION web)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
include(CPack)

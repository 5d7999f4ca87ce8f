# Every dependency comes from Debian 12 packages (scripts/install-deps.sh).
find_package(Threads REQUIRED)
find_package(PkgConfig REQUIRED)
# libdeflate: whole-buffer DEFLATE, ~2.6x zlib's speed at a smaller size than
# gzip -6 (benchmarks/README.md). ISA-L: the --fast level, ~5x libdeflate -1.
pkg_check_modules(LIBDEFLATE REQUIRED IMPORTED_TARGET libdeflate)
pkg_check_modules(ISAL REQUIRED IMPORTED_TARGET libisal)
pkg_check_modules(IDN2 REQUIRED IMPORTED_TARGET libidn2)
pkg_check_modules(XXHASH REQUIRED IMPORTED_TARGET libxxhash)
# libxml2: the SAX parser behind sitemap_parser (600 MB/s, against expat's
# 310 MB/s on the same 51 MB sitemap) and XSD validation of extensions.
pkg_check_modules(LIBXML2 REQUIRED IMPORTED_TARGET libxml-2.0)
pkg_check_modules(LIBCURL REQUIRED IMPORTED_TARGET libcurl)
# gumbo: an HTML5 tree parser, only for the tests (the independent oracle
# the scan of pages is compared with) and the parser benchmark; the library
# reads HTML with its own tokenizer (src/html/html_tokenizer.h says why).
# SQLite: the state database of --lastmod content.
pkg_check_modules(GUMBO REQUIRED IMPORTED_TARGET gumbo)
pkg_check_modules(SQLITE3 REQUIRED IMPORTED_TARGET sqlite3)
# RE2: the --include-regex/--exclude-regex patterns, matched against every
# URL of untrusted inputs in time linear in its length (no backtracking).
pkg_check_modules(RE2 REQUIRED IMPORTED_TARGET re2)
find_package(ZLIB REQUIRED)
# OpenSSL's libcrypto: SHA-256 and HMAC for signed requests (detail/digest.h),
# and RS256 for service-account tokens.
find_package(OpenSSL 3 REQUIRED)
find_package(nlohmann_json 3 REQUIRED)
# Howard Hinnant's date/tz (libhowardhinnant-date-dev): IANA zone rules for
# generate's `time_zone`, read from the OS tz database (tzdata) by the shared
# libdate-tz, built with USE_OS_TZDB (g++ 12's libstdc++ has no chrono tzdb).
find_package(date REQUIRED CONFIG)
find_package(CLI11 REQUIRED)
# toml++: the CLI's sitemill.toml (cli/config_file.cpp), with the line of
# every key for messages. The library does not read config files.
pkg_check_modules(TOMLPP REQUIRED IMPORTED_TARGET tomlplusplus)

# Only the reader measurement (benchmarks/reader_libs_bench.cpp) uses these:
# the JSON and CSV libraries the hand-written readers are compared with.
if(SITEMILL_BUILD_BENCHMARKS)
  pkg_check_modules(SIMDJSON REQUIRED IMPORTED_TARGET simdjson)
  find_library(LIBCSV_LIBRARY csv REQUIRED)
  find_path(LIBCSV_INCLUDE_DIR csv.h REQUIRED)
  find_path(FCCP_INCLUDE_DIR libfccp/csv.h REQUIRED)
endif()

set(SITEMILL_PRIVATE_DEPS PkgConfig::LIBDEFLATE PkgConfig::ISAL PkgConfig::IDN2
    PkgConfig::XXHASH PkgConfig::LIBXML2 PkgConfig::LIBCURL
    PkgConfig::SQLITE3 PkgConfig::RE2 ZLIB::ZLIB OpenSSL::Crypto
    nlohmann_json::nlohmann_json date::date-tz)
# What a consumer of the static library links besides it (sitemill.pc).
set(SITEMILL_PC_LIBS_PRIVATE "-ldeflate -lisal -lidn2 -lxml2 -lcurl -lsqlite3 -lre2 -lz -lcrypto -ldate-tz")

# Warnings for our own targets only, so third-party headers stay quiet.
function(sitemill_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow
                         -Wconversion -Wno-sign-conversion)
  # g++ 12 reports "literal" + std::string as an overlapping memcpy at -O2
  # (GCC bug 105329, fixed in 13): a false -Wrestrict in libstdc++'s own
  # code, dozens of times, which would hide a real warning among them.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND
     CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(${target} PRIVATE -Wno-restrict)
  endif()
endfunction()

# Warnings for our own targets only, so third-party headers stay quiet.
function(sitemill_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow
                         -Wconversion -Wno-sign-conversion)
endfunction()

# Each public header compiles on its own: one generated .cpp per header under
# include/sitemill/ that includes it twice (the second time proves its include
# guard) and nothing else. The headers are globbed, so a new one is checked
# without a list to keep. The test binary depends on the object library, so
# building the suite checks them; each file parses one header at -O0 (there is
# nothing to optimise), about a second of CPU per header, once, as ccache
# keeps them. tests/public_headers_test.cpp checks that sitemill.h reaches
# every one of them.
function(sitemill_add_header_check target)
  file(GLOB_RECURSE headers CONFIGURE_DEPENDS
       RELATIVE ${PROJECT_SOURCE_DIR}/include
       ${PROJECT_SOURCE_DIR}/include/sitemill/*.h)
  set(sources)
  foreach(header ${headers})
    string(MAKE_C_IDENTIFIER ${header} id)
    set(source ${CMAKE_CURRENT_BINARY_DIR}/header_check/${id}.cpp)
    # Rewritten only when the text changes, so a configure rebuilds nothing.
    file(CONFIGURE OUTPUT ${source} CONTENT
         "#include \"${header}\"\n#include \"${header}\"\n" @ONLY)
    list(APPEND sources ${source})
  endforeach()
  add_library(${target} OBJECT ${sources})
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/include
                             ${PROJECT_BINARY_DIR}/include)
  target_compile_options(${target} PRIVATE -O0)
  sitemill_warnings(${target})
endfunction()

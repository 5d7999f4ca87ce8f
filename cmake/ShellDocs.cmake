# The man pages and the shell completions, written at build time by the
# built sitemill itself (`sitemill man`, `sitemill completions`), so they
# always describe the binary they are installed with. Not when
# cross-compiling: the binary cannot run on the build machine.
if(CMAKE_CROSSCOMPILING)
  message(STATUS "sitemill: cross-compiling, so no man pages or completions")
  return()
endif()

set(SITEMILL_SHELL_DOCS ${PROJECT_BINARY_DIR}/shell-docs)
set(SITEMILL_SHELL_DOCS_FILES
    ${SITEMILL_SHELL_DOCS}/man1/sitemill.1 ${SITEMILL_SHELL_DOCS}/sitemill.bash
    ${SITEMILL_SHELL_DOCS}/_sitemill ${SITEMILL_SHELL_DOCS}/sitemill.fish)
# One page per command: the binary knows the commands, so the script writes
# the whole man1/ directory and the rule names only the pages always there.
add_custom_command(
  OUTPUT ${SITEMILL_SHELL_DOCS_FILES}
  COMMAND ${CMAKE_COMMAND} -DSITEMILL=$<TARGET_FILE:sitemill_cli>
          -DOUT=${SITEMILL_SHELL_DOCS} -P ${PROJECT_SOURCE_DIR}/cmake/WriteShellDocs.cmake
  DEPENDS sitemill_cli ${PROJECT_SOURCE_DIR}/cmake/WriteShellDocs.cmake
  COMMENT "Writing the man pages and shell completions with the built sitemill"
  VERBATIM)
add_custom_target(sitemill_shell_docs ALL DEPENDS ${SITEMILL_SHELL_DOCS_FILES})

install(DIRECTORY ${SITEMILL_SHELL_DOCS}/man1/ DESTINATION ${CMAKE_INSTALL_MANDIR}/man1
        FILES_MATCHING PATTERN "*.1")
# Where bash-completion, zsh and fish look for packages' completions.
install(FILES ${SITEMILL_SHELL_DOCS}/sitemill.bash
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME sitemill)
install(FILES ${SITEMILL_SHELL_DOCS}/_sitemill
        DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/site-functions)
install(FILES ${SITEMILL_SHELL_DOCS}/sitemill.fish
        DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d)

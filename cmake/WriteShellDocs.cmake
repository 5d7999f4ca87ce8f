# cmake -DSITEMILL=<built binary> -DOUT=<dir> -P WriteShellDocs.cmake
# Writes OUT/man1/*.1 and OUT/{sitemill.bash,_sitemill,sitemill.fish}.
# Runs in OUT, where no sitemill.toml can be (every command reads one from
# its working directory).
file(REMOVE_RECURSE ${OUT}/man1)  # a removed command's page must not linger
file(MAKE_DIRECTORY ${OUT})
execute_process(COMMAND ${SITEMILL} man --out ${OUT}/man1
                WORKING_DIRECTORY ${OUT} RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "sitemill man --out ${OUT}/man1 failed: ${status}")
endif()
foreach(shell_and_file bash:sitemill.bash zsh:_sitemill fish:sitemill.fish)
  string(REPLACE ":" ";" pair ${shell_and_file})
  list(GET pair 0 shell)
  list(GET pair 1 file)
  execute_process(COMMAND ${SITEMILL} completions ${shell}
                  WORKING_DIRECTORY ${OUT} OUTPUT_FILE ${OUT}/${file}
                  RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "sitemill completions ${shell} failed: ${status}")
  endif()
endforeach()

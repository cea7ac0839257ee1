# The man page and the bash completion of the `rigidbench` command, generated from the program itself
# after it is built, so they always list its commands and options (docs/decisions.md, "Man page and
# completion"), and installed by `cmake --install`:
# - man page: Debian's help2man over cmake/man-help.sh (the program's --help, then each command's);
# - bash completion: cmake/make_completion.py (commands, options, scheme and problem names).

find_program(RIGIDBENCH_HELP2MAN help2man)
set(_man ${PROJECT_BINARY_DIR}/rigidbench.1)
set(_completion ${PROJECT_BINARY_DIR}/rigidbench.bash)
set(_outputs ${_completion})
add_custom_command(OUTPUT ${_completion}
                   COMMAND ${RIGIDBENCH_PYTHON} ${PROJECT_SOURCE_DIR}/cmake/make_completion.py $<TARGET_FILE:rigidbench_cli> ${_completion}
                   DEPENDS rigidbench_cli ${PROJECT_SOURCE_DIR}/cmake/make_completion.py
                   COMMENT "bash completion of rigidbench" VERBATIM)
if(RIGIDBENCH_HELP2MAN)
  add_custom_command(OUTPUT ${_man}
                     COMMAND ${CMAKE_COMMAND} -E env RIGIDBENCH_MAN_EXE=$<TARGET_FILE:rigidbench_cli>
                             ${RIGIDBENCH_HELP2MAN} --no-info --section=1
                             "--name=verification and benchmark harness for rigid-body time integrators"
                             --include=${PROJECT_SOURCE_DIR}/cmake/man-sections.h2m
                             ${PROJECT_SOURCE_DIR}/cmake/man-help.sh -o ${_man}
                     DEPENDS rigidbench_cli ${PROJECT_SOURCE_DIR}/cmake/man-help.sh
                             ${PROJECT_SOURCE_DIR}/cmake/man-sections.h2m
                     COMMENT "man page of rigidbench (help2man)" VERBATIM)
  list(APPEND _outputs ${_man})
  install(FILES ${_man} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
else()
  message(STATUS "rigidbench: help2man not found - no man page (apt-get install help2man)")
endif()
add_custom_target(rigidbench_shell_docs ALL DEPENDS ${_outputs})
install(FILES ${_completion} DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME rigidbench)

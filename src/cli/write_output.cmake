# cmake -DPROGRAM=... -DARGUMENTS=a;b -DOUTPUT=file -P write_output.cmake: runs PROGRAM with
# ARGUMENTS and writes its standard output to OUTPUT, failing the build when it fails.
get_filename_component(directory "${OUTPUT}" DIRECTORY)
file(MAKE_DIRECTORY "${directory}")
execute_process(COMMAND "${PROGRAM}" ${ARGUMENTS} OUTPUT_FILE "${OUTPUT}.tmp"
                RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  file(REMOVE "${OUTPUT}.tmp")
  message(FATAL_ERROR "${PROGRAM} ${ARGUMENTS} failed (${result})")
endif()
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")

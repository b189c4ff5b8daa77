# Runs lupdate over the sources into a scratch copy of TS_FILE and fails on unfinished strings
# (with NUMERUS_ONLY, on unfinished plural forms only: the English catalogue).
get_filename_component(ts_name "${TS_FILE}" NAME)
get_filename_component(stamp_dir "${STAMP}" DIRECTORY)
set(scratch "${stamp_dir}/${ts_name}")
file(MAKE_DIRECTORY "${stamp_dir}")
file(COPY_FILE "${TS_FILE}" "${scratch}")
execute_process(
    COMMAND "${LUPDATE}" -silent -locations none -no-obsolete "@${LIST_FILE}" -ts "${scratch}"
    RESULT_VARIABLE rc
    OUTPUT_VARIABLE out
    ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "lupdate failed (${rc}):\n${out}\n${err}")
endif()
file(READ "${scratch}" content)
set(start "")
if(NUMERUS_ONLY)
    set(start "<message numerus=\"yes\">[ \n\r\t]*")
endif()
string(REGEX MATCHALL "${start}<source>[^<]*</source>[ \n\r\t]*(<comment>[^<]*</comment>[ \n\r\t]*)?(<extracomment>[^<]*</extracomment>[ \n\r\t]*)?<translation type=\"unfinished\"" unfinished "${content}")
list(LENGTH unfinished count)
if(count GREATER 0)
    set(listing "")
    foreach(entry IN LISTS unfinished)
        string(REGEX REPLACE "^.*<source>([^<]*)</source>.*" "\\1" text "${entry}")
        string(APPEND listing "  - ${text}\n")
    endforeach()
    message(FATAL_ERROR
        "${ts_name}: ${count} string(s) have no translation. Run "
        "`cmake --build <build> --target update_translations`, translate them in "
        "translations/${ts_name}, and build again:\n${listing}")
endif()
file(TOUCH "${STAMP}")

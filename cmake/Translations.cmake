# Translations: every user-visible string has a zh_CN translation, and the build fails otherwise.
#
# cudnnsetup_add_translations(TARGET tgt TS_FILES a.ts b.ts SOURCE_DIRS dir...)
#   - embeds the compiled .qm files into `tgt` under :/i18n
#   - adds the `update_translations` target (lupdate into the committed .ts files)
#   - adds `check_translations` to ALL: lupdate into a scratch copy of each zh_CN .ts file and fail
#     when any string is unfinished, so a new tr() without its Chinese breaks the build.
function(cudnnsetup_add_translations)
    cmake_parse_arguments(arg "" "TARGET" "TS_FILES;SOURCE_DIRS" ${ARGN})
    set(sources)
    foreach(dir IN LISTS arg_SOURCE_DIRS)
        file(GLOB_RECURSE found CONFIGURE_DEPENDS
            "${CMAKE_SOURCE_DIR}/${dir}/*.cpp" "${CMAKE_SOURCE_DIR}/${dir}/*.h")
        list(APPEND sources ${found})
    endforeach()
    list(SORT sources)

    qt_add_translations(${arg_TARGET}
        TS_FILES ${arg_TS_FILES}
        SOURCES ${sources}
        RESOURCE_PREFIX "/i18n"
        LUPDATE_OPTIONS -locations none -no-obsolete
        LRELEASE_OPTIONS -nounfinished -removeidentical)

    set(list_file "${CMAKE_BINARY_DIR}/translation-sources.lst")
    string(REPLACE ";" "\n" list_content "${sources}")
    file(GENERATE OUTPUT "${list_file}" CONTENT "${list_content}\n")

    set(stamps)
    foreach(ts IN LISTS arg_TS_FILES)
        get_filename_component(ts_name "${ts}" NAME)
        # English is the source language: only its plural forms ("1 thing", "3 things") are written.
        set(numerus_only OFF)
        if(NOT ts_name MATCHES "_zh_CN\\.ts$")
            set(numerus_only ON)
        endif()
        set(stamp "${CMAKE_BINARY_DIR}/translation-check/${ts_name}.stamp")
        add_custom_command(
            OUTPUT "${stamp}"
            COMMAND ${CMAKE_COMMAND}
                -DLUPDATE=$<TARGET_FILE:Qt6::lupdate>
                -DTS_FILE=${ts}
                -DLIST_FILE=${list_file}
                -DSTAMP=${stamp}
                -DNUMERUS_ONLY=${numerus_only}
                -P "${CMAKE_SOURCE_DIR}/cmake/CheckTranslations.cmake"
            DEPENDS ${sources} ${ts} "${CMAKE_SOURCE_DIR}/cmake/CheckTranslations.cmake"
            COMMENT "Checking that every string has its ${ts_name} translation"
            VERBATIM)
        list(APPEND stamps "${stamp}")
    endforeach()
    add_custom_target(check_translations ALL DEPENDS ${stamps})
    if(NOT TARGET update_translations)
        add_custom_target(update_translations DEPENDS ${arg_TARGET}_lupdate)
    endif()
endfunction()

# zlibwapi.dll: the 64-bit zlib DLL that cuDNN 8.3 to 9.1 on Windows imports and NVIDIA does not ship
# (../shared/reference/nvidia-compat.md §5). We build it ourselves from the zlib the project links,
# so the installer can put it beside the cuDNN DLLs; the core library embeds it as the resource
# :/zlibwapi/zlibwapi.dll (core/install/Zlibwapi.h).
#
# How: MinGW-w64's gcc links zlib's static libz.a whole (--whole-archive) into an x64 DLL named
# zlibwapi.dll whose .def file exports the zlib API under the names and ordinals of zlib's own
# contrib/vstudio zlibvc.def (the build behind the zlibwapi.dll users download), keeping only the
# functions the library really defines (nm). libgcc is linked statically, so the DLL needs nothing
# but KERNEL32.dll and msvcrt.dll; a version resource carries zlib's version. After linking, this
# file runs again as a script (-P) and checks the result with objdump: PE32+, x64, a DLL, every
# export there, no other DLL imported. The link is reproducible (no timestamp, stripped, a fixed
# preferred base instead of ld's, which hashes the output path; ASLR moves it anyway), so the DLL's
# SHA-256 changes only with zlib and the compiler, and the native and the cross build make the same.
#
# Where zlib comes from:
# - the MinGW cross build: ZLIB_LIBRARY, which cmake/toolchain-mingw-w64.cmake points at the static
#   libz.a of Debian's libz-mingw-w64-dev (the zlib the programs link);
# - the native Linux build: the same libz.a (CUDNNSETUP_MINGW_ZLIB, default
#   /usr/x86_64-w64-mingw32/lib/libz.a) with x86_64-w64-mingw32-gcc, so Linux tests and a Linux
#   cudnnctl that installs into a Windows image have it. Without them (Debian: mingw-w64,
#   libz-mingw-w64-dev) the DLL is left out with a STATUS message and the program reports it as
#   unavailable.
# MSVC builds leave it out too (not built here; the MinGW build is what CI exercises).
#
# Sets CUDNNSETUP_ZLIBWAPI_DLL (the DLL's path, empty when left out) and the custom target
# cudnnsetup_zlibwapi that builds it.

# ---- Script mode: the check after linking ---------------------------------------------------------
if(CMAKE_SCRIPT_MODE_FILE)
    # -DDLL= -DOBJDUMP= -DEXPORTS=<count>
    execute_process(COMMAND "${OBJDUMP}" -p "${DLL}" OUTPUT_VARIABLE dump RESULT_VARIABLE failed)
    set(problems "")
    if(failed)
        list(APPEND problems "objdump -p failed")
    endif()
    if(NOT dump MATCHES "file format pei-x86-64")
        list(APPEND problems "not an x64 PE image")
    endif()
    if(NOT dump MATCHES "Magic[ \t]+020b")
        list(APPEND problems "not PE32+")
    endif()
    string(REGEX MATCH "Characteristics 0x([0-9a-fA-F]+)" characteristics "${dump}")
    math(EXPR is_dll "0x${CMAKE_MATCH_1} & 0x2000")
    if(NOT is_dll)
        list(APPEND problems "not a DLL")
    endif()
    string(REGEX MATCHALL "DLL Name: [^\n]+" imports "${dump}")
    foreach(import IN LISTS imports)
        string(REPLACE "DLL Name: " "" import "${import}")
        string(TOLOWER "${import}" lower)
        if(NOT lower STREQUAL "kernel32.dll" AND NOT lower STREQUAL "msvcrt.dll")
            list(APPEND problems "imports ${import}")
        endif()
    endforeach()
    string(REGEX MATCHALL "\n[ \t]+\\[ *[0-9]+\\] [A-Za-z_][A-Za-z0-9_]*" names "${dump}")
    list(LENGTH names exported)
    if(NOT exported EQUAL EXPORTS)
        list(APPEND problems "${exported} exported names, ${EXPORTS} expected")
    endif()
    if(problems)
        file(REMOVE "${DLL}")
        list(JOIN problems "; " why)
        message(FATAL_ERROR "zlibwapi.dll: ${why}")
    endif()
    string(REPLACE "DLL Name: " "" imports "${imports}")
    message(STATUS "zlibwapi.dll: x64 DLL, ${exported} exports, imports ${imports}")
    return()
endif()

# ---- Configure mode ------------------------------------------------------------------------------
set(CUDNNSETUP_ZLIBWAPI_DLL "")
set(zlibwapi_script "${CMAKE_CURRENT_LIST_FILE}")

# The zlib API with zlibvc.def's ordinals (zlib 1.2.13, contrib/vstudio; the minizip unz*/zip*
# functions of that file are not zlib's and are left out).
set(zlibwapi_api
    adler32=1 compress=2 crc32=3 deflate=4 deflateCopy=5 deflateEnd=6 deflateInit2_=7 deflateInit_=8
    deflateParams=9 deflateReset=10 deflateSetDictionary=11 gzclose=12 gzdopen=13 gzerror=14 gzflush=15
    gzopen=16 gzread=17 gzwrite=18 inflate=19 inflateEnd=20 inflateInit2_=21 inflateInit_=22
    inflateReset=23 inflateSetDictionary=24 inflateSync=25 uncompress=26 zlibVersion=27 gzprintf=28
    gzputc=29 gzgetc=30 gzseek=31 gzrewind=32 gztell=33 gzeof=34 gzsetparams=35 zError=36
    inflateSyncPoint=37 get_crc_table=38 compress2=39 gzputs=40 gzgets=41 inflateCopy=42
    inflateBackInit_=43 inflateBack=44 inflateBackEnd=45 compressBound=46 deflateBound=47
    gzclearerr=48 gzungetc=49 zlibCompileFlags=50 deflatePrime=51 deflatePending=52
    adler32_combine=140 adler32_combine64=141 crc32_combine=142 crc32_combine64=143
    deflateSetHeader=144 deflateTune=145 gzbuffer=146 gzclose_r=147 gzclose_w=148 gzdirect=149
    gzoffset=150 gzoffset64=151 gzopen64=152 gzseek64=153 gztell64=154 inflateGetHeader=156
    inflateMark=157 inflatePrime=158 inflateReset2=159 inflateUndermine=160 gzgetc_=161
    inflateResetKeep=163 deflateResetKeep=164 gzopen_w=165 inflateGetDictionary=166 gzvprintf=167
    inflateCodesUsed=168 inflateValidate=169 uncompress2=170 gzfread=171 gzfwrite=172
    deflateGetDictionary=173 adler32_z=174 crc32_z=175 crc32_combine_gen=176 crc32_combine_gen64=177
    crc32_combine_op=178)

if(MSVC)
    message(STATUS "zlibwapi.dll: not built with MSVC (the MinGW-w64 builds make it); left out")
    return()
endif()

if(WIN32 AND MINGW)
    # The cross build (or MSYS2): the project's own compiler and the zlib the programs link.
    set(zlibwapi_cc "${CMAKE_C_COMPILER}")
    set(zlibwapi_nm "${CMAKE_NM}")
    set(zlibwapi_objdump "${CMAKE_OBJDUMP}")
    set(zlibwapi_windres "${CMAKE_RC_COMPILER}")
    set(zlibwapi_zlib "${ZLIB_LIBRARY}")
    if(ZLIB_LIBRARY_RELEASE)
        set(zlibwapi_zlib "${ZLIB_LIBRARY_RELEASE}")
    endif()
    set(zlibwapi_header "${ZLIB_INCLUDE_DIR}/zlib.h")
elseif(NOT WIN32)
    # The native Linux build: Debian's MinGW-w64 and its zlib, when installed.
    # The cross build's compiler first (cmake/toolchain-mingw-w64.cmake), so both make the same bytes.
    find_program(CUDNNSETUP_MINGW_GCC NAMES x86_64-w64-mingw32-gcc-posix x86_64-w64-mingw32-gcc
        x86_64-w64-mingw32-gcc-win32)
    find_program(CUDNNSETUP_MINGW_NM NAMES x86_64-w64-mingw32-nm)
    find_program(CUDNNSETUP_MINGW_OBJDUMP NAMES x86_64-w64-mingw32-objdump)
    find_program(CUDNNSETUP_MINGW_WINDRES NAMES x86_64-w64-mingw32-windres)
    set(CUDNNSETUP_MINGW_ZLIB "/usr/x86_64-w64-mingw32/lib/libz.a" CACHE FILEPATH
        "Static zlib for MinGW-w64 that zlibwapi.dll is built from")
    set(zlibwapi_cc "${CUDNNSETUP_MINGW_GCC}")
    set(zlibwapi_nm "${CUDNNSETUP_MINGW_NM}")
    set(zlibwapi_objdump "${CUDNNSETUP_MINGW_OBJDUMP}")
    set(zlibwapi_windres "${CUDNNSETUP_MINGW_WINDRES}")
    set(zlibwapi_zlib "${CUDNNSETUP_MINGW_ZLIB}")
    get_filename_component(zlibwapi_prefix "${CUDNNSETUP_MINGW_ZLIB}" DIRECTORY)
    set(zlibwapi_header "${zlibwapi_prefix}/../include/zlib.h")
else()
    message(STATUS "zlibwapi.dll: no MinGW-w64 compiler in this build; left out")
    return()
endif()

if(NOT zlibwapi_cc OR NOT zlibwapi_objdump)
    message(STATUS "zlibwapi.dll: x86_64-w64-mingw32-gcc not found (Debian: mingw-w64); left out")
    return()
endif()
if(NOT EXISTS "${zlibwapi_zlib}" OR NOT zlibwapi_zlib MATCHES "\\.a$" OR zlibwapi_zlib MATCHES "\\.dll\\.a$")
    message(STATUS "zlibwapi.dll: no static MinGW-w64 zlib ('${zlibwapi_zlib}'; Debian: libz-mingw-w64-dev); left out")
    return()
endif()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${zlibwapi_zlib}")

# Only what the library really defines: nm's global text symbols.
set(zlibwapi_defined "")
if(zlibwapi_nm)
    execute_process(COMMAND "${zlibwapi_nm}" -g --defined-only "${zlibwapi_zlib}"
        OUTPUT_VARIABLE nm_output RESULT_VARIABLE nm_failed ERROR_QUIET)
    if(NOT nm_failed)
        string(REGEX MATCHALL "[0-9a-fA-F]+ T [A-Za-z_][A-Za-z0-9_]*" nm_lines "${nm_output}")
        foreach(line IN LISTS nm_lines)
            string(REGEX REPLACE "^[0-9a-fA-F]+ T " "" name "${line}")
            list(APPEND zlibwapi_defined "${name}")
        endforeach()
    endif()
endif()
set(def_lines "")
set(left_out "")
set(zlibwapi_export_count 0)
foreach(pair IN LISTS zlibwapi_api)
    string(REPLACE "=" ";" pair "${pair}")
    list(GET pair 0 name)
    list(GET pair 1 ordinal)
    if(zlibwapi_defined AND NOT name IN_LIST zlibwapi_defined)
        list(APPEND left_out "${name}")
        continue()
    endif()
    string(APPEND def_lines "    ${name} @${ordinal}\n")
    math(EXPR zlibwapi_export_count "${zlibwapi_export_count} + 1")
endforeach()
if(left_out)
    message(STATUS "zlibwapi.dll: not in this zlib, not exported: ${left_out}")
endif()

# zlib's version, for the version resource.
set(zlibwapi_version "")
if(EXISTS "${zlibwapi_header}")
    file(STRINGS "${zlibwapi_header}" version_line REGEX "^#define ZLIB_VERSION \"[0-9.]+")
    string(REGEX MATCH "\"([0-9.]+)" version_match "${version_line}")
    set(zlibwapi_version "${CMAKE_MATCH_1}")
endif()

set(zlibwapi_dir "${CMAKE_BINARY_DIR}/zlibwapi")
set(zlibwapi_def "${zlibwapi_dir}/zlibwapi.def")
set(zlibwapi_dll "${zlibwapi_dir}/zlibwapi.dll")
file(MAKE_DIRECTORY "${zlibwapi_dir}")
# file(CONFIGURE) rewrites the file only when its content changes: no relink on every configure.
file(CONFIGURE OUTPUT "${zlibwapi_def}" CONTENT "LIBRARY zlibwapi.dll\nEXPORTS\n${def_lines}")

set(link_inputs "${zlibwapi_def}")
set(link_depends "${zlibwapi_def}" "${zlibwapi_zlib}" "${zlibwapi_script}")
if(zlibwapi_windres AND zlibwapi_version)
    string(REPLACE "." ";" parts "${zlibwapi_version}")
    list(APPEND parts 0 0 0 0)
    list(SUBLIST parts 0 4 parts)
    list(JOIN parts "," numeric)
    set(zlibwapi_rc "${zlibwapi_dir}/zlibwapi.rc")
    set(zlibwapi_res "${zlibwapi_dir}/zlibwapi_rc.o")
    file(CONFIGURE OUTPUT "${zlibwapi_rc}" @ONLY CONTENT [[
1 VERSIONINFO
FILEVERSION @numeric@
PRODUCTVERSION @numeric@
FILEFLAGSMASK 0x3f
FILEFLAGS 0
FILEOS 0x40004
FILETYPE 2
FILESUBTYPE 0
BEGIN
    BLOCK "StringFileInfo"
    BEGIN
        BLOCK "040904b0"
        BEGIN
            VALUE "Comments", "zlib built as zlibwapi.dll by cuDNN Setup for cuDNN 8.3 to 9.1"
            VALUE "FileDescription", "zlib data compression library"
            VALUE "FileVersion", "@zlibwapi_version@"
            VALUE "InternalName", "zlibwapi.dll"
            VALUE "LegalCopyright", "(C) Jean-loup Gailly and Mark Adler"
            VALUE "OriginalFilename", "zlibwapi.dll"
            VALUE "ProductName", "zlib"
            VALUE "ProductVersion", "@zlibwapi_version@"
        END
    END
    BLOCK "VarFileInfo"
    BEGIN
        VALUE "Translation", 0x409, 1200
    END
END
]])
    add_custom_command(
        OUTPUT "${zlibwapi_res}"
        COMMAND "${zlibwapi_windres}" --target=pe-x86-64 -i "${zlibwapi_rc}" -o "${zlibwapi_res}"
        DEPENDS "${zlibwapi_rc}"
        VERBATIM)
    list(APPEND link_inputs "${zlibwapi_res}")
    list(APPEND link_depends "${zlibwapi_res}")
endif()

add_custom_command(
    OUTPUT "${zlibwapi_dll}"
    COMMAND "${zlibwapi_cc}" -shared -o "${zlibwapi_dll}" ${link_inputs}
        -Wl,--whole-archive "${zlibwapi_zlib}" -Wl,--no-whole-archive
        -static -static-libgcc -s -Wl,--no-insert-timestamp -Wl,--image-base=0x180000000
    COMMAND "${CMAKE_COMMAND}" "-DDLL=${zlibwapi_dll}" "-DOBJDUMP=${zlibwapi_objdump}"
        "-DEXPORTS=${zlibwapi_export_count}" -P "${zlibwapi_script}"
    DEPENDS ${link_depends}
    COMMENT "Linking zlibwapi.dll from ${zlibwapi_zlib}"
    VERBATIM)
add_custom_target(cudnnsetup_zlibwapi DEPENDS "${zlibwapi_dll}")

set(CUDNNSETUP_ZLIBWAPI_DLL "${zlibwapi_dll}")
message(STATUS "zlibwapi.dll: built from ${zlibwapi_zlib} (zlib ${zlibwapi_version}, "
    "${zlibwapi_export_count} exports) with ${zlibwapi_cc}")

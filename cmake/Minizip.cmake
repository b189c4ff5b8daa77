# zlib's contrib/minizip 1.1, the archive layer's second backend, linked under renamed symbols.
#
# QuaZip bundles its own, different copy of minizip and its shared library exports the same unz*
# names. Linked side by side, the dynamic linker could bind QuaZip's calls to our copy or ours to
# QuaZip's. So the static archive is copied with every symbol it defines prefixed `cudnnsetup_`
# (objcopy --redefine-syms, cmake/RenameMinizip.cmake), and a generated MinizipRenames.h #defines
# the same names before <minizip/unzip.h> is included. Builds without QuaZip (MinGW) take the same
# path, so there is one way in.
#
# minizip comes from the MinGW prefix (find_package(minizip CONFIG), scripts/build-qt-mingw.sh) or
# the system (Debian: libminizip-dev, the static libminizip.a). Renaming needs GNU binutils.
# Sets CUDNNSETUP_MINIZIP_FOUND, the imported target cudnnsetup::minizip and the custom target
# cudnnsetup_minizip_renamed that whoever compiles against it depends on.

set(CUDNNSETUP_MINIZIP_FOUND OFF)
find_package(minizip CONFIG QUIET)
if(TARGET minizip::minizip)
    get_target_property(minizip_archive minizip::minizip IMPORTED_LOCATION)
    get_target_property(minizip_include minizip::minizip INTERFACE_INCLUDE_DIRECTORIES)
else()
    find_path(CUDNNSETUP_MINIZIP_INCLUDE_DIR minizip/unzip.h)
    find_library(CUDNNSETUP_MINIZIP_ARCHIVE NAMES libminizip.a)
    set(minizip_archive "${CUDNNSETUP_MINIZIP_ARCHIVE}")
    set(minizip_include "${CUDNNSETUP_MINIZIP_INCLUDE_DIR}")
endif()

if(NOT minizip_archive OR NOT minizip_include)
    message(STATUS "minizip: not found, the minizip zip backend is left out")
    return()
endif()
if(NOT CMAKE_NM OR NOT CMAKE_OBJCOPY)
    message(STATUS "minizip: no nm/objcopy to rename its symbols, the minizip zip backend is left out")
    return()
endif()

set(renamed_dir "${CMAKE_BINARY_DIR}/minizip-renamed")
set(renamed_archive "${renamed_dir}/libcudnnsetup_minizip.a")
set(renames_header "${renamed_dir}/MinizipRenames.h")
file(MAKE_DIRECTORY "${renamed_dir}")
add_custom_command(
    OUTPUT "${renamed_archive}" "${renames_header}"
    COMMAND "${CMAKE_COMMAND}"
        "-DNM=${CMAKE_NM}" "-DOBJCOPY=${CMAKE_OBJCOPY}" "-DARCHIVE=${minizip_archive}"
        -DPREFIX=cudnnsetup_ "-DOUTPUT_ARCHIVE=${renamed_archive}" "-DOUTPUT_HEADER=${renames_header}"
        -P "${CMAKE_SOURCE_DIR}/cmake/RenameMinizip.cmake"
    DEPENDS "${minizip_archive}" "${CMAKE_SOURCE_DIR}/cmake/RenameMinizip.cmake"
    COMMENT "Renaming minizip's symbols (cudnnsetup_unz...)"
    VERBATIM)
add_custom_target(cudnnsetup_minizip_renamed DEPENDS "${renamed_archive}" "${renames_header}")

add_library(cudnnsetup::minizip STATIC IMPORTED GLOBAL)
set_target_properties(cudnnsetup::minizip PROPERTIES
    IMPORTED_LOCATION "${renamed_archive}"
    INTERFACE_INCLUDE_DIRECTORIES "${renamed_dir};${minizip_include}"
    INTERFACE_LINK_LIBRARIES ZLIB::ZLIB)
set(CUDNNSETUP_MINIZIP_FOUND ON)
message(STATUS "minizip: ${minizip_archive}, linked as ${renamed_archive}")

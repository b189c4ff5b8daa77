# Cross-compiles for Windows x64 with Debian's MinGW-w64 (posix threads) against the static Qt that
# scripts/build-qt-mingw.sh builds into a cache outside the work tree. The programs link the C and
# C++ runtimes and winpthread statically, so the .exe files need no DLL beside them; tests run
# through Wine (CMAKE_CROSSCOMPILING_EMULATOR, cmake/run-under-wine.sh).
#
# The Qt prefix: $CUDNNSETUP_QT_MINGW_PREFIX, else $CUDNNSETUP_CACHE (default
# /var/cache/cudnn-setup) / qt-6.4.2-mingw-w64-10-static. The Qt build passes it as a cache variable.
# The same prefix holds minizip (zlib contrib 1.1: unzip, ioapi, iowin32) for the archive layer:
# find_package(minizip CONFIG) gives minizip::minizip (minizip/include/minizip/*.h,
# minizip/lib/libminizip.a, linked with the static zlib below); cmake/Minizip.cmake links a
# renamed copy of it into the core library.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR AMD64)

set(CUDNNSETUP_MINGW_TRIPLE x86_64-w64-mingw32)
set(CMAKE_C_COMPILER ${CUDNNSETUP_MINGW_TRIPLE}-gcc-posix)
set(CMAKE_CXX_COMPILER ${CUDNNSETUP_MINGW_TRIPLE}-g++-posix)
set(CMAKE_RC_COMPILER ${CUDNNSETUP_MINGW_TRIPLE}-windres)

if(NOT CUDNNSETUP_QT_MINGW_PREFIX)
    if(NOT "$ENV{CUDNNSETUP_QT_MINGW_PREFIX}" STREQUAL "")
        set(CUDNNSETUP_QT_MINGW_PREFIX "$ENV{CUDNNSETUP_QT_MINGW_PREFIX}")
    else()
        set(cache_root "/var/cache/cudnn-setup")
        if(NOT "$ENV{CUDNNSETUP_CACHE}" STREQUAL "")
            set(cache_root "$ENV{CUDNNSETUP_CACHE}")
        endif()
        set(CUDNNSETUP_QT_MINGW_PREFIX "${cache_root}/qt-6.4.2-mingw-w64-10-static")
    endif()
endif()
set(CUDNNSETUP_QT_MINGW_PREFIX "${CUDNNSETUP_QT_MINGW_PREFIX}" CACHE PATH
    "Static Qt 6 for MinGW-w64, built by scripts/build-qt-mingw.sh")
# try_compile projects see the toolchain file again, without the cache.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES CUDNNSETUP_QT_MINGW_PREFIX)

set(CMAKE_FIND_ROOT_PATH "${CUDNNSETUP_QT_MINGW_PREFIX}" /usr/${CUDNNSETUP_MINGW_TRIPLE})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
list(APPEND CMAKE_PREFIX_PATH "${CUDNNSETUP_QT_MINGW_PREFIX}")

# Debian's Qt provides the host tools (moc, rcc, uic, lupdate, lrelease) of the same version.
if(NOT QT_HOST_PATH)
    set(QT_HOST_PATH /usr CACHE PATH "Host Qt for moc, rcc, uic")
endif()
if(NOT QT_HOST_PATH_CMAKE_DIR)
    set(QT_HOST_PATH_CMAKE_DIR /usr/lib/x86_64-linux-gnu/cmake CACHE PATH "Host Qt's CMake packages")
endif()

# Static zlib from libz-mingw-w64-dev (the import library would need zlib1.dll at run time).
set(ZLIB_LIBRARY /usr/${CUDNNSETUP_MINGW_TRIPLE}/lib/libz.a CACHE FILEPATH "static zlib")
set(ZLIB_INCLUDE_DIR /usr/${CUDNNSETUP_MINGW_TRIPLE}/include CACHE PATH "zlib headers")

set(CMAKE_EXE_LINKER_FLAGS_INIT "-static -static-libgcc -static-libstdc++")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-static-libgcc -static-libstdc++")
set(CMAKE_MODULE_LINKER_FLAGS_INIT "-static-libgcc -static-libstdc++")

set(CMAKE_CROSSCOMPILING_EMULATOR "${CMAKE_CURRENT_LIST_DIR}/run-under-wine.sh")

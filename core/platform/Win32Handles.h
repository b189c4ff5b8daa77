#pragma once

// Windows only: include it inside #ifdef Q_OS_WIN.

#include <memory>
#include <type_traits>

#include <qt_windows.h>

namespace cudnnsetup {

// What a Win32 call hands out is given back when its owner goes, on every way out of a function:
// an early return on an error path cannot leak a token or leave a file open (and so locked).

struct HandleCloser
{
    void operator()(HANDLE handle) const { CloseHandle(handle); }
};
// A kernel handle: a file or folder, a process, a token, a snapshot.
using OwnedHandle = std::unique_ptr<void, HandleCloser>;

// Win32 says "no handle" both ways: null (OpenProcess, tokens) and INVALID_HANDLE_VALUE (CreateFileW,
// snapshots); both become an empty OwnedHandle.
inline OwnedHandle owned(HANDLE handle)
{
    return OwnedHandle(handle == INVALID_HANDLE_VALUE ? nullptr : handle);
}

struct LocalFreer
{
    void operator()(void *memory) const { LocalFree(memory); }
};
// Memory the system allocated for the caller with LocalAlloc: a SID or descriptor as text, a
// security descriptor, a system message.
template <typename T>
using LocalMemory = std::unique_ptr<T, LocalFreer>;

struct KeyCloser
{
    void operator()(HKEY key) const { RegCloseKey(key); }
};
// An open registry key.
using OwnedKey = std::unique_ptr<std::remove_pointer_t<HKEY>, KeyCloser>;

} // namespace cudnnsetup

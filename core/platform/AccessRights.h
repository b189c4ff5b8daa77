#pragma once

#include <QtGlobal>

namespace cudnnsetup {

// File access rights (winnt.h).
constexpr quint32 kWriteData = 0x2;  // FILE_WRITE_DATA, FILE_ADD_FILE
constexpr quint32 kAppendData = 0x4; // FILE_APPEND_DATA, FILE_ADD_SUBDIRECTORY
constexpr quint32 kDeleteChild = 0x40;
constexpr quint32 kDelete = 0x10000;
constexpr quint32 kWriteDac = 0x40000;
constexpr quint32 kWriteOwner = 0x80000;
constexpr quint32 kGenericAll = 0x10000000;
constexpr quint32 kGenericExecute = 0x20000000;
constexpr quint32 kGenericWrite = 0x40000000;
constexpr quint32 kGenericRead = 0x80000000;
constexpr quint32 kFileAllAccess = 0x1f01ff;
constexpr quint32 kFileGenericRead = 0x120089;
constexpr quint32 kFileGenericWrite = 0x120116;
constexpr quint32 kFileGenericExecute = 0x1200a9;

} // namespace cudnnsetup

#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <utility>

// Shared objects built byte by byte: an x86-64 ELF with just what the loader reads to find its
// dependencies (one PT_LOAD, PT_DYNAMIC, DT_SONAME, DT_NEEDED, DT_RUNPATH or DT_RPATH), for trees
// where a library's search for another must be followed as ld.so would. ld.so itself loads them
// (dlopen follows their DT_NEEDED and RUNPATH); they export nothing.
namespace elfimage {

struct SharedObject
{
    QString soname;
    QStringList needed;
    QStringList runpath; // written as DT_RUNPATH
    QStringList rpath;   // written as DT_RPATH
    // Named sections after the dynamic section, with a section header table when there are any:
    // {".rodata", strings}, {".nv_fatbin", containers}.
    QList<std::pair<QByteArray, QByteArray>> sections = {};
    // A DT_INIT into its own data, which is not executable: ld.so's call to it faults, as a
    // library whose constructor crashes does.
    bool crashesWhenLoaded = false;
    // The same as its DT_FINI: it faults when unloaded, as a library whose threads outlive it does.
    bool crashesWhenUnloaded = false;
};

QByteArray build(const SharedObject &library);

} // namespace elfimage

#pragma once

#include <QList>
#include <QString>

namespace cudnnsetup {

// Where the parts of cuDNN sit inside an archive, recognised from the entry paths alone, for
// every era NVIDIA used:
//   cuda/bin, cuda/include, cuda/lib/x64                       8.2 and earlier ("cuda-root")
//   <archive name>/bin, include, lib/x64, LICENSE              8.3 to 9.17 ("archive-root")
//   <archive name>/bin/x64, include, lib/x64                   9.18 and later ("archive-root-x64")
//   <archive name>/lib, include (libcudnn.so*)                 the Linux archives
// A re-packed archive (an extra top folder, no top folder) is still recognised by its files.
struct CudnnLayout
{
    enum class Kind
    {
        CudaRoot,
        ArchiveRoot,
        ArchiveRootX64,
        Linux,
        Other, // cuDNN files, but not where any NVIDIA archive puts them
        NotCudnn,
    };

    Kind kind = Kind::NotCudnn;
    QString root;          // the one folder everything is in ("cuda", "cudnn-…-archive"), or empty
    QString libraryFolder; // where the DLLs (or .so files) are
    QString includeFolder;
    QString importLibraryFolder; // lib/x64 on Windows
    int mainLibrary = -1;        // index into the paths: cudnn64_N.dll / libcudnn.so.N
    int versionHeader = -1;      // cudnn_version.h, or cudnn.h before 8.0
    QList<int> libraries;        // every cuDNN DLL / shared library
    QList<int> windowsDlls;      // every .dll, cuDNN's or not (each is checked to be x64)
    QList<int> headers;
    QList<int> importLibraries;

    bool isCudnn() const { return kind != Kind::NotCudnn; }
    // "cuda-root", "archive-root", "archive-root-x64", "linux", "other", "not-cudnn"
    QString kindName() const;

    // `paths` are the entries' safe paths ('/'-separated), folders ending in '/'.
    static CudnnLayout recognise(const QStringList &paths);
};

} // namespace cudnnsetup

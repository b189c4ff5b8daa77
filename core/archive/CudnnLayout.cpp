#include "archive/CudnnLayout.h"

#include "detect/VersionParsers.h"

namespace cudnnsetup {

namespace {

QString folderOf(const QString &path)
{
    const qsizetype slash = path.lastIndexOf(QLatin1Char('/'));
    return slash < 0 ? QString() : path.left(slash);
}

QString fileNameOf(const QString &path)
{
    return path.mid(path.lastIndexOf(QLatin1Char('/')) + 1);
}

QString commonRoot(const QStringList &paths)
{
    QString root;
    for (const QString &path : paths) {
        const qsizetype slash = path.indexOf(QLatin1Char('/'));
        if (slash < 0)
            return {}; // a file at the top
        const QString first = path.left(slash);
        if (root.isEmpty())
            root = first;
        else if (first != root)
            return {};
    }
    return root;
}

} // namespace

QString CudnnLayout::kindName() const
{
    switch (kind) {
    case Kind::CudaRoot:
        return QStringLiteral("cuda-root");
    case Kind::ArchiveRoot:
        return QStringLiteral("archive-root");
    case Kind::ArchiveRootX64:
        return QStringLiteral("archive-root-x64");
    case Kind::Linux:
        return QStringLiteral("linux");
    case Kind::Other:
        return QStringLiteral("other");
    case Kind::NotCudnn:
        return QStringLiteral("not-cudnn");
    }
    return {};
}

CudnnLayout CudnnLayout::recognise(const QStringList &paths)
{
    CudnnLayout layout;
    layout.root = commonRoot(paths);
    int oldHeader = -1;
    for (int i = 0; i < paths.size(); ++i) {
        const QString &path = paths.at(i);
        if (path.endsWith(QLatin1Char('/')))
            continue;
        const QString name = fileNameOf(path);
        const QString lower = name.toLower();
        if (lower.endsWith(QLatin1String(".dll")))
            layout.windowsDlls.append(i);
        if (versions::isCudnnLibraryName(name)) {
            layout.libraries.append(i);
            if (versions::isMainCudnnLibraryName(name) &&
                (layout.mainLibrary < 0 || path.size() < paths.at(layout.mainLibrary).size()))
                layout.mainLibrary = i; // libcudnn.so before libcudnn.so.9.1.0
        }
        if (lower.endsWith(QLatin1String(".h")) && lower.startsWith(QLatin1String("cudnn")))
            layout.headers.append(i);
        if (lower == QLatin1String("cudnn_version.h"))
            layout.versionHeader = i;
        if (lower == QLatin1String("cudnn.h"))
            oldHeader = i;
        if (lower.endsWith(QLatin1String(".lib")) && lower.startsWith(QLatin1String("cudnn")))
            layout.importLibraries.append(i);
    }
    if (layout.versionHeader < 0)
        layout.versionHeader = oldHeader; // 7.x keeps its version in cudnn.h
    if (layout.mainLibrary < 0 && layout.versionHeader < 0)
        return layout; // NotCudnn

    if (layout.mainLibrary >= 0)
        layout.libraryFolder = folderOf(paths.at(layout.mainLibrary));
    if (layout.versionHeader >= 0)
        layout.includeFolder = folderOf(paths.at(layout.versionHeader));
    if (!layout.importLibraries.isEmpty())
        layout.importLibraryFolder = folderOf(paths.at(layout.importLibraries.first()));

    const QString base = layout.root.isEmpty() ? QString() : layout.root + QLatin1Char('/');
    const QString library = layout.libraryFolder;
    const bool linux =
        layout.mainLibrary >= 0 && fileNameOf(paths.at(layout.mainLibrary)).startsWith(QLatin1String("lib"));
    if (linux && (library == base + QLatin1String("lib") || library == base + QLatin1String("lib64")))
        layout.kind = Kind::Linux;
    else if ((layout.root.isEmpty() || layout.root == QLatin1String("cuda")) &&
             library == QLatin1String("cuda/bin")) {
        // NVIDIA's zips up to 8.2 put the licence beside cuda\, so cuda\ is not the only top folder.
        layout.kind = Kind::CudaRoot;
        layout.root = QStringLiteral("cuda");
    } else if (!layout.root.isEmpty() && library == base + QLatin1String("bin/x64"))
        layout.kind = Kind::ArchiveRootX64;
    else if (!layout.root.isEmpty() && library == base + QLatin1String("bin"))
        layout.kind = Kind::ArchiveRoot;
    else
        layout.kind = Kind::Other;
    return layout;
}

} // namespace cudnnsetup

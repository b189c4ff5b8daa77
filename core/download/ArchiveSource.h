#pragma once

#include "common/Expected.h"

#include <QString>
#include <QUrl>

namespace cudnnsetup {

// Where archives come from: NVIDIA's public redist (no login), a lab mirror with its layout
// (<base>/redistrib_<release>.json, <base>/cudnn/<platform>/<file>), or a folder or share holding
// the archives, flat or in that layout, with or without the manifest.
struct ArchiveSource
{
    static constexpr char kNvidiaRedist[] = "https://developer.download.nvidia.com/compute/cudnn/redist/";

    enum class Kind
    {
        Web,
        Folder,
    };
    Kind kind = Kind::Web;
    QUrl base;      // Web: ends with '/'
    QString folder; // Folder: a host path

    bool isNvidia() const { return kind == Kind::Web && base == QUrl(QString::fromLatin1(kNvidiaRedist)); }
    // A mirror spoken to without TLS: anyone on the way can change what it sends.
    bool isPlainHttp() const
    {
        return kind == Kind::Web && base.scheme().compare(QLatin1String("http"), Qt::CaseInsensitive) == 0;
    }
    // As the user gave it: the URL, or the folder in the system's notation.
    QString location() const;

    QUrl url(const QString &relativePath) const { return base.resolved(QUrl(relativePath)); }
    // Folder: the paths `relativePath` ("cudnn/windows-x86_64/<file>", "redistrib_9.10.0.json") may
    // have there, the layout's first, then the file alone in the folder.
    QStringList candidatePaths(const QString &relativePath) const;

    static ArchiveSource nvidia();
    // "" or "nvidia": NVIDIA's redist; http(s)://: a mirror; file:// or a path: a folder, which must
    // exist. Anything else is an error that says what is accepted.
    static Expected<ArchiveSource> parse(const QString &text);
};

} // namespace cudnnsetup

#pragma once

#include "common/Expected.h"
#include "common/Version.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace cudnnsetup {

// NVIDIA's redistrib_<release>.json: for each product, platform and CUDA variant, the file's path
// below the redist base, its size and SHA-256. A lab mirror serves the same file beside its copies.
struct RedistManifest
{
    struct File
    {
        QString platform;     // "windows-x86_64"
        QString cudaVariant;  // "12" (from "cuda12"); empty for a product without variants
        QString relativePath; // "cudnn/windows-x86_64/cudnn-windows-x86_64-9.10.0.56_cuda12-archive.zip"
        QString sha256;
        qint64 size = -1;

        QString fileName() const { return relativePath.section(QLatin1Char('/'), -1); }
    };

    QString releaseLabel; // "9.10.0"
    Version version;      // cuDNN's own, "9.10.0.56"
    QList<File> files;    // the cudnn product's archives only

    // The manifest's entry for `fileName`, or null.
    const File *file(const QString &fileName) const;
    // Its entry for the platform and CUDA major, or null.
    const File *file(const QString &platform, int cudaMajor) const;

    // `origin` (a URL or a path) names the manifest in the error.
    static Expected<RedistManifest> parse(const QByteArray &json, const QString &origin);
    // The names a release's manifest is published under, most likely first: the release's three
    // parts ("redistrib_9.10.0.json"), and for 8.x also all four ("redistrib_8.9.7.29.json").
    static QStringList fileNames(const Version &cudnn);
};

} // namespace cudnnsetup

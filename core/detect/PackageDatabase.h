#pragma once

#include <QHash>
#include <QString>

namespace cudnnsetup {

class SystemContext;

// What Debian/Ubuntu's package manager recorded (/var/lib/dpkg): NVIDIA's apt packages say which
// CUDA release a toolkit is (cuda-toolkit-13-0 13.0.2) and which CUDA a cuDNN build is for
// (libcudnn9-cuda-13), facts the files themselves do not carry. Empty on systems without dpkg.
class PackageDatabase
{
public:
    static PackageDatabase read(const SystemContext &context);

    // The installed version of `package` without the Debian revision ("13.0.2"), or null.
    QString installedVersion(const QString &package) const;
    // The cuDNN package that installed `path` ("libcudnn9-cuda-13"), or null.
    QString cudnnPackageOwning(const QString &path) const;

private:
    QByteArray m_status;
    QHash<QString, QString> m_cudnnFiles; // path -> package
};

} // namespace cudnnsetup

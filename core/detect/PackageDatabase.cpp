#include "detect/PackageDatabase.h"

#include "platform/SystemContext.h"

namespace cudnnsetup {

PackageDatabase PackageDatabase::read(const SystemContext &context)
{
    PackageDatabase database;
    if (context.family() != OsFamily::Linux)
        return database;
    const FileSystem &files = context.files();
    if (const auto status = files.read(QStringLiteral("/var/lib/dpkg/status"), 64 * 1024 * 1024))
        database.m_status = *status;
    const QString info = QStringLiteral("/var/lib/dpkg/info");
    for (const QString &name : files.entries(info, {QStringLiteral("libcudnn*.list")}, FileSystem::Files)) {
        const auto list = files.read(info + QLatin1Char('/') + name, 4 * 1024 * 1024);
        if (!list)
            continue;
        const QString package =
            name.chopped(5).section(QLatin1Char(':'), 0, 0); // "libcudnn9-cuda-13[:amd64].list"
        const QList<QByteArray> paths = list->split('\n');
        for (const QByteArray &path : paths) {
            if (!path.isEmpty())
                database.m_cudnnFiles.insert(QString::fromUtf8(path), package);
        }
    }
    return database;
}

QString PackageDatabase::installedVersion(const QString &package) const
{
    const QByteArray header = "Package: " + package.toUtf8() + '\n';
    qsizetype at = m_status.startsWith(header) ? 0 : m_status.indexOf('\n' + header);
    if (at < 0)
        return {};
    qsizetype end = m_status.indexOf("\n\n", at + 1);
    if (end < 0)
        end = m_status.size();
    const QByteArray stanza = m_status.mid(at, end - at);
    if (!stanza.contains("\nStatus: install ok installed"))
        return {};
    const qsizetype version = stanza.indexOf("\nVersion: ");
    if (version < 0)
        return {};
    const qsizetype start = version + 10;
    QString text = QString::fromUtf8(stanza.mid(start, stanza.indexOf('\n', start) - start)).trimmed();
    text = text.section(QLatin1Char(':'), -1);   // drop an epoch
    return text.section(QLatin1Char('-'), 0, 0); // drop the Debian revision
}

QString PackageDatabase::cudnnPackageOwning(const QString &path) const
{
    // dpkg records /usr/lib paths; usrmerge systems may list them under /lib.
    QString owner = m_cudnnFiles.value(path);
    if (owner.isEmpty() && path.startsWith(QLatin1String("/usr/lib/")))
        owner = m_cudnnFiles.value(path.mid(4));
    return owner;
}

} // namespace cudnnsetup

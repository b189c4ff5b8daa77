#include "platform/FileSystem.h"

#include "common/Logging.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

#ifndef Q_OS_WIN
#include <climits>
#include <unistd.h>
#endif

namespace cudnnsetup {

namespace {
constexpr int kMaxLinkDepth = 40;

#ifndef Q_OS_WIN
// The raw target of a symbolic link, as written (QFileInfo would resolve it on the host).
QString readLinkRaw(const QString &hostPath)
{
    const QByteArray encoded = QFile::encodeName(hostPath);
    char buffer[PATH_MAX];
    const ssize_t length = ::readlink(encoded.constData(), buffer, sizeof(buffer) - 1);
    if (length < 0)
        return {};
    return QFile::decodeName(QByteArray(buffer, int(length)));
}
#endif
} // namespace

FileSystem::FileSystem(OsFamily family, const QString &root)
    : m_paths(family)
{
    if (!root.isEmpty()) {
        QString cleaned = QDir::cleanPath(QDir(root).absolutePath());
        if (cleaned != QLatin1String("/"))
            m_root = cleaned;
    }
}

OsFamily FileSystem::detectFamily(const QString &root)
{
    if (root.isEmpty())
        return hostOsFamily();
    FileSystem windows(OsFamily::Windows, root);
    return windows.isDir(QStringLiteral("C:\\Windows\\System32")) ? OsFamily::Windows : OsFamily::Linux;
}

QString FileSystem::toHost(const QString &systemPath) const
{
    if (systemPath.isEmpty())
        return {};
    if (m_paths.isWindows()) {
        QString p = m_paths.normalize(systemPath);
        if (!m_root.isEmpty()) {
            if (p.startsWith(QLatin1String("\\\\")))
                return {}; // a network path is not part of the image
            static const QRegularExpression drive(QStringLiteral("^[A-Za-z]:"));
            p.remove(drive);
            p.replace(QLatin1Char('\\'), QLatin1Char('/'));
            if (!p.startsWith(QLatin1Char('/')))
                p.prepend(QLatin1Char('/'));
            return resolveWindowsCase(QDir::cleanPath(m_root + p));
        }
        return QDir::fromNativeSeparators(p);
    }
    if (!m_paths.isAbsolute(systemPath))
        return {};
    if (m_root.isEmpty())
        return QDir::cleanPath(systemPath);
    const QString resolved = resolveLinux(QDir::cleanPath(systemPath), 0);
    return resolved == QLatin1String("/") ? m_root : m_root + resolved;
}

QString FileSystem::fromHost(const QString &hostPath) const
{
    const QString cleaned = QDir::cleanPath(hostPath);
    if (m_paths.isWindows()) {
        if (!m_root.isEmpty() && (cleaned == m_root || cleaned.startsWith(m_root + QLatin1Char('/'))))
            return m_paths.normalize(QStringLiteral("C:") + cleaned.mid(m_root.size()) +
                                     QStringLiteral("\\"));
        return m_paths.normalize(cleaned);
    }
    if (m_root.isEmpty())
        return cleaned;
    if (cleaned == m_root)
        return QStringLiteral("/");
    if (cleaned.startsWith(m_root + QLatin1Char('/')))
        return cleaned.mid(m_root.size());
    return cleaned;
}

QString FileSystem::resolveLinux(const QString &systemPath, int depth) const
{
    if (depth > kMaxLinkDepth)
        return systemPath;
    // ".." stops at the root on every host: a Windows host's QDir::cleanPath keeps a leading "/..".
    const QStringList parts = systemPath.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    QString current = QStringLiteral("/");
    for (const QString &part : parts) {
        if (part == QLatin1String("..")) {
            current = m_paths.parent(current);
            if (current.isEmpty())
                current = QStringLiteral("/");
            continue;
        }
        const QString next =
            current == QLatin1String("/") ? current + part : current + QLatin1Char('/') + part;
#ifndef Q_OS_WIN
        // A Linux image's links cannot be read on a Windows host; there its paths stay lexical.
        const QString host = m_root + next;
        const QFileInfo info(host);
        if (info.isSymLink()) {
            const QString target = readLinkRaw(host);
            if (!target.isEmpty()) {
                const QString base =
                    target.startsWith(QLatin1Char('/')) ? target : current + QLatin1Char('/') + target;
                current = resolveLinux(QDir::cleanPath(base), depth + 1);
                continue;
            }
        }
#endif
        current = next;
    }
    return current;
}

QString FileSystem::resolveWindowsCase(const QString &hostPath) const
{
#ifdef Q_OS_WIN
    return hostPath; // the host itself ignores case
#else
    if (QFileInfo::exists(hostPath))
        return hostPath;
    // Walk down from the root, matching each name case-insensitively as Windows would.
    const QString relative = hostPath.mid(m_root.size());
    const QStringList parts = relative.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    QString current = m_root;
    for (int i = 0; i < parts.size(); ++i) {
        const QString exact = current + QLatin1Char('/') + parts.at(i);
        if (QFileInfo::exists(exact)) {
            current = exact;
            continue;
        }
        const QStringList names =
            QDir(current).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System);
        QString match;
        for (const QString &name : names) {
            if (name.compare(parts.at(i), Qt::CaseInsensitive) == 0) {
                match = name;
                break;
            }
        }
        if (match.isEmpty()) {
            // Keep the rest as written: the path does not exist.
            return current + QLatin1Char('/') + QStringList(parts.mid(i)).join(QLatin1Char('/'));
        }
        current += QLatin1Char('/') + match;
    }
    return current;
#endif
}

bool FileSystem::exists(const QString &path) const
{
    const QString host = toHost(path);
    return !host.isEmpty() && QFileInfo::exists(host);
}

bool FileSystem::isFile(const QString &path) const
{
    const QString host = toHost(path);
    return !host.isEmpty() && QFileInfo(host).isFile();
}

bool FileSystem::isDir(const QString &path) const
{
    const QString host = toHost(path);
    return !host.isEmpty() && QFileInfo(host).isDir();
}

bool FileSystem::isExecutable(const QString &path) const
{
    const QString host = toHost(path);
    if (host.isEmpty())
        return false;
    const QFileInfo info(host);
    if (!info.isFile())
        return false;
    if (m_paths.isWindows())
        return info.suffix().compare(QLatin1String("exe"), Qt::CaseInsensitive) == 0;
    return info.isExecutable();
}

qint64 FileSystem::size(const QString &path) const
{
    const QString host = toHost(path);
    const QFileInfo info(host);
    return !host.isEmpty() && info.exists() ? info.size() : -1;
}

QString FileSystem::canonical(const QString &path) const
{
    const QString host = toHost(path);
    if (host.isEmpty())
        return {};
    const QString resolved = QFileInfo(host).canonicalFilePath();
    if (resolved.isEmpty())
        return {};
    // Without a root the host resolves links; with one, toHost() already resolved them inside it.
    return fromHost(m_root.isEmpty() ? resolved : host);
}

QStringList FileSystem::entries(const QString &dir, const QStringList &patterns, EntryKind kind) const
{
    const QString host = toHost(dir);
    if (host.isEmpty())
        return {};
    QDir::Filters filters = QDir::NoDotAndDotDot | QDir::Hidden | QDir::System;
    if (kind & Files)
        filters |= QDir::Files;
    if (kind & Dirs)
        filters |= QDir::Dirs;
    QDir qdir(host, QString(), QDir::Name, filters);
    if (patterns.isEmpty())
        return qdir.entryList();
    if (!m_paths.isWindows()) {
        qdir.setNameFilters(patterns);
        return qdir.entryList();
    }
    // Windows names ignore case, even when a Windows tree is read on a Linux host.
    QList<QRegularExpression> regexes;
    for (const QString &pattern : patterns) {
        regexes.append(QRegularExpression(QRegularExpression::wildcardToRegularExpression(pattern),
                                          QRegularExpression::CaseInsensitiveOption));
    }
    QStringList matched;
    const QStringList names = qdir.entryList();
    for (const QString &name : names) {
        for (const QRegularExpression &regex : regexes) {
            if (regex.match(name).hasMatch()) {
                matched.append(name);
                break;
            }
        }
    }
    return matched;
}

Expected<QByteArray> FileSystem::read(const QString &path, qint64 maxBytes) const
{
    // One byte more than allowed tells a file that is too large without reading all of it.
    Expected<QByteArray> data = readHead(path, maxBytes + 1);
    if (data && data->size() > maxBytes) {
        return Finding::warning(
            QStringLiteral("file.too-large"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "The file %1 is unexpectedly large and was not read."))
                .arg(path),
            QStringLiteral("more than %1 bytes").arg(maxBytes));
    }
    return data;
}

Expected<QByteArray> FileSystem::readHead(const QString &path, qint64 count) const
{
    const QString host = toHost(path);
    QFile file(host);
    if (host.isEmpty() || !file.open(QIODevice::ReadOnly)) {
        return Finding::warning(
            QStringLiteral("file.unreadable"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "The file %1 could not be read.")).arg(path),
            file.errorString());
    }
    return file.read(count);
}

bool readInPieces(const QString &hostPath, const std::function<void(const char *data, qint64 size)> &consume)
{
    QFile file(hostPath);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    QByteArray buffer(1 << 20, Qt::Uninitialized);
    for (;;) {
        const qint64 count = file.read(buffer.data(), buffer.size());
        if (count < 0)
            return false;
        if (count == 0)
            return true;
        consume(buffer.constData(), count);
    }
}

} // namespace cudnnsetup

#pragma once

#include <QString>
#include <QStringList>

#include <functional>

namespace cudnnsetup {

// The two kinds of system this program can inspect. Usually the host's own kind; with
// --system-root it is the kind of the tree under the root (a mounted Windows image can be
// inspected from Linux).
enum class OsFamily
{
    Windows,
    Linux,
};

QString osFamilyName(OsFamily family);
OsFamily hostOsFamily();

// Path syntax of one OS family, as plain string functions: a probe reasoning about a Windows
// system uses `C:\...` paths, case-insensitive comparison and ';'-separated lists, whatever the
// host is.
class SystemPaths
{
public:
    explicit SystemPaths(OsFamily family)
        : m_family(family)
    {
    }

    OsFamily family() const { return m_family; }
    bool isWindows() const { return m_family == OsFamily::Windows; }

    // Windows: backslashes, one separator, upper-case drive letter, no trailing separator
    // (except a drive root "C:\"). Linux: QDir::cleanPath.
    QString normalize(const QString &path) const;
    QString join(const QString &base, const QString &relative) const;
    QString parent(const QString &path) const;
    QString fileName(const QString &path) const;
    bool isAbsolute(const QString &path) const;
    bool equal(const QString &a, const QString &b) const;
    bool startsWith(const QString &path, const QString &ancestor) const; // ancestor or equal
    Qt::CaseSensitivity caseSensitivity() const
    {
        return isWindows() ? Qt::CaseInsensitive : Qt::CaseSensitive;
    }

    // A file or folder name Windows would not keep as written: a device name in any folder, with or
    // without an extension (CON, nul.txt, COM1, LPT¹, CONIN$), or one ending in a dot or a space,
    // which Windows strips. Linux trees reserve only "." and "..".
    bool isReservedName(const QString &name) const;

    QChar listSeparator() const { return isWindows() ? QLatin1Char(';') : QLatin1Char(':'); }
    // Splits a PATH-like value into entries, in order. Windows entries may be quoted to hold ';'.
    // Empty entries are dropped (on Linux an empty entry means the current directory, which a
    // freshly started process in an unknown directory cannot rely on).
    QStringList splitList(const QString &value) const;

    // Expands %NAME% references (Windows) or $NAME / ${NAME} (Linux) using `lookup`; references to
    // unknown variables are left as written, as Windows itself does.
    QString expandVariables(const QString &value,
                            const std::function<QString(const QString &)> &lookup) const;

private:
    OsFamily m_family;
};

} // namespace cudnnsetup

#include "platform/SystemPaths.h"

#include <QDir>
#include <QRegularExpression>

namespace cudnnsetup {

QString osFamilyName(OsFamily family)
{
    return family == OsFamily::Windows ? QStringLiteral("windows") : QStringLiteral("linux");
}

OsFamily hostOsFamily()
{
#ifdef Q_OS_WIN
    return OsFamily::Windows;
#else
    return OsFamily::Linux;
#endif
}

QString SystemPaths::normalize(const QString &path) const
{
    if (!isWindows())
        return path.isEmpty() ? path : QDir::cleanPath(path);

    QString p = path.trimmed();
    p.replace(QLatin1Char('/'), QLatin1Char('\\'));
    const bool unc = p.startsWith(QLatin1String("\\\\"));
    QString prefix;
    if (unc) {
        prefix = QStringLiteral("\\\\");
        p = p.mid(2);
    }
    // Collapse repeated separators and resolve "." and ".." lexically.
    const QStringList parts = p.split(QLatin1Char('\\'), Qt::SkipEmptyParts);
    QStringList out;
    for (const QString &part : parts) {
        if (part == QLatin1String("."))
            continue;
        if (part == QLatin1String("..")) {
            if (!out.isEmpty() && !(out.size() == 1 && out.first().endsWith(QLatin1Char(':'))))
                out.removeLast();
            continue;
        }
        out.append(part);
    }
    if (!out.isEmpty() && out.first().size() == 2 && out.first().at(1) == QLatin1Char(':'))
        out.first() = out.first().toUpper();
    QString result = prefix + out.join(QLatin1Char('\\'));
    if (!unc && out.size() == 1 && result.endsWith(QLatin1Char(':')))
        result += QLatin1Char('\\'); // "C:" alone means the current directory on C:, "C:\" the root
    if (!unc && path.trimmed().startsWith(QLatin1Char('\\')) &&
        !path.trimmed().startsWith(QLatin1String("\\\\")))
        result.prepend(QLatin1Char('\\'));
    return result;
}

QString SystemPaths::join(const QString &base, const QString &relative) const
{
    if (base.isEmpty())
        return normalize(relative);
    if (relative.isEmpty())
        return normalize(base);
    const QChar sep = isWindows() ? QLatin1Char('\\') : QLatin1Char('/');
    return normalize(base + sep + relative);
}

QString SystemPaths::parent(const QString &path) const
{
    const QString p = normalize(path);
    const QChar sep = isWindows() ? QLatin1Char('\\') : QLatin1Char('/');
    int index = p.lastIndexOf(sep);
    if (index < 0)
        return {};
    if (isWindows()) {
        if (index == 2 && p.at(1) == QLatin1Char(':'))
            return p.size() > 3 ? p.left(3) : QString(); // parent of "C:\x" is "C:\"
        return p.left(index);
    }
    if (index == 0)
        return p.size() > 1 ? QStringLiteral("/") : QString();
    return p.left(index);
}

QString SystemPaths::fileName(const QString &path) const
{
    const QString p = normalize(path);
    const QChar sep = isWindows() ? QLatin1Char('\\') : QLatin1Char('/');
    return p.mid(p.lastIndexOf(sep) + 1);
}

bool SystemPaths::isAbsolute(const QString &path) const
{
    if (!isWindows())
        return path.startsWith(QLatin1Char('/'));
    static const QRegularExpression drive(QStringLiteral("^[A-Za-z]:[\\\\/]"));
    return drive.match(path).hasMatch() || path.startsWith(QLatin1String("\\\\")) ||
           path.startsWith(QLatin1String("//"));
}

bool SystemPaths::equal(const QString &a, const QString &b) const
{
    return normalize(a).compare(normalize(b), caseSensitivity()) == 0;
}

bool SystemPaths::startsWith(const QString &path, const QString &ancestor) const
{
    const QString p = normalize(path);
    const QString a = normalize(ancestor);
    if (p.compare(a, caseSensitivity()) == 0)
        return true;
    const QChar sep = isWindows() ? QLatin1Char('\\') : QLatin1Char('/');
    const QString prefix = a.endsWith(sep) ? a : a + sep;
    return p.startsWith(prefix, caseSensitivity());
}

bool SystemPaths::isReservedName(const QString &name) const
{
    if (name == QLatin1String(".") || name == QLatin1String(".."))
        return true;
    if (!isWindows())
        return false;
    if (name.isEmpty() || name.endsWith(QLatin1Char('.')) || name.endsWith(QLatin1Char(' ')))
        return true;
    // The device name is what comes before the first dot, trailing spaces ignored ("NUL .txt").
    const QString base = name.section(QLatin1Char('.'), 0, 0).trimmed().toUpper();
    static const QStringList devices = {QStringLiteral("CON"),    QStringLiteral("PRN"),
                                        QStringLiteral("AUX"),    QStringLiteral("NUL"),
                                        QStringLiteral("CONIN$"), QStringLiteral("CONOUT$")};
    if (devices.contains(base))
        return true;
    if (base.size() == 4 &&
        (base.startsWith(QLatin1String("COM")) || base.startsWith(QLatin1String("LPT")))) {
        const QChar digit = base.at(3);
        return (digit >= QLatin1Char('1') && digit <= QLatin1Char('9')) || digit == QChar(0x00B9) ||
               digit == QChar(0x00B2) || digit == QChar(0x00B3);
    }
    return false;
}

QStringList SystemPaths::splitList(const QString &value) const
{
    QStringList entries;
    if (!isWindows()) {
        const QStringList parts = value.split(QLatin1Char(':'), Qt::SkipEmptyParts);
        for (const QString &part : parts)
            entries.append(part);
        return entries;
    }
    QString current;
    bool quoted = false;
    for (const QChar c : value) {
        if (c == QLatin1Char('"')) {
            quoted = !quoted;
        } else if (c == QLatin1Char(';') && !quoted) {
            if (!current.trimmed().isEmpty())
                entries.append(current.trimmed());
            current.clear();
        } else {
            current.append(c);
        }
    }
    if (!current.trimmed().isEmpty())
        entries.append(current.trimmed());
    return entries;
}

QString SystemPaths::expandVariables(const QString &value,
                                     const std::function<QString(const QString &)> &lookup) const
{
    if (isWindows()) {
        // As ExpandEnvironmentStringsW does it (checked against it under Wine): "%NAME%" with a
        // known name is replaced; an unknown one stays as written, both '%' included.
        QString result;
        qsizetype i = 0;
        while (i < value.size()) {
            const qsizetype open = value.indexOf(QLatin1Char('%'), i);
            const qsizetype close = open < 0 ? -1 : value.indexOf(QLatin1Char('%'), open + 1);
            if (close < 0) {
                result += value.mid(i);
                break;
            }
            result += value.mid(i, open - i);
            const QString replacement = lookup(value.mid(open + 1, close - open - 1));
            if (close > open + 1 && !replacement.isNull()) {
                result += replacement;
                i = close + 1;
            } else {
                result += value.mid(open, close - open + 1);
                i = close + 1;
            }
        }
        return result;
    }
    static const QRegularExpression reference(
        QStringLiteral("\\$(?:\\{([A-Za-z_][A-Za-z0-9_]*)\\}|([A-Za-z_][A-Za-z0-9_]*))"));
    QString result;
    qsizetype last = 0;
    auto it = reference.globalMatch(value);
    while (it.hasNext()) {
        const QRegularExpressionMatch match = it.next();
        const QString name = match.captured(1).isEmpty() ? match.captured(2) : match.captured(1);
        const QString replacement = lookup(name);
        result += value.mid(last, match.capturedStart() - last);
        result += replacement.isNull() ? match.captured(0) : replacement;
        last = match.capturedEnd();
    }
    result += value.mid(last);
    return result;
}

} // namespace cudnnsetup

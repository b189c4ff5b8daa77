#pragma once

#include <QCoreApplication>
#include <QLocale>
#include <QString>

namespace cudnnsetup {

// A size as Windows Explorer shows it to the same user: 1,024-based, written "KB", "MB", "GB"
// (Qt's own traditional format writes "kB").
inline QString shownSize(qint64 bytes)
{
    if (bytes < 1024) // in the language shown, where Qt's own format would write "bytes"
        return QCoreApplication::translate("cudnnsetup", "%n byte(s)", nullptr, int(bytes));
    static const char *const units[] = {"KB", "MB", "GB", "TB"};
    double value = double(bytes) / 1024.0;
    int unit = 0;
    for (; value >= 1024.0 && unit < 3; ++unit)
        value /= 1024.0;
    return QLocale().toString(value, 'f', 1) + QLatin1Char(' ') + QLatin1String(units[unit]);
}

} // namespace cudnnsetup

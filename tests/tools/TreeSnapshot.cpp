#include "TreeSnapshot.h"

#include "platform/Sha256.h"

#include <QDir>
#include <QDirIterator>

#include <algorithm>

TreeSnapshot TreeSnapshot::of(const QString &root, const QStringList &skip)
{
    TreeSnapshot snapshot;
    QDirIterator it(root, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QString relative = QDir(root).relativeFilePath(path);
        if (std::any_of(skip.cbegin(), skip.cend(), [&](const QString &s) { return relative.startsWith(s); }))
            continue;
        const QFileInfo info = it.fileInfo();
        // A symbolic link by what it names, relative to its folder: never taken for a copy of its file.
        snapshot.entries.insert(
            relative, info.isSymLink() ? QStringLiteral("<link> ") +
                                             QDir(info.absolutePath()).relativeFilePath(info.symLinkTarget())
                      : info.isDir() ? QStringLiteral("<dir>")
                                     : cudnnsetup::Sha256::ofFile(path).value_or(QStringLiteral("?")));
    }
    return snapshot;
}

QString TreeSnapshot::difference(const TreeSnapshot &other) const
{
    QStringList lines;
    for (auto it = entries.cbegin(); it != entries.cend(); ++it) {
        if (!other.entries.contains(it.key()))
            lines.append(QStringLiteral("only here: ") + it.key());
        else if (other.entries.value(it.key()) != it.value())
            lines.append(QStringLiteral("differs: ") + it.key());
    }
    for (auto it = other.entries.cbegin(); it != other.entries.cend(); ++it) {
        if (!entries.contains(it.key()))
            lines.append(QStringLiteral("only there: ") + it.key());
    }
    return lines.join(QLatin1Char('\n'));
}

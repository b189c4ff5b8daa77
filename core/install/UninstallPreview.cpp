#include "install/UninstallPreview.h"

#include <algorithm>

#include <QStringList>

namespace cudnnsetup {

namespace {

// A receipt's paths are the inspected system's: '\' on Windows, '/' elsewhere.
qsizetype lastSeparator(const QString &path)
{
    return std::max(path.lastIndexOf(QLatin1Char('\\')), path.lastIndexOf(QLatin1Char('/')));
}

void describeFiles(const Receipt &receipt, QList<Text> &lines)
{
    QStringList folders;
    QList<QStringList> filesIn;
    QStringList putBack;
    for (const Receipt::File &file : receipt.files) {
        const QString folder = file.path.left(lastSeparator(file.path));
        qsizetype at = folders.indexOf(folder);
        if (at < 0) {
            at = folders.size();
            folders.append(folder);
            filesIn.append(QStringList());
        }
        filesIn[at].append(file.path);
        if (!file.replaced.isEmpty())
            putBack.append(file.path.mid(lastSeparator(file.path) + 1));
    }
    for (qsizetype i = 0; i < folders.size(); ++i) {
        lines.append(
            filesIn.at(i).size() == 1
                ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "Remove the file %1")).arg(filesIn.at(i).first())
                : Text(QT_TRANSLATE_NOOP("cudnnsetup", "Remove %1 files in %2"))
                      .arg(QString::number(filesIn.at(i).size()), folders.at(i)));
    }
    if (!putBack.isEmpty())
        lines.append(Text(QT_TRANSLATE_NOOP("cudnnsetup", "Put back the files it replaced: %1"))
                         .arg(Text::list(putBack)));
}

void describeEnvironment(const Receipt &receipt, QList<Text> &lines)
{
    for (const Receipt::EnvironmentChange &change : receipt.environment) {
        const bool system = change.scope == QLatin1String("machine");
        if (!change.entry.isEmpty()) {
            lines.append((system ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "Remove %1 from the system PATH"))
                                 : Text(QT_TRANSLATE_NOOP("cudnnsetup", "Remove %1 from your PATH")))
                             .arg(change.entry));
        } else if (change.before) {
            lines.append(Text(QT_TRANSLATE_NOOP("cudnnsetup", "Set the variable %1 back to what it was"))
                             .arg(change.name));
        } else {
            lines.append(Text(QT_TRANSLATE_NOOP("cudnnsetup", "Remove the variable %1")).arg(change.name));
        }
    }
}

} // namespace

QList<Text> uninstallPreview(const QString &id, const QList<std::pair<Receipt, QString>> &receipts)
{
    QList<Text> lines;
    for (const auto &[receipt, path] : receipts) {
        if (receipt.id == id || (!id.isEmpty() && receipt.partOf == id)) {
            describeFiles(receipt, lines);
            describeEnvironment(receipt, lines);
        }
    }
    return lines;
}

} // namespace cudnnsetup

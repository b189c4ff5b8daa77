#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <QStringView>

#include <utility>

namespace cudnnsetup {

// Columns `text` takes on a terminal: a CJK or full-width character takes two.
int displayWidth(QStringView text);

// `text` in lines at most `columns` wide on a terminal, broken between words and between CJK
// characters, never before a closing mark such as ， or 。 nor after an opening one; a word wider
// than `columns` stays whole on a line of its own. A newline in `text` is kept as a break.
QStringList wrapToWidth(const QString &text, int columns);

// Rows of a name and its text, as --help lists commands and options: the texts start in one
// column after the widest name (names wider than `maxNameWidth` put their text on the next line),
// and are wrapped to fit `columns`.
QString hangingRows(const QList<std::pair<QString, QString>> &rows, int maxNameWidth, int columns);

} // namespace cudnnsetup

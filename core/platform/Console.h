#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

namespace cudnnsetup::console {

// Text for whoever reads the standard streams. On Windows, a stream that is a console gets UTF-16
// through WriteConsoleW, so Chinese shows whatever the console's code page is (936 on a Chinese
// Windows, 437 or 850 elsewhere, none of them UTF-8); a stream redirected to a file or a pipe, and
// every stream elsewhere, gets UTF-8 bytes. Controls other than line breaks and tabs are written as
// \uXXXX (withVisibleControls): no text, whatever it quotes, moves the cursor or clears a line.
void out(const QString &text);
void error(const QString &text);

// One line the user typed, without its line end; empty at the end of the input. On Windows a
// console is read as UTF-16 (ReadConsoleW), so a typed "是" arrives as itself; anything else is read
// as UTF-8.
QString readLine();

// Everything on the standard input up to its end, as bytes (a pasted or piped log; its encoding is
// the reader's to find), or nullopt when more than `maxBytes` arrive.
std::optional<QByteArray> readAll(qint64 maxBytes);

} // namespace cudnnsetup::console

#include "platform/Console.h"

#include "common/VisibleControls.h"

#include <QByteArray>

#include <algorithm>
#include <cstdio>

#ifdef Q_OS_WIN
#include <windows.h>
#endif

namespace cudnnsetup::console {

namespace {

#ifdef Q_OS_WIN
// The console behind a standard handle; nullptr when it is redirected (a file, a pipe, nothing).
HANDLE consoleOf(DWORD standardHandle)
{
    HANDLE handle = GetStdHandle(standardHandle);
    DWORD mode = 0;
    return handle != INVALID_HANDLE_VALUE && handle != nullptr && GetConsoleMode(handle, &mode) ? handle
                                                                                                : nullptr;
}

bool writeConsole(HANDLE console, const QString &text)
{
    const auto *data = reinterpret_cast<const wchar_t *>(text.utf16());
    qsizetype left = text.size();
    while (left > 0) {
        // Old consoles refuse large writes: pieces of at most 8K characters.
        DWORD written = 0;
        if (!WriteConsoleW(console, data, DWORD(std::min<qsizetype>(left, 8192)), &written, nullptr) ||
            written == 0)
            return false;
        data += written;
        left -= written;
    }
    return true;
}
#endif

void write(FILE *stream, const QString &text)
{
    std::fflush(stream); // what went out through stdio before stays before
#ifdef Q_OS_WIN
    if (HANDLE console = consoleOf(stream == stderr ? STD_ERROR_HANDLE : STD_OUTPUT_HANDLE);
        console && writeConsole(console, text))
        return;
#endif
    const QByteArray bytes = text.toUtf8();
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stream);
    std::fflush(stream);
}

QString withoutLineEnd(QString line)
{
    while (line.endsWith(QLatin1Char('\n')) || line.endsWith(QLatin1Char('\r')))
        line.chop(1);
    return line;
}

} // namespace

void out(const QString &text)
{
    write(stdout, withVisibleControls(text, u"\n\t"));
}

void error(const QString &text)
{
    write(stderr, withVisibleControls(text, u"\n\t"));
}

QString readLine()
{
#ifdef Q_OS_WIN
    if (HANDLE console = consoleOf(STD_INPUT_HANDLE)) {
        QString line;
        wchar_t buffer[256];
        DWORD read = 0;
        while (!line.contains(QLatin1Char('\n')) &&
               ReadConsoleW(console, buffer, DWORD(std::size(buffer)), &read, nullptr) && read > 0)
            line += QString::fromWCharArray(buffer, int(read));
        return withoutLineEnd(line);
    }
#endif
    QByteArray line;
    char buffer[256];
    while (!line.endsWith('\n') && std::fgets(buffer, int(sizeof buffer), stdin))
        line += buffer;
    return withoutLineEnd(QString::fromUtf8(line));
}

std::optional<QByteArray> readAll(qint64 maxBytes)
{
    QByteArray bytes;
    char buffer[65536];
    for (std::size_t read = 0; (read = std::fread(buffer, 1, sizeof buffer, stdin)) > 0;) {
        bytes.append(buffer, qsizetype(read));
        if (bytes.size() > maxBytes)
            return std::nullopt;
    }
    return bytes;
}

} // namespace cudnnsetup::console

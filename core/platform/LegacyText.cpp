#include "platform/LegacyText.h"

#ifdef Q_OS_WIN
#include <qt_windows.h>
#else
#include <cerrno>
#include <iconv.h>
#endif

namespace cudnnsetup::legacytext {

std::optional<QString> decode(const QByteArray &bytes, int codePage)
{
    if (bytes.isEmpty())
        return QString();
#ifdef Q_OS_WIN
    // CP437 has no invalid bytes, and Windows refuses MB_ERR_INVALID_CHARS for some code pages.
    const DWORD flags = codePage == Cp437 ? 0 : MB_ERR_INVALID_CHARS;
    const int size =
        MultiByteToWideChar(UINT(codePage), flags, bytes.constData(), int(bytes.size()), nullptr, 0);
    if (size <= 0)
        return std::nullopt;
    QString text(size, Qt::Uninitialized);
    MultiByteToWideChar(UINT(codePage), flags, bytes.constData(), int(bytes.size()),
                        reinterpret_cast<wchar_t *>(text.data()), size);
    return text;
#else
    const char *name = codePage == Cp437 ? "IBM437" : codePage == Gbk ? "GBK" : nullptr;
    if (!name)
        return std::nullopt;
    iconv_t converter = iconv_open("UTF-16LE", name);
    if (converter == iconv_t(-1))
        return std::nullopt;
    QByteArray input = bytes;
    QByteArray output(bytes.size() * 4 + 4, Qt::Uninitialized);
    char *in = input.data();
    char *out = output.data();
    size_t inLeft = size_t(input.size());
    size_t outLeft = size_t(output.size());
    const size_t converted = iconv(converter, &in, &inLeft, &out, &outLeft);
    iconv_close(converter);
    if (converted == size_t(-1) || inLeft != 0)
        return std::nullopt; // an invalid or incomplete sequence
    output.truncate(output.size() - qsizetype(outLeft));
    return QString::fromUtf16(reinterpret_cast<const char16_t *>(output.constData()), output.size() / 2);
#endif
}

} // namespace cudnnsetup::legacytext

#include "archive/EntryNames.h"

#include "archive/ZipSource.h"
#include "platform/LegacyText.h"

#include <QStringDecoder>

#include <algorithm>

namespace cudnnsetup {

namespace {

bool isAscii(const QByteArray &bytes)
{
    return std::all_of(bytes.cbegin(), bytes.cend(), [](char c) { return uchar(c) < 0x80; });
}

bool hasCjkIdeograph(const QString &text)
{
    const QList<uint> characters = text.toUcs4();
    return std::any_of(characters.cbegin(), characters.cend(), [](uint c) {
        return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0xF900 && c <= 0xFAFF);
    });
}

std::optional<QString> strictUtf8(const QByteArray &bytes)
{
    QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    QString text = decoder.decode(bytes);
    if (decoder.hasError())
        return std::nullopt;
    return text;
}

} // namespace

EntryNames::EntryNames(const QList<ZipEntry> &entries)
{
    bool allGbk = true;
    bool anyLegacy = false;
    for (const ZipEntry &entry : entries) {
        if (entry.utf8Name() || isAscii(entry.rawName))
            continue;
        anyLegacy = true;
        const auto gbk = legacytext::decode(entry.rawName, legacytext::Gbk);
        if (!gbk || !hasCjkIdeograph(*gbk))
            allGbk = false;
    }
    m_unflagged = !anyLegacy ? NameEncoding::Ascii : allGbk ? NameEncoding::Gbk : NameEncoding::Cp437;

    m_names.reserve(entries.size());
    for (const ZipEntry &entry : entries) {
        DecodedName name;
        std::optional<QString> text;
        if (entry.utf8Name())
            text = strictUtf8(entry.rawName);
        else if (isAscii(entry.rawName))
            text = QString::fromLatin1(entry.rawName);
        else
            text = legacytext::decode(entry.rawName,
                                      m_unflagged == NameEncoding::Gbk ? legacytext::Gbk : legacytext::Cp437);
        if (text) {
            name.text = *text;
            name.valid = true;
        }
        m_names.append(name);
    }
}

QString EntryNames::unflaggedEncodingName() const
{
    switch (m_unflagged) {
    case NameEncoding::Ascii:
        return QStringLiteral("ascii");
    case NameEncoding::Cp437:
        return QStringLiteral("cp437");
    case NameEncoding::Gbk:
        return QStringLiteral("gbk");
    }
    return {};
}

} // namespace cudnnsetup

#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

namespace cudnnsetup {

struct ZipEntry;

// How the names of one archive are turned into text. A zip says "UTF-8" per entry with general
// purpose bit 11; without it APPNOTE means IBM CP437, but archives re-packed by Chinese tools
// (WinRAR, 360zip, Bandizip on a Chinese Windows) carry GBK bytes without saying so. The rule,
// decided once per archive because one tool wrote all its unflagged names:
//   1. flagged names are UTF-8 (invalid UTF-8 is an error, never a guess);
//   2. unflagged names that are all ASCII need no decision;
//   3. if every unflagged non-ASCII name is valid GBK and holds at least one CJK ideograph once
//      decoded, the archive's unflagged names are GBK;
//   4. otherwise they are CP437, where every byte has a character.
// Decoding goes through the operating system (platform/LegacyText), so a Windows build without
// ICU reads GBK the same way.
enum class NameEncoding
{
    Ascii,
    Cp437,
    Gbk,
};

struct DecodedName
{
    QString text;       // as the user sees it; empty when it could not be decoded
    bool valid = false; // false: a flagged name that is not UTF-8
};

class EntryNames
{
public:
    explicit EntryNames(const QList<ZipEntry> &entries);

    NameEncoding unflaggedEncoding() const { return m_unflagged; }
    // "ascii", "cp437" or "gbk", for reports.
    QString unflaggedEncodingName() const;
    // The name of `entries[i]` as text, index for index.
    const DecodedName &at(int index) const { return m_names.at(index); }
    int size() const { return int(m_names.size()); }

private:
    NameEncoding m_unflagged = NameEncoding::Ascii;
    QList<DecodedName> m_names;
};

} // namespace cudnnsetup

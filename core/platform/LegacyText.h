#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

namespace cudnnsetup {

// Text in a legacy code page, decoded by the operating system itself: MultiByteToWideChar on
// Windows (the static Qt there has no ICU, so Qt knows no GBK), iconv on Linux. Zip files made by
// Chinese tools carry GBK names without saying so; old ones carry CP437.
namespace legacytext {

constexpr int Cp437 = 437; // the zip format's original encoding
constexpr int Gbk = 936;   // Simplified Chinese Windows

// The text, or nullopt when the bytes are not valid in that code page (never a guess with
// replacement characters).
std::optional<QString> decode(const QByteArray &bytes, int codePage);

} // namespace legacytext
} // namespace cudnnsetup

#include "common/VisibleControls.h"

#include <algorithm>

namespace cudnnsetup {

namespace {

bool actsOnTheTerminal(char16_t c)
{
    return c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0x061C || (c >= 0x200B && c <= 0x200F) ||
           (c >= 0x202A && c <= 0x202E) || (c >= 0x2060 && c <= 0x2069) || c == 0xFEFF;
}

} // namespace

QString withVisibleControls(const QString &text, QStringView keep)
{
    const auto needsEscape = [&](QChar c) { return actsOnTheTerminal(c.unicode()) && !keep.contains(c); };
    if (std::none_of(text.cbegin(), text.cend(), needsEscape))
        return text;
    QString visible;
    visible.reserve(text.size() + 16);
    for (const QChar c : text) {
        if (needsEscape(c))
            visible += QStringLiteral("\\u%1").arg(int(c.unicode()), 4, 16, QLatin1Char('0'));
        else
            visible += c;
    }
    return visible;
}

} // namespace cudnnsetup

#include "common/Version.h"

#include <QRegularExpression>

namespace cudnnsetup {

Version Version::parse(const QString &text)
{
    static const QRegularExpression pattern(QStringLiteral("^\\d{1,9}(\\.\\d{1,9}){0,4}$"));
    const QString trimmed = text.trimmed();
    if (!pattern.match(trimmed).hasMatch())
        return {};
    Version version;
    const QStringList parts = trimmed.split(QLatin1Char('.'));
    for (const QString &part : parts)
        version.m_parts.append(part.toInt());
    version.m_text = trimmed;
    return version;
}

Version Version::fromParts(const QList<int> &parts)
{
    Version version;
    for (int part : parts) {
        if (part < 0)
            return {};
        version.m_parts.append(part);
    }
    return version;
}

Version Version::truncated(int parts) const
{
    return fromParts(m_parts.mid(0, parts));
}

QString Version::toString() const
{
    if (!m_text.isEmpty())
        return m_text;
    QStringList parts;
    for (int part : m_parts)
        parts.append(QString::number(part));
    return parts.join(QLatin1Char('.'));
}

int Version::compare(const Version &other) const
{
    const int count = std::max(size(), other.size());
    for (int i = 0; i < count; ++i) {
        if (part(i) != other.part(i))
            return part(i) < other.part(i) ? -1 : 1;
    }
    return 0;
}

} // namespace cudnnsetup

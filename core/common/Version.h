#pragma once

#include <QList>
#include <QString>

namespace cudnnsetup {

// A dotted version as NVIDIA writes them: "580.159.04", "13.0", "9.19.0.56".
// Compares numerically, component by component; missing components count as 0, but keep
// their absence so "13.0" prints as written ("580.159.04" keeps its leading zero too).
class Version
{
public:
    Version() = default;
    static Version parse(const QString &text); // invalid when text is not a dotted number
    static Version fromParts(const QList<int> &parts);

    bool isValid() const { return !m_parts.isEmpty(); }
    int part(int index) const { return index < m_parts.size() ? m_parts.at(index) : 0; }
    int major() const { return part(0); }
    int minor() const { return part(1); }
    int patch() const { return part(2); }
    int size() const { return int(m_parts.size()); }
    Version truncated(int parts) const;

    QString toString() const;
    int compare(const Version &other) const;

    friend bool operator==(const Version &a, const Version &b) { return a.compare(b) == 0; }
    friend bool operator!=(const Version &a, const Version &b) { return a.compare(b) != 0; }
    friend bool operator<(const Version &a, const Version &b) { return a.compare(b) < 0; }
    friend bool operator<=(const Version &a, const Version &b) { return a.compare(b) <= 0; }
    friend bool operator>(const Version &a, const Version &b) { return a.compare(b) > 0; }
    friend bool operator>=(const Version &a, const Version &b) { return a.compare(b) >= 0; }

private:
    QList<int> m_parts;
    QString m_text;
};

} // namespace cudnnsetup

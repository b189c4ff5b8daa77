#pragma once

#include <QCoreApplication>
#include <QString>
#include <QStringList>

namespace cudnnsetup {

// The translation context of every deferred user-visible text in core.
inline constexpr char kTextContext[] = "cudnnsetup";

// A user-visible text that is translated when it is shown, not when it is made, so a finding
// created before the user switches language still reads in the new one.
// Make one from a literal marked for lupdate:
//     Text(QT_TRANSLATE_NOOP("cudnnsetup", "Driver %1 is too old.")).arg(version)
class Text
{
public:
    Text() = default;
    explicit Text(const char *source)
        : m_source(source)
    {
    }

    // Text that is not translated (a path, a version, a message from another program).
    static Text verbatim(const QString &text)
    {
        Text t;
        t.m_verbatim = text;
        return t;
    }

    Text arg(const QString &value) const
    {
        Text t = *this;
        t.m_args.append(value);
        return t;
    }
    Text arg(qint64 value) const { return arg(QString::number(value)); }

    bool isEmpty() const { return m_source == nullptr && m_verbatim.isEmpty(); }
    const char *source() const { return m_source; }

    QString toString() const
    {
        QString text = m_source ? QCoreApplication::translate(kTextContext, m_source) : m_verbatim;
        for (const QString &value : m_args)
            text = text.arg(value);
        return text;
    }
    // The English text, for logs that must read the same on every machine.
    QString toEnglish() const
    {
        QString text = m_source ? QString::fromUtf8(m_source) : m_verbatim;
        for (const QString &value : m_args)
            text = text.arg(value);
        return text;
    }

private:
    const char *m_source = nullptr;
    QString m_verbatim;
    QStringList m_args;
};

} // namespace cudnnsetup

#pragma once

#include <QCoreApplication>
#include <QString>
#include <QStringList>
#include <QTranslator>

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

    // Items (names, paths, versions) joined by the list separator of the language the text is shown
    // in: ", " in English, "、" in Chinese.
    static Text list(const QList<Text> &items)
    {
        Text t;
        t.m_args = items;
        t.m_isList = true;
        return t;
    }
    static Text list(const QStringList &items)
    {
        QList<Text> texts;
        for (const QString &item : items)
            texts.append(verbatim(item));
        return list(texts);
    }

    Text arg(const QString &value) const { return arg(verbatim(value)); }
    // A translated piece inside a translated sentence ("%1 (compute capability %2)").
    Text arg(const Text &value) const
    {
        Text t = *this;
        t.m_args.append(value);
        return t;
    }
    Text arg(qint64 value) const { return arg(QString::number(value)); }
    template <typename First, typename Second, typename... More>
    Text arg(const First &first, const Second &second, const More &...more) const
    {
        return arg(first).arg(second, more...);
    }

    bool isEmpty() const { return m_source == nullptr && m_verbatim.isEmpty() && !m_isList; }
    const char *source() const { return m_source; }

    QString toString() const
    {
        if (m_isList)
            return joined(
                QCoreApplication::translate(kTextContext, kListSeparator.source, kListSeparator.comment),
                [](const Text &item) { return item.toString(); });
        return substitute(m_source ? QCoreApplication::translate(kTextContext, m_source) : m_verbatim,
                          [](const Text &text) { return text.toString(); });
    }
    // The text in the language of `translator`, whatever language is current (a bilingual report);
    // the English source where it has no translation.
    QString toString(const QTranslator &translator) const
    {
        if (m_isList) {
            const QString separator =
                translator.translate(kTextContext, kListSeparator.source, kListSeparator.comment);
            return joined(separator.isEmpty() ? QString::fromUtf8(kListSeparator.source) : separator,
                          [&translator](const Text &item) { return item.toString(translator); });
        }
        QString text = m_verbatim;
        if (m_source) {
            text = translator.translate(kTextContext, m_source);
            if (text.isEmpty())
                text = QString::fromUtf8(m_source);
        }
        return substitute(text, [&translator](const Text &arg) { return arg.toString(translator); });
    }
    // The English text, for logs that must read the same on every machine.
    QString toEnglish() const
    {
        if (m_isList)
            return joined(QString::fromUtf8(kListSeparator.source),
                          [](const Text &item) { return item.toEnglish(); });
        return substitute(m_source ? QString::fromUtf8(m_source) : m_verbatim,
                          [](const Text &text) { return text.toEnglish(); });
    }

private:
    template <typename Render>
    QString joined(const QString &separator, Render render) const
    {
        QStringList items;
        for (const Text &item : m_args)
            items.append(render(item));
        return items.join(separator);
    }

    // %1..%99 replaced in one pass, so a value that itself holds "%2" (a path) stays as it is.
    template <typename Render>
    QString substitute(const QString &text, Render render) const
    {
        QString result;
        result.reserve(text.size());
        for (qsizetype i = 0; i < text.size(); ++i) {
            if (text.at(i) == QLatin1Char('%') && i + 1 < text.size() && text.at(i + 1).isDigit()) {
                qsizetype end = i + 1;
                int number = 0;
                while (end < text.size() && text.at(end).isDigit() && end < i + 3)
                    number = number * 10 + text.at(end++).digitValue();
                if (number >= 1 && number <= m_args.size()) {
                    result += render(m_args.at(number - 1));
                    i = end - 1;
                    continue;
                }
            }
            result += text.at(i);
        }
        return result;
    }

    struct Message
    {
        const char *source;
        const char *comment;
    };
    static constexpr Message kListSeparator = QT_TRANSLATE_NOOP3("cudnnsetup", ", ", "list separator");

    const char *m_source = nullptr;
    QString m_verbatim;
    QList<Text> m_args; // a list's items when m_isList
    bool m_isList = false;
};

} // namespace cudnnsetup

#pragma once

#include "common/Finding.h"
#include "common/Text.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <QTranslator>

#include <optional>

namespace cudnnsetup {

// report.html's building blocks: a page in English and Chinese, and the pieces every section uses.
namespace reporthtml {

// Characters XML does not allow (controls from a damaged file's name or another program's output)
// become U+FFFD, so the page stays well-formed.
QString escaped(const QString &text);

enum class Mark
{
    Good,
    Bad,
    Warn,
    Neutral,
};

class Page
{
public:
    explicit Page(const QTranslator &chinese)
        : m_chinese(chinese)
    {
    }

    // English, with the Chinese below it; once where both read the same (a text read back from
    // JSON, which is already in one language, or one not translated yet).
    QString both(const Text &text) const
    {
        const QString english = text.toEnglish();
        const QString chinese = text.toString(m_chinese);
        if (english == chinese)
            return escaped(english);
        return QStringLiteral("<span class=\"en\" lang=\"en\" xml:lang=\"en\">") + escaped(english) +
               QStringLiteral("</span><span class=\"zh\" lang=\"zh-CN\" xml:lang=\"zh-CN\">") +
               escaped(chinese) + QStringLiteral("</span>");
    }
    QString englishAndChinese(const Text &text) const
    {
        return text.toEnglish() + QStringLiteral(" · ") + text.toString(m_chinese);
    }

    // A state in an icon and a word, never in colour alone.
    QString mark(Mark mark, const Text &word) const
    {
        static const char *const icons[] = {"\u2713", "\u2717", "\u26A0", "\u2013"};
        static const char *const classes[] = {"good", "bad", "warn", "neutral"};
        const int index = int(mark);
        return QStringLiteral("<span class=\"mark %1\">").arg(QLatin1String(classes[index])) +
               QString::fromUtf8(icons[index]) + QLatin1Char(' ') + both(word) + QStringLiteral("</span>");
    }
    QString value(const QString &text) const
    {
        return text.isEmpty() ? both(Text(QT_TRANSLATE_NOOP("cudnnsetup", "unknown"))) : escaped(text);
    }
    QString path(const QString &text) const
    {
        return text.isEmpty()
                   ? value(text)
                   : QStringLiteral("<span class=\"path\">") + escaped(text) + QStringLiteral("</span>");
    }
    QString yesNo(const std::optional<bool> &answer) const
    {
        if (!answer)
            return value({});
        return both(*answer ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "yes"))
                            : Text(QT_TRANSLATE_NOOP("cudnnsetup", "no")));
    }

    void append(const QString &html) { m_html += html; }
    void beginSection(const QString &id, const Text &title, bool first = false)
    {
        m_html += QStringLiteral("<section id=\"%1\"%2>\n<h2>")
                      .arg(id, first ? QStringLiteral(" class=\"first\"") : QString()) +
                  both(title) + QStringLiteral("</h2>\n");
    }
    void endSection() { m_html += QStringLiteral("</section>\n"); }
    void subheading(const QString &html)
    {
        m_html += QStringLiteral("<h3>") + html + QStringLiteral("</h3>\n");
    }
    void paragraph(const QString &html, const QString &cssClass = {})
    {
        m_html +=
            (cssClass.isEmpty() ? QStringLiteral("<p>") : QStringLiteral("<p class=\"%1\">").arg(cssClass)) +
            html + QStringLiteral("</p>\n");
    }

    // Label / value rows.
    void beginFacts() { m_html += QStringLiteral("<table>\n"); }
    void fact(const Text &label, const QString &valueHtml)
    {
        m_html += QStringLiteral("<tr><th class=\"label\" scope=\"row\">") + both(label) +
                  QStringLiteral("</th><td>") + valueHtml + QStringLiteral("</td></tr>\n");
    }
    void endFacts() { m_html += QStringLiteral("</table>\n"); }

    // A table with a header row.
    void beginTable(const QList<Text> &headers)
    {
        m_html += QStringLiteral("<table>\n<thead><tr>");
        for (const Text &header : headers)
            m_html += QStringLiteral("<th scope=\"col\">") + both(header) + QStringLiteral("</th>");
        m_html += QStringLiteral("</tr></thead>\n<tbody>\n");
    }
    void tableRow(const QStringList &cellsHtml)
    {
        m_html += QStringLiteral("<tr>");
        for (const QString &cell : cellsHtml)
            m_html += QStringLiteral("<td>") + cell + QStringLiteral("</td>");
        m_html += QStringLiteral("</tr>\n");
    }
    void endTable() { m_html += QStringLiteral("</tbody>\n</table>\n"); }

    const QString &html() const { return m_html; }

private:
    const QTranslator &m_chinese;
    QString m_html;
};

QString preformatted(const QString &text);
// Translated lines, one per line.
QString linesOf(const QList<Text> &lines);
// A message, its technical details and its fix, as a stage or a finding carries them.
QString messageBlock(const Page &page, const Text &message, const QString &details, const Text &fix);
Mark severityMark(Severity severity);
Text severityWord(Severity severity);
void findingBlock(Page &page, const Finding &finding, const QString &extraHtml = {});

} // namespace reporthtml

} // namespace cudnnsetup

#include "report/ReportPage.h"

namespace cudnnsetup {

namespace reporthtml {

QString escaped(const QString &text)
{
    QString clean = text;
    for (QChar &c : clean) {
        if (c.unicode() < 0x20 && c != QLatin1Char('\n') && c != QLatin1Char('\t'))
            c = QChar(QChar::ReplacementCharacter);
    }
    return clean.toHtmlEscaped();
}

QString preformatted(const QString &text)
{
    return text.isEmpty() ? QString() : QStringLiteral("<pre>") + escaped(text) + QStringLiteral("</pre>");
}

QString linesOf(const QList<Text> &lines)
{
    QStringList shown;
    for (const Text &line : lines)
        shown.append(line.toString());
    return shown.join(QLatin1Char('\n'));
}

QString messageBlock(const Page &page, const Text &message, const QString &details, const Text &fix)
{
    QString html = message.isEmpty()
                       ? QString()
                       : QStringLiteral("<div>") + page.both(message) + QStringLiteral("</div>");
    if (!fix.isEmpty()) {
        html += QStringLiteral("<div class=\"fix\">") +
                page.both(Text(QT_TRANSLATE_NOOP("cudnnsetup", "Fix: %1")).arg(fix)) +
                QStringLiteral("</div>");
    }
    return html + preformatted(details);
}

Mark severityMark(Severity severity)
{
    switch (severity) {
    case Severity::Error:
        return Mark::Bad;
    case Severity::Warning:
        return Mark::Warn;
    case Severity::Info:
        break;
    }
    return Mark::Neutral;
}

Text severityWord(Severity severity)
{
    switch (severity) {
    case Severity::Error:
        return Text(QT_TRANSLATE_NOOP("cudnnsetup", "error"));
    case Severity::Warning:
        return Text(QT_TRANSLATE_NOOP("cudnnsetup", "warning"));
    case Severity::Info:
        break;
    }
    return Text(QT_TRANSLATE_NOOP("cudnnsetup", "note"));
}

void findingBlock(Page &page, const Finding &finding, const QString &extraHtml)
{
    page.append(QStringLiteral("<div class=\"finding\"><p>") +
                page.mark(severityMark(finding.severity), severityWord(finding.severity)) +
                QStringLiteral(" <span class=\"note\">") + escaped(finding.id) +
                QStringLiteral("</span></p>") +
                messageBlock(page, finding.message, finding.details, finding.fix) + extraHtml +
                QStringLiteral("</div>\n"));
}

} // namespace reporthtml

} // namespace cudnnsetup

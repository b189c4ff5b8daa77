#include "report/TextTable.h"

#include "common/VisibleControls.h"

#include <QCoreApplication>
#include <QHash>

#include <algorithm>

namespace cudnnsetup {

namespace {

bool isWide(char32_t ucs4)
{
    // The East Asian Wide and Fullwidth blocks a translated label or a path can hold.
    return (ucs4 >= 0x1100 && ucs4 <= 0x115F) || (ucs4 >= 0x2E80 && ucs4 <= 0xA4CF) ||
           (ucs4 >= 0xAC00 && ucs4 <= 0xD7A3) || (ucs4 >= 0xF900 && ucs4 <= 0xFAFF) ||
           (ucs4 >= 0xFE30 && ucs4 <= 0xFE4F) || (ucs4 >= 0xFF00 && ucs4 <= 0xFF60) ||
           (ucs4 >= 0xFFE0 && ucs4 <= 0xFFE6) || (ucs4 >= 0x20000 && ucs4 <= 0x3FFFD);
}

} // namespace

int terminalWidth(const QString &text)
{
    int width = 0;
    for (const char32_t ucs4 : text.toUcs4())
        width += isWide(ucs4) ? 2 : 1;
    return width;
}

QString TextTable::text() const
{
    int width = 0;
    for (const auto &row : m_rows)
        width = std::max(width, terminalWidth(withVisibleControls(row.first)));
    QString out;
    for (const auto &row : m_rows) {
        if (row.first.isEmpty() && row.second.isEmpty()) {
            out += QLatin1Char('\n');
            continue;
        }
        // A value may hold a name from an archive or a system: shown, never acted on.
        const QString label = withVisibleControls(row.first);
        out += label + QString(width - terminalWidth(label) + 2, QLatin1Char(' ')) +
               withVisibleControls(row.second) + QLatin1Char('\n');
    }
    return out;
}

QString severityLabel(Severity severity)
{
    switch (severity) {
    case Severity::Error:
        return QCoreApplication::translate("cudnnsetup", "error");
    case Severity::Warning:
        return QCoreApplication::translate("cudnnsetup", "warning");
    case Severity::Info:
        return QCoreApplication::translate("cudnnsetup", "note");
    }
    return {};
}

QString sourceLabel(const QString &source)
{
    static const QHash<QString, const char *> labels{
        {QStringLiteral("toolkit"), QT_TRANSLATE_NOOP("cudnnsetup", "CUDA toolkit")},
        {QStringLiteral("path"), QT_TRANSLATE_NOOP("cudnnsetup", "on PATH")},
        {QStringLiteral("system"), QT_TRANSLATE_NOOP("cudnnsetup", "system library")},
        {QStringLiteral("system32"), QT_TRANSLATE_NOOP("cudnnsetup", "System32")},
        {QStringLiteral("conda"), QT_TRANSLATE_NOOP("cudnnsetup", "conda environment")},
        {QStringLiteral("venv"), QT_TRANSLATE_NOOP("cudnnsetup", "virtual environment")},
        {QStringLiteral("pip"), QT_TRANSLATE_NOOP("cudnnsetup", "pip wheel")},
        {QStringLiteral("torch"), QT_TRANSLATE_NOOP("cudnnsetup", "inside torch")},
        {QStringLiteral("ld-library-path"), QT_TRANSLATE_NOOP("cudnnsetup", "on LD_LIBRARY_PATH")},
        {QStringLiteral("registry"), QT_TRANSLATE_NOOP("cudnnsetup", "registry")},
    };
    const char *label = labels.value(source);
    return label ? QCoreApplication::translate("cudnnsetup", label) : source;
}

QString findingsText(const Findings &findings)
{
    if (findings.isEmpty())
        return {};
    QString out = QCoreApplication::translate("cudnnsetup", "Findings") + QLatin1Char('\n');
    for (const Finding &finding : findings) {
        out += QStringLiteral("  [%1] %2\n")
                   .arg(severityLabel(finding.severity), withVisibleControls(finding.message.toString()));
        if (!finding.fix.isEmpty())
            out += QStringLiteral("      ") +
                   QCoreApplication::translate("cudnnsetup", "Fix: %1")
                       .arg(withVisibleControls(finding.fix.toString())) +
                   QLatin1Char('\n');
    }
    return out;
}

} // namespace cudnnsetup

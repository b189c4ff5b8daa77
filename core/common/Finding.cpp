#include "common/Finding.h"

#include <algorithm>

namespace cudnnsetup {

QString severityName(Severity severity)
{
    switch (severity) {
    case Severity::Info:
        return QStringLiteral("info");
    case Severity::Warning:
        return QStringLiteral("warning");
    case Severity::Error:
        return QStringLiteral("error");
    }
    return QStringLiteral("info");
}

Severity severityFromName(const QString &name)
{
    if (name == QLatin1String("error"))
        return Severity::Error;
    if (name == QLatin1String("warning"))
        return Severity::Warning;
    return Severity::Info;
}

static Finding make(Severity severity, const QString &id, const Text &message, const QString &details,
                    const Text &fix)
{
    Finding finding;
    finding.id = id;
    finding.severity = severity;
    finding.message = message;
    finding.details = details;
    finding.fix = fix;
    return finding;
}

Finding Finding::info(const QString &id, const Text &message, const QString &details, const Text &fix)
{
    return make(Severity::Info, id, message, details, fix);
}

Finding Finding::warning(const QString &id, const Text &message, const QString &details, const Text &fix)
{
    return make(Severity::Warning, id, message, details, fix);
}

Finding Finding::error(const QString &id, const Text &message, const QString &details, const Text &fix)
{
    return make(Severity::Error, id, message, details, fix);
}

QJsonObject Finding::toJson() const
{
    QJsonObject object{
        {QStringLiteral("id"), id},
        {QStringLiteral("severity"), severityName(severity)},
        {QStringLiteral("message"), message.toString()},
        {QStringLiteral("details"), details},
    };
    object.insert(QStringLiteral("fix"), fix.isEmpty() ? QJsonValue() : QJsonValue(fix.toString()));
    return object;
}

Finding Finding::fromJson(const QJsonObject &object)
{
    Finding finding;
    finding.id = object.value(QStringLiteral("id")).toString();
    finding.severity = severityFromName(object.value(QStringLiteral("severity")).toString());
    finding.message = Text::verbatim(object.value(QStringLiteral("message")).toString());
    finding.details = object.value(QStringLiteral("details")).toString();
    const QString fix = object.value(QStringLiteral("fix")).toString();
    if (!fix.isEmpty())
        finding.fix = Text::verbatim(fix);
    return finding;
}

bool hasErrors(const Findings &findings)
{
    return std::any_of(findings.cbegin(), findings.cend(),
                       [](const Finding &f) { return f.severity == Severity::Error; });
}

} // namespace cudnnsetup

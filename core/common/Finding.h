#pragma once

#include "common/Text.h"

#include <QJsonObject>
#include <QList>
#include <QString>

namespace cudnnsetup {

enum class Severity
{
    Info,
    Warning,
    Error,
};

QString severityName(Severity severity);
Severity severityFromName(const QString &name);

// The result type that crosses layers: a stable id for programs, a translated message for people,
// technical details for the log, and where one exists, the fix in plain words.
struct Finding
{
    QString id;
    Severity severity = Severity::Info;
    Text message;
    QString details;
    Text fix;

    static Finding info(const QString &id, const Text &message, const QString &details = {},
                        const Text &fix = {});
    static Finding warning(const QString &id, const Text &message, const QString &details = {},
                           const Text &fix = {});
    static Finding error(const QString &id, const Text &message, const QString &details = {},
                         const Text &fix = {});

    QJsonObject toJson() const;
    // Findings read back from JSON keep their text as written (already translated).
    static Finding fromJson(const QJsonObject &object);
};

using Findings = QList<Finding>;

bool hasErrors(const Findings &findings);

} // namespace cudnnsetup

#pragma once

#include <QJsonObject>
#include <QString>

namespace cudnnsetup {

struct DatabaseChoice;
struct MatchFacts;
struct MatchResult;

// The result of a compatibility check as JSON (schema cudnn-setup/check/1) and as a translated
// text report (`cudnnctl check`).
QJsonObject checkJson(const MatchFacts &facts, const MatchResult &result, const DatabaseChoice &database);
QString checkText(const MatchFacts &facts, const MatchResult &result, const DatabaseChoice &database);

} // namespace cudnnsetup

#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace cudnnsetup {

struct DatabaseChoice;
struct JudgedConsumer;
struct MatchFacts;
struct MatchResult;

// The result of a compatibility check as JSON (schema cudnn-setup/check/1) and as a translated
// text report (`cudnnctl check`), with the consumers found and their verdicts. `forWhat` set
// (`check --for torch`): the consumers it names decide `compatible`, and the text is theirs alone.
QJsonObject checkJson(const MatchFacts &facts, const MatchResult &result, const DatabaseChoice &database,
                      const QList<JudgedConsumer> &consumers, const QString &forWhat = {});
QString checkText(const MatchFacts &facts, const MatchResult &result, const DatabaseChoice &database,
                  const QList<JudgedConsumer> &consumers, const QString &forWhat = {});
// `check --for`'s verdict: true when each runs and finds what it needs, false when one cannot,
// nullopt when that cannot be told.
std::optional<bool> consumersCompatible(const QList<JudgedConsumer> &consumers);
// Each consumer's verdict and its one fix, translated (detect and check).
QString consumerVerdictsText(const QList<JudgedConsumer> &consumers);

} // namespace cudnnsetup

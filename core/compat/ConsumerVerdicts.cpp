#include "compat/ConsumerVerdicts.h"

#include <QDir>
#include <QJsonArray>

#include "compat/ConsumerJudge.h"
#include "compat/Matcher.h"

namespace cudnnsetup {

namespace {

QString runsName(ConsumerVerdict::Runs runs)
{
    switch (runs) {
    case ConsumerVerdict::Runs::Yes:
        return QStringLiteral("yes");
    case ConsumerVerdict::Runs::No:
        return QStringLiteral("no");
    case ConsumerVerdict::Runs::CannotTell:
        break;
    }
    return QStringLiteral("cannot-tell");
}

QString findsName(ConsumerVerdict::FindsCudnn finds)
{
    switch (finds) {
    case ConsumerVerdict::FindsCudnn::Yes:
        return QStringLiteral("yes");
    case ConsumerVerdict::FindsCudnn::No:
        return QStringLiteral("no");
    case ConsumerVerdict::FindsCudnn::CannotTell:
        return QStringLiteral("cannot-tell");
    case ConsumerVerdict::FindsCudnn::NotNeeded:
        break;
    }
    return QStringLiteral("not-needed");
}

bool consumerIsFor(const ConsumerInfo &consumer, const QString &what)
{
    if (what == QLatin1String("torch"))
        return consumer.name == what;
    if (what == QLatin1String("tensorflow"))
        return ConsumerJudge::isTensorflow(consumer.name);
    if (what == QLatin1String("onnxruntime"))
        return consumer.name.startsWith(what);
    if (what == QLatin1String("jax"))
        return ConsumerJudge::isJax(consumer.name);
    return consumer.name == what; // ctranslate2
}

} // namespace

std::optional<TorchIndex> torchIndexFor(const MatchFacts &facts, const KnowledgeBase &kb)
{
    return ConsumerJudge(facts, kb).torchIndex();
}

bool ConsumerVerdict::fine() const
{
    return runs == Runs::Yes && (findsCudnn == FindsCudnn::Yes || findsCudnn == FindsCudnn::NotNeeded) &&
           missing.isEmpty();
}

QJsonObject ConsumerVerdict::verdictJson() const
{
    return {{QStringLiteral("runs"), runsName(runs)},
            {QStringLiteral("findsCudnn"), findsName(findsCudnn)},
            {QStringLiteral("missing"), QJsonArray::fromStringList(missing)},
            {QStringLiteral("summary"), summary.toString()}};
}

QJsonObject ConsumerVerdict::fixJson() const
{
    return {{QStringLiteral("kind"), fixKind},
            {QStringLiteral("text"), fix.toString()},
            {QStringLiteral("command"), command.isEmpty() ? QJsonValue() : QJsonValue(command)}};
}

QJsonObject JudgedConsumer::toJson() const
{
    QJsonObject object = consumerToJson(consumer);
    object.insert(QStringLiteral("found"), found);
    object.insert(QStringLiteral("verdict"), verdict.verdictJson());
    object.insert(QStringLiteral("fix"), verdict.fixJson());
    return object;
}

ConsumerVerdict judgeConsumer(const ConsumerInfo &consumer, const MatchFacts &facts, const KnowledgeBase &kb)
{
    return ConsumerJudge(facts, kb).judge(consumer);
}

QList<JudgedConsumer> judgeConsumers(const QList<ConsumerInfo> &consumers, const MatchFacts &facts,
                                     const KnowledgeBase &kb)
{
    const ConsumerJudge judge(facts, kb);
    QList<JudgedConsumer> judged;
    for (const ConsumerInfo &consumer : consumers)
        judged.append({consumer, judge.judge(consumer), true});
    return judged;
}

QString appFolderOf(const QString &what)
{
    return what.startsWith(QLatin1String("app:")) ? what.mid(4) : QString();
}

Expected<QList<JudgedConsumer>> judgeFor(const QString &what, const QList<ConsumerInfo> &consumers,
                                         const MatchFacts &facts, const KnowledgeBase &kb)
{
    static const QStringList known{QStringLiteral("torch"), QStringLiteral("tensorflow"),
                                   QStringLiteral("onnxruntime"), QStringLiteral("ctranslate2"),
                                   QStringLiteral("jax")};
    const QString folder = appFolderOf(what);
    if (!known.contains(what) && folder.isEmpty())
        return Finding::error(
            QStringLiteral("check.for-unknown"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "--for takes torch, tensorflow, onnxruntime, ctranslate2, "
                                                 "jax or app:FOLDER, not \"%1\"."))
                .arg(what));
    const ConsumerJudge judge(facts, kb);
    QList<JudgedConsumer> judged;
    for (const ConsumerInfo &consumer : consumers) {
        const auto clean = [](const QString &path) {
            return QDir::cleanPath(QString(path).replace(QLatin1Char('\\'), QLatin1Char('/')));
        };
        const Qt::CaseSensitivity cases =
            facts.os == OsFamily::Windows ? Qt::CaseInsensitive : Qt::CaseSensitive;
        const bool chosen = folder.isEmpty() ? consumerIsFor(consumer, what)
                                             : clean(consumer.location).compare(clean(folder), cases) == 0;
        if (chosen)
            judged.append({consumer, judge.judge(consumer), true});
    }
    if (judged.isEmpty()) {
        ConsumerInfo absent;
        absent.name = folder.isEmpty() ? what : folder;
        judged.append({absent, judge.judgeAbsent(absent.name), false});
    }
    return judged;
}

QJsonObject snapshotJsonWithVerdicts(const SystemSnapshot &snapshot, const QList<JudgedConsumer> &judged)
{
    QJsonObject object = snapshot.toJson();
    QJsonArray consumers;
    for (const JudgedConsumer &entry : judged)
        consumers.append(entry.toJson());
    object.insert(QStringLiteral("consumers"), consumers);
    return object;
}

} // namespace cudnnsetup

#include "install/ChangeSteps.h"

#include "install/Operations.h"

#include <algorithm>
#include <utility>

namespace cudnnsetup::installer {

QString hostOf(const SystemContext &context, const QString &path)
{
    return context.files().toHost(path);
}

QString linkHostOf(const SystemContext &context, const QString &path)
{
    return hostOf(context, context.paths().parent(path)) + QLatin1Char('/') + context.paths().fileName(path);
}

QString placedHostOf(const SystemContext &context, const Receipt &receipt, const QString &path)
{
    return receipt.links.contains(path) ? linkHostOf(context, path) : hostOf(context, path);
}

std::optional<StoredEnvironmentValue> readValue(PersistentEnvironment &environment, EnvironmentScope scope,
                                                const QString &name)
{
    const auto value = environment.read(scope, name);
    return value ? *value : std::nullopt;
}

void addCudnnVariables(Transaction &transaction, QList<Receipt::EnvironmentChange> &changes,
                       EnvironmentScope scope, const InstallTarget &target, const SystemContext &context,
                       PersistentEnvironment &environment)
{
    const QList<std::pair<QString, QString>> variables = {
        {QStringLiteral("CUDNN_PATH"), target.root},
        {QStringLiteral("CUDNN_INCLUDE_DIR"), target.pathOf(target.includeFolder)},
        {QStringLiteral("CUDNN_LIBRARY"),
         context.paths().join(target.pathOf(target.libFolder), target.family == OsFamily::Windows
                                                                   ? QStringLiteral("cudnn.lib")
                                                                   : QStringLiteral("libcudnn.so"))}};
    for (const auto &[name, value] : variables) {
        transaction.add(operations::setEnvironmentValue(scope, name, StoredEnvironmentValue{value, false}));
        changes.append({operations::scopeName(scope), name, QString(), readValue(environment, scope, name),
                        StoredEnvironmentValue{value, false}});
    }
}

ChangeOutcome failed(const Findings &findings)
{
    ChangeOutcome outcome;
    outcome.status = ChangeOutcome::Status::Failed;
    outcome.findings = findings;
    return outcome;
}

ChangeOutcome finished(Transaction::Result result, ChangeOutcome outcome)
{
    outcome.findings += result.findings;
    switch (result.outcome) {
    case Transaction::Outcome::Committed:
        outcome.status = ChangeOutcome::Status::Done;
        break;
    case Transaction::Outcome::Cancelled:
        outcome.status = ChangeOutcome::Status::Cancelled;
        break;
    case Transaction::Outcome::RolledBack:
        outcome.status = ChangeOutcome::Status::Failed;
        break;
    case Transaction::Outcome::Crashed:
        outcome.status = ChangeOutcome::Status::Crashed;
        break;
    }
    return outcome;
}

QStringList describe(const Transaction &transaction)
{
    QStringList plan;
    for (int i = 0; i < transaction.size(); ++i)
        plan.append(transaction.at(i).description().toString());
    return plan;
}

QStringList deepestFirst(QSet<QString> folders)
{
    QStringList sorted(folders.cbegin(), folders.cend());
    std::sort(sorted.begin(), sorted.end(), [](const QString &a, const QString &b) {
        return a.size() > b.size() || (a.size() == b.size() && a < b);
    });
    return sorted;
}

bool rebuildsLibraryCache(const SystemContext &context)
{
    return context.isLive() && context.family() == OsFamily::Linux;
}

} // namespace cudnnsetup::installer

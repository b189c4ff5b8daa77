#include "install/Transaction.h"

#include "common/Logging.h"
#include "platform/DurableFiles.h"
#include "platform/SystemContext.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QJsonArray>

namespace cudnnsetup {

namespace {

// The operation of a journal entry: the live one while the transaction that wrote it still runs,
// else one made again from its name and arguments, kept in `made`; null for a name this build
// does not know.
Operation *operationFor(const Journal::Entry &entry, const std::vector<std::unique_ptr<Operation>> *live,
                        std::unique_ptr<Operation> &made)
{
    if (live && entry.sequence < int(live->size()))
        return live->at(size_t(entry.sequence)).get();
    made = Operation::create(entry.name, entry.arguments);
    return made.get();
}

void removeJournal(const QString &journalPath, const QString &backupFolder)
{
    if (!backupFolder.isEmpty())
        durable::discardTree(backupFolder);
    QFile::remove(journalPath);
}

// What a change that could not be settled whole says: its journal and every backup stay, and the
// next start of cuDNN Setup tries again.
Finding keptForNextStart(const Journal::Contents &contents, const QString &journalPath, bool committed)
{
    const Text message =
        committed ? Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                           "The change was made, but not all of its tidying up after it: the "
                                           "files it replaced are kept, and cuDNN Setup finishes it when it "
                                           "next starts."))
                  : Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                           "Not everything could be put back as it was: what could not is "
                                           "listed above. The files it replaced are kept, and cuDNN Setup "
                                           "tries again when it next starts."));
    // Undone in part is an error; done, with only the tidying left, a warning.
    return (committed ? &Finding::warning : &Finding::error)(
        QStringLiteral("install.kept-for-next-start"), message,
        QStringLiteral("%1 %2: journal %3, backups in %4")
            .arg(contents.kind, contents.id, journalPath, contents.backupFolder),
        Text(QT_TRANSLATE_NOOP("cudnnsetup",
                               "Close the programs that use cuDNN, then start cuDNN Setup again.")));
}

} // namespace

OperationContext OperationContext::of(const SystemContext &system,
                                      std::shared_ptr<PersistentEnvironment> environment)
{
    OperationContext context;
    context.environment = std::move(environment);
    context.sessionVariable = sessionVariablesOf(system);
    context.fileSecurity = &system.fileSecurity();
    context.filesInUse = &system.filesInUse();
    return context;
}

QString OperationContext::backupPath(const QString &fileName) const
{
    return backupFolder + QLatin1Char('/') + QString::number(sequence) + QLatin1Char('/') + fileName;
}

Expected<void> Operation::finish(OperationContext &, const QJsonObject &)
{
    return {};
}

std::optional<QString> Operation::implausibleRecord(OperationContext &, const QJsonObject &) const
{
    return std::nullopt;
}

Transaction::Transaction(QString id, QString kind, QString journalPath, OperationContext context,
                         QStringList roots)
    : m_id(std::move(id))
    , m_kind(std::move(kind))
    , m_journalPath(std::move(journalPath))
    , m_context(std::move(context))
    , m_roots(std::move(roots))
{
}

void Transaction::add(std::unique_ptr<Operation> operation)
{
    m_operations.push_back(std::move(operation));
}

Transaction::Result Transaction::run(const Progress &progress, const std::function<bool()> &cancelled)
{
    Result result;
    auto journal = Journal::create(
        m_journalPath, {{QStringLiteral("id"), m_id},
                        {QStringLiteral("kind"), m_kind},
                        {QStringLiteral("backupFolder"), m_context.backupFolder},
                        {QStringLiteral("roots"), QJsonArray::fromStringList(m_roots)},
                        {QStringLiteral("started"), QDateTime::currentDateTimeUtc().toString(Qt::ISODate)}});
    if (!journal) {
        result.findings.append(journal.error());
        return result;
    }
    Journal &log = journal.value();
    if (cancelled)
        m_context.cancelled = cancelled;
    Journal::Contents written; // what the journal says so far, for a rollback
    written.backupFolder = m_context.backupFolder;
    const auto failAndRollBack = [&](Outcome outcome, const std::optional<Finding> &why) {
        result.outcome = outcome;
        if (why)
            result.findings.append(*why);
        const Undone undone = rollBack(written, m_context, &m_operations);
        result.findings += undone.unknown;
        if (undone.failed.isEmpty()) {
            removeJournal(m_journalPath, m_context.backupFolder);
            return result;
        }
        result.findings += undone.failed;
        result.findings.append(keptForNextStart(written, m_journalPath, false));
        return result;
    };

    for (int i = 0; i < size(); ++i) {
        Operation &operation = *m_operations.at(size_t(i));
        if (cancelled && cancelled())
            return failAndRollBack(Outcome::Cancelled, std::nullopt);
        if (progress)
            progress(i, size(), operation.description());
        m_context.sequence = i;
        if (const Expected<void> begun = log.begin(i, operation.name(), operation.arguments()); !begun)
            return failAndRollBack(Outcome::RolledBack, begun.error());
        written.entries.append({i, operation.name(), operation.arguments(), {}, false});
        std::optional<Finding> journalProblem;
        m_context.remember = [&](const QJsonObject &state) {
            written.entries.last().state = state;
            if (const Expected<void> noted = log.state(i, state); !noted)
                journalProblem = noted.error();
        };
        if (m_context.crashes(FaultPoint::Stage::BeforePerform)) {
            result.outcome = Outcome::Crashed;
            return result;
        }
        const Expected<void> performed = operation.perform(m_context);
        std::optional<Finding> error =
            !performed ? std::optional<Finding>(performed.error()) : journalProblem;
        if (m_context.crashes(FaultPoint::Stage::AfterPerform) || m_context.crashedInside) {
            result.outcome = Outcome::Crashed;
            return result;
        }
        // A step stopped by the user's cancel (an unpacking that saw it) failed because of it.
        if (error && cancelled && cancelled())
            return failAndRollBack(Outcome::Cancelled, std::nullopt);
        if (error) {
            qCWarning(lcInstall).noquote()
                << "operation" << i << operation.name() << "failed:" << error->details;
            return failAndRollBack(Outcome::RolledBack, error);
        }
        if (const Expected<void> noted = log.done(i); !noted)
            return failAndRollBack(Outcome::RolledBack, noted.error());
        written.entries.last().done = true;
    }
    if (cancelled && cancelled())
        return failAndRollBack(Outcome::Cancelled, std::nullopt);
    if (const Expected<void> committed = log.commit(); !committed)
        return failAndRollBack(Outcome::RolledBack, committed.error());
    written.committed = true;
    m_context.sequence = size();
    if (m_context.crashes(FaultPoint::Stage::AfterCommit)) {
        result.outcome = Outcome::Crashed;
        return result;
    }
    if (progress)
        progress(size(), size(), Text(QT_TRANSLATE_NOOP("cudnnsetup", "Done")));
    result.outcome = Outcome::Committed;
    if (const Findings unsettled = settle(written, m_context, &m_operations); !unsettled.isEmpty()) {
        result.findings += unsettled;
        result.findings.append(keptForNextStart(written, m_journalPath, true));
        return result;
    }
    removeJournal(m_journalPath, m_context.backupFolder);
    return result;
}

Transaction::Undone Transaction::rollBack(const Journal::Contents &contents, OperationContext &context,
                                          const std::vector<std::unique_ptr<Operation>> *live)
{
    Undone undone;
    for (auto entry = contents.entries.crbegin(); entry != contents.entries.crend(); ++entry) {
        std::unique_ptr<Operation> made;
        Operation *operation = operationFor(*entry, live, made);
        if (!operation) {
            undone.unknown.append(Finding::error(
                QStringLiteral("install.undo-failed"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "A step of the interrupted install (%1) cannot be undone."))
                    .arg(entry->name),
                QStringLiteral("unknown operation in the journal")));
            continue;
        }
        context.sequence = entry->sequence;
        if (const Expected<void> reversed = operation->undo(context, entry->state); !reversed) {
            qCWarning(lcInstall).noquote()
                << "undo of" << entry->sequence << entry->name << "failed:" << reversed.error().details;
            undone.failed.append(reversed.error());
        }
    }
    return undone;
}

Findings Transaction::settle(const Journal::Contents &contents, OperationContext &context,
                             const std::vector<std::unique_ptr<Operation>> *live)
{
    Findings problems;
    for (const Journal::Entry &entry : contents.entries) {
        std::unique_ptr<Operation> made;
        Operation *operation = operationFor(entry, live, made);
        if (!operation)
            continue;
        context.sequence = entry.sequence;
        if (const Expected<void> finished = operation->finish(context, entry.state); !finished) {
            qCWarning(lcInstall).noquote()
                << "finishing" << entry.sequence << entry.name << "failed:" << finished.error().details;
            problems.append(finished.error());
        }
    }
    return problems;
}

Findings Transaction::recover(const QString &journalPath, OperationContext context)
{
    const auto contents = Journal::read(journalPath);
    if (!contents)
        return {contents.error()};
    return recover(journalPath, *contents, std::move(context));
}

Findings Transaction::recover(const QString &journalPath, const Journal::Contents &contents,
                              OperationContext context)
{
    context.backupFolder = contents.backupFolder;
    const QString which = QStringLiteral("%1 %2").arg(contents.kind, contents.id);
    if (contents.committed) {
        if (Findings unsettled = settle(contents, context, nullptr); !unsettled.isEmpty()) {
            unsettled.append(keptForNextStart(contents, journalPath, true));
            return unsettled;
        }
        removeJournal(journalPath, contents.backupFolder);
        return {Finding::info(
            QStringLiteral("install.recovered-commit"),
            Text(QT_TRANSLATE_NOOP(
                "cudnnsetup",
                "An interrupted install, uninstall or repair had finished its work; it was completed.")),
            which)};
    }
    const Undone undone = rollBack(contents, context, nullptr);
    const Finding incomplete = Finding::error(
        QStringLiteral("install.recovery-incomplete"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "An interrupted install, uninstall or repair was found, but it "
                                             "could not be undone whole.")),
        which);
    if (!undone.failed.isEmpty()) {
        Findings findings{incomplete};
        findings += undone.unknown + undone.failed;
        findings.append(keptForNextStart(contents, journalPath, false));
        return findings;
    }
    removeJournal(journalPath, contents.backupFolder);
    if (!undone.unknown.isEmpty())
        return Findings{incomplete} + undone.unknown;
    return {Finding::warning(
        QStringLiteral("install.recovered-rollback"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup",
                               "An interrupted install, uninstall or repair was found and undone; "
                               "the system is as it was before it.")),
        which)};
}

} // namespace cudnnsetup

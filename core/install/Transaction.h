#pragma once

#include "common/Expected.h"
#include "common/Finding.h"
#include "install/Journal.h"
#include "install/Operation.h"

#include <functional>
#include <memory>
#include <vector>

namespace cudnnsetup {

// A list of operations carried out all or nothing, with its journal on disk: if one fails, or the
// user cancels, the ones done are undone in reverse order; if the process dies, the next start
// finds the journal (recover()) and rolls it back, or finishes it when it had passed its commit
// point. The journal and the backups go away once the transaction is settled.
class Transaction
{
public:
    enum class Outcome
    {
        Committed,
        RolledBack, // an operation failed; everything done was undone
        Cancelled,  // the user stopped it; everything done was undone
        Crashed,    // a fault point stopped it dead (tests): the journal is left for recover()
    };
    struct Result
    {
        Outcome outcome = Outcome::RolledBack;
        Findings findings; // why it failed, and anything an undo could not put back
    };

    // `journalPath` must not exist; the backups go to `context.backupFolder`. `roots` (host paths)
    // are the folders its operations change, apart from the state folder: the journal's header
    // names them, and a journal whose steps leave them is not replayed (StateTrust).
    Transaction(QString id, QString kind, QString journalPath, OperationContext context,
                QStringList roots = {});

    void add(std::unique_ptr<Operation> operation);
    int size() const { return int(m_operations.size()); }
    const Operation &at(int index) const { return *m_operations.at(size_t(index)); }

    // (operations done, operations in all, what is being done)
    using Progress = std::function<void(int, int, const Text &)>;
    // Runs the operations; on a failure undoes what was done. When an undo (or, after the commit, a
    // finish) fails, the journal and every backup stay for recover() at the next start, and the
    // findings say what was not put back and "install.kept-for-next-start".
    Result run(const Progress &progress = {}, const std::function<bool()> &cancelled = {});

    // Settles a journal a dead process left: rolls it back, or finishes it after its commit point.
    // Returns what was done ("install.recovered-rollback" / "install.recovered-commit"); when an
    // undo or finish fails, "install.recovery-incomplete" (undo), what failed, and
    // "install.kept-for-next-start": the journal and its backups stay for the next try.
    static Findings recover(const QString &journalPath, OperationContext context);
    // The same, with what the journal at `journalPath` says already read.
    static Findings recover(const QString &journalPath, const Journal::Contents &contents,
                            OperationContext context);

private:
    struct Undone
    {
        Findings failed;  // undos that failed: worth another try, so the journal stays
        Findings unknown; // steps this build does not know (a newer version's): reported only
    };
    static Undone rollBack(const Journal::Contents &contents, OperationContext &context,
                           const std::vector<std::unique_ptr<Operation>> *live);
    // Finishes every operation after the commit; what could not be finished.
    static Findings settle(const Journal::Contents &contents, OperationContext &context,
                           const std::vector<std::unique_ptr<Operation>> *live);

    QString m_id;
    QString m_kind;
    QString m_journalPath;
    OperationContext m_context;
    QStringList m_roots;
    std::vector<std::unique_ptr<Operation>> m_operations;
};

} // namespace cudnnsetup

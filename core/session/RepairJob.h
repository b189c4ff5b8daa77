#pragma once

#include "compat/KnowledgeBase.h"
#include "detect/DetectOptions.h"
#include "doctor/Doctor.h"
#include "install/Installer.h"
#include "platform/PersistentEnvironment.h"
#include "platform/SystemContext.h"
#include "verify/Verifier.h"

#include "session/BackgroundJob.h"

#include <QList>

#include <memory>
#include <optional>

namespace cudnnsetup {

// The doctor on a worker thread, reporting back on the thread that started it. diagnose() examines
// the system (a fresh detection, cuDNN Setup's receipts, the verification given) and emits
// diagnosed(report). repair() applies the chosen repairs as one transaction and emits
// repaired(outcome); when they changed something it examines the system again, the set that was
// verified verified anew, and emits diagnosed(report) right after. cancel() asks a running repair
// to stop and roll back.
class RepairJob final : public BackgroundJob
{
    Q_OBJECT

public:
    struct Request
    {
        DetectOptions detect; // its progress and cancel are the job's own
        // The verification the first diagnosis reads (the Verify page's), if one was made.
        std::optional<VerifyReport> verify;
        // The set it checked: verified (again), without the frameworks, for a diagnosis that has no
        // verification to read, as after repairs.
        std::optional<VerifySubject> subject;
        std::optional<ErrorLog> log; // the error the user pasted, tied to the machine by the doctor
        VerifyOptions verifyOptions;
        KnowledgeBase database;
        quintptr ownerWindow = 0; // the window a consent prompt belongs to (an HWND)
    };

    RepairJob(Request request, SystemContext context, std::shared_ptr<PersistentEnvironment> environment,
              QObject *parent = nullptr);
    // Destroyed while it runs, a repair is rolled back and waited for.

    void diagnose();
    void repair(const QList<Repair> &repairs);
    // Cancels a running repair (it rolls back); a diagnosis runs to its end.
    void cancelRepair();
    bool isRepairing() const { return isRunning() && m_repairing; }

Q_SIGNALS:
    void diagnosed(const cudnnsetup::DoctorReport &report);
    void repaired(const cudnnsetup::ChangeOutcome &outcome);

private:
    struct Result
    {
        std::optional<ChangeOutcome> outcome;
        std::optional<DoctorReport> report;
    };
    void run(const QList<Repair> &repairs);

    Request m_request;
    SystemContext m_context;
    std::shared_ptr<PersistentEnvironment> m_environment;
    bool m_repairing = false;
};

} // namespace cudnnsetup

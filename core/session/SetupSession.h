#pragma once

#include "archive/ArchiveInspector.h"
#include "common/Question.h"
#include "compat/ConsumerVerdicts.h"
#include "compat/DatabaseChoice.h"
#include "compat/Matcher.h"
#include "detect/SystemSnapshot.h"
#include "doctor/Doctor.h"
#include "download/ArchiveDownload.h"
#include "install/InstallTarget.h"
#include "install/Installer.h"
#include "install/PathEditor.h"
#include "platform/EnvironmentStore.h"
#include "platform/PersistentEnvironment.h"
#include "platform/SystemContext.h"
#include "report/ReportFiles.h"
#include "session/TargetConfig.h"
#include "session/UnattendedRun.h"
#include "verify/Verifier.h"
#include "verify/VerifyReport.h"

#include <QList>
#include <QObject>

#include <memory>
#include <optional>

namespace cudnnsetup {

// The one model the wizard's pages share (and unattended mode drives without pages): which system
// is worked on, what detection found, and who answers core's questions. A page reads from it when
// it is shown and commits its value into it when it is left.
class SetupSession final : public QObject
{
    Q_OBJECT

public:
    explicit SetupSession(SystemContext context, QObject *parent = nullptr);

    const SystemContext &context() const { return m_context; }

    bool hasSnapshot() const { return m_snapshot.has_value(); }
    const SystemSnapshot &snapshot() const { return *m_snapshot; }
    void setSnapshot(const SystemSnapshot &snapshot);
    void clearSnapshot();

    QuestionHandler &questions() const { return *m_questions; }
    void setQuestionHandler(std::shared_ptr<QuestionHandler> handler);

    // The compatibility database in use: built in unless the program was given or found another.
    const DatabaseChoice &database() const { return m_database; }
    void setDatabase(const DatabaseChoice &database);

    // The archive the user chose, as the inspection found it; the verdict then judges it too.
    bool hasArchive() const { return m_archive.has_value(); }
    const ArchiveReport &archive() const { return *m_archive; }
    void setArchive(const ArchiveReport &report);
    void clearArchive();

    // The program cuDNN is for, where it goes beside that program only (the Purpose page's answer):
    // the match recommends the cuDNN and CUDA majors it needs, and the target proposed is its
    // folder. nullopt: the machine decides.
    const std::optional<CudnnBeside> &program() const { return m_program; }
    void setProgram(const std::optional<CudnnBeside> &program);

    // The matcher's verdict on what is known so far (the machine, and the chosen archive; later
    // the target), the database's own findings first. Only while there is a snapshot.
    bool hasMatch() const { return m_match.has_value(); }
    const MatchFacts &matchFacts() const { return m_matchFacts; }
    const MatchResult &match() const { return *m_match; }
    // The findings of match() that the chosen archive brings (none without one).
    Findings findingsOfArchive() const;

    // The user's explicit decision to go on although the matcher found blocking problems. It is
    // logged with the problems' ids, and a new verdict takes it back.
    bool blockersOverridden() const { return m_blockersOverridden; }
    void setBlockersOverridden(bool overridden);
    // Whether the wizard may go on past the verdict: it fits, or the user chose to go on anyway.
    bool mayProceed() const { return m_match && (m_match->compatible() || m_blockersOverridden); }

    // Where the user's browser saves files: the user's Downloads folder unless a test sets another.
    QString downloadsFolder() const;
    void setDownloadsFolder(const QString &hostFolder) { m_downloadsFolder = hostFolder; }
    // The recommended archive, when it is already in the Downloads folder (under NVIDIA's name, or
    // as a browser renamed it); the newest such file, else empty.
    QString downloadedRecommendation() const;
    // Where "Download it for me" fetches from, as ArchiveSource::parse reads it: empty for NVIDIA's
    // redist, a mirror's URL or a folder. Remembered for this user between runs (QSettings).
    QString archiveSource() const;
    void setArchiveSource(const QString &source);
    // The download of the recommended archive from that source into the Downloads folder; an error
    // without a recommendation, or with a source that cannot be read.
    Expected<DownloadRequest> recommendedDownload() const;

    // The environment values that outlive this process, which PATH and the CUDNN_* variables are
    // written to: the running Windows system's registry; unavailable on Linux and under
    // --system-root, where only targets without a PATH change can be installed. Tests set their own.
    std::shared_ptr<PersistentEnvironment> persistentEnvironment() const { return m_persistentEnvironment; }
    void setPersistentEnvironment(std::shared_ptr<PersistentEnvironment> environment);

    // Where cuDNN goes, as the Target page configured it. A new snapshot or archive takes it back,
    // since the target was resolved against them.
    const std::optional<TargetConfig> &targetConfig() const { return m_targetConfig; }
    void setTargetConfig(const TargetConfig &config);
    // What that configuration resolved: the target, once there is one.
    bool hasTarget() const { return m_targetConfig && m_targetConfig->isReady(); }
    const InstallTarget &target() const { return m_targetConfig->target(); }
    // Also set CUDNN_PATH, CUDNN_INCLUDE_DIR and CUDNN_LIBRARY, in this scope; nullopt: not.
    std::optional<EnvironmentScope> cudnnVariables() const;
    // The clean-ups of PATH the user ticked (entries of the target's PATH scope to remove or move
    // behind ours), as PathEditor::analyse offered them; none unless asked for.
    QList<PathFix> pathFixes() const;

    // The install chosen on the pages as the settings of `cudnn-setup --unattended`, for lab IT to
    // replicate on other machines; nullopt until an archive and a target are chosen.
    std::optional<UnattendedSettings> replication() const;

    // How the install went, once it has run.
    bool hasInstallOutcome() const { return m_installOutcome.has_value(); }
    const ChangeOutcome &installOutcome() const { return *m_installOutcome; }
    void setInstallOutcome(const ChangeOutcome &outcome);
    void clearInstallOutcome();

    // ---- After the install: the Verify and Repair pages ----

    // What the Verify page checks: the set the install placed (its receipt), else the copy a
    // freshly started program loads as detection found it; "verify.nothing" when there is neither.
    Expected<VerifySubject> verifySubject() const;
    // Its verification, once it has run. A new install outcome takes it back, and a new
    // verification takes back the diagnosis below, which read the old one.
    bool hasVerifyReport() const { return m_verifyReport.has_value(); }
    const VerifyReport &verifyReport() const { return *m_verifyReport; }
    void setVerifyReport(const VerifyReport &report);
    void clearVerifyReport();
    // The doctor's latest diagnosis (after repairs, the one made after them).
    bool hasDoctorReport() const { return m_doctorReport.has_value(); }
    // What a saved support report holds now: the snapshot, the verification and the diagnosis as
    // far as they were made, and the receipts on the system.
    ReportInput reportInput() const;
    const DoctorReport &doctorReport() const { return *m_doctorReport; }
    void setDoctorReport(const DoctorReport &report);
    void clearDoctorReport();
    // The error the user pasted on the repair path, read (readErrorLog); the doctor ties it to this
    // machine. Empty text forgets it.
    void setPastedError(const QString &text);
    const std::optional<ErrorLog> &pastedError() const { return m_pastedError; }

Q_SIGNALS:
    void snapshotChanged();
    void archiveChanged();
    void matchChanged();
    // The target, the CUDNN_* variables choice or the chosen PATH fixes changed.
    void targetChanged();
    void installOutcomeChanged();
    void verifyReportChanged();
    void doctorReportChanged();

private:
    void rematch();
    void forgetTarget();

    SystemContext m_context;
    std::optional<SystemSnapshot> m_snapshot;
    std::shared_ptr<QuestionHandler> m_questions;
    DatabaseChoice m_database = DatabaseChoice::builtIn();
    std::optional<ArchiveReport> m_archive;
    std::optional<CudnnBeside> m_program;
    MatchFacts m_matchFacts;
    std::optional<MatchResult> m_match;
    bool m_blockersOverridden = false;
    QString m_downloadsFolder;
    std::shared_ptr<PersistentEnvironment> m_persistentEnvironment;
    QString m_archiveSource;
    std::optional<TargetConfig> m_targetConfig;
    std::optional<ChangeOutcome> m_installOutcome;
    std::optional<VerifyReport> m_verifyReport;
    std::optional<DoctorReport> m_doctorReport;
    std::optional<ErrorLog> m_pastedError;
};

} // namespace cudnnsetup

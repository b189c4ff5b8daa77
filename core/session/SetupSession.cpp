#include "session/SetupSession.h"

#include "common/Logging.h"

#include "compat/ArchiveName.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QSettings>

#include <algorithm>

namespace cudnnsetup {

namespace {
// QSettings' key of the download source (HKCU\Software\cuDNN Setup\cuDNN Setup on Windows).
constexpr char kArchiveSourceSetting[] = "download/source";
} // namespace

SetupSession::SetupSession(SystemContext context, QObject *parent)
    : QObject(parent)
    , m_context(std::move(context))
    , m_questions(std::make_shared<TableQuestionHandler>())
    , m_persistentEnvironment(m_context.isLive() ? PersistentEnvironment::forRunningSystem()
                                                 : PersistentEnvironment::unavailable())
    // A sandboxed session (the tests') neither reads nor leaves the user's settings.
    , m_archiveSource(m_context.isLive() ? QSettings().value(QLatin1String(kArchiveSourceSetting)).toString()
                                         : QString())
{
}

void SetupSession::setSnapshot(const SystemSnapshot &snapshot)
{
    m_snapshot = snapshot;
    forgetTarget();
    Q_EMIT snapshotChanged();
    rematch();
}

void SetupSession::clearSnapshot()
{
    m_snapshot.reset();
    forgetTarget();
    Q_EMIT snapshotChanged();
    rematch();
}

void SetupSession::setArchive(const ArchiveReport &report)
{
    m_archive = report;
    forgetTarget();
    Q_EMIT archiveChanged();
    rematch();
}

void SetupSession::clearArchive()
{
    if (!m_archive)
        return;
    m_archive.reset();
    forgetTarget();
    Q_EMIT archiveChanged();
    rematch();
}

void SetupSession::setDatabase(const DatabaseChoice &database)
{
    m_database = database;
    rematch();
}

void SetupSession::setProgram(const std::optional<CudnnBeside> &program)
{
    const bool same =
        program.has_value() == m_program.has_value() &&
        (!program || (program->folder == m_program->folder && program->cudnnMajor == m_program->cudnnMajor &&
                      program->cudaMajor == m_program->cudaMajor));
    if (same)
        return;
    m_program = program;
    qCInfo(lcSession).noquote() << "cuDNN is for"
                                << (program ? QStringLiteral("%1 in %2: cuDNN %3 for CUDA %4")
                                                  .arg(program->program, program->folder,
                                                       QString::number(program->cudnnMajor),
                                                       QString::number(program->cudaMajor))
                                            : QStringLiteral("this computer as a whole"));
    forgetTarget(); // the target proposed was resolved for the program
    rematch();
}

void SetupSession::rematch()
{
    m_blockersOverridden = false;
    if (m_snapshot) {
        m_matchFacts = MatchFacts::fromSnapshot(*m_snapshot);
        if (m_archive && m_archive->layout.isCudnn()) {
            const ArchiveReport &archive = *m_archive;
            m_matchFacts.archive = MatchFacts::Archive{
                archive.platform.isEmpty() && archive.claimed ? archive.claimed->platform : archive.platform,
                archive.cudnn.isValid() || !archive.claimed ? archive.cudnn : archive.claimed->cudnn,
                archive.cudaVariant.isEmpty() && archive.claimed ? archive.claimed->cudaVariant
                                                                 : archive.cudaVariant};
        }
        if (m_program) {
            m_matchFacts.wantedCudnnMajor = m_program->cudnnMajor;
            m_matchFacts.wantedCudaMajor = m_program->cudaMajor;
        }
        MatchResult result = cudnnsetup::match(m_matchFacts, m_database.database);
        result.findings = m_database.findings + result.findings;
        m_match = result;
    } else {
        m_matchFacts = MatchFacts();
        m_match.reset();
    }
    Q_EMIT matchChanged();
}

Findings SetupSession::findingsOfArchive() const
{
    if (!m_match || !m_matchFacts.archive)
        return {};
    MatchFacts machineOnly = m_matchFacts;
    machineOnly.archive.reset();
    const MatchResult before = cudnnsetup::match(machineOnly, m_database.database);
    Findings added;
    for (const Finding &finding : m_match->findings) {
        const bool known =
            std::any_of(before.findings.cbegin(), before.findings.cend(), [&](const Finding &old) {
                return old.id == finding.id && old.message.toEnglish() == finding.message.toEnglish();
            });
        if (!known && finding.id.startsWith(QLatin1String("match.")))
            added.append(finding);
    }
    return added;
}

void SetupSession::setBlockersOverridden(bool overridden)
{
    if (overridden == m_blockersOverridden)
        return;
    m_blockersOverridden = overridden;
    QStringList blockers;
    if (m_match) {
        for (const Finding &finding : m_match->findings) {
            if (finding.severity == Severity::Error || MatchResult::leavesVerdictOpen(finding))
                blockers.append(finding.id);
        }
    }
    if (overridden)
        qCWarning(lcSession).noquote()
            << "the user chose to go on despite:" << blockers.join(QStringLiteral(", "));
    else
        qCInfo(lcSession) << "the user withdrew the override of the blocking findings";
}

std::optional<UnattendedSettings> SetupSession::replication() const
{
    if (!m_archive || !hasTarget())
        return std::nullopt;
    const InstallTarget &chosen = target();
    UnattendedSettings settings;
    settings.archive = QDir::toNativeSeparators(m_archive->path);
    // Where this user downloads from, for the machines the file is taken to (archive= wins there
    // while the file is reachable; without it they download from the same place).
    settings.archiveSource = m_archiveSource;
    // Another machine's user has another profile: "user" stands for that user's own folder there.
    settings.target = chosen.kind == InstallTarget::Kind::UserFolder ? QStringLiteral("user") : chosen.spec();
    settings.path = pathScopeName(chosen.pathScope);
    if (const std::optional<EnvironmentScope> variables = cudnnVariables())
        settings.variables =
            *variables == EnvironmentScope::User ? QStringLiteral("user") : QStringLiteral("system");
    return settings;
}

QString SetupSession::downloadsFolder() const
{
    return m_downloadsFolder.isEmpty() ? defaultDownloadFolder() : m_downloadsFolder;
}

QString SetupSession::downloadedRecommendation() const
{
    if (!m_match || !m_match->recommendation)
        return {};
    const QString wanted = m_match->recommendation->archiveFile;
    const QFileInfoList files = QDir(downloadsFolder())
                                    .entryInfoList({QStringLiteral("cudnn*")}, QDir::Files | QDir::Readable,
                                                   QDir::Time); // the newest first
    for (const QFileInfo &file : files) {
        const std::optional<ArchiveName> name = ArchiveName::parse(file.fileName());
        if (name && name->canonicalFileName().compare(wanted, Qt::CaseInsensitive) == 0)
            return file.absoluteFilePath();
    }
    return {};
}

QString SetupSession::archiveSource() const
{
    return m_archiveSource;
}

void SetupSession::setArchiveSource(const QString &source)
{
    m_archiveSource = source.trimmed();
    if (m_context.isLive())
        QSettings().setValue(QLatin1String(kArchiveSourceSetting), m_archiveSource);
}

Expected<DownloadRequest> SetupSession::recommendedDownload() const
{
    const auto recommended = m_match && m_match->recommendation
                                 ? requestForArchive(m_match->recommendation->archiveFile)
                                 : std::nullopt;
    if (!recommended)
        return Finding::error(
            QStringLiteral("download.nothing-recommended"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "No archive fits this computer yet, so there "
                                                 "is nothing to download.")));
    const auto source = ArchiveSource::parse(m_archiveSource);
    if (!source)
        return source.error();
    DownloadRequest request = *recommended;
    request.source = *source;
    request.outFolder = downloadsFolder();
    return request;
}

void SetupSession::setPersistentEnvironment(std::shared_ptr<PersistentEnvironment> environment)
{
    m_persistentEnvironment = environment ? std::move(environment) : PersistentEnvironment::unavailable();
    forgetTarget(); // the PATH choices depended on what could be written
}

void SetupSession::setTargetConfig(const TargetConfig &config)
{
    const Expected<InstallPlan> before =
        m_targetConfig ? m_targetConfig->plan() : Expected<InstallPlan>(InstallPlan());
    const QList<PathFix> fixesBefore = pathFixes();
    const bool hadTarget = hasTarget();
    m_targetConfig = config;
    const Expected<InstallPlan> after = config.plan();
    const bool samePlan = hadTarget == hasTarget() && (!hasTarget() || before->toJson() == after->toJson());
    if (samePlan && fixesBefore == pathFixes())
        return;
    if (hasTarget() && !samePlan) {
        const InstallTarget &target = config.target();
        qCInfo(lcSession) << "install target" << target.kindName() << target.root << "DLLs in"
                          << target.dllFolder() << "PATH" << pathScopeName(target.pathScope);
        const std::optional<EnvironmentScope> scope = config.cudnnVariables();
        qCInfo(lcSession) << "CUDNN_* variables:"
                          << (!scope                               ? "not set"
                              : *scope == EnvironmentScope::System ? "for the machine"
                                                                   : "for the user");
    }
    if (fixesBefore != pathFixes()) {
        QStringList chosen;
        for (const PathFix &fix : pathFixes())
            chosen.append(QStringLiteral("%1 %2 (entry %3)")
                              .arg(fix.action == PathFix::Action::Remove ? QStringLiteral("remove")
                                                                         : QStringLiteral("move behind ours"),
                                   fix.entry)
                              .arg(fix.index));
        qCInfo(lcSession).noquote() << "PATH fixes chosen:"
                                    << (chosen.isEmpty() ? QStringLiteral("none")
                                                         : chosen.join(QStringLiteral("; ")));
    }
    Q_EMIT targetChanged();
}

std::optional<EnvironmentScope> SetupSession::cudnnVariables() const
{
    return hasTarget() ? m_targetConfig->cudnnVariables() : std::nullopt;
}

QList<PathFix> SetupSession::pathFixes() const
{
    return hasTarget() ? m_targetConfig->changeOptions().pathFixes : QList<PathFix>();
}

void SetupSession::forgetTarget()
{
    if (m_targetConfig) {
        m_targetConfig.reset();
        Q_EMIT targetChanged();
    }
    clearInstallOutcome();
}

void SetupSession::setInstallOutcome(const ChangeOutcome &outcome)
{
    m_installOutcome = outcome;
    clearVerifyReport();
    Q_EMIT installOutcomeChanged();
}

void SetupSession::clearInstallOutcome()
{
    if (!m_installOutcome)
        return;
    m_installOutcome.reset();
    clearVerifyReport();
    Q_EMIT installOutcomeChanged();
}

// ---- After the install: the Verify and Repair pages ----

Expected<VerifySubject> SetupSession::verifySubject() const
{
    if (m_installOutcome && m_installOutcome->receipt)
        return subjectFromReceipt(m_context, *m_installOutcome->receipt);
    if (m_snapshot) {
        if (const std::optional<VerifySubject> detected = subjectFromSnapshot(m_context, *m_snapshot))
            return *detected;
    }
    return Finding::error(QStringLiteral("verify.nothing"),
                          Text(QT_TRANSLATE_NOOP("cudnnsetup", "No cuDNN was found on this system.")));
}

void SetupSession::setVerifyReport(const VerifyReport &report)
{
    m_verifyReport = report;
    clearDoctorReport();
    Q_EMIT verifyReportChanged();
}

void SetupSession::clearVerifyReport()
{
    if (!m_verifyReport)
        return;
    m_verifyReport.reset();
    clearDoctorReport();
    Q_EMIT verifyReportChanged();
}

void SetupSession::setDoctorReport(const DoctorReport &report)
{
    m_doctorReport = report;
    Q_EMIT doctorReportChanged();
}

void SetupSession::setPastedError(const QString &text)
{
    if (text.trimmed().isEmpty())
        m_pastedError.reset();
    else
        m_pastedError = readErrorLog(text);
    qCInfo(lcSession) << "pasted error:" << text.size() << "characters,"
                      << (m_pastedError ? m_pastedError->signatures.size() : 0) << "signatures";
}

void SetupSession::clearDoctorReport()
{
    if (!m_doctorReport)
        return;
    m_doctorReport.reset();
    Q_EMIT doctorReportChanged();
}

void SetupSession::setQuestionHandler(std::shared_ptr<QuestionHandler> handler)
{
    m_questions = std::move(handler);
}

ReportInput SetupSession::reportInput() const
{
    ReportInput input;
    if (m_snapshot)
        input.snapshot = *m_snapshot;
    input.verify = m_verifyReport;
    input.doctor = m_doctorReport;
    for (const auto &[receipt, path] : installedReceipts(m_context))
        input.receipts.append(receipt);
    input.tool = QStringLiteral("cudnn-setup %1").arg(QCoreApplication::applicationVersion());
    input.createdAt = QDateTime::currentDateTimeUtc();
    return input;
}

} // namespace cudnnsetup

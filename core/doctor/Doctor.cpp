#include "doctor/Doctor.h"

#include "common/Logging.h"
#include "doctor/DoctorRules.h"
#include "doctor/LogOnMachine.h"
#include "doctor/RepairSteps.h"
#include "install/Operations.h"
#include "install/Receipt.h"
#include "platform/InstallLock.h"
#include "platform/Sha256.h"

#include <QDateTime>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMap>
#include <QSet>

#include <algorithm>
#include <functional>

namespace cudnnsetup {

namespace {

constexpr char kTool[] = "cudnn-setup " CUDNNSETUP_VERSION;

QJsonValue nullable(const QString &value)
{
    return value.isEmpty() ? QJsonValue() : QJsonValue(value);
}

// Every copy, and which one each consumer loads: a freshly started program (per major), the probe,
// each torch.
QJsonObject copiesReport(const DoctorFacts &facts)
{
    const SystemSnapshot &snapshot = facts.snapshot;
    QJsonArray copies;
    QMap<int, QString> freshProcess; // major -> the file it loads, empty when none
    for (const CudnnCopy &copy : snapshot.cudnn) {
        copies.append(QJsonObject{
            {QStringLiteral("path"), copy.path},
            {QStringLiteral("directory"), copy.directory},
            {QStringLiteral("version"), nullable(copy.version)},
            {QStringLiteral("source"), copy.source},
            {QStringLiteral("loadOrder"), copy.loadOrder ? QJsonValue(*copy.loadOrder) : QJsonValue()},
            {QStringLiteral("libraries"), QJsonArray::fromStringList(copy.libraries)},
        });
        const int major = cudnnMajorOf(copy);
        if (major > 0 && (copy.loadOrder == 1 || !freshProcess.contains(major)))
            freshProcess.insert(major, copy.loadOrder == 1 ? copy.path : QString());
    }
    QJsonArray consumers;
    for (auto it = freshProcess.cbegin(); it != freshProcess.cend(); ++it) {
        consumers.append(QJsonObject{{QStringLiteral("consumer"), QStringLiteral("fresh-process")},
                                     {QStringLiteral("cudnnMajor"), it.key()},
                                     {QStringLiteral("loads"), nullable(it.value())}});
    }
    if (facts.input.verify) {
        consumers.append(QJsonObject{{QStringLiteral("consumer"), QStringLiteral("probe")},
                                     {QStringLiteral("directory"), facts.input.verify->directory},
                                     {QStringLiteral("loads"), nullable(facts.input.verify->loadedFrom())}});
    }
    for (const PythonInstall &python : snapshot.pythons) {
        if (!python.torch)
            continue;
        consumers.append(QJsonObject{{QStringLiteral("consumer"), QStringLiteral("torch")},
                                     {QStringLiteral("python"), python.path},
                                     {QStringLiteral("torch"), python.torch->version},
                                     {QStringLiteral("loads"), nullable(python.torch->cudnnLoadedFrom)}});
    }
    return {{QStringLiteral("copies"), copies}, {QStringLiteral("consumers"), consumers}};
}

ChangeOutcome failedOutcome(const Findings &findings)
{
    ChangeOutcome outcome;
    outcome.status = ChangeOutcome::Status::Failed;
    outcome.findings = findings;
    return outcome;
}

ChangeOutcome::Status statusOf(Transaction::Outcome outcome)
{
    switch (outcome) {
    case Transaction::Outcome::Committed:
        return ChangeOutcome::Status::Done;
    case Transaction::Outcome::Cancelled:
        return ChangeOutcome::Status::Cancelled;
    case Transaction::Outcome::Crashed:
        return ChangeOutcome::Status::Crashed;
    case Transaction::Outcome::RolledBack:
        break;
    }
    return ChangeOutcome::Status::Failed;
}

std::optional<StoredEnvironmentValue> readStored(const PersistentEnvironment &environment,
                                                 EnvironmentScope scope, const QString &name)
{
    const auto value = environment.read(scope, name);
    return value ? *value : std::nullopt;
}

Finding outdated(const QString &details)
{
    return Finding::error(
        QStringLiteral("doctor.repair-outdated"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup",
                               "The system changed since the diagnosis, so the repair is not made.")),
        details, Text(QT_TRANSLATE_NOOP("cudnnsetup", "Diagnose again and choose the repairs anew.")));
}

// A file a repair places, and where the file it replaces is kept.
struct PlacedByRepair
{
    QString destination; // host paths
    QString kept;
};

// The operations of the chosen repairs, each change made once, and what the receipt records of
// them: the files moved aside and placed, the variables changed, the archive unpacked.
struct RepairSteps
{
    std::vector<std::unique_ptr<Operation>> steps;
    QList<Receipt::File> movedAside;
    QList<PlacedByRepair> placed;
    QList<Receipt::EnvironmentChange> changes;
    ArchiveIdentity archive;
};

// The steps of `repairs`; an error when one no longer fits the machine or names an unknown
// operation.
Expected<RepairSteps> repairStepsOf(const QList<Repair> &repairs, const SystemContext &context,
                                    const PersistentEnvironment &environment, const QString &keptFolder)
{
    RepairSteps made;
    QSet<QByteArray> seen;
    for (const Repair &repair : repairs) {
        for (const QJsonObject &step : repair.steps) {
            // Two findings may offer the same change (one folder shadowing two consumers): made once.
            const QByteArray key = QJsonDocument(step).toJson(QJsonDocument::Compact);
            if (seen.contains(key))
                continue;
            seen.insert(key);
            const QString name = step.value(QStringLiteral("operation")).toString();
            QJsonObject arguments = step.value(QStringLiteral("arguments")).toObject();
            const QString record = step.value(QStringLiteral("record")).toString();
            const QString source = arguments.value(QStringLiteral("source")).toString();
            const QString destination = arguments.value(QStringLiteral("destination")).toString();
            if (record == QLatin1String(repairs::kMovedAside)) {
                const std::optional<QString> sha256 = Sha256::ofFile(source);
                if (!sha256 || QFileInfo::exists(destination))
                    return outdated(QStringLiteral("%1 -> %2").arg(source, destination));
                made.movedAside.append({context.files().fromHost(source), *sha256, QFileInfo(source).size(),
                                        context.files().fromHost(destination)});
            } else if (record == QLatin1String(repairs::kPlaced)) {
                // What the file replaces is kept with the receipt, for an uninstall to put back.
                QString kept;
                if (QFileInfo::exists(destination)) {
                    kept = keptFolder + QLatin1Char('/') +
                           keptFileName(int(made.placed.size()), QFileInfo(destination).fileName());
                    arguments.insert(QStringLiteral("keepReplacedAs"), kept);
                }
                made.placed.append({destination, kept});
            } else if (name == QLatin1String("unpack-archive")) {
                made.archive.path = arguments.value(QStringLiteral("archive")).toString();
                made.archive.fileName = QFileInfo(made.archive.path).fileName();
            }
            const auto scope = operations::scopeFromName(arguments.value(QStringLiteral("scope")).toString());
            if (scope) {
                const QString variable = name == QLatin1String("set-environment-value")
                                             ? arguments.value(QStringLiteral("name")).toString()
                                             : QStringLiteral("PATH");
                const bool known =
                    std::any_of(made.changes.cbegin(), made.changes.cend(), [&](const auto &change) {
                        return change.scope == operations::scopeName(*scope) &&
                               change.name.compare(variable, Qt::CaseInsensitive) == 0;
                    });
                if (!known)
                    made.changes.append({operations::scopeName(*scope), variable, QString(),
                                         readStored(environment, *scope, variable), std::nullopt});
            }
            std::unique_ptr<Operation> operation = Operation::create(name, arguments);
            if (!operation)
                return outdated(QStringLiteral("unknown operation %1").arg(name));
            made.steps.push_back(std::move(operation));
        }
    }
    return made;
}

// A repair's roots are the folders of the files it changes (checked, should its journal be
// left behind, against the folders no install may change: StateTrust).
QStringList repairRoots(const std::vector<std::unique_ptr<Operation>> &steps)
{
    QStringList roots;
    for (const std::unique_ptr<Operation> &operation : steps) {
        for (const QString &path : operation->changedPaths({}))
            roots.append(QFileInfo(path).absolutePath());
    }
    roots.removeDuplicates();
    return roots;
}

// The receipt of committed repairs, as `made` recorded them and the machine now holds them.
QByteArray repairReceipt(Receipt &receipt, const QString &id, const RepairSteps &made,
                         const SystemContext &context, const PersistentEnvironment &environment)
{
    receipt.id = id;
    receipt.created = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
    receipt.tool = QLatin1String(kTool);
    receipt.result = QStringLiteral("repaired");
    receipt.archive = made.archive;
    receipt.files = made.movedAside;
    for (const PlacedByRepair &file : made.placed) {
        Receipt::File entry{context.files().fromHost(file.destination),
                            Sha256::ofFile(file.destination).value_or(QString()),
                            QFileInfo(file.destination).size(),
                            file.kept.isEmpty() ? QString() : context.files().fromHost(file.kept)};
        // A file placed where one was moved aside: one entry, as an install that replaced it.
        const auto aside = std::find_if(receipt.files.begin(), receipt.files.end(),
                                        [&](const Receipt::File &moved) { return moved.path == entry.path; });
        if (aside != receipt.files.end()) {
            entry.replaced = aside->replaced;
            *aside = entry;
        } else {
            receipt.files.append(entry);
        }
    }
    receipt.environment = made.changes;
    for (Receipt::EnvironmentChange &change : receipt.environment)
        change.after = readStored(environment, *operations::scopeFromName(change.scope), change.name);
    return QJsonDocument(receipt.toJson()).toJson();
}

} // namespace

QJsonObject Repair::toJson() const
{
    QJsonArray stepArray;
    for (const QJsonObject &step : steps)
        stepArray.append(step);
    QJsonArray previewArray;
    for (const Text &line : preview)
        previewArray.append(line.toString());
    return QJsonObject{
        {QStringLiteral("id"), id},
        {QStringLiteral("summary"), summary.toString()},
        {QStringLiteral("preview"), previewArray},
        {QStringLiteral("steps"), stepArray},
        {QStringLiteral("needsAdministrator"), needsAdministrator},
    };
}

Repair Repair::fromJson(const QJsonObject &object)
{
    Repair repair;
    repair.id = object.value(QStringLiteral("id")).toString();
    repair.summary = Text::verbatim(object.value(QStringLiteral("summary")).toString());
    for (const QJsonValue &line : object.value(QStringLiteral("preview")).toArray())
        repair.preview.append(Text::verbatim(line.toString()));
    for (const QJsonValue &step : object.value(QStringLiteral("steps")).toArray())
        repair.steps.append(step.toObject());
    repair.needsAdministrator = object.value(QStringLiteral("needsAdministrator")).toBool();
    return repair;
}

QJsonObject Diagnosis::toJson() const
{
    QJsonObject object = finding.toJson();
    object.insert(QStringLiteral("failureMode"), failureMode);
    object.insert(QStringLiteral("repair"), repair ? QJsonValue(repair->toJson()) : QJsonValue());
    return object;
}

Diagnosis Diagnosis::fromJson(const QJsonObject &object)
{
    Diagnosis diagnosis;
    diagnosis.finding = Finding::fromJson(object);
    diagnosis.failureMode = object.value(QStringLiteral("failureMode")).toInt();
    const QJsonValue repair = object.value(QStringLiteral("repair"));
    if (repair.isObject())
        diagnosis.repair = Repair::fromJson(repair.toObject());
    return diagnosis;
}

bool DoctorReport::healthy() const
{
    return std::none_of(diagnoses.cbegin(), diagnoses.cend(),
                        [](const Diagnosis &d) { return d.finding.severity == Severity::Error; });
}

int DoctorReport::count(Severity severity) const
{
    return int(std::count_if(diagnoses.cbegin(), diagnoses.cend(),
                             [severity](const Diagnosis &d) { return d.finding.severity == severity; }));
}

DiagnosisChanges compareDiagnoses(const DoctorReport &before, const DoctorReport &after)
{
    const auto problems = [](const DoctorReport &report) {
        QList<Diagnosis> list;
        for (const Diagnosis &diagnosis : report.diagnoses) {
            if (diagnosis.finding.severity != Severity::Info)
                list.append(diagnosis);
        }
        return list;
    };
    QList<Diagnosis> earlier = problems(before);
    const QList<Diagnosis> now = problems(after);
    QList<bool> matched(now.size(), false);
    DiagnosisChanges changes;
    // Words first, so that two problems of one id (two folders) pair with their own.
    const auto take = [&](const std::function<bool(const Finding &, const Finding &)> &same) {
        for (qsizetype i = 0; i < now.size(); ++i) {
            if (matched[i])
                continue;
            const auto it = std::find_if(earlier.begin(), earlier.end(), [&](const Diagnosis &d) {
                return same(d.finding, now.at(i).finding);
            });
            if (it == earlier.end())
                continue;
            matched[i] = true;
            earlier.erase(it);
        }
    };
    take([](const Finding &a, const Finding &b) {
        return a.id == b.id && a.message.toEnglish() == b.message.toEnglish();
    });
    take([](const Finding &a, const Finding &b) { return a.id == b.id; });
    changes.fixed = earlier;
    for (qsizetype i = 0; i < now.size(); ++i)
        (matched[i] ? changes.stillOpen : changes.found).append(now.at(i));
    return changes;
}

QJsonObject DoctorReport::toJson() const
{
    QJsonArray diagnosisArray;
    for (const Diagnosis &diagnosis : diagnoses)
        diagnosisArray.append(diagnosis.toJson());
    return QJsonObject{
        {QStringLiteral("schema"), QString::fromLatin1(kSchema)},
        {QStringLiteral("healthy"), healthy()},
        {QStringLiteral("diagnoses"), diagnosisArray},
        {QStringLiteral("copies"), copies},
        {QStringLiteral("log"), log ? QJsonValue(log->toJson()) : QJsonValue()},
    };
}

DoctorReport DoctorReport::fromJson(const QJsonObject &object)
{
    DoctorReport report;
    for (const QJsonValue &diagnosis : object.value(QStringLiteral("diagnoses")).toArray())
        report.diagnoses.append(Diagnosis::fromJson(diagnosis.toObject()));
    report.copies = object.value(QStringLiteral("copies")).toObject();
    if (const QJsonValue log = object.value(QStringLiteral("log")); log.isObject())
        report.log = ErrorLog::fromJson(log.toObject());
    return report;
}

DoctorReport diagnose(const DoctorInput &input, const SystemContext &context,
                      const PersistentEnvironment &environment, const KnowledgeBase &database)
{
    const DoctorFacts facts(input, context, environment, database);
    DoctorReport report;
    report.diagnoses = runDoctorRules(facts);
    // Without a stored environment (Linux, another system's tree) a repair that changes PATH or a
    // variable cannot be made: the finding stays, its repair is not offered.
    if (!environment.isAvailable()) {
        static const QStringList environmentOperations{QStringLiteral("add-path-entry"),
                                                       QStringLiteral("remove-path-entry"),
                                                       QStringLiteral("set-environment-value")};
        for (Diagnosis &diagnosis : report.diagnoses) {
            if (diagnosis.repair && std::any_of(diagnosis.repair->steps.cbegin(),
                                                diagnosis.repair->steps.cend(), [](const QJsonObject &step) {
                                                    return environmentOperations.contains(
                                                        step.value(QStringLiteral("operation")).toString());
                                                })) {
                // The words must not promise a repair that is not offered.
                diagnosis.finding.fix =
                    Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                           "Make this change yourself (cuDNN Setup cannot change the "
                                           "stored environment here): %1"))
                        .arg(diagnosis.repair->summary);
                diagnosis.repair.reset();
            }
        }
    }
    report.copies = copiesReport(facts);
    if (input.log) {
        // Each signature tied to this machine: who failed, what it loads here, the repair.
        report.log = input.log;
        QList<Diagnosis> explained;
        for (LogSignature &signature : report.log->signatures)
            explained.append(diagnoseLoggedError(signature, *report.log, facts, report.diagnoses));
        report.diagnoses = explained + report.diagnoses;
    }
    return report;
}

ChangeOutcome applyRepairs(const QList<Repair> &repairs, const SystemContext &context,
                           std::shared_ptr<PersistentEnvironment> environment, const ChangeOptions &options)
{
    const StateFolders folders = StateFolders::of(context);
    const Elevation &elevation = context.elevation();
    const auto lock = lockForChange(folders, context, elevation);
    if (!lock)
        return lock.error();
    const bool machineWide = std::any_of(repairs.cbegin(), repairs.cend(),
                                         [](const Repair &repair) { return repair.needsAdministrator; });
    const QString stateFolder = machineWide ? folders.machine : folders.user;
    if (const Expected<void> prepared =
            options.dryRun ? Expected<void>() : folders.prepare(stateFolder, context, elevation);
        !prepared) {
        return failedOutcome(lock->setAside + Findings{prepared.error()});
    }
    const QString id =
        QStringLiteral("repair-%1")
            .arg(QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz")));
    const QString receiptsFolder = folders.receipts(stateFolder);
    const QString receiptPath = receiptsFolder + QLatin1Char('/') + id + QStringLiteral(".json");
    const QString keptFolder = keptFilesFolder(receiptsFolder, id);

    OperationContext operationContext = OperationContext::of(context, environment);
    operationContext.backupFolder = stateFolder + QLatin1Char('/') + id + QStringLiteral("-backup");
    operationContext.crashAt = options.crashAt;
    operationContext.bytesProgress = options.bytesProgress;
    operationContext.cancelled = options.cancelled;
    Expected<RepairSteps> made = repairStepsOf(repairs, context, *environment, keptFolder);
    if (!made)
        return failedOutcome(lock->setAside + Findings{made.error()});

    const auto record = std::make_shared<RepairSteps>(std::move(made.value()));
    Transaction transaction(id, QStringLiteral("repair"), folders.journal(stateFolder), operationContext,
                            repairRoots(record->steps));
    for (std::unique_ptr<Operation> &operation : record->steps)
        transaction.add(std::move(operation));
    transaction.add(operations::makeDirectory(receiptsFolder));
    auto receiptHolder = std::make_shared<Receipt>();
    transaction.add(operations::writeFileMadeLater(receiptPath, [=, &context]() {
        return repairReceipt(*receiptHolder, id, *record, context, *environment);
    }));

    ChangeOutcome outcome;
    outcome.findings = lock->setAside;
    for (int i = 0; i < transaction.size(); ++i)
        outcome.plan.append(transaction.at(i).description().toString());
    if (options.dryRun) {
        outcome.status = ChangeOutcome::Status::DryRun;
        return outcome;
    }
    const Transaction::Result result = transaction.run(options.progress, options.cancelled);
    outcome.status = statusOf(result.outcome);
    outcome.findings += result.findings;
    if (result.outcome == Transaction::Outcome::Committed) {
        outcome.receipt = *receiptHolder;
        outcome.receiptPath = receiptPath;
        qCInfo(lcInstall).noquote() << "repairs made, receipt" << receiptPath;
    }
    return outcome;
}

} // namespace cudnnsetup

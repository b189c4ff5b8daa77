#include "session/Drift.h"

#include "common/ExitCodes.h"
#include "common/Logging.h"
#include "compat/ConsumerVerdicts.h"
#include "compat/Matcher.h"
#include "verify/InstallStatus.h"

#include <QDir>
#include <QJsonArray>

#include <algorithm>

namespace cudnnsetup {

namespace {

using State = DriftItem::State;

DriftItem item(const QString &id, const QString &expected, const QString &actual, State state,
               const Text &fix = {})
{
    return DriftItem{id, expected, actual, state, state == State::Compliant ? Text() : fix};
}

// What the repair file does about the cuDNN: reinstall the baseline's archive, or nothing when the
// baseline names none.
State reinstallable(const Baseline &baseline)
{
    return baseline.archive.isEmpty() ? State::Broken : State::Drifted;
}

// What the repair file with action=repair does: the doctor's repairs.
Text doctorFix()
{
    return Text(QT_TRANSLATE_NOOP(
        "cudnnsetup",
        "Run the doctor's repairs (cudnnctl doctor --fix, or the repair file with action=repair)."));
}

Text reinstallFix(const Baseline &baseline)
{
    return baseline.archive.isEmpty()
               ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "Install cuDNN %1 into %2 again; the baseline names no "
                                                      "archive, so no repair file can do it."))
                     .arg(baseline.cudnn.toString(), baseline.target.root)
               : Text(QT_TRANSLATE_NOOP("cudnnsetup", "Install cuDNN %1 from %2 into %3 again (--repair-file "
                                                      "writes the answer file that does it)."))
                     .arg(baseline.cudnn.toString(), QDir::toNativeSeparators(baseline.archive),
                          baseline.target.root);
}

DriftItem driverItem(const Baseline &baseline, const SystemSnapshot &snapshot)
{
    const QString expected = QStringLiteral(">= %1").arg(baseline.driverMinimum.toString());
    const Version running = snapshot.driver ? Version::parse(snapshot.driver->version) : Version();
    if (!running.isValid())
        return item(QStringLiteral("driver"), expected, {}, State::Unknown,
                    Text(QT_TRANSLATE_NOOP("cudnnsetup", "The NVIDIA driver's version cannot be read here: "
                                                         "check it with nvidia-smi.")));
    return item(QStringLiteral("driver"), expected, running.toString(),
                running >= baseline.driverMinimum ? State::Compliant : State::Broken,
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "Update the NVIDIA driver to %1 or newer."))
                    .arg(baseline.driverMinimum.toString()));
}

// The cuDNN copy detection found in `folder`.
const CudnnCopy *copyIn(const SystemSnapshot &snapshot, const QString &folder, const SystemContext &context)
{
    const auto found =
        std::find_if(snapshot.cudnn.cbegin(), snapshot.cudnn.cend(),
                     [&](const CudnnCopy &copy) { return context.paths().equal(copy.directory, folder); });
    return found == snapshot.cudnn.cend() ? nullptr : &*found;
}

// The DLL folder is where new programs look: on the PATH of the baseline's scope (Windows), named
// by the loader's configuration (Linux, system scope). Where the registry is known, that scope's
// own stored PATH: a system baseline is not met by the user PATH of whoever judges it.
bool folderListed(const Baseline &baseline, const SystemSnapshot &snapshot, const SystemContext &context)
{
    const QString loaderFile = baseline.target.ldSoConfFile();
    if (!loaderFile.isEmpty())
        return context.files().isFile(loaderFile);
    const EnvironmentScope scope =
        environmentScopeOf(baseline.target.pathScope).value_or(EnvironmentScope::System);
    const QStringList entries = context.environment().storedPath(scope).value_or(snapshot.environment.path);
    return std::any_of(entries.cbegin(), entries.cend(), [&](const QString &entry) {
        return context.paths().equal(entry, baseline.target.dllFolder());
    });
}

// The repair file puts the folder back at the front of the baseline's PATH, which for the system
// PATH takes an administrator (deployment tools run it as SYSTEM).
Text pathEntryFix(const Baseline &baseline)
{
    return (baseline.target.pathScope == PathScope::System
                ? Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                         "Apply the repair file as an administrator (or SYSTEM): "
                                         "it puts %1 back at the front of the system PATH."))
                : Text(QT_TRANSLATE_NOOP("cudnnsetup", "Apply the repair file as this user: it puts %1 back "
                                                       "at the front of the user PATH.")))
        .arg(baseline.target.dllFolder());
}

QList<DriftItem> pathItems(const Baseline &baseline, const SystemSnapshot &snapshot,
                           const SystemContext &context)
{
    const QString folder = baseline.target.dllFolder();
    const bool onLinux = baseline.target.family == OsFamily::Linux;
    if (!folderListed(baseline, snapshot, context)) {
        // Linux: the loader's file is one of the install's files, which the repair installs again.
        if (!baseline.target.ldSoConfFile().isEmpty())
            return {item(QStringLiteral("path.entry"), folder, {}, reinstallable(baseline),
                         reinstallFix(baseline))};
        return {item(QStringLiteral("path.entry"), folder, {}, State::Drifted, pathEntryFix(baseline))};
    }
    QList<DriftItem> items{item(QStringLiteral("path.entry"), folder, folder, State::Compliant)};
    if (baseline.pathPosition != Baseline::PathPosition::First)
        return items;
    const CudnnCopy *loaded = snapshot.cudnnLoadedByDefault();
    if (!loaded) {
        items.append(item(QStringLiteral("path.order"), folder, {}, State::Unknown,
                          Text(QT_TRANSLATE_NOOP("cudnnsetup", "Which cuDNN a new program loads cannot be "
                                                               "told here: run cudnnctl doctor."))));
    } else if (onLinux) {
        // What comes first on Linux is LD_LIBRARY_PATH (a session's, set in shell profiles) or
        // another file of the loader's configuration: nothing an answer file changes.
        items.append(item(QStringLiteral("path.order"), folder, loaded->directory,
                          context.paths().equal(loaded->directory, folder) ? State::Compliant : State::Broken,
                          Text(QT_TRANSLATE_NOOP("cudnnsetup", "Take %1 out of LD_LIBRARY_PATH (and your "
                                                               "shell profile), or put %2 before it."))
                              .arg(loaded->directory, folder)));
    } else {
        items.append(
            item(QStringLiteral("path.order"), folder, loaded->directory,
                 context.paths().equal(loaded->directory, folder) ? State::Compliant : State::Drifted,
                 Text(QT_TRANSLATE_NOOP("cudnnsetup", "Apply the repair file (as an administrator where the "
                                                      "system PATH changes): it moves %1 behind %2 on PATH."))
                     .arg(loaded->directory, folder)));
    }
    return items;
}

// A torch without CUDA ("2.5.1 (CPU-only)"): what a program asked for by name has instead.
QString cpuOnlyTorch(const SystemSnapshot &snapshot)
{
    for (const PythonInstall &python : snapshot.pythons) {
        if (python.torch && python.torch->cuda.isEmpty())
            return QStringLiteral("%1 (CPU-only)").arg(python.torch->version);
    }
    return {};
}

DriftItem consumerItem(const Baseline::Consumer &wanted, const SystemSnapshot &snapshot,
                       const KnowledgeBase &kb)
{
    QStringList majors;
    for (const int major : wanted.cudnnMajors)
        majors.append(QString::number(major));
    const QString expected = majors.isEmpty()
                                 ? QStringLiteral("works")
                                 : QStringLiteral("works with cuDNN %1").arg(majors.join(QLatin1Char('/')));
    const QString id = QStringLiteral("consumer.") + wanted.name;
    const Expected<QList<JudgedConsumer>> judged =
        judgeFor(wanted.name, snapshot.consumers, MatchFacts::fromSnapshot(snapshot), kb);
    if (!judged)
        return item(id, expected, {}, State::Unknown, judged.error().message);
    const JudgedConsumer *failing = nullptr;
    for (const JudgedConsumer &entry : *judged) {
        const bool rightMajor = wanted.cudnnMajors.isEmpty() || !entry.consumer.cudnnMajor ||
                                wanted.cudnnMajors.contains(*entry.consumer.cudnnMajor);
        if (entry.found && entry.verdict.fine() && rightMajor) {
            const QString actual = entry.consumer.cudnnMajor ? QStringLiteral("%1 (cuDNN %2)")
                                                                   .arg(entry.consumer.version)
                                                                   .arg(*entry.consumer.cudnnMajor)
                                                             : entry.consumer.version;
            return item(id, expected, actual, State::Compliant);
        }
        if (!failing)
            failing = &entry;
    }
    QString actual = failing->found ? failing->consumer.version : QString();
    if (!failing->found && wanted.name == QLatin1String("torch"))
        actual = cpuOnlyTorch(snapshot);
    Text fix = failing->verdict.fix;
    if (!failing->verdict.command.isEmpty())
        fix = Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1: %2"))
                  .arg(fix, Text::verbatim(failing->verdict.command));
    if (fix.isEmpty())
        fix = failing->verdict.summary;
    // Installing a program's build is the program's own installer's work, not the repair file's.
    return item(id, expected, actual, State::Broken, fix);
}

// The files are intact (else the cuDNN is reinstalled, and verified, anyway): a stage that failed
// is the doctor's to explain and repair.
QList<DriftItem> verificationItems(const Baseline &baseline, const InstallStatus &status)
{
    QList<DriftItem> items;
    for (const QString &stage : baseline.verification) {
        const QString id = QStringLiteral("verification.") + stage;
        QString result;
        if (status.verified) {
            for (const auto &[name, outcome] : status.verified->stages) {
                if (name == stage)
                    result = outcome;
            }
        }
        if (result == QLatin1String("passed"))
            items.append(item(id, QStringLiteral("passed"), result, State::Compliant));
        else if (result == QLatin1String("failed"))
            items.append(item(id, QStringLiteral("passed"), result, State::Drifted, doctorFix()));
        else
            items.append(
                item(id, QStringLiteral("passed"), result, State::Unknown,
                     Text(QT_TRANSLATE_NOOP("cudnnsetup", "Run cudnnctl verify on this machine (with "
                                                          "its GPU and driver) to record the result."))));
    }
    return items;
}

// "cudnn.version" -> "cudnnVersion", "consumer.torch" -> "consumerTorch".
QString camelCase(const QString &id)
{
    QString name;
    bool upper = false;
    for (const QChar c : id) {
        if (c == QLatin1Char('.') || c == QLatin1Char('-')) {
            upper = true;
            continue;
        }
        name += upper ? c.toUpper() : c;
        upper = false;
    }
    return name;
}

} // namespace

QString DriftItem::stateName(State state)
{
    switch (state) {
    case State::Compliant:
        return QStringLiteral("compliant");
    case State::Drifted:
        return QStringLiteral("drifted");
    case State::Broken:
        return QStringLiteral("broken");
    case State::Unknown:
        break;
    }
    return QStringLiteral("unknown");
}

QJsonObject DriftItem::toJson() const
{
    return {{QStringLiteral("id"), id},
            {QStringLiteral("expected"), expected},
            {QStringLiteral("actual"), actual.isEmpty() ? QJsonValue() : QJsonValue(actual)},
            {QStringLiteral("state"), stateName(state)},
            {QStringLiteral("repairable"), repairable()},
            {QStringLiteral("fix"), fix.isEmpty() ? QJsonValue() : QJsonValue(fix.toString())}};
}

DriftItem::State DriftReport::verdict() const
{
    const auto any = [this](State state) {
        return std::any_of(items.cbegin(), items.cend(),
                           [state](const DriftItem &entry) { return entry.state == state; });
    };
    for (const State state : {State::Broken, State::Unknown, State::Drifted}) {
        if (any(state))
            return state;
    }
    return State::Compliant;
}

int DriftReport::exitCode() const
{
    switch (verdict()) {
    case State::Compliant:
        return exitcode::Compliant;
    case State::Drifted:
        return exitcode::Drifted;
    case State::Broken:
        return exitcode::Broken;
    case State::Unknown:
        break;
    }
    return exitcode::Unknown;
}

QList<DriftItem> DriftReport::differences() const
{
    QList<DriftItem> differing;
    std::copy_if(items.cbegin(), items.cend(), std::back_inserter(differing),
                 [](const DriftItem &entry) { return entry.state != State::Compliant; });
    return differing;
}

QJsonObject DriftReport::toJson() const
{
    QJsonArray differing;
    for (const DriftItem &entry : differences())
        differing.append(entry.toJson());
    QJsonArray checked;
    for (const DriftItem &entry : items)
        checked.append(entry.id);
    return {{QStringLiteral("schema"), QLatin1String(kSchema)},
            {QStringLiteral("baseline"), QDir::toNativeSeparators(baselineFile)},
            {QStringLiteral("verdict"), DriftItem::stateName(verdict())},
            {QStringLiteral("exitCode"), exitCode()},
            {QStringLiteral("checked"), checked},
            {QStringLiteral("differences"), differing},
            {QStringLiteral("repairAction"), repair ? QJsonValue(repair->action) : QJsonValue()}};
}

QJsonObject DriftReport::intuneJson() const
{
    // Fixed settings, whatever the baseline checks, so one rules file fits every baseline: a group
    // the baseline does not ask for is compliant; unknown is not.
    const auto groupCompliant = [this](const QString &prefix) {
        return std::all_of(items.cbegin(), items.cend(), [&prefix](const DriftItem &entry) {
            return !(entry.id == prefix || entry.id.startsWith(prefix + QLatin1Char('.'))) ||
                   entry.state == State::Compliant;
        });
    };
    QStringList differing;
    for (const DriftItem &entry : differences())
        differing.append(entry.id);
    const auto orNull = [](const QString &value) {
        return value.isEmpty() ? QJsonValue() : QJsonValue(value);
    };
    QJsonObject flat{{QStringLiteral("cudnnCompliant"), verdict() == State::Compliant},
                     {QStringLiteral("cudnnComplianceState"), exitCode()},
                     {QStringLiteral("cudnnVersion"), orNull(cudnnVersion)},
                     {QStringLiteral("cudnnCudaMajor"), cudaMajor ? QJsonValue(*cudaMajor) : QJsonValue()},
                     {QStringLiteral("driverVersion"), orNull(driverVersion)},
                     {QStringLiteral("cudnnDifferences"), differing.join(QLatin1Char(','))}};
    for (const QString &group :
         {QStringLiteral("driver"), QStringLiteral("cudnn.version"), QStringLiteral("cudnn.files"),
          QStringLiteral("path"), QStringLiteral("consumer"), QStringLiteral("verification")})
        flat.insert(camelCase(group) + QStringLiteral("Compliant"), groupCompliant(group));
    return flat;
}

QString DriftReport::text() const
{
    Text headline;
    switch (verdict()) {
    case State::Compliant:
        headline = Text(QT_TRANSLATE_NOOP("cudnnsetup", "Compliant with the baseline %1."));
        break;
    case State::Drifted:
        headline =
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Drifted from the baseline %1; the repair file brings "
                                                 "it back."));
        break;
    case State::Broken:
        headline =
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Broken against the baseline %1: something here needs "
                                                 "more than the repair file."));
        break;
    case State::Unknown:
        headline =
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Compliance with the baseline %1 cannot be told here."));
        break;
    }
    QString text = headline.arg(QDir::toNativeSeparators(baselineFile)).toString() + QLatin1Char('\n');
    for (const DriftItem &entry : differences()) {
        text +=
            QStringLiteral("  [%1] %2: ").arg(DriftItem::stateName(entry.state), entry.id) +
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "expected %1, found %2"))
                .arg(Text::verbatim(entry.expected),
                     entry.actual.isEmpty() ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "nothing (or unknown)"))
                                            : Text::verbatim(entry.actual))
                .toString() +
            QLatin1Char('\n');
        if (!entry.fix.isEmpty())
            text += QStringLiteral("      ") +
                    Text(QT_TRANSLATE_NOOP("cudnnsetup", "Fix: %1")).arg(entry.fix).toString() +
                    QLatin1Char('\n');
    }
    return text;
}

DriftReport compareWithBaseline(const Baseline &baseline, const SystemContext &context,
                                const SystemSnapshot &snapshot, const KnowledgeBase &kb)
{
    DriftReport report;
    if (baseline.driverMinimum.isValid())
        report.items.append(driverItem(baseline, snapshot));

    StatusQuery query;
    query.cudnnVersion = baseline.cudnn.toString();
    query.target = baseline.target;
    const InstallStatus status = installStatus(context, query);
    const QString expected =
        QStringLiteral("%1 for CUDA %2").arg(baseline.cudnn.toString()).arg(baseline.cudaMajor);
    if (snapshot.driver)
        report.driverVersion = snapshot.driver->version;
    // The install must be of the baseline's CUDA variant too: 9.1.0.70 for CUDA 11 is another archive.
    const bool installed =
        status.installed() &&
        status.receipt->archive.cudaVariant.section(QLatin1Char('.'), 0, 0).toInt() == baseline.cudaMajor;
    if (status.installed()) {
        const ArchiveIdentity &archive = status.receipt->archive;
        report.cudnnVersion = archive.cudnn.toString();
        report.cudaMajor = archive.cudaVariant.section(QLatin1Char('.'), 0, 0).toInt();
        report.items.append(
            item(QStringLiteral("cudnn.version"), expected,
                 QStringLiteral("%1 for CUDA %2").arg(archive.cudnn.toString(), archive.cudaVariant),
                 installed ? State::Compliant : reinstallable(baseline), reinstallFix(baseline)));
        report.items.append(item(QStringLiteral("cudnn.files"), QStringLiteral("intact"),
                                 QStringLiteral("intact"), State::Compliant));
    } else {
        // What lies in the target's DLL folder instead, as detection reads it.
        const CudnnCopy *present = copyIn(snapshot, baseline.target.dllFolder(), context);
        if (present) {
            report.cudnnVersion = present->version;
            report.cudaMajor = present->cudaMajor;
        }
        if (status.changed.isEmpty())
            report.items.append(item(QStringLiteral("cudnn.version"), expected, report.cudnnVersion,
                                     reinstallable(baseline), reinstallFix(baseline)));
        else
            report.items.append(item(QStringLiteral("cudnn.files"), QStringLiteral("intact"),
                                     QStringLiteral("changed: %1").arg(status.changed),
                                     reinstallable(baseline), reinstallFix(baseline)));
    }
    if (baseline.target.pathScope != PathScope::None)
        report.items += pathItems(baseline, snapshot, context);
    for (const Baseline::Consumer &consumer : baseline.consumers)
        report.items.append(consumerItem(consumer, snapshot, kb));
    // A verification is of the install the baseline names; a missing or changed one is reinstalled,
    // and verified, by the repair anyway.
    if (installed)
        report.items += verificationItems(baseline, status);

    const auto drifted = [&report](const QString &prefix) {
        return std::any_of(report.items.cbegin(), report.items.cend(), [&prefix](const DriftItem &entry) {
            return entry.state == State::Drifted && entry.id.startsWith(prefix);
        });
    };
    if (drifted(QStringLiteral("cudnn."))) {
        UnattendedSettings repair;
        repair.action = QStringLiteral("install");
        repair.archive = baseline.archive;
        repair.target = baseline.target.spec();
        repair.path = pathScopeName(baseline.target.pathScope);
        report.repair = repair;
    } else if (drifted(QStringLiteral("path.")) || drifted(QStringLiteral("verification."))) {
        UnattendedSettings repair;
        repair.action = QStringLiteral("repair");
        repair.archive = baseline.archive;
        // The baseline's PATH scope and position, restored by whoever applies the file (SYSTEM
        // under Intune), not the doctor's choice of the user PATH of that account.
        if (drifted(QStringLiteral("path."))) {
            repair.target = baseline.target.spec();
            repair.path = pathScopeName(baseline.target.pathScope);
        }
        report.repair = repair;
    }
    for (const DriftItem &entry : report.differences())
        qCInfo(lcSession).noquote() << QStringLiteral("baseline item %1 %2: expected %3, found %4")
                                           .arg(entry.id, DriftItem::stateName(entry.state), entry.expected,
                                                entry.actual.isEmpty() ? QStringLiteral("nothing")
                                                                       : entry.actual);
    return report;
}

} // namespace cudnnsetup

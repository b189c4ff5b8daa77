#include "report/MachineReport.h"

#include "common/JsonNull.h"
#include "common/Logging.h"
#include "platform/DurableFiles.h"
#include "report/ReportFiles.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QSet>

namespace cudnnsetup {

namespace {

// Which item an open finding is about, by its id: the first prefix that matches decides.
QString itemOfFinding(const QString &id)
{
    static const std::pair<const char *, const char *> rules[] = {
        {"verify.torch-", "torch"},
        {"doctor.torch-", "torch"},
        {"doctor.driver-too-old-for-torch", "torch"},
        {"driver.", "driver"},
        {"doctor.driver-", "driver"},
        {"doctor.no-driver", "driver"},
        {"doctor.wsl-", "driver"},
        {"path.", "path"},
        {"env.path-", "path"},
        {"doctor.path-", "path"},
        {"doctor.cudnn-not-on-path", "path"},
        {"doctor.cudnn-shadowed", "path"},
        {"doctor.cudnn-before-python-path", "path"},
        {"doctor.writable-system-path", "path"},
        {"doctor.python-ignores-path", "path"},
        {"verify.", "verify"},
        {"cudnn.", "cudnn"},
        {"doctor.cudnn-", "cudnn"},
        {"doctor.dependency-", "cudnn"},
        {"doctor.zlibwapi", "cudnn"},
        {"doctor.library-load-failed", "cudnn"},
    };
    for (const auto &[prefix, item] : rules) {
        if (id.startsWith(QLatin1String(prefix)))
            return QLatin1String(item);
    }
    return {};
}

bool isOpen(const Finding &finding)
{
    return finding.severity != Severity::Info;
}

// A folder as PATH and the receipts spell it, compared without regard to separators, a trailing
// separator or, on Windows, case.
QString comparablePath(const QString &path, bool windows)
{
    QString clean = path.trimmed();
    if (windows) // also when read on Linux, from a Windows tree under --system-root
        clean.replace(QLatin1Char('\\'), QLatin1Char('/'));
    clean = QDir::cleanPath(clean);
    while (clean.size() > 1 && clean.endsWith(QLatin1Char('/')))
        clean.chop(1);
    return windows ? clean.toLower() : clean;
}

struct CudnnFacts
{
    QString version;
    QString variant; // the CUDA major it is built for: "12"
    QString where;   // the folder that holds its libraries
    QString loads;   // the library a freshly started program loads
};

// The install of cuDNN Setup that `status` answers with, else the copy a new program loads.
CudnnFacts cudnnFacts(const MachineReportInput &input)
{
    CudnnFacts facts;
    const CudnnCopy *loaded = input.snapshot.cudnnLoadedByDefault();
    facts.loads = loaded ? loaded->path : QString();
    if (input.status.receipt) {
        facts.version = input.status.receipt->archive.cudnn.toString();
        facts.variant = input.status.receipt->archive.cudaVariant;
        facts.where = input.status.receipt->target ? input.status.receipt->target->dllFolder() : QString();
    } else if (loaded) {
        facts.version = loaded->version;
        facts.variant = loaded->cudaMajor ? QString::number(*loaded->cudaMajor) : QString();
        facts.where = loaded->directory;
    }
    return facts;
}

QJsonObject item(const QString &value, const QStringList &findingIds, const Text &fix = {})
{
    QJsonObject object{{QStringLiteral("value"), value},
                       {QStringLiteral("findings"), QJsonArray::fromStringList(findingIds)}};
    object.insert(QStringLiteral("fix"), fix.isEmpty() ? QJsonValue() : QJsonValue(fix.toString()));
    return object;
}

// The value shared by machines set up alike, with the open findings' ids added, so that a machine
// with a problem differs from one without.
QString withProblems(const QString &value, const QStringList &findingIds)
{
    return findingIds.isEmpty() ? value : value + QStringLiteral("; ") + findingIds.join(QLatin1Char(','));
}

QJsonObject driverItem(const MachineReportInput &input, const QStringList &ids)
{
    const std::optional<DriverInfo> &driver = input.snapshot.driver;
    QString value = QStringLiteral("none");
    if (driver && !driver->working)
        value = QStringLiteral("not-working");
    else if (driver)
        value = driver->version.isEmpty() ? QStringLiteral("unknown") : driver->version;
    QJsonObject object = item(withProblems(value, ids), ids);
    object.insert(QStringLiteral("version"), driver ? orNull(driver->version) : QJsonValue());
    object.insert(QStringLiteral("maxCuda"), driver ? orNull(driver->maxCuda) : QJsonValue());
    return object;
}

QJsonObject cudnnItem(const CudnnFacts &facts, const QStringList &ids)
{
    const QString value =
        facts.version.isEmpty() && facts.where.isEmpty()
            ? QStringLiteral("none")
            : QStringLiteral("%1 cuda%2 %3")
                  .arg(facts.version.isEmpty() ? QStringLiteral("unknown") : facts.version,
                       facts.variant.isEmpty() ? QStringLiteral("?") : facts.variant, facts.where);
    QJsonObject object = item(withProblems(value, ids), ids);
    object.insert(QStringLiteral("version"), orNull(facts.version));
    object.insert(QStringLiteral("variant"), orNull(facts.variant));
    object.insert(QStringLiteral("where"), orNull(facts.where));
    object.insert(QStringLiteral("loads"), orNull(facts.loads));
    return object;
}

// "entry N" when cuDNN's folder is the Nth PATH entry, "absent" when it is on none.
QJsonObject pathItem(const MachineReportInput &input, const CudnnFacts &facts, const QStringList &ids)
{
    const bool windows = input.snapshot.os.family == QLatin1String("windows");
    const QStringList &entries = input.snapshot.environment.path;
    int position = 0;
    if (!facts.where.isEmpty()) {
        const QString wanted = comparablePath(facts.where, windows);
        for (int i = 0; i < entries.size() && position == 0; ++i) {
            if (comparablePath(entries.at(i), windows) == wanted)
                position = i + 1;
        }
    }
    const QString value = position > 0 ? QStringLiteral("entry %1").arg(position) : QStringLiteral("absent");
    QJsonObject object = item(withProblems(value, ids), ids);
    object.insert(QStringLiteral("position"), position > 0 ? QJsonValue(position) : QJsonValue());
    object.insert(QStringLiteral("entries"), entries.size());
    return object;
}

// Each Python's torch: "cu126" (the wheel index its build came from), "cuda 12.6" where the
// version names no index, "cpu" for a CPU-only build; "none" without torch.
QJsonObject torchItem(const MachineReportInput &input, const QStringList &ids)
{
    QStringList builds;
    QJsonArray pythons;
    for (const PythonInstall &python : input.snapshot.pythons) {
        if (!python.torch)
            continue;
        const QString local = python.torch->version.section(QLatin1Char('+'), 1);
        QString build = QStringLiteral("cpu");
        if (local.startsWith(QLatin1String("cu")))
            build = local;
        else if (local != QLatin1String("cpu") && !python.torch->cuda.isEmpty())
            build = QStringLiteral("cuda ") + python.torch->cuda;
        builds.append(build);
        // The wheel index a local version names ("+cu126", "+cpu"); a plain version names none.
        const QString index =
            local.isEmpty() ? QString() : QStringLiteral("https://download.pytorch.org/whl/") + local;
        pythons.append(QJsonObject{{QStringLiteral("python"), python.path},
                                   {QStringLiteral("torch"), orNull(python.torch->version)},
                                   {QStringLiteral("cuda"), orNull(python.torch->cuda)},
                                   {QStringLiteral("index"), orNull(index)},
                                   {QStringLiteral("build"), build}});
    }
    builds.removeDuplicates();
    builds.sort();
    QJsonObject object =
        item(withProblems(builds.isEmpty() ? QStringLiteral("none") : builds.join(QStringLiteral(", ")), ids),
             ids);
    object.insert(QStringLiteral("pythons"), pythons);
    return object;
}

// The last verification `status` knows of, with its stages; verify itself is not run here.
QJsonObject verifyItem(const MachineReportInput &input, const QStringList &ids)
{
    const std::optional<VerificationRecord> &record = input.status.verified;
    QString value = QStringLiteral("not-verified");
    Text fix(QT_TRANSLATE_NOOP("cudnnsetup", "Run \"cudnnctl verify\" on this machine."));
    if (record && record->passed) {
        value = QStringLiteral("passed");
        fix = {};
    } else if (record) {
        value = QStringLiteral("failed");
        fix = Text(QT_TRANSLATE_NOOP(
            "cudnnsetup", "Run \"cudnnctl doctor\" on this machine for the cause and the repair."));
    }
    QJsonObject object = item(withProblems(value, ids), ids, fix);
    object.insert(QStringLiteral("when"),
                  record ? QJsonValue(record->when.toUTC().toString(Qt::ISODate)) : QJsonValue());
    object.insert(QStringLiteral("stages"),
                  record ? record->toJson().value(QStringLiteral("stages")) : QJsonValue(QJsonArray()));
    return object;
}

} // namespace

const QStringList &machineReportItems()
{
    static const QStringList items{QStringLiteral("driver"), QStringLiteral("cudnn"), QStringLiteral("path"),
                                   QStringLiteral("torch"), QStringLiteral("verify")};
    return items;
}

QJsonObject machineReportJson(const MachineReportInput &input)
{
    QHash<QString, QStringList> idsOfItem;
    QJsonArray findings;
    QSet<QString> seen;
    for (const Finding &finding : input.findings) {
        if (!isOpen(finding))
            continue;
        findings.append(QJsonObject{{QStringLiteral("id"), finding.id},
                                    {QStringLiteral("severity"), severityName(finding.severity)},
                                    {QStringLiteral("message"), finding.message.toString()},
                                    {QStringLiteral("fix"), orNull(finding.fix.toString())}});
        const QString item = itemOfFinding(finding.id);
        if (!item.isEmpty() && !seen.contains(finding.id))
            idsOfItem[item].append(finding.id);
        seen.insert(finding.id);
    }
    for (QStringList &ids : idsOfItem)
        ids.sort();

    const CudnnFacts cudnn = cudnnFacts(input);
    QJsonArray gpus;
    for (const GpuInfo &gpu : input.snapshot.gpus)
        gpus.append(QJsonObject{{QStringLiteral("name"), orNull(gpu.name)},
                                {QStringLiteral("computeCapability"), orNull(gpu.computeCapability)}});
    const OsInfo &os = input.snapshot.os;
    const QJsonObject items{
        {QStringLiteral("driver"), driverItem(input, idsOfItem.value(QStringLiteral("driver")))},
        {QStringLiteral("cudnn"), cudnnItem(cudnn, idsOfItem.value(QStringLiteral("cudnn")))},
        {QStringLiteral("path"), pathItem(input, cudnn, idsOfItem.value(QStringLiteral("path")))},
        {QStringLiteral("torch"), torchItem(input, idsOfItem.value(QStringLiteral("torch")))},
        {QStringLiteral("verify"), verifyItem(input, idsOfItem.value(QStringLiteral("verify")))}};
    return {{QStringLiteral("schema"), QLatin1String(MachineReportInput::kSchema)},
            {QStringLiteral("tool"), input.tool},
            {QStringLiteral("machine"), input.machine},
            {QStringLiteral("writtenAt"), input.writtenAt.toUTC().toString(Qt::ISODate)},
            {QStringLiteral("os"), QJsonObject{{QStringLiteral("family"), orNull(os.family)},
                                               {QStringLiteral("name"), orNull(os.name)},
                                               {QStringLiteral("version"), orNull(os.version)},
                                               {QStringLiteral("arch"), orNull(os.arch)}}},
            {QStringLiteral("gpus"), gpus},
            {QStringLiteral("items"), items},
            {QStringLiteral("status"), input.status.toJson()},
            {QStringLiteral("findings"), findings}};
}

QString machineReportFileName(const QString &machine)
{
    QString name;
    for (const QChar c : machine) {
        const bool safe = (c >= QLatin1Char('a') && c <= QLatin1Char('z')) ||
                          (c >= QLatin1Char('A') && c <= QLatin1Char('Z')) ||
                          (c >= QLatin1Char('0') && c <= QLatin1Char('9')) || c == QLatin1Char('-') ||
                          c == QLatin1Char('_') || c == QLatin1Char('.');
        name += safe ? c : QLatin1Char('_');
    }
    while (name.startsWith(QLatin1Char('.')))
        name.remove(0, 1);
    name.truncate(64);
    while (name.endsWith(QLatin1Char('.'))) // Windows drops trailing dots
        name.chop(1);
    if (name.isEmpty())
        name = QStringLiteral("unnamed");
    static const QRegularExpression device(QStringLiteral("^(CON|PRN|AUX|NUL|COM[0-9]|LPT[0-9])(\\.|$)"),
                                           QRegularExpression::CaseInsensitiveOption);
    if (device.match(name).hasMatch())
        name.prepend(QLatin1Char('_'));
    return name + QStringLiteral(".json");
}

Expected<QString> writeMachineReport(const QJsonObject &report, const QString &folder)
{
    if (const Expected<void> made = makeReportFolder(folder); !made)
        return made.error();
    const QString fileName = machineReportFileName(report.value(QStringLiteral("machine")).toString());
    const QString path = QDir(folder).absoluteFilePath(fileName);
    // A name no other writer picks, even another machine writing the same report on the share.
    const QString partial = QDir(folder).absoluteFilePath(
        QStringLiteral(".%1.%2.partial")
            .arg(fileName)
            .arg(QRandomGenerator::system()->generate64(), 16, 16, QLatin1Char('0')));
    if (const SystemResult saved =
            durable::write(QJsonDocument(report).toJson(QJsonDocument::Indented), partial, path);
        !saved) {
        durable::discard(partial);
        return reportWriteFailure(path, saved.error().message);
    }
    qCInfo(lcCore) << "machine report written:" << path;
    return path;
}

} // namespace cudnnsetup

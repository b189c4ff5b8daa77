#include "verify/ConsumerVerify.h"

#include "common/Logging.h"
#include "detect/VersionParsers.h"
#include "platform/SystemContext.h"
#include "verify/LoadErrors.h"
#include "verify/Verifier.h"

#include <QJsonArray>

#include <algorithm>

namespace cudnnsetup {

namespace {

// One file under two names is one file: a soname link and the versioned file it leads to.
bool sameFile(const SystemContext &context, const QString &a, const QString &b)
{
    const auto resolved = [&context](const QString &path) {
        const QString canonical = context.files().canonical(path);
        return canonical.isEmpty() ? path : canonical;
    };
    return context.paths().equal(a, b) || context.paths().equal(resolved(a), resolved(b));
}

// What a check of `consumer` starts from: the cuDNN it needs and detection's prediction.
ConsumerLoadCheck predictedCheck(const ConsumerInfo &consumer)
{
    ConsumerLoadCheck check;
    check.consumer = consumer;
    // The modules that link cuDNN; a program that only loads it at run time, all of its modules.
    check.modules = consumer.cudnnImporters.isEmpty() ? consumer.files : consumer.cudnnImporters;
    check.neededMajor = consumer.cudnnMajor;
    for (const auto &[name, copy] : consumer.resolves) {
        if (versions::isCudnnLibraryName(name)) {
            check.predictedName = name;
            check.predicted = copy;
            break;
        }
    }
    if (!check.neededMajor && !check.predictedName.isEmpty()) {
        if (const Version version = versions::fromCudnnLibraryName(check.predictedName); version.isValid())
            check.neededMajor = version.major();
    }
    return check;
}

QString consumerName(const ConsumerInfo &consumer)
{
    return consumer.version.isEmpty() ? consumer.name
                                      : QStringLiteral("%1 %2").arg(consumer.name, consumer.version);
}

// The bound main library: the one detection named, else the first cuDNN file the loader mapped.
QString chooseBound(const SystemContext &context, const QStringList &bound, const QString &predictedName)
{
    for (const QString &path : bound) {
        if (context.paths().fileName(path).compare(predictedName, context.paths().caseSensitivity()) == 0)
            return path;
    }
    return bound.value(0);
}

void judgeBinding(const SystemContext &context, const SystemSnapshot &snapshot, const QString &what,
                  const ProbeResult &probe, ConsumerLoadCheck &check)
{
    const QString who = consumerName(check.consumer);
    const Text checkFix = Text(QT_TRANSLATE_NOOP("cudnnsetup", "cudnnctl check --for %1 names the one fix."));
    for (const ProbeLoad &load : probe.loads) {
        if (load.loaded())
            continue;
        const QString module = QDir::toNativeSeparators(context.files().fromHost(load.name));
        const ErrorExplanation why = explainLoaderError(load.errorCode, load.errorString, module);
        // A Python package's own library (torch's libtorch_python) is loaded by the interpreter
        // only: the modules that bind cuDNN are checked without it.
        if (why.name == QLatin1String("needs Python")) {
            check.findings.append(Finding::info(QStringLiteral("verify.for-needs-python"), why.cause,
                                                load.errorString, why.fix));
            continue;
        }
        check.findings.append(
            Finding::error(QStringLiteral("verify.for-load-failed"),
                           Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 could not be loaded (%2): %3"))
                               .arg(Text::verbatim(module), Text::verbatim(why.name), why.cause),
                           load.errorString, why.fix));
    }
    const QString hostBound = chooseBound(context, probe.cudnnBound, check.predictedName);
    if (!hostBound.isEmpty()) {
        check.bound = context.files().fromHost(hostBound);
        const Version asked =
            probe.cudnnVersion ? versions::fromCudnnVersionNumber(*probe.cudnnVersion) : Version();
        if (asked.isValid()) {
            check.boundVersion = asked.toString();
            check.versionSource = QStringLiteral("library");
        } else if (const CudnnCopy *copy = copyHolding(snapshot.cudnn, check.bound, context.paths());
                   copy && !copy->version.isEmpty()) {
            check.boundVersion = copy->version;
            check.versionSource = QStringLiteral("detection");
        } else {
            const QString real = context.files().canonical(check.bound);
            const Version named =
                versions::fromCudnnLibraryName(context.paths().fileName(real.isEmpty() ? check.bound : real));
            if (named.isValid()) {
                check.boundVersion = named.toString();
                check.versionSource = QStringLiteral("file-name");
            }
        }
    }
    const QString predictedText =
        check.predicted ? QDir::toNativeSeparators(check.predicted->path) : QString();
    if (check.bound.isEmpty() && !check.needsCudnn()) {
        check.findings.append(Finding::info(
            QStringLiteral("verify.for-no-cudnn-needed"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 needs no cuDNN, and loading it bound none.")).arg(who)));
        return;
    }
    if (check.bound.isEmpty()) {
        check.findings.append(Finding::error(
            QStringLiteral("verify.for-nothing-bound"),
            check.predicted
                ? Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                         "Loading %1 bound no cuDNN library; detection expected %2."))
                      .arg(who, predictedText)
                : Text(QT_TRANSLATE_NOOP("cudnnsetup", "Loading %1 bound no cuDNN library.")).arg(who),
            QStringLiteral("modules: %1").arg(check.modules.join(QStringLiteral(", "))), checkFix.arg(what)));
        return;
    }
    const Version boundVersion = Version::parse(check.boundVersion);
    const Version boundName = versions::fromCudnnLibraryName(context.paths().fileName(check.bound));
    const int boundMajor = boundVersion.isValid() ? boundVersion.major()
                           : boundName.isValid()  ? boundName.major()
                                                  : 0;
    const QString shownBound = QDir::toNativeSeparators(check.bound);
    if (check.neededMajor && boundMajor != *check.neededMajor) {
        check.findings.append(Finding::error(
            QStringLiteral("verify.for-wrong-major"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 needs cuDNN %2, but the loader bound %3 (cuDNN %4)."))
                .arg(who, QString::number(*check.neededMajor), shownBound,
                     check.boundVersion.isEmpty() ? QString::number(boundMajor) : check.boundVersion),
            {}, checkFix.arg(what)));
    }
    if (!check.predicted || !sameFile(context, check.predicted->path, check.bound)) {
        check.findings.append(Finding::warning(
            QStringLiteral("verify.for-unlike-detection"),
            check.predicted
                ? Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                         "The loader bound %1, but detection expected %2 for %3."))
                      .arg(shownBound, predictedText, who)
                : Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                         "The loader bound %1, where detection found no cuDNN %2 reaches."))
                      .arg(shownBound, who),
            QStringLiteral("bound %1; resolves %2").arg(check.bound, predictedText)));
    }
}

QJsonValue libraryJson(const QString &name, const QString &path, const QString &version)
{
    return QJsonObject{{QStringLiteral("name"), name},
                       {QStringLiteral("path"), path},
                       {QStringLiteral("version"), version.isEmpty() ? QJsonValue() : QJsonValue(version)}};
}

} // namespace

bool ConsumerLoadCheck::needsCudnn() const
{
    return neededMajor || !predictedName.isEmpty();
}

bool ConsumerLoadCheck::passed() const
{
    return (!bound.isEmpty() || !needsCudnn()) && !hasErrors(findings);
}

QJsonObject ConsumerLoadCheck::toJson() const
{
    QJsonArray findingArray;
    for (const Finding &finding : findings)
        findingArray.append(finding.toJson());
    QJsonObject boundObject;
    if (!bound.isEmpty()) {
        boundObject = libraryJson(QString(), bound, boundVersion).toObject();
        boundObject.remove(QStringLiteral("name"));
        boundObject.insert(QStringLiteral("versionSource"), versionSource);
    }
    return {
        {QStringLiteral("name"), consumer.name},
        {QStringLiteral("version"), consumer.version.isEmpty() ? QJsonValue() : QJsonValue(consumer.version)},
        {QStringLiteral("location"), consumer.location},
        {QStringLiteral("modules"), QJsonArray::fromStringList(modules)},
        {QStringLiteral("cudnnMajor"), neededMajor ? QJsonValue(*neededMajor) : QJsonValue()},
        {QStringLiteral("resolves"), predictedName.isEmpty() ? QJsonValue()
                                     : predicted
                                         ? libraryJson(predictedName, predicted->path, predicted->version)
                                         : QJsonValue(QJsonObject{{QStringLiteral("name"), predictedName},
                                                                  {QStringLiteral("path"), QJsonValue()}})},
        {QStringLiteral("bound"), bound.isEmpty() ? QJsonValue() : QJsonValue(boundObject)},
        {QStringLiteral("passed"), passed()},
        {QStringLiteral("findings"), findingArray}};
}

bool ConsumerVerifyReport::passed() const
{
    return !consumers.isEmpty() && !hasErrors(findings) &&
           std::all_of(consumers.cbegin(), consumers.cend(),
                       [](const ConsumerLoadCheck &check) { return check.passed(); });
}

QJsonObject ConsumerVerifyReport::toJson() const
{
    QJsonArray consumerArray;
    for (const ConsumerLoadCheck &check : consumers)
        consumerArray.append(check.toJson());
    QJsonArray findingArray;
    for (const Finding &finding : findings)
        findingArray.append(finding.toJson());
    return {{QStringLiteral("schema"), QLatin1String(kSchema)},
            {QStringLiteral("for"), what},
            {QStringLiteral("consumers"), consumerArray},
            {QStringLiteral("findings"), findingArray},
            {QStringLiteral("passed"), passed()}};
}

ConsumerVerifyReport verifyConsumers(const SystemContext &context, const SystemSnapshot &snapshot,
                                     const QString &what, const QList<ConsumerInfo> &consumers,
                                     const VerifyOptions &options)
{
    ConsumerVerifyReport report;
    report.what = what;
    if (consumers.isEmpty()) {
        report.findings.append(Finding::error(
            QStringLiteral("verify.for-not-found"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "No %1 was found here, so there is nothing to load."))
                .arg(what),
            {},
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "cudnnctl check --for %1 names the one fix.")).arg(what)));
        return report;
    }
    // Another system's files (an offline image, --system-root): nothing of them runs here.
    const bool loadsHere = context.isLive() && context.family() == hostOsFamily();
    if (!loadsHere)
        report.findings.append(Finding::error(
            QStringLiteral("verify.for-not-here"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Not run, on purpose: another system's programs are not "
                                                 "loaded on this one; cudnnctl check --for %1 gives what "
                                                 "their files say."))
                .arg(what)));
    const ProbeEnvironment environment = probeEnvironment(context);
    for (const ConsumerInfo &consumer : consumers) {
        ConsumerLoadCheck check = predictedCheck(consumer);
        if (!loadsHere || check.modules.isEmpty()) {
            report.consumers.append(check);
            continue;
        }
        ProbeRequest request;
        for (const QString &path : consumer.preloads)
            request.libraries.append(context.files().toHost(path));
        for (const QString &path : std::as_const(check.modules))
            request.consumerModules.append(context.files().toHost(path));
        request.model = consumer.loadModel;
        // A program that loads its cuDNN only at run time is made to, as it would.
        if (consumer.cudnnImporters.isEmpty() && !check.predictedName.isEmpty())
            request.runtimeLoads = {check.predictedName};
        for (const QString &folder : consumer.dllDirectories)
            request.dllDirectories.append(context.files().toHost(folder));
        request.gpu = false;
        // A module that crashes ends the child, never this process.
        const ProbeRun run = runProbeChild(context, request, environment, options);
        if (run.result) {
            judgeBinding(context, snapshot, what, *run.result, check);
        } else {
            check.findings.append(Finding::error(
                QStringLiteral("verify.for-probe-ended"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "Loading %1 ended the test process before it could answer."))
                    .arg(consumerName(consumer)),
                run.failure));
        }
        qCInfo(lcDetect).noquote() << QStringLiteral("verify --for %1: %2 bound %3 (%4), detection: %5")
                                          .arg(what, consumer.name, check.bound, check.boundVersion,
                                               check.predicted ? check.predicted->path : QString());
        report.consumers.append(check);
    }
    return report;
}

} // namespace cudnnsetup

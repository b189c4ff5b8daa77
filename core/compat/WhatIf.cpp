#include "compat/WhatIf.h"

#include "compat/ArchiveName.h"
#include "compat/KnowledgeBase.h"

namespace cudnnsetup {

namespace {

Finding badValue(const QString &option, const QString &value, const Text &expected)
{
    return Finding::error(QStringLiteral("check.bad-input"),
                          Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 \"%2\" cannot be used: %3"))
                              .arg(option, value)
                              .arg(expected),
                          QStringLiteral("%1=%2").arg(option, value));
}

} // namespace

bool WhatIf::isEmpty() const
{
    return os.isEmpty() && arch.isEmpty() && driver.isEmpty() && cuda.isEmpty() && sm.isEmpty() &&
           gpu.isEmpty() && cudnn.isEmpty();
}

Version parseTypedVersion(const QString &text)
{
    QString trimmed = text.trimmed();
    if (trimmed.startsWith(QLatin1Char('v'), Qt::CaseInsensitive))
        trimmed.remove(0, 1);
    return Version::parse(trimmed);
}

Expected<MatchFacts> applyWhatIf(MatchFacts facts, const WhatIf &whatIf, const KnowledgeBase &kb)
{
    if (!whatIf.os.isEmpty()) {
        const QString os = whatIf.os.toLower();
        if (os != QLatin1String("windows") && os != QLatin1String("linux"))
            return badValue(QStringLiteral("--os"), whatIf.os,
                            Text(QT_TRANSLATE_NOOP("cudnnsetup", "use windows or linux")));
        // The software found belongs to the system that was looked at, not to the one asked
        // about; the hardware and the driver's branch carry over.
        if (os != osFamilyName(facts.os)) {
            facts.os = os == QLatin1String("windows") ? OsFamily::Windows : OsFamily::Linux;
            facts.toolkits.clear();
            facts.targetToolkit.reset();
            facts.pythons.clear();
            facts.installedCudnn.clear();
        }
        facts.wsl2 = false;
        facts.zlibwapi.reset(); // what another system holds is not known
    }
    if (!whatIf.arch.isEmpty()) {
        const QString arch = whatIf.arch.toLower();
        if (arch == QLatin1String("x86_64") || arch == QLatin1String("x64") || arch == QLatin1String("amd64"))
            facts.arch = QStringLiteral("x64");
        else if (arch == QLatin1String("arm64") || arch == QLatin1String("aarch64"))
            facts.arch = QStringLiteral("arm64");
        else
            return badValue(QStringLiteral("--arch"), whatIf.arch,
                            Text(QT_TRANSLATE_NOOP("cudnnsetup", "use x86_64 or arm64")));
    }
    if (!whatIf.driver.isEmpty()) {
        const Version driver = parseTypedVersion(whatIf.driver);
        if (!driver.isValid() || driver.major() < 100)
            return badValue(
                QStringLiteral("--driver"), whatIf.driver,
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "a driver version looks like 535.98 or 580.65.06")));
        facts.driver = driver;
        facts.driverMaxCuda = Version(); // from the driver's branch, not from what this machine's driver says
        facts.driverWorking = true;
    }
    if (!whatIf.cuda.isEmpty()) {
        const Version cuda = parseTypedVersion(whatIf.cuda);
        if (!cuda.isValid() || cuda.major() < 7 || cuda.major() > 99)
            return badValue(
                QStringLiteral("--cuda"), whatIf.cuda,
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "a CUDA version looks like 12, 12.2 or 12.2.1")));
        facts.targetToolkit = MatchFacts::Toolkit{cuda, QString()};
        facts.toolkits = {*facts.targetToolkit};
    }
    if (!whatIf.sm.isEmpty() || !whatIf.gpu.isEmpty()) {
        MatchFacts::Gpu gpu;
        gpu.name = whatIf.gpu;
        if (!whatIf.sm.isEmpty()) {
            const Version sm =
                parseTypedVersion(QString(whatIf.sm).remove(QStringLiteral("sm_"), Qt::CaseInsensitive));
            if (!sm.isValid() || sm.size() != 2)
                return badValue(QStringLiteral("--sm"), whatIf.sm,
                                Text(QT_TRANSLATE_NOOP("cudnnsetup", "a compute capability looks like 8.6")));
            gpu.computeCapability = sm;
        } else if (const auto cc = kb.computeCapabilityForGpu(whatIf.gpu)) {
            gpu.computeCapability = *cc;
        }
        facts.gpus = {gpu};
    }
    if (!whatIf.cudnn.isEmpty()) {
        MatchFacts::Archive archive;
        if (const auto name = ArchiveName::parse(whatIf.cudnn)) {
            archive.platform = name->platform;
            archive.cudnn = name->cudnn;
            archive.cudaVariant = name->cudaVariant;
        } else {
            const Version version = parseTypedVersion(whatIf.cudnn);
            if (!version.isValid() || version.size() < 2 || version.major() < 5 || version.major() > 20) {
                return badValue(
                    QStringLiteral("--cudnn"), whatIf.cudnn,
                    Text(QT_TRANSLATE_NOOP(
                        "cudnnsetup", "give a cuDNN version such as 8.9.7 or 8.9.7.29, or an NVIDIA archive "
                                      "file name such as cudnn-windows-x86_64-8.9.7.29_cuda12-archive.zip")));
            }
            archive.cudnn = version;
            // A bare version names no CUDA variant: take the one for the toolkit, else for the driver.
            int major = facts.targetToolkit ? facts.targetToolkit->version.major() : 0;
            if (major == 0 && !facts.toolkits.isEmpty())
                major = facts.toolkits.first().version.major();
            if (major == 0) {
                const Version maxCuda =
                    facts.driverMaxCuda.isValid() ? facts.driverMaxCuda : kb.maxCudaForDriver(facts.driver);
                major = maxCuda.major();
            }
            const CudnnRelease *release = kb.cudnnRelease(version);
            const CudnnVariant *variant =
                release && major > 0 ? release->variantForCudaMajor(major) : nullptr;
            if (!variant && release && !release->variants.isEmpty())
                variant = &release->variants.last();
            archive.cudaVariant = variant ? variant->cuda : QString::number(major);
        }
        facts.archive = archive;
    }
    return facts;
}

} // namespace cudnnsetup

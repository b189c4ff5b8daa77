#include "detect/EnvironmentProbe.h"

#include "platform/SystemContext.h"

#include <algorithm>

namespace cudnnsetup {

EnvironmentInfo probeEnvironment(const SystemContext &context, const QList<CudaToolkit> &toolkits,
                                 Findings &findings)
{
    const EnvironmentStore &environment = context.environment();
    const SystemPaths &paths = context.paths();
    EnvironmentInfo info;
    info.cudaPath = environment.value(QStringLiteral("CUDA_PATH"));
    info.cudaVisibleDevices = environment.value(QStringLiteral("CUDA_VISIBLE_DEVICES"));
    info.cudaModuleLoading = environment.value(QStringLiteral("CUDA_MODULE_LOADING"));
    info.path = environment.processPath();
    if (context.family() == OsFamily::Linux)
        info.libraryPath = paths.splitList(environment.value(QStringLiteral("LD_LIBRARY_PATH")));

    if (!info.cudaPath.isEmpty()) {
        const QString canonical = context.files().canonical(info.cudaPath);
        for (const CudaToolkit &toolkit : toolkits) {
            if (!canonical.isEmpty() && paths.equal(toolkit.path, canonical))
                info.cudaPathToolkit = toolkit.path;
        }
        if (info.cudaPathToolkit.isNull()) {
            const QString example = toolkits.isEmpty() ? QString() : toolkits.first().path;
            findings.append(Finding::warning(
                QStringLiteral("env.cuda-path-invalid"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "CUDA_PATH points to %1, which is not a CUDA toolkit."))
                    .arg(info.cudaPath),
                QStringLiteral("CUDA_PATH=%1").arg(info.cudaPath),
                example.isEmpty()
                    ? Text(QT_TRANSLATE_NOOP(
                          "cudnnsetup", "Remove CUDA_PATH, or install the CUDA toolkit it should point to."))
                    : Text(QT_TRANSLATE_NOOP(
                               "cudnnsetup",
                               "Point CUDA_PATH at the toolkit you use (for example %1), or remove it."))
                          .arg(example)));
        }
    }

    if (!info.cudaVisibleDevices.isNull()) {
        const QString value = info.cudaVisibleDevices.trimmed();
        if (value.isEmpty() || value == QLatin1String("-1") ||
            value.compare(QLatin1String("NoDevFiles"), Qt::CaseInsensitive) == 0) {
            findings.append(Finding::warning(
                QStringLiteral("env.cuda-visible-devices-hides-all"),
                Text(QT_TRANSLATE_NOOP(
                         "cudnnsetup",
                         "CUDA_VISIBLE_DEVICES is set to \"%1\", which hides every GPU from CUDA programs."))
                    .arg(info.cudaVisibleDevices),
                QStringLiteral("CUDA_VISIBLE_DEVICES=%1").arg(info.cudaVisibleDevices),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "Remove CUDA_VISIBLE_DEVICES, or set it to the GPUs "
                                                     "programs should use (for example 0)."))));
        } else {
            findings.append(Finding::info(
                QStringLiteral("env.cuda-visible-devices"),
                Text(
                    QT_TRANSLATE_NOOP("cudnnsetup",
                                      "CUDA programs see only the GPUs listed in CUDA_VISIBLE_DEVICES (%1)."))
                    .arg(value),
                QStringLiteral("CUDA_VISIBLE_DEVICES=%1").arg(value)));
        }
    }

    if (const auto fresh = environment.freshPath()) {
        QStringList missing;
        for (const QString &entry : *fresh) {
            const bool present = std::any_of(info.path.cbegin(), info.path.cend(),
                                             [&](const QString &mine) { return paths.equal(mine, entry); });
            if (!present)
                missing.append(entry);
        }
        info.pathStale = !missing.isEmpty();
        if (!missing.isEmpty()) {
            findings.append(Finding::info(
                QStringLiteral("env.path-stale"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "PATH changed after this program was started; programs started from "
                                       "the same window do not see the change yet.")),
                QStringLiteral("in the registry but not in this process: %1")
                    .arg(missing.join(QLatin1Char(';'))),
                Text(QT_TRANSLATE_NOOP(
                    "cudnnsetup",
                    "Open a new terminal (or sign out and in again) before you run CUDA programs."))));
        }
    }
    return info;
}

} // namespace cudnnsetup

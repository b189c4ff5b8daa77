#include "report/SnapshotText.h"

#include "common/Sizes.h"
#include "common/Text.h"
#include "detect/SystemSnapshot.h"
#include "report/TextTable.h"

#include <QCoreApplication>

namespace cudnnsetup {

namespace {

QString orUnknown(const QString &value)
{
    return value.isEmpty() ? QCoreApplication::translate("cudnnsetup", "unknown") : value;
}

// The system and, under --system-root, the root inspected.
void addSystemRows(TextTable &table, const SystemSnapshot &snapshot)
{
    QString system = orUnknown(snapshot.os.name);
    const QString family = snapshot.os.family.isEmpty()
                               ? QString()
                               : snapshot.os.family.front().toUpper() + snapshot.os.family.mid(1); // "Linux"
    system += QStringLiteral(" (%1, %2)").arg(orUnknown(family), orUnknown(snapshot.os.arch));
    if (snapshot.os.wsl)
        system += QStringLiteral(" · WSL %1").arg(snapshot.os.wsl->version);
    table.row(QCoreApplication::translate("cudnnsetup", "System"), system);
    if (!snapshot.systemRoot.isEmpty())
        table.row(QCoreApplication::translate("cudnnsetup", "Inspected root"), snapshot.systemRoot);
}

void addGpuRows(TextTable &table, const SystemSnapshot &snapshot)
{
    if (snapshot.gpus.isEmpty())
        table.row(QCoreApplication::translate("cudnnsetup", "GPU"),
                  QCoreApplication::translate("cudnnsetup", "none found"));
    for (const GpuInfo &gpu : snapshot.gpus) {
        QStringList parts{orUnknown(gpu.name)};
        if (!gpu.computeCapability.isEmpty())
            parts.append(QCoreApplication::translate("cudnnsetup", "compute capability %1")
                             .arg(gpu.computeCapability));
        if (gpu.memoryMiB >= 0)
            parts.append(shownSize(gpu.memoryMiB * 1024 * 1024));
        table.row(QCoreApplication::translate("cudnnsetup", "GPU %1").arg(gpu.index),
                  parts.join(QStringLiteral(" · ")));
    }
}

void addDriverRows(TextTable &table, const SystemSnapshot &snapshot)
{
    if (!snapshot.driver) {
        table.row(QCoreApplication::translate("cudnnsetup", "Driver"),
                  QCoreApplication::translate("cudnnsetup", "not found"));
    } else {
        QString driver = snapshot.driver->version;
        driver += QStringLiteral(" · ") +
                  (snapshot.driver->maxCuda.isEmpty()
                       ? QCoreApplication::translate("cudnnsetup", "newest supported CUDA unknown")
                       : QCoreApplication::translate("cudnnsetup", "supports CUDA up to %1")
                             .arg(snapshot.driver->maxCuda));
        if (!snapshot.driver->working)
            driver += QStringLiteral(" · ") + QCoreApplication::translate("cudnnsetup", "NOT WORKING");
        table.row(QCoreApplication::translate("cudnnsetup", "Driver"), driver);
    }
}

void addToolkitRows(TextTable &table, const SystemSnapshot &snapshot)
{
    if (snapshot.cudaToolkits.isEmpty())
        table.row(QCoreApplication::translate("cudnnsetup", "CUDA toolkit"),
                  QCoreApplication::translate("cudnnsetup", "none found"));
    for (int i = 0; i < snapshot.cudaToolkits.size(); ++i) {
        const CudaToolkit &toolkit = snapshot.cudaToolkits.at(i);
        table.row(i == 0 ? QCoreApplication::translate("cudnnsetup", "CUDA toolkit") : QString(),
                  QStringLiteral("%1  %2  [%3]")
                      .arg(orUnknown(toolkit.version), toolkit.path, sourceLabel(toolkit.source)));
    }
}

void addCudnnRows(TextTable &table, const SystemSnapshot &snapshot)
{
    if (snapshot.cudnn.isEmpty())
        table.row(QCoreApplication::translate("cudnnsetup", "cuDNN"),
                  QCoreApplication::translate("cudnnsetup", "none found"));
    for (int i = 0; i < snapshot.cudnn.size(); ++i) {
        const CudnnCopy &copy = snapshot.cudnn.at(i);
        QStringList tags{sourceLabel(copy.source)};
        if (copy.cudaMajor)
            tags.append(QCoreApplication::translate("cudnnsetup", "for CUDA %1").arg(*copy.cudaMajor));
        QString order;
        if (!copy.loadOrder)
            order = QCoreApplication::translate("cudnnsetup", "not on the search path");
        else if (*copy.loadOrder == 1)
            order = QCoreApplication::translate("cudnnsetup", "loaded by default");
        else
            order = QCoreApplication::translate("cudnnsetup", "shadowed (#%1 on the search path)")
                        .arg(*copy.loadOrder);
        table.row(i == 0 ? QCoreApplication::translate("cudnnsetup", "cuDNN") : QString(),
                  QStringLiteral("%1  %2  [%3]  %4")
                      .arg(orUnknown(copy.version), copy.path, Text::list(tags).toString(), order));
    }
}

// Each interpreter, its frameworks and the cuDNN torch loads.
void addPythonRows(TextTable &table, const SystemSnapshot &snapshot)
{
    if (snapshot.pythons.isEmpty())
        table.row(QCoreApplication::translate("cudnnsetup", "Python"),
                  QCoreApplication::translate("cudnnsetup", "none found"));
    for (int i = 0; i < snapshot.pythons.size(); ++i) {
        const PythonInstall &python = snapshot.pythons.at(i);
        QString text = QStringLiteral("%1  %2").arg(orUnknown(python.version), python.path);
        if (python.bits)
            text +=
                QStringLiteral("  ") + QCoreApplication::translate("cudnnsetup", "%1-bit").arg(python.bits);
        if (python.torch) {
            const TorchInfo &torch = *python.torch;
            if (torch.cuda.isEmpty())
                text +=
                    QStringLiteral("  ") + QCoreApplication::translate("cudnnsetup", "torch %1 (CPU only)")
                                               .arg(orUnknown(torch.version));
            else
                text += QStringLiteral("  ") +
                        QCoreApplication::translate("cudnnsetup", "torch %1 (CUDA %2, cuDNN %3)")
                            .arg(orUnknown(torch.version), torch.cuda, orUnknown(torch.cudnn));
        }
        table.row(i == 0 ? QCoreApplication::translate("cudnnsetup", "Python") : QString(), text);
        for (const FrameworkInfo &framework : python.frameworks) {
            table.row(QString(),
                      QStringLiteral("  ") +
                          (framework.cuda.isEmpty()
                               ? QCoreApplication::translate("cudnnsetup", "%1 %2 (CPU only)")
                                     .arg(framework.displayName(), orUnknown(framework.version))
                               : QCoreApplication::translate("cudnnsetup", "%1 %2 (CUDA %3, cuDNN %4)")
                                     .arg(framework.displayName(), orUnknown(framework.version),
                                          framework.cuda, orUnknown(framework.cudnn))));
        }
        if (python.torch && !python.torch->cudnnLoadedFrom.isEmpty())
            table.row(QString(), QStringLiteral("  ") +
                                     (python.factsFrom == QLatin1String("interpreter")
                                          ? QCoreApplication::translate("cudnnsetup", "torch loaded %1")
                                          : QCoreApplication::translate("cudnnsetup", "torch will load %1"))
                                         .arg(python.torch->cudnnLoadedFrom));
    }
}

// The programs that use cuDNN or CUDA, and what their libraries resolve to.
void addConsumerRows(TextTable &table, const SystemSnapshot &snapshot)
{
    for (int i = 0; i < snapshot.consumers.size(); ++i) {
        const ConsumerInfo &consumer = snapshot.consumers.at(i);
        const auto major = [](const std::optional<int> &value) {
            return value ? QString::number(*value) : QCoreApplication::translate("cudnnsetup", "unknown");
        };
        table.row(i == 0 ? QCoreApplication::translate("cudnnsetup", "Uses cuDNN/CUDA") : QString(),
                  QCoreApplication::translate("cudnnsetup", "%1 %2 (needs cuDNN %3, CUDA %4)  %5")
                      .arg(consumer.name, orUnknown(consumer.version), major(consumer.cudnnMajor),
                           major(consumer.cudaMajor), consumer.location));
        if (!consumer.sass.isEmpty() || !consumer.ptx.isEmpty())
            table.row(QString(), QStringLiteral("  ") +
                                     QCoreApplication::translate("cudnnsetup", "GPU code: %1; PTX: %2")
                                         .arg(consumer.sass.isEmpty() ? QStringLiteral("-")
                                                                      : consumer.sass.join(QLatin1Char(' ')),
                                              consumer.ptx.isEmpty() ? QStringLiteral("-")
                                                                     : consumer.ptx.join(QLatin1Char(' '))));
        for (const auto &[library, copy] : consumer.resolves) {
            table.row(QString(),
                      QStringLiteral("  ") +
                          (copy ? QCoreApplication::translate("cudnnsetup", "%1 -> %2 (%3)")
                                      .arg(library, copy->path, orUnknown(copy->version))
                                : QCoreApplication::translate("cudnnsetup", "%1 -> not found").arg(library)));
        }
    }
}

} // namespace

QString snapshotText(const SystemSnapshot &snapshot)
{
    TextTable table;
    addSystemRows(table, snapshot);
    addGpuRows(table, snapshot);
    addDriverRows(table, snapshot);
    addToolkitRows(table, snapshot);
    addCudnnRows(table, snapshot);
    addPythonRows(table, snapshot);
    addConsumerRows(table, snapshot);

    if (!snapshot.environment.cudaPath.isNull())
        table.row(QStringLiteral("CUDA_PATH"), snapshot.environment.cudaPath);

    QString out = table.text();
    if (!snapshot.findings.isEmpty())
        out += QLatin1Char('\n') + findingsText(snapshot.findings);
    return out;
}

} // namespace cudnnsetup

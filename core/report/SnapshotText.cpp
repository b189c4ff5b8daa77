#include "report/SnapshotText.h"

#include "detect/SystemSnapshot.h"

#include <QCoreApplication>

namespace cudnnsetup {

namespace {

class Table
{
public:
    void row(const QString &label, const QString &value) { m_rows.append({label, value}); }
    void blank() { m_rows.append({QString(), QString()}); }
    QString text() const
    {
        qsizetype width = 0;
        for (const auto &row : m_rows)
            width = std::max(width, row.first.size());
        QString out;
        for (const auto &row : m_rows) {
            if (row.first.isEmpty() && row.second.isEmpty()) {
                out += QLatin1Char('\n');
                continue;
            }
            out += row.first.leftJustified(width + 2) + row.second + QLatin1Char('\n');
        }
        return out;
    }

private:
    QList<QPair<QString, QString>> m_rows;
};

QString orUnknown(const QString &value)
{
    return value.isEmpty() ? QCoreApplication::translate("cudnnsetup", "unknown") : value;
}

QString severityLabel(Severity severity)
{
    switch (severity) {
    case Severity::Error:
        return QCoreApplication::translate("cudnnsetup", "error");
    case Severity::Warning:
        return QCoreApplication::translate("cudnnsetup", "warning");
    case Severity::Info:
        return QCoreApplication::translate("cudnnsetup", "note");
    }
    return {};
}

} // namespace

QString snapshotText(const SystemSnapshot &snapshot)
{
    Table table;
    QString system = orUnknown(snapshot.os.name);
    system += QStringLiteral(" (%1, %2)").arg(snapshot.os.family, orUnknown(snapshot.os.arch));
    if (snapshot.os.wsl)
        system += QStringLiteral(" · WSL %1").arg(snapshot.os.wsl->version);
    table.row(QCoreApplication::translate("cudnnsetup", "System"), system);
    if (!snapshot.systemRoot.isEmpty())
        table.row(QCoreApplication::translate("cudnnsetup", "Inspected root"), snapshot.systemRoot);

    if (snapshot.gpus.isEmpty())
        table.row(QCoreApplication::translate("cudnnsetup", "GPU"),
                  QCoreApplication::translate("cudnnsetup", "none found"));
    for (const GpuInfo &gpu : snapshot.gpus) {
        QStringList parts{orUnknown(gpu.name)};
        if (!gpu.computeCapability.isEmpty())
            parts.append(QCoreApplication::translate("cudnnsetup", "compute capability %1")
                             .arg(gpu.computeCapability));
        if (gpu.memoryMiB >= 0)
            parts.append(QCoreApplication::translate("cudnnsetup", "%1 MiB").arg(gpu.memoryMiB));
        table.row(QCoreApplication::translate("cudnnsetup", "GPU %1").arg(gpu.index),
                  parts.join(QStringLiteral(" · ")));
    }

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

    if (snapshot.cudaToolkits.isEmpty())
        table.row(QCoreApplication::translate("cudnnsetup", "CUDA toolkit"),
                  QCoreApplication::translate("cudnnsetup", "none found"));
    for (int i = 0; i < snapshot.cudaToolkits.size(); ++i) {
        const CudaToolkit &toolkit = snapshot.cudaToolkits.at(i);
        table.row(
            i == 0 ? QCoreApplication::translate("cudnnsetup", "CUDA toolkit") : QString(),
            QStringLiteral("%1  %2  [%3]").arg(orUnknown(toolkit.version), toolkit.path, toolkit.source));
    }

    if (snapshot.cudnn.isEmpty())
        table.row(QCoreApplication::translate("cudnnsetup", "cuDNN"),
                  QCoreApplication::translate("cudnnsetup", "none found"));
    for (int i = 0; i < snapshot.cudnn.size(); ++i) {
        const CudnnCopy &copy = snapshot.cudnn.at(i);
        QStringList tags{copy.source};
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
                      .arg(orUnknown(copy.version), copy.path,
                           tags.join(QCoreApplication::translate("cudnnsetup", ", ", "list separator")),
                           order));
    }

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
    }

    if (!snapshot.environment.cudaPath.isNull())
        table.row(QStringLiteral("CUDA_PATH"), snapshot.environment.cudaPath);

    QString out = table.text();
    if (!snapshot.findings.isEmpty()) {
        out += QLatin1Char('\n') + QCoreApplication::translate("cudnnsetup", "Findings") + QLatin1Char('\n');
        for (const Finding &finding : snapshot.findings) {
            out += QStringLiteral("  [%1] %2\n")
                       .arg(severityLabel(finding.severity), finding.message.toString());
            if (!finding.fix.isEmpty())
                out += QStringLiteral("      ") +
                       QCoreApplication::translate("cudnnsetup", "Fix: %1").arg(finding.fix.toString()) +
                       QLatin1Char('\n');
        }
    }
    return out;
}

} // namespace cudnnsetup

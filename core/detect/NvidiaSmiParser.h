#pragma once

#include "common/Expected.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace cudnnsetup {

// Parsers for what nvidia-smi prints, across drivers R331..R610, Windows, Linux and WSL2.
// They never throw and never crash on garbage: unparsable input is an error Finding.
namespace nvidiasmi {

struct TableGpu
{
    int index = -1;
    QString name;  // as printed; long names can be cut short ("...") by the table
    QString busId; // "00000000:00:06.0"
    qint64 memoryUsedMiB = -1;
    qint64 memoryTotalMiB = -1;
    QString driverModel; // Windows "WDDM" / "TCC" / "MCDM"; null on Linux
};

struct Table
{
    QString smiVersion;    // "545.46" of "NVIDIA-SMI 545.46": the tool, not the driver under WSL2/snaps
    QString driverVersion; // "Driver Version:" or R610's "KMD Version:"
    QString cudaVersion;   // "CUDA Version:" or "CUDA UMD Version:"; null when absent, "ERR!" or "N/A"
    QString cudaRaw;       // the CUDA field exactly as printed ("13.0", "ERR!", "N/A"), null when absent
    QList<TableGpu> gpus;
};

// The plain `nvidia-smi` table. Error when no header line with a driver version is found.
Expected<Table> parseTable(const QString &text);

// "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver ..." and the
// other ways nvidia-smi says the driver is not working (in any of its output streams).
bool isDriverFailure(const QString &text);

// Which of those it is, so the caller can say what helps.
enum class DriverFailure
{
    None,
    NotCommunicating, // "couldn't communicate with the NVIDIA driver", no libnvidia-ml: no working driver
    VersionMismatch,  // "Driver/library version mismatch": an updated driver waits for a reboot
    NvmlError,        // "Failed to initialize NVML: Unknown Error" and other NVML start-up failures
    GpuLost,          // "Unable to determine the device handle for GPU ...": a GPU is gone (Xid 79)
    NoDevices,        // "No devices were found": the driver runs but sees no GPU
};
// The most serious failure the text reports. isDriverFailure() is true for every kind except None,
// and for GpuLost only while the text carries no table with a driver version (other GPUs still work).
DriverFailure driverFailure(const QString &text);

struct QueryRow
{
    int index = -1;
    QString name;
    QString uuid;
    QString busId;
    QString driverVersion;
    qint64 memoryTotalMiB = -1;
    QString computeCapability; // "9.0"; null when the driver does not know the field
};

// The fields detection asks for, in order, with --format=csv,noheader,nounits.
QStringList queryFields();       // with compute_cap
QStringList queryFieldsLegacy(); // without compute_cap, for drivers that reject it
// "Field "compute_cap" is not a valid field to query." and similar.
bool isInvalidFieldError(const QString &text);
// Rows of `--query-gpu=<fields> --format=csv,noheader,nounits` (also tolerates a header row and
// units such as "143771 MiB"); "[N/A]", "N/A" and "[Not Supported]" become null.
Expected<QList<QueryRow>> parseQuery(const QString &text, const QStringList &fields);

} // namespace nvidiasmi
} // namespace cudnnsetup

#include "detect/NvidiaSmiParser.h"

#include <algorithm>
#include <utility>

#include <QRegularExpression>

namespace cudnnsetup {
namespace nvidiasmi {

namespace {

// Real table lines are under 100 characters. Longer ones are not looked at, which also keeps every
// regular expression below linear-ish on hostile input.
constexpr int kMaxLineLength = 2000;
constexpr int kMaxDetailsLength = 300;

QString unparsableDetails(const QString &reason, const QString &text)
{
    QString firstLine;
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (const QString &line : lines) {
        if (!line.trimmed().isEmpty()) {
            firstLine = line.trimmed().left(kMaxDetailsLength);
            break;
        }
    }
    return firstLine.isEmpty() ? QStringLiteral("%1; the output is empty").arg(reason)
                               : QStringLiteral("%1; first line: \"%2\"").arg(reason, firstLine);
}

Finding unparsable(const QString &details)
{
    return Finding::error(
        QStringLiteral("nvidia-smi.unparsable"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "The output of nvidia-smi could not be read.")), details);
}

// One line as nvidia-smi printed it, without what a paste adds around it: carriage returns,
// indentation, Markdown quote markers and bold markers.
QString cleanLine(const QString &line)
{
    QString cleaned = line;
    cleaned.remove(QLatin1Char('\r'));
    cleaned.remove(QStringLiteral("**"));
    qsizetype start = 0;
    while (start < cleaned.size() && (cleaned.at(start).isSpace() || cleaned.at(start) == QLatin1Char('>')))
        ++start;
    return cleaned.mid(start).trimmed();
}

bool isVersionNumber(const QString &value)
{
    static const QRegularExpression pattern(QStringLiteral("^\\d{1,4}(\\.\\d{1,4}){1,3}$"));
    return pattern.match(value).hasMatch();
}

// "+-----+---+", "|-----+---|", "|=====+===|": the lines between header, rows and GPU blocks.
bool isRule(const QString &line)
{
    static const QRegularExpression pattern(QStringLiteral("^[|+][-=+|]*[-=][-=+|]*$"));
    return pattern.match(line).hasMatch();
}

struct Header
{
    bool found = false; // "NVIDIA-SMI <version>" or a driver label: a CUDA label alone is not a header
    QString smiVersion;
    QString driverLabel;
    QString driverVersion;
    QString cudaRaw;
    bool cudaFound = false;
};

// The banner: "NVIDIA-SMI 580.159.04   Driver Version: 580.159.04   CUDA Version: 13.0". The labels
// are read generically ("<label> Version: <value>") because R610 renamed them to "KMD Version" and
// "CUDA UMD Version"; a label naming CUDA is the CUDA field, one naming the driver or KMD the driver.
Header readHeader(const QString &line)
{
    static const QRegularExpression smiPattern(QStringLiteral("NVIDIA-SMI\\s+v?(\\d+(?:\\.\\d+)+)"));
    static const QRegularExpression labelPattern(
        QStringLiteral("([A-Za-z][A-Za-z ]{0,40}?)\\s*Version\\s*:\\s*([^\\s|]*)"));

    Header header;
    const QRegularExpressionMatch smi = smiPattern.match(line);
    if (smi.hasMatch()) {
        header.found = true;
        header.smiVersion = smi.captured(1);
    }
    if (!line.contains(QLatin1String("Version"), Qt::CaseInsensitive))
        return header;

    QRegularExpressionMatchIterator it = labelPattern.globalMatch(line);
    while (it.hasNext()) {
        const QRegularExpressionMatch match = it.next();
        const QString label = match.captured(1).simplified();
        const QString value = match.captured(2);
        if (label.contains(QLatin1String("CUDA"), Qt::CaseInsensitive)) {
            if (!header.cudaFound) {
                header.cudaFound = true;
                header.cudaRaw = value;
            }
        } else if (label.contains(QLatin1String("Driver"), Qt::CaseInsensitive) ||
                   label.contains(QLatin1String("KMD"), Qt::CaseInsensitive)) {
            if (header.driverLabel.isEmpty()) {
                header.driverLabel = label;
                header.driverVersion = value;
                header.found = true;
            }
        }
    }
    return header;
}

// The cells of a table line, without the empty pieces outside the outer bars.
QStringList cellsOf(const QString &line)
{
    QStringList cells = line.split(QLatin1Char('|'));
    if (!cells.isEmpty() && cells.first().trimmed().isEmpty())
        cells.removeFirst();
    if (!cells.isEmpty() && cells.last().trimmed().isEmpty())
        cells.removeLast();
    return cells;
}

// The first line of a GPU block: "|   0  NVIDIA H200      On  |   00000000:00:06.0 Off |   0 |".
// The bus id in the second cell tells it from the rows of the MIG and process tables.
bool readGpuRow(const QString &line, TableGpu *gpu)
{
    static const QRegularExpression firstCell(QStringLiteral("^(\\d{1,4})\\s+(.*\\S)$"));
    static const QRegularExpression busCell(
        QStringLiteral("^([0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\\.[0-9A-Fa-f])(?:\\s|$)"));
    static const QRegularExpression trailingValue(QStringLiteral("^(.*\\S)\\s+(\\S+)$"));

    const QStringList cells = cellsOf(line);
    if (cells.size() < 2)
        return false;
    const QRegularExpressionMatch first = firstCell.match(cells.at(0).trimmed());
    const QRegularExpressionMatch bus = busCell.match(cells.at(1).trimmed());
    if (!first.hasMatch() || !bus.hasMatch())
        return false;

    TableGpu result;
    result.index = first.captured(1).toInt();
    result.busId = bus.captured(1);
    result.name = first.captured(2);
    // After the name: Persistence-M (On/Off) on Linux and WSL2, the driver model on Windows.
    const QRegularExpressionMatch tail = trailingValue.match(result.name);
    if (tail.hasMatch()) {
        const QString value = tail.captured(2);
        static const QStringList driverModels{QStringLiteral("WDDM"), QStringLiteral("TCC"),
                                              QStringLiteral("MCDM")};
        static const QStringList persistence{QStringLiteral("On"), QStringLiteral("Off"),
                                             QStringLiteral("N/A"), QStringLiteral("ERR!")};
        if (driverModels.contains(value)) {
            result.driverModel = value;
            result.name = tail.captured(1);
        } else if (persistence.contains(value)) {
            result.name = tail.captured(1);
        }
    }
    *gpu = result;
    return true;
}

// "0MiB / 143771MiB" in the second line of a GPU block.
bool readMemory(const QString &line, TableGpu *gpu)
{
    static const QRegularExpression pattern(
        QStringLiteral("(\\d{1,12})\\s*Mi?B\\s*/\\s*(\\d{1,12})\\s*Mi?B"));
    const QRegularExpressionMatch match = pattern.match(line);
    if (!match.hasMatch())
        return false;
    gpu->memoryUsedMiB = match.captured(1).toLongLong();
    gpu->memoryTotalMiB = match.captured(2).toLongLong();
    return true;
}

// Titles of the tables printed after the GPU table; their rows are not GPUs.
bool startsOtherTable(const QString &line)
{
    return line.contains(QLatin1String("MIG devices:"), Qt::CaseInsensitive) ||
           line.contains(QLatin1String("Processes:"), Qt::CaseInsensitive);
}

} // namespace

Expected<Table> parseTable(const QString &text)
{
    const QStringList lines = text.split(QLatin1Char('\n'));
    Table table;
    bool headerSeen = false;
    bool inGpuTable = false;
    bool memoryPending = false;
    QString headerLine;

    for (const QString &rawLine : lines) {
        if (rawLine.size() > kMaxLineLength)
            continue;
        const QString line = cleanLine(rawLine);
        if (line.isEmpty()) {
            memoryPending = false;
            continue;
        }

        const Header header = readHeader(line);
        if (header.found) {
            if (headerSeen && isVersionNumber(table.driverVersion))
                break; // a second table pasted below the first one
            headerSeen = true;
            inGpuTable = true;
            memoryPending = false;
            headerLine = line;
            table = Table();
            table.smiVersion = header.smiVersion;
            table.driverVersion = header.driverVersion;
            if (header.cudaFound) {
                table.cudaRaw = header.cudaRaw.isEmpty() ? QString() : header.cudaRaw;
                if (isVersionNumber(header.cudaRaw))
                    table.cudaVersion = header.cudaRaw;
            }
            continue;
        }
        if (!inGpuTable)
            continue;
        if (startsOtherTable(line)) {
            inGpuTable = false;
            memoryPending = false;
            continue;
        }
        if (isRule(line)) {
            memoryPending = false;
            continue;
        }
        TableGpu gpu;
        if (readGpuRow(line, &gpu)) {
            table.gpus.append(gpu);
            memoryPending = true;
            continue;
        }
        if (memoryPending && !table.gpus.isEmpty() && readMemory(line, &table.gpus.last()))
            memoryPending = false;
    }

    if (!headerSeen)
        return unparsable(
            unparsableDetails(QStringLiteral("no \"NVIDIA-SMI\" / \"Driver Version:\" header line"), text));
    if (!isVersionNumber(table.driverVersion)) {
        return unparsable(QStringLiteral("no driver version in the header line \"%1\"")
                              .arg(headerLine.left(kMaxDetailsLength)));
    }
    if (!table.smiVersion.isEmpty() && !isVersionNumber(table.smiVersion))
        table.smiVersion.clear();
    return table;
}

DriverFailure driverFailure(const QString &text)
{
    static const QRegularExpression notCommunicating(
        QStringLiteral("couldn'?t communicate with (the )?NVIDIA driver|"
                       "couldn'?t find libnvidia-ml|"
                       "NVIDIA driver is not loaded|"
                       "Unable to load the NVIDIA driver"),
        QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression mismatch(QStringLiteral("Driver/library version mismatch"),
                                             QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression nvml(QStringLiteral("Failed to initialize NVML"),
                                         QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression gpuLost(
        QStringLiteral("Unable to determine the device handle for GPU|GPU is lost"),
        QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression noDevices(QStringLiteral("No devices were found"),
                                              QRegularExpression::CaseInsensitiveOption);

    if (notCommunicating.match(text).hasMatch())
        return DriverFailure::NotCommunicating;
    if (mismatch.match(text).hasMatch())
        return DriverFailure::VersionMismatch;
    if (nvml.match(text).hasMatch())
        return DriverFailure::NvmlError;
    if (gpuLost.match(text).hasMatch())
        return DriverFailure::GpuLost;
    if (noDevices.match(text).hasMatch())
        return DriverFailure::NoDevices;
    return DriverFailure::None;
}

bool isDriverFailure(const QString &text)
{
    switch (driverFailure(text)) {
    case DriverFailure::None:
        return false;
    case DriverFailure::GpuLost:
        // One lost GPU among several: nvidia-smi still prints the table of the others.
        return !parseTable(text).ok();
    case DriverFailure::NotCommunicating:
    case DriverFailure::VersionMismatch:
    case DriverFailure::NvmlError:
    case DriverFailure::NoDevices:
        return true;
    }
    return true;
}

QStringList queryFields()
{
    return queryFieldsLegacy() << QStringLiteral("compute_cap");
}

QStringList queryFieldsLegacy()
{
    return {QStringLiteral("index"),      QStringLiteral("name"),           QStringLiteral("uuid"),
            QStringLiteral("pci.bus_id"), QStringLiteral("driver_version"), QStringLiteral("memory.total")};
}

bool isInvalidFieldError(const QString &text)
{
    static const QRegularExpression pattern(QStringLiteral("Field\\s+\"[^\"\\n]*\"\\s+is not a valid field"),
                                            QRegularExpression::CaseInsensitiveOption);
    return pattern.match(text).hasMatch();
}

namespace {

// "memory.total [MiB]" -> "memory.total"; empty when the column is not a field name, so a data row
// is never taken for the header.
QString headerFieldName(const QString &column)
{
    static const QRegularExpression pattern(QStringLiteral("^([a-z][a-z0-9_.]*)(?:\\s*\\[[^\\]]*\\])?$"));
    const QRegularExpressionMatch match = pattern.match(column.trimmed());
    return match.hasMatch() ? match.captured(1) : QString();
}

// "[N/A]", "N/A", "[Not Supported]", "[Unknown Error]", "" -> null.
QString queryValue(const QString &raw)
{
    const QString value = raw.trimmed();
    if (value.isEmpty() || value.compare(QLatin1String("N/A"), Qt::CaseInsensitive) == 0 ||
        (value.startsWith(QLatin1Char('[')) && value.endsWith(QLatin1Char(']'))))
        return {};
    return value;
}

qint64 queryMiB(const QString &value)
{
    static const QRegularExpression pattern(QStringLiteral("^(\\d{1,12})(?:\\s*MiB)?$"),
                                            QRegularExpression::CaseInsensitiveOption);
    const QRegularExpressionMatch match = pattern.match(value);
    return match.hasMatch() ? match.captured(1).toLongLong() : -1;
}

} // namespace

Expected<QList<QueryRow>> parseQuery(const QString &text, const QStringList &fields)
{
    QStringList columns = fields; // what each column of a row holds; a header row replaces it
    QList<QueryRow> rows;
    QStringList skipped;

    const QStringList lines = text.split(QLatin1Char('\n'));
    for (const QString &rawLine : lines) {
        if (rawLine.size() > kMaxLineLength)
            continue;
        const QString line = cleanLine(rawLine);
        if (line.isEmpty() || line.startsWith(QLatin1String("```")))
            continue;
        QStringList cells = line.split(QLatin1Char(','));

        QStringList headerNames;
        for (const QString &cell : std::as_const(cells))
            headerNames.append(headerFieldName(cell));
        if (!headerNames.contains(QString()) &&
            std::any_of(fields.cbegin(), fields.cend(),
                        [&](const QString &field) { return headerNames.contains(field); })) {
            columns = headerNames;
            continue;
        }

        if (cells.size() < columns.size()) {
            skipped.append(line);
            continue;
        }
        // nvidia-smi does not quote: a name with commas spreads over extra columns.
        const int nameColumn = int(columns.indexOf(QStringLiteral("name")));
        if (cells.size() > columns.size() && nameColumn >= 0) {
            const int extra = int(cells.size() - columns.size());
            const QString name = cells.mid(nameColumn, extra + 1).join(QLatin1Char(','));
            cells.erase(cells.begin() + nameColumn, cells.begin() + nameColumn + extra + 1);
            cells.insert(nameColumn, name);
        }

        const auto value = [&](const QString &field) {
            const int column = int(columns.indexOf(field));
            return column >= 0 && column < cells.size() ? queryValue(cells.at(column)) : QString();
        };

        QueryRow row;
        if (columns.contains(QStringLiteral("index"))) {
            bool ok = false;
            row.index = value(QStringLiteral("index")).toInt(&ok);
            if (!ok || row.index < 0) {
                skipped.append(line);
                continue;
            }
        }
        row.name = value(QStringLiteral("name"));
        row.uuid = value(QStringLiteral("uuid"));
        row.busId = value(QStringLiteral("pci.bus_id"));
        row.driverVersion = value(QStringLiteral("driver_version"));
        const QString memory = value(QStringLiteral("memory.total"));
        row.memoryTotalMiB = memory.isNull() ? -1 : queryMiB(memory);
        static const QRegularExpression computeCapability(QStringLiteral("^\\d{1,3}\\.\\d{1,3}$"));
        const QString capability = value(QStringLiteral("compute_cap"));
        if (computeCapability.match(capability).hasMatch())
            row.computeCapability = capability;
        rows.append(row);
    }

    if (rows.isEmpty()) {
        const QString reason = skipped.isEmpty() ? QStringLiteral("no GPU rows")
                                                 : QStringLiteral("no line has the %1 requested fields (%2)")
                                                       .arg(fields.size())
                                                       .arg(fields.join(QLatin1Char(',')));
        return Finding::error(
            QStringLiteral("nvidia-smi.query-unparsable"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "The output of nvidia-smi could not be read.")),
            unparsableDetails(reason, text));
    }
    return rows;
}

} // namespace nvidiasmi
} // namespace cudnnsetup

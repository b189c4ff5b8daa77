#include "binary/PeReader.h"

#include <algorithm>
#include <memory>
#include <optional>

#include <QFile>
#include <QFileDevice>
#include <QIODevice>

#include "binary/PeParser.h"
#include "common/Logging.h"

namespace cudnnsetup {

QString PeInfo::machineName() const
{
    switch (machine) {
    case Amd64:
        return QStringLiteral("x64");
    case I386:
        return QStringLiteral("x86");
    case Arm64:
        return QStringLiteral("arm64");
    case ArmNt:
        return QStringLiteral("arm");
    }
    return QStringLiteral("0x%1").arg(machine, 4, 16, QLatin1Char('0'));
}

const FileSection *findSection(const QList<FileSection> &sections, const QString &name)
{
    for (const FileSection &section : sections) {
        if (section.name == name)
            return &section;
    }
    return nullptr;
}

ByteSource bufferSource(const QByteArray &data)
{
    return [data](qint64 offset, qint64 size) -> QByteArray {
        if (offset < 0 || size <= 0 || offset >= data.size())
            return {};
        return data.mid(offset, qsizetype(std::min<qint64>(size, data.size() - offset)));
    };
}

ByteSource mappedFileSource(const QString &hostPath, QString *error)
{
    auto file = std::make_shared<QFile>(hostPath);
    if (!file->open(QIODevice::ReadOnly)) {
        if (error)
            *error = file->errorString();
        return {};
    }
    const qint64 size = file->size();
    const uchar *mapped = size > 0 ? file->map(0, size) : nullptr;
    if (size > 0 && !mapped) {
        if (error)
            *error = file->errorString();
        return {};
    }
    // The lambda holds the file, and with it the mapping, for as long as the source lives.
    return [file, mapped, size](qint64 offset, qint64 wanted) -> QByteArray {
        if (!mapped || offset < 0 || wanted <= 0 || offset >= size)
            return {};
        return QByteArray(reinterpret_cast<const char *>(mapped) + offset,
                          qsizetype(std::min(wanted, size - offset)));
    };
}

namespace pe {

Expected<PeInfo> read(const ByteSource &source)
{
    PeParser parser(source);
    if (std::optional<Finding> error = parser.parseHeaders(true))
        return *error;
    parser.checkSectionExtent();
    parser.parseImports();
    parser.parseDelayImports();
    parser.parseVersion();
    parser.parseCertificate();
    return parser.info;
}

Expected<PeInfo> read(QIODevice *device)
{
    if (!device || !device->isOpen() || !device->isReadable() || device->isSequential()) {
        return Finding::error(QStringLiteral("pe.unreadable"),
                              Text(QT_TRANSLATE_NOOP("cudnnsetup", "The file could not be read.")),
                              QStringLiteral("the device is not open for reading, or not seekable"));
    }
    const ByteSource source = [device](qint64 offset, qint64 size) -> QByteArray {
        const qint64 total = device->size();
        if (offset < 0 || size <= 0 || offset >= total || !device->seek(offset))
            return {};
        return device->read(std::min(size, total - offset));
    };
    Expected<PeInfo> result = read(source);
    if (!result.ok()) {
        if (const auto *file = qobject_cast<QFileDevice *>(device)) {
            Finding error = result.error();
            error.details = QStringLiteral("%1: %2").arg(file->fileName(), error.details);
            return error;
        }
    }
    return result;
}

Expected<PeInfo> readFile(const QString &hostPath)
{
    QFile file(hostPath);
    if (!file.open(QIODevice::ReadOnly)) {
        return Finding::error(QStringLiteral("pe.unreadable"),
                              Text(QT_TRANSLATE_NOOP("cudnnsetup", "The file could not be read.")),
                              QStringLiteral("%1: %2").arg(hostPath, file.errorString()));
    }
    Expected<PeInfo> result = read(&file);
    if (result.ok()) {
        qCDebug(lcCore).noquote()
            << QStringLiteral("PE %1: %2, %3-bit, %4, %5 imports, %6 delay imports, file version %7")
                   .arg(hostPath, result->machineName())
                   .arg(result->bits())
                   .arg(result->isDll ? QStringLiteral("DLL") : QStringLiteral("EXE"))
                   .arg(result->imports.size())
                   .arg(result->delayImports.size())
                   .arg(result->fileVersion.isValid() ? result->fileVersion.toString()
                                                      : QStringLiteral("none"));
    } else {
        qCDebug(lcCore).noquote()
            << QStringLiteral("PE not read: %1 (%2)").arg(result.error().id, result.error().details);
    }
    return result;
}

Expected<PeInfo> readHeaders(const QByteArray &head)
{
    PeParser parser(bufferSource(head));
    if (std::optional<Finding> error = parser.parseHeaders(false))
        return *error;
    return parser.info;
}

} // namespace pe
} // namespace cudnnsetup

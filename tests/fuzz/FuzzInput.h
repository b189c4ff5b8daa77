#pragma once

#include <QByteArray>
#include <QString>
#include <QTemporaryDir>

#include <cstddef>
#include <cstdint>

// What the fuzz targets share: the input as Qt types, and a file to hold it for the readers that
// take a path (the zip layer, the journal, the answer file).
namespace fuzzinput {

inline QByteArray bytes(const uint8_t *data, size_t size)
{
    return QByteArray(reinterpret_cast<const char *>(data), qsizetype(size));
}

// The input decoded as UTF-8, as the parsers get the text of a tool's output or a file.
inline QString text(const uint8_t *data, size_t size)
{
    return QString::fromUtf8(reinterpret_cast<const char *>(data), qsizetype(size));
}

// One file in a folder of its own, rewritten for each input.
class InputFile
{
public:
    explicit InputFile(const QString &name)
        : m_path(m_folder.filePath(name))
    {
    }
    // The input written to the file; its path.
    const QString &write(const uint8_t *data, size_t size);

private:
    QTemporaryDir m_folder;
    QString m_path;
};

} // namespace fuzzinput

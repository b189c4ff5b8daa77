#pragma once

#include <QFile>
#include <QIODevice>
#include <QString>

#include <functional>

namespace cudnnsetup {

// A file opened for reading whose every read is reported, with its offset, as it happens: a
// library that reads the file through it is watched without the file being read twice.
class ObservedFile final : public QIODevice
{
public:
    using Observer = std::function<void(qint64 offset, const char *data, qint64 size)>;

    ObservedFile(const QString &hostPath, Observer observer);
    ~ObservedFile() override;

    // Read-only, and unbuffered: each read of the caller is one read of the file, reported as it is.
    bool open(OpenMode mode) override;
    void close() override;
    bool isSequential() const override { return false; }
    qint64 size() const override;
    bool seek(qint64 offset) override;

    // Up to `size` bytes at `offset`: fewer at the end of the file.
    QByteArray readAt(qint64 offset, qint64 size);

protected:
    qint64 readData(char *data, qint64 maxSize) override;
    qint64 writeData(const char *data, qint64 size) override;

private:
    QFile m_file;
    Observer m_observer;
};

} // namespace cudnnsetup

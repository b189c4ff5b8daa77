#pragma once

#include <QByteArray>
#include <QString>

#include <memory>
#include <optional>

namespace cudnnsetup {

// SHA-256 by the platform's own implementation, which uses the CPU's SHA instructions where it
// has them: OpenSSL's libcrypto on Linux, CNG (BCrypt) on Windows. Archives are hundreds of
// megabytes; a portable implementation would make hashing the slowest part of an install.
class Sha256
{
public:
    Sha256();
    ~Sha256();
    Sha256(const Sha256 &) = delete;
    Sha256 &operator=(const Sha256 &) = delete;

    void add(const char *data, qint64 size);
    void add(const QByteArray &data) { add(data.constData(), data.size()); }
    // The digest as 64 lowercase hexadecimal characters; the hash cannot be added to afterwards.
    QString hex();

    static QString of(const QByteArray &data);
    // The digest of a file's content; nullopt when it cannot be read.
    static std::optional<QString> ofFile(const QString &hostPath);

private:
    struct State;
    std::unique_ptr<State> m_state;
};

} // namespace cudnnsetup

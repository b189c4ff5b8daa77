#include "platform/Sha256.h"

#include "platform/FileSystem.h"

#ifdef Q_OS_WIN
#include <qt_windows.h>

#include <bcrypt.h>

#include <algorithm>
#else
#include <openssl/evp.h>
#endif

namespace cudnnsetup {

#ifdef Q_OS_WIN
struct Sha256::State
{
    BCRYPT_ALG_HANDLE algorithm = nullptr;
    BCRYPT_HASH_HANDLE hash = nullptr;
};

Sha256::Sha256()
    : m_state(std::make_unique<State>())
{
    // A failure here means the system lacks SHA-256 altogether, which no supported Windows does.
    if (!BCRYPT_SUCCESS(
            BCryptOpenAlgorithmProvider(&m_state->algorithm, BCRYPT_SHA256_ALGORITHM, nullptr, 0)) ||
        !BCRYPT_SUCCESS(BCryptCreateHash(m_state->algorithm, &m_state->hash, nullptr, 0, nullptr, 0, 0)))
        qFatal("CNG has no SHA-256");
}

Sha256::~Sha256()
{
    if (m_state->hash)
        BCryptDestroyHash(m_state->hash);
    if (m_state->algorithm)
        BCryptCloseAlgorithmProvider(m_state->algorithm, 0);
}

void Sha256::add(const char *data, qint64 size)
{
    while (size > 0) {
        const ULONG chunk = ULONG(std::min<qint64>(size, 1 << 30));
        BCryptHashData(m_state->hash, reinterpret_cast<PUCHAR>(const_cast<char *>(data)), chunk, 0);
        data += chunk;
        size -= chunk;
    }
}

QString Sha256::hex()
{
    QByteArray digest(32, Qt::Uninitialized);
    BCryptFinishHash(m_state->hash, reinterpret_cast<PUCHAR>(digest.data()), ULONG(digest.size()), 0);
    return QString::fromLatin1(digest.toHex());
}
#else
struct Sha256::State
{
    EVP_MD_CTX *context = nullptr;
};

Sha256::Sha256()
    : m_state(std::make_unique<State>())
{
    m_state->context = EVP_MD_CTX_new();
    if (!m_state->context || EVP_DigestInit_ex(m_state->context, EVP_sha256(), nullptr) != 1)
        qFatal("libcrypto has no SHA-256");
}

Sha256::~Sha256()
{
    EVP_MD_CTX_free(m_state->context);
}

void Sha256::add(const char *data, qint64 size)
{
    EVP_DigestUpdate(m_state->context, data, size_t(size));
}

QString Sha256::hex()
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    EVP_DigestFinal_ex(m_state->context, digest, &length);
    return QString::fromLatin1(QByteArray(reinterpret_cast<const char *>(digest), int(length)).toHex());
}
#endif

QString Sha256::of(const QByteArray &data)
{
    Sha256 hash;
    hash.add(data);
    return hash.hex();
}

std::optional<QString> Sha256::ofFile(const QString &hostPath)
{
    Sha256 hash;
    if (!readInPieces(hostPath, [&hash](const char *data, qint64 size) { hash.add(data, size); }))
        return std::nullopt;
    return hash.hex();
}

} // namespace cudnnsetup

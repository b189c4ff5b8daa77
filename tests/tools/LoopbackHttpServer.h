#pragma once

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QMutex>
#include <QSslCertificate>
#include <QSslKey>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <memory>

class QObject;
class QThread;

namespace testtools {

// An HTTP/1.1 server on 127.0.0.1 for the download tests, in its own thread, so that a test (or a
// cudnnctl child the test waits for) can block while it serves. It serves files from memory or
// disk with byte ranges, and misbehaves on request: drops a connection partway, answers slowly,
// redirects, answers 404. With a certificate and key it speaks HTTPS only.
class LoopbackHttpServer
{
public:
    struct Resource
    {
        QByteArray content;         // served from memory, or
        QString hostPath;           // from this file
        qint64 dropAfterBytes = -1; // close the connection after this many body bytes...
        int drops = 0;              // ...this many times (each request counts)
        qint64 bytesPerSecond = 0;  // 0: as fast as the socket takes them
        bool ignoreRange = false;   // answer 200 with the whole file even when a range is asked for
        QString redirectTo;         // answer 302 with this Location instead
        int status = 0;             // answer this status (404, 500...) instead
    };

    struct Request
    {
        QString path;
        QByteArray range; // the Range header as sent
    };

    LoopbackHttpServer();
    // HTTPS with this certificate chain and key.
    LoopbackHttpServer(const QList<QSslCertificate> &chain, const QSslKey &key);
    ~LoopbackHttpServer();

    void serve(const QString &path, const Resource &resource);

    // "http://127.0.0.1:<port>/" (or https, for the name the certificate has: "localhost").
    QUrl baseUrl() const;
    QList<Request> requests() const;
    // Bytes of bodies sent so far, over every connection.
    qint64 bodyBytesSent() const;

    struct State; // shared with the server's thread

private:
    std::shared_ptr<State> m_state;
    std::unique_ptr<QThread> m_thread;
    QObject *m_server = nullptr; // lives in m_thread
    quint16 m_port = 0;
    bool m_tls = false;
};

} // namespace testtools

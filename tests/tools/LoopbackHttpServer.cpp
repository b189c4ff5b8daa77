#include "LoopbackHttpServer.h"

#include <QFile>
#include <QPointer>
#include <QRegularExpression>
#include <QSemaphore>
#include <QSslConfiguration>
#include <QSslSocket>
#include <QTcpServer>
#include <QThread>
#include <QTimer>

namespace testtools {

struct LoopbackHttpServer::State
{
    mutable QMutex mutex;
    QHash<QString, Resource> resources;
    QList<Request> requests;
    qint64 bodyBytesSent = 0;
    QList<QSslCertificate> chain;
    QSslKey key;
};

namespace {

// One connection: reads requests one after another and answers each, the body in pieces as the
// socket drains (a 700 MB file is never held in memory), throttled or cut short as the resource says.
class Connection : public QObject
{
public:
    Connection(QTcpSocket *socket, std::shared_ptr<LoopbackHttpServer::State> state, QObject *server)
        : QObject(server)
        , m_socket(socket)
        , m_state(std::move(state))
    {
        socket->setParent(this);
        connect(socket, &QTcpSocket::readyRead, this, [this] { readRequest(); });
        connect(socket, &QTcpSocket::bytesWritten, this, [this] { sendMore(); });
        connect(socket, &QTcpSocket::disconnected, this, &QObject::deleteLater);
        m_pace.setSingleShot(true);
        connect(&m_pace, &QTimer::timeout, this, [this] { sendMore(); });
    }

private:
    void readRequest()
    {
        if (m_sending)
            return;
        m_buffer += m_socket->readAll();
        const int end = m_buffer.indexOf("\r\n\r\n");
        if (end < 0)
            return;
        const QByteArray head = m_buffer.left(end);
        m_buffer.remove(0, end + 4);
        const QList<QByteArray> lines = head.split('\n');
        const QList<QByteArray> requestLine = lines.value(0).trimmed().split(' ');
        const QString path = QUrl::fromPercentEncoding(requestLine.value(1));
        QByteArray range;
        for (const QByteArray &line : lines.mid(1)) {
            const int colon = line.indexOf(':');
            if (colon > 0 && line.left(colon).trimmed().toLower() == "range")
                range = line.mid(colon + 1).trimmed();
        }
        LoopbackHttpServer::Resource resource;
        bool found = false;
        {
            QMutexLocker lock(&m_state->mutex);
            m_state->requests.append({path, range});
            auto it = m_state->resources.find(path);
            if (it != m_state->resources.end()) {
                found = true;
                resource = *it;
                if (it->drops > 0)
                    --it->drops;
            }
        }
        if (!found) {
            respond(404, "Not Found", {}, "not here\n");
            return;
        }
        if (!resource.redirectTo.isEmpty()) {
            respond(302, "Found", "Location: " + resource.redirectTo.toUtf8() + "\r\n", {});
            return;
        }
        if (resource.status != 0) {
            respond(resource.status, "Refused", {}, "refused\n");
            return;
        }
        m_file.reset();
        qint64 size = resource.content.size();
        if (!resource.hostPath.isEmpty()) {
            m_file = std::make_unique<QFile>(resource.hostPath);
            if (!m_file->open(QIODevice::ReadOnly)) {
                respond(404, "Not Found", {}, "unreadable\n");
                return;
            }
            size = m_file->size();
        }
        qint64 from = 0;
        static const QRegularExpression rangePattern(QStringLiteral("^bytes=(\\d+)-$"));
        const auto m = rangePattern.match(QString::fromLatin1(range));
        QByteArray extra;
        int status = 200;
        if (m.hasMatch() && !resource.ignoreRange) {
            from = m.captured(1).toLongLong();
            if (from >= size) {
                respond(416, "Range Not Satisfiable",
                        "Content-Range: bytes */" + QByteArray::number(size) + "\r\n", {});
                return;
            }
            status = 206;
            extra = "Content-Range: bytes " + QByteArray::number(from) + '-' + QByteArray::number(size - 1) +
                    '/' + QByteArray::number(size) + "\r\n";
        }
        m_content = resource.content;
        m_position = from;
        m_end = size;
        // `resource` is the state before this request counted: a drop is left for it.
        m_dropAfter = resource.drops > 0 ? resource.dropAfterBytes : -1;
        m_bytesPerSecond = resource.bytesPerSecond;
        m_sentThisResponse = 0;
        m_sending = true;
        m_socket->write(
            "HTTP/1.1 " + QByteArray::number(status) + (status == 206 ? " Partial Content" : " OK") +
            "\r\nContent-Type: application/octet-stream\r\nAccept-Ranges: bytes\r\nContent-Length: " +
            QByteArray::number(size - from) + "\r\n" + extra + "\r\n");
        sendMore();
    }

    void respond(int status, const QByteArray &reason, const QByteArray &headers, const QByteArray &body)
    {
        m_socket->write("HTTP/1.1 " + QByteArray::number(status) + ' ' + reason + "\r\nContent-Length: " +
                        QByteArray::number(body.size()) + "\r\n" + headers + "\r\n" + body);
        if (!m_buffer.isEmpty())
            QTimer::singleShot(0, this, [this] { readRequest(); });
    }

    void sendMore()
    {
        if (!m_sending || m_pace.isActive())
            return;
        // Keep a few pieces queued, no more: memory stays flat whatever the file's size.
        while (m_sending && m_socket->bytesToWrite() < (4 << 20)) {
            qint64 piece = qMin<qint64>(m_end - m_position, 1 << 20);
            if (m_bytesPerSecond > 0)
                piece = qMin<qint64>(piece, qMax<qint64>(1, m_bytesPerSecond / 10));
            if (m_dropAfter >= 0)
                piece = qMin<qint64>(piece, m_dropAfter - m_sentThisResponse);
            if (piece <= 0 && m_dropAfter >= 0 && m_sentThisResponse >= m_dropAfter) {
                m_sending = false;
                m_socket->flush();
                m_socket->abort();
                return;
            }
            if (piece <= 0) {
                m_sending = false;
                if (!m_buffer.isEmpty() || m_socket->bytesAvailable() > 0)
                    QTimer::singleShot(0, this, [this] { readRequest(); });
                return;
            }
            QByteArray data;
            if (m_file) {
                m_file->seek(m_position);
                data = m_file->read(piece);
            } else {
                data = m_content.mid(m_position, piece);
            }
            m_socket->write(data);
            m_position += data.size();
            m_sentThisResponse += data.size();
            {
                QMutexLocker lock(&m_state->mutex);
                m_state->bodyBytesSent += data.size();
            }
            if (m_bytesPerSecond > 0) {
                m_pace.start(100);
                return;
            }
        }
    }

    QTcpSocket *m_socket;
    std::shared_ptr<LoopbackHttpServer::State> m_state;
    QByteArray m_buffer;
    QByteArray m_content;
    std::unique_ptr<QFile> m_file;
    qint64 m_position = 0;
    qint64 m_end = 0;
    qint64 m_dropAfter = -1;
    qint64 m_bytesPerSecond = 0;
    qint64 m_sentThisResponse = 0;
    bool m_sending = false;
    QTimer m_pace;
};

class Server : public QTcpServer
{
public:
    explicit Server(std::shared_ptr<LoopbackHttpServer::State> state, bool tls)
        : m_state(std::move(state))
        , m_tls(tls)
    {
    }

protected:
    void incomingConnection(qintptr descriptor) override
    {
        if (!m_tls) {
            auto socket = new QTcpSocket;
            socket->setSocketDescriptor(descriptor);
            new Connection(socket, m_state, this);
            return;
        }
        auto socket = new QSslSocket;
        socket->setSocketDescriptor(descriptor);
        QSslConfiguration configuration = QSslConfiguration::defaultConfiguration();
        configuration.setLocalCertificateChain(m_state->chain);
        configuration.setPrivateKey(m_state->key);
        configuration.setPeerVerifyMode(QSslSocket::VerifyNone);
        socket->setSslConfiguration(configuration);
        new Connection(socket, m_state, this);
        socket->startServerEncryption();
    }

private:
    std::shared_ptr<LoopbackHttpServer::State> m_state;
    bool m_tls;
};

} // namespace

LoopbackHttpServer::LoopbackHttpServer()
    : LoopbackHttpServer({}, {})
{
}

LoopbackHttpServer::LoopbackHttpServer(const QList<QSslCertificate> &chain, const QSslKey &key)
    : m_state(std::make_shared<State>())
    , m_thread(std::make_unique<QThread>())
    , m_tls(!chain.isEmpty())
{
    m_state->chain = chain;
    m_state->key = key;
    QSemaphore listening;
    auto server = new Server(m_state, m_tls);
    m_server = server;
    server->moveToThread(m_thread.get());
    QObject::connect(m_thread.get(), &QThread::started, server, [this, server, &listening] {
        server->listen(QHostAddress::LocalHost);
        m_port = server->serverPort();
        listening.release();
    });
    m_thread->start();
    listening.acquire();
}

LoopbackHttpServer::~LoopbackHttpServer()
{
    // Deleted on its own thread while that still runs, with the connections it owns: once the
    // thread has ended, nothing would delete them.
    QMetaObject::invokeMethod(
        m_server, [server = m_server] { delete server; }, Qt::BlockingQueuedConnection);
    m_thread->quit();
    m_thread->wait();
}

void LoopbackHttpServer::serve(const QString &path, const Resource &resource)
{
    QMutexLocker lock(&m_state->mutex);
    m_state->resources.insert(path, resource);
}

QUrl LoopbackHttpServer::baseUrl() const
{
    return QUrl(QStringLiteral("%1://%2:%3/")
                    .arg(m_tls ? QStringLiteral("https") : QStringLiteral("http"),
                         m_tls ? QStringLiteral("localhost") : QStringLiteral("127.0.0.1"))
                    .arg(m_port));
}

QList<LoopbackHttpServer::Request> LoopbackHttpServer::requests() const
{
    QMutexLocker lock(&m_state->mutex);
    return m_state->requests;
}

qint64 LoopbackHttpServer::bodyBytesSent() const
{
    QMutexLocker lock(&m_state->mutex);
    return m_state->bodyBytesSent;
}

} // namespace testtools

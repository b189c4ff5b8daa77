#include "platform/HttpTransfer.h"

#include "common/Logging.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QNetworkAccessManager>
#include <QNetworkProxyFactory>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QRegularExpression>
#include <QSslConfiguration>
#include <QSslError>
#include <QTimer>

#include <mutex>

namespace cudnnsetup {

namespace {

bool inCaScope(const HttpTransfer::Settings &settings, const QUrl &url)
{
    const auto https = [](const QUrl &u) {
        return u.scheme().compare(QLatin1String("https"), Qt::CaseInsensitive) == 0;
    };
    return !settings.extraCaCertificates.isEmpty() && https(url) && https(settings.caScope) &&
           url.host().compare(settings.caScope.host(), Qt::CaseInsensitive) == 0 &&
           url.port(443) == settings.caScope.port(443);
}

TransferFailure failureOf(QNetworkReply::NetworkError error, bool started)
{
    switch (error) {
    case QNetworkReply::NoError:
        return TransferFailure::None;
    case QNetworkReply::ContentNotFoundError:
    case QNetworkReply::ContentGoneError:
        return TransferFailure::NotFound;
    case QNetworkReply::ProxyAuthenticationRequiredError:
        return TransferFailure::ProxyCredentials;
    case QNetworkReply::SslHandshakeFailedError:
        return TransferFailure::Tls;
    case QNetworkReply::HostNotFoundError:
    case QNetworkReply::ConnectionRefusedError:
    case QNetworkReply::TimeoutError:
    case QNetworkReply::NetworkSessionFailedError:
    case QNetworkReply::TemporaryNetworkFailureError:
    case QNetworkReply::BackgroundRequestNotAllowedError:
    case QNetworkReply::UnknownNetworkError:
    case QNetworkReply::ProxyConnectionRefusedError:
    case QNetworkReply::ProxyNotFoundError:
    case QNetworkReply::ProxyTimeoutError:
    case QNetworkReply::ProxyConnectionClosedError:
    case QNetworkReply::RemoteHostClosedError:
        return started ? TransferFailure::Dropped : TransferFailure::Offline;
    default:
        return TransferFailure::HttpStatus;
    }
}

// One request, run to its end on a local event loop. `onChunk` gets the body's bytes once the
// status is known to be a success; returning false stops the transfer (a write failed).
struct Exchange
{
    const HttpTransfer::Settings &settings;
    TransferResult result;
    bool failedByUs = false; // the abort below was ours: result.failure already says why
    QUrl leftCaScope;        // a redirect out of the extra certificates' scope, not followed by Qt

    // run() for `url`, again with a fresh request wherever a redirect leaves the extra certificates'
    // scope (Qt would carry the request's TLS configuration, and so the trust, along); never from https
    // to http.
    void follow(const HttpTransfer &transfer, QNetworkAccessManager &manager, QUrl url,
                const QByteArray &range, const std::function<bool(QNetworkReply *)> &onHeaders,
                const std::function<bool(const QByteArray &, qint64)> &onChunk)
    {
        for (int hop = 0;; ++hop) {
            QNetworkRequest request = transfer.request(url);
            if (!range.isEmpty())
                request.setRawHeader("Range", range);
            result = TransferResult();
            failedByUs = false;
            leftCaScope.clear();
            run(manager, request, onHeaders, onChunk);
            if (!leftCaScope.isValid())
                return;
            if (hop >= 10 || leftCaScope.scheme().compare(QLatin1String("https"), Qt::CaseInsensitive) != 0) {
                result.failure = TransferFailure::HttpStatus;
                result.detail =
                    QStringLiteral("redirect to %1 not followed").arg(leftCaScope.toDisplayString());
                return;
            }
            qCDebug(lcPlatform) << "redirect from" << url.toDisplayString() << "to"
                                << leftCaScope.toDisplayString()
                                << "leaves the extra certificates' scope: asked again without them";
            url = leftCaScope;
        }
    }

    // Redirects within the extra certificates' scope are followed; one out of it ends this request
    // (follow() asks again). TLS errors go into the result's detail.
    void watchRedirectsAndTls(const QNetworkRequest &request, QNetworkReply *reply, QEventLoop &loop)
    {
        if (request.attribute(QNetworkRequest::RedirectPolicyAttribute).toInt() ==
            QNetworkRequest::UserVerifiedRedirectPolicy) {
            QObject::connect(reply, &QNetworkReply::redirected, &loop, [this, reply](const QUrl &target) {
                if (inCaScope(settings, target)) {
                    Q_EMIT reply->redirectAllowed();
                    return;
                }
                leftCaScope = target;
                failedByUs = true;
                reply->abort();
            });
        }
        QObject::connect(reply, &QNetworkReply::sslErrors, &loop, [this](const QList<QSslError> &errors) {
            QStringList words;
            for (const QSslError &error : errors)
                words << error.errorString();
            result.detail = words.join(QStringLiteral("; "));
        });
    }

    // An HTTP error status: the reply ends with it.
    void refuseStatus(QNetworkReply *reply, int code)
    {
        // Not aborted: Qt ends the reply with its own error for the status; the body is not read.
        failedByUs = true;
        result.failure = code == 404 || code == 410 ? TransferFailure::NotFound
                         : code == 407              ? TransferFailure::ProxyCredentials
                                                    : TransferFailure::HttpStatus;
        result.detail = QStringLiteral("HTTP %1 %2")
                            .arg(code)
                            .arg(reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toString());
    }

    // The result of a reply that has ended.
    void finish(QNetworkReply *reply, bool headersSeen, bool started)
    {
        if (!failedByUs && reply->error() == QNetworkReply::NoError && !headersSeen) {
            // Finished on a redirect Qt did not follow, or without any HTTP answer.
            result.failure = TransferFailure::HttpStatus;
            result.httpStatus = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
            result.detail = QStringLiteral("redirect to %1 not followed")
                                .arg(reply->attribute(QNetworkRequest::RedirectionTargetAttribute)
                                         .toUrl()
                                         .toDisplayString());
        }
        if (!failedByUs && reply->error() != QNetworkReply::NoError) {
            result.failure = failureOf(reply->error(), started);
            const QString words = reply->errorString();
            result.detail = result.detail.isEmpty()
                                ? words
                                : words + QStringLiteral(" (") + result.detail + QLatin1Char(')');
            if (result.httpStatus == 0)
                result.httpStatus = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        }
        if (result.finalUrl.isEmpty())
            result.finalUrl = reply->url();
    }

    void run(QNetworkAccessManager &manager, const QNetworkRequest &request,
             const std::function<bool(QNetworkReply *)> &onHeaders,
             const std::function<bool(const QByteArray &, qint64)> &onChunk)
    {
        QEventLoop loop;
        ReusableBuffers buffers(1 << 20);
        QNetworkReply *reply = manager.get(request);
        // Qt's network thread would otherwise read ahead without limit: hundreds of megabytes held,
        // and the page faults for them, on a fast connection.
        reply->setReadBufferSize(8 << 20);
        bool headersSeen = false;
        bool started = false;
        QTimer quiet;
        quiet.setSingleShot(true);
        quiet.setInterval(settings.connectTimeoutMs);
        QTimer cancelPoll;
        cancelPoll.setInterval(100);
        const auto stop = [&](TransferFailure failure, const QString &detail) {
            if (failedByUs)
                return;
            failedByUs = true;
            result.failure = failure;
            if (!detail.isEmpty())
                result.detail = detail;
            reply->abort();
        };
        QObject::connect(&quiet, &QTimer::timeout, &loop, [&] {
            stop(started ? TransferFailure::Dropped : TransferFailure::Offline,
                 QStringLiteral("no data for %1 s").arg(quiet.interval() / 1000));
        });
        QObject::connect(&cancelPoll, &QTimer::timeout, &loop, [&] {
            if (settings.cancelled && settings.cancelled())
                stop(TransferFailure::Cancelled, QStringLiteral("cancelled"));
        });
        watchRedirectsAndTls(request, reply, loop);
        const auto takeHeaders = [&] {
            if (headersSeen || failedByUs)
                return;
            const QVariant status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
            if (!status.isValid())
                return;
            const int code = status.toInt();
            if (code >= 300 && code < 400)
                return; // followed by Qt, or refused (from https to http): finished() says which
            headersSeen = true;
            result.httpStatus = code;
            result.finalUrl = reply->url();
            if (code >= 400) {
                refuseStatus(reply, code);
                return;
            }
            if (onHeaders && !onHeaders(reply))
                stop(result.failure == TransferFailure::None ? TransferFailure::HttpStatus : result.failure,
                     {});
        };
        const auto drain = [&] {
            takeHeaders();
            if (!headersSeen || failedByUs) {
                reply->skip(reply->bytesAvailable()); // an error page, a redirect's body
                return;
            }
            // Reused buffers: a fresh array per read (QIODevice::read(qint64)) would cost an
            // allocation and its page faults for every piece the socket delivers.
            while (reply->bytesAvailable() > 0) {
                QByteArray &buffer = buffers.free();
                const qint64 read = reply->read(buffer.data(), buffer.size());
                if (read <= 0)
                    break;
                started = true;
                quiet.setInterval(settings.stallTimeoutMs);
                quiet.start();
                if (!onChunk(buffer, read)) {
                    stop(result.failure, {});
                    return;
                }
            }
        };
        QObject::connect(reply, &QNetworkReply::metaDataChanged, &loop, takeHeaders);
        QObject::connect(reply, &QNetworkReply::readyRead, &loop, drain);
        QObject::connect(reply, &QNetworkReply::finished, &loop, [&] {
            drain();
            loop.quit();
        });
        quiet.start();
        cancelPoll.start();
        if (!reply->isFinished())
            loop.exec();
        else
            drain();
        quiet.stop();
        cancelPoll.stop();
        finish(reply, headersSeen, started);
        reply->deleteLater();
        // The reply's deferred deletion and the connection's clean-up run here, not on the next call.
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    }
};

// "bytes 100-199/1000" -> (100, 1000); total -1 when "*".
std::optional<std::pair<qint64, qint64>> contentRange(const QByteArray &header)
{
    static const QRegularExpression pattern(QStringLiteral("^bytes\\s+(\\d+)-\\d+/(\\d+|\\*)$"));
    const auto m = pattern.match(QString::fromLatin1(header).trimmed());
    if (!m.hasMatch())
        return std::nullopt;
    return std::make_pair(m.captured(1).toLongLong(),
                          m.captured(2) == QLatin1String("*") ? qint64(-1) : m.captured(2).toLongLong());
}

} // namespace

HttpTransfer::HttpTransfer(Settings settings)
    : m_settings(std::move(settings))
{
    if (!m_settings.extraCaCertificates.isEmpty()) {
        // The system's roots listed too: a configuration with a list of its own no longer loads them
        // on demand. Read once a process: that takes a quarter of a second.
        static const QList<QSslCertificate> systemRoots = QSslConfiguration::systemCaCertificates();
        m_caScopeTls = QSslConfiguration::defaultConfiguration();
        m_caScopeTls.setCaCertificates(systemRoots + m_settings.extraCaCertificates);
    }
}

QNetworkRequest HttpTransfer::request(const QUrl &url) const
{
    static std::once_flag systemProxies;
    std::call_once(systemProxies, [] { QNetworkProxyFactory::setUseSystemConfiguration(true); });
    QNetworkRequest request(url);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::NoLessSafeRedirectPolicy);
    request.setMaximumRedirectsAllowed(10);
    request.setAttribute(QNetworkRequest::Http2AllowedAttribute, http2Allowed(QT_VERSION));
    request.setHeader(QNetworkRequest::UserAgentHeader,
                      QStringLiteral("cuDNN-Setup/%1").arg(QStringLiteral(CUDNNSETUP_VERSION)));
    // The archives are compressed already; asking for identity keeps sizes and ranges in file bytes.
    request.setRawHeader("Accept-Encoding", "identity");
    if (inCaScope(m_settings, url)) {
        request.setSslConfiguration(m_caScopeTls);
        // Each redirect is looked at (Exchange::follow): Qt would take this trust along to any host.
        request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                             QNetworkRequest::UserVerifiedRedirectPolicy);
    }
    return request;
}

TransferResult HttpTransfer::get(const QUrl &url, QByteArray *body, qint64 maxBytes) const
{
    QNetworkAccessManager manager;
    Exchange exchange{m_settings, {}, false, {}};
    body->clear();
    exchange.follow(*this, manager, url, {}, {}, [&](const QByteArray &buffer, qint64 size) {
        if (body->size() + size > maxBytes) {
            exchange.result.failure = TransferFailure::TooLarge;
            exchange.result.detail = QStringLiteral("more than %1 bytes").arg(maxBytes);
            return false;
        }
        body->append(buffer.constData(), size);
        return true;
    });
    qCDebug(lcPlatform) << "GET" << url.toDisplayString() << "->" << exchange.result.httpStatus
                        << body->size() << "bytes" << exchange.result.detail;
    return exchange.result;
}

TransferResult HttpTransfer::fetchInto(const QUrl &url, QFile &file, qint64 offset,
                                       const Callbacks &callbacks) const
{
    QNetworkAccessManager manager;
    Exchange exchange{m_settings, {}, false, {}};
    qint64 inFile = offset;
    const auto onHeaders = [&](QNetworkReply *reply) {
        TransferResult &result = exchange.result;
        const QByteArray range = reply->rawHeader("Content-Range");
        const qint64 length = reply->header(QNetworkRequest::ContentLengthHeader).isValid()
                                  ? reply->header(QNetworkRequest::ContentLengthHeader).toLongLong()
                                  : -1;
        if (result.httpStatus == 206) {
            const auto span = contentRange(range);
            if (!span || span->first != offset) {
                result.failure = TransferFailure::HttpStatus;
                result.detail = QStringLiteral("asked for bytes from %1, got \"%2\"")
                                    .arg(offset)
                                    .arg(QString::fromLatin1(range));
                return false;
            }
            result.rangeHonoured = true;
            if (span->second >= 0)
                result.totalSize = span->second;
            else if (length >= 0)
                result.totalSize = offset + length;
            return true;
        }
        // The whole file: what the part held is replaced.
        if (offset > 0) {
            if (!file.resize(0) || !file.seek(0)) {
                result.failure = TransferFailure::WriteFailed;
                result.detail = file.errorString();
                return false;
            }
            inFile = 0;
            if (callbacks.onRestart)
                callbacks.onRestart();
        }
        if (length >= 0)
            result.totalSize = length;
        return true;
    };
    const auto onChunk = [&](const QByteArray &buffer, qint64 size) {
        const qint64 written = file.write(buffer.constData(), size);
        if (written != size) {
            exchange.result.failure = TransferFailure::WriteFailed;
            exchange.result.detail = file.errorString();
            return false;
        }
        exchange.result.bytesWritten += written;
        inFile += written;
        if (callbacks.onData)
            callbacks.onData(buffer, size);
        if (callbacks.onProgress)
            callbacks.onProgress(inFile, exchange.result.totalSize.value_or(-1));
        return true;
    };
    exchange.follow(*this, manager, url,
                    offset > 0 ? "bytes=" + QByteArray::number(offset) + '-' : QByteArray(), onHeaders,
                    onChunk);
    if (!file.flush() && exchange.result.ok()) {
        exchange.result.failure = TransferFailure::WriteFailed;
        exchange.result.detail = file.errorString();
    }
    TransferResult &result = exchange.result;
    if (result.ok() && result.totalSize && inFile < *result.totalSize) {
        result.failure = TransferFailure::Dropped;
        result.detail =
            QStringLiteral("the connection ended after %1 of %2 bytes").arg(inFile).arg(*result.totalSize);
    }
    qCDebug(lcPlatform) << "GET" << url.toDisplayString() << "from" << offset << "->" << result.httpStatus
                        << result.bytesWritten << "bytes" << int(result.failure) << result.detail;
    return result;
}

QByteArray &ReusableBuffers::free()
{
    for (QByteArray &buffer : m_buffers) {
        if (buffer.isDetached())
            return buffer;
    }
    return m_buffers.emplace_back(m_size, Qt::Uninitialized);
}

QList<QSslCertificate> HttpTransfer::certificatesFromFile(const QString &path)
{
    // The one file, taken literally: fromPath() reads a folder, or an empty path as the current
    // one, with every folder below it.
    if (path.isEmpty() || !QFileInfo(path).isFile())
        return {};
    using Syntax = QSslCertificate::PatternSyntax;
    QList<QSslCertificate> certificates = QSslCertificate::fromPath(path, QSsl::Pem, Syntax::FixedString);
    if (certificates.isEmpty())
        certificates = QSslCertificate::fromPath(path, QSsl::Der, Syntax::FixedString);
    return certificates;
}

} // namespace cudnnsetup

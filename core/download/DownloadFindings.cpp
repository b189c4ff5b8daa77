#include "download/DownloadFindings.h"

#include <QDir>
#include <QUrl>

#include "common/Sizes.h"
#include "common/Surface.h"

namespace cudnnsetup {

Text otherSourceAdvice()
{
    return surface() == Surface::Wizard
               ? Text(QT_TRANSLATE_NOOP(
                     "cudnnsetup", "Choose another source under Download settings (a lab mirror or a shared "
                                   "folder), or get the archive another way and open it with Browse."))
               : Text(QT_TRANSLATE_NOOP(
                     "cudnnsetup",
                     "Give another source with --source (a lab mirror or a shared folder), or get "
                     "the archive another way and check it with cudnnctl inspect."));
}

Finding transferFinding(const TransferResult &result, const QString &where, const QString &partPath,
                        qint64 partBytes, qint64 totalBytes)
{
    const QString details = result.detail;
    // A connection fails with a server, not with one file on it.
    const QUrl url(where);
    const QString server = url.host().isEmpty() ? where : url.host();
    switch (result.failure) {
    case TransferFailure::Offline:
        return Finding::error(
            QStringLiteral("download.offline"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 cannot be reached from this computer.")).arg(server),
            details,
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Check the internet connection and the proxy settings. %1"))
                .arg(otherSourceAdvice()));
    case TransferFailure::NotFound:
        return Finding::error(
            QStringLiteral("download.not-found"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 is not there (the server answered %2)."))
                .arg(where, QString::number(result.httpStatus)),
            details,
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "The source may not have this release: choose another "
                                                 "version or another source.")));
    case TransferFailure::ProxyCredentials:
        return Finding::error(
            QStringLiteral("download.proxy-credentials"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "The proxy server between this computer and %1 asks for a "
                                                 "user name and password."))
                .arg(server),
            details,
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Put them in the proxy address (HTTPS_PROXY=http://user:"
                                                 "password@proxy:port), or ask IT for a mirror inside the "
                                                 "network. %1"))
                .arg(otherSourceAdvice()));
    case TransferFailure::Tls:
        return Finding::error(
            QStringLiteral("download.tls"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "The connection to %1 could not be secured.")).arg(server),
            details,
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "Check the computer's date and time. A network that inspects "
                                   "HTTPS, or a mirror with its own certificate authority, needs "
                                   "that authority's certificate trusted by this computer.")));
    case TransferFailure::Dropped:
        return Finding::error(
            QStringLiteral("download.dropped"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "The connection to %1 kept breaking. %2 of %3 are kept in %4; "
                                   "the next try continues from there."))
                .arg(server, shownSize(partBytes),
                     totalBytes >= 0 ? shownSize(totalBytes) : QStringLiteral("?"),
                     QDir::toNativeSeparators(partPath)),
            details, Text(QT_TRANSLATE_NOOP("cudnnsetup", "Try again later.")));
    case TransferFailure::WriteFailed:
        return Finding::error(
            QStringLiteral("download.write-failed"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 could not be written."))
                .arg(QDir::toNativeSeparators(partPath)),
            details,
            Text(
                QT_TRANSLATE_NOOP("cudnnsetup",
                                  "Free space on that drive (the archive needs %1), or download into another "
                                  "folder."))
                .arg(totalBytes >= 0 ? shownSize(totalBytes) : QStringLiteral("?")));
    case TransferFailure::Cancelled:
        return Finding::error(
            QStringLiteral("download.cancelled"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "The download was cancelled. %1 are kept in %2; the next "
                                                 "download continues from there."))
                .arg(shownSize(partBytes), QDir::toNativeSeparators(partPath)));
    case TransferFailure::TooLarge:
    case TransferFailure::HttpStatus:
    case TransferFailure::None:
        break;
    }
    return Finding::error(
        QStringLiteral("download.http-error"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 could not be downloaded (the server answered %2)."))
            .arg(where, result.httpStatus ? QString::number(result.httpStatus) : details),
        details, otherSourceAdvice());
}

} // namespace cudnnsetup

#include "install/ElevatedExchange.h"

#include "common/Logging.h"
#include "install/StateFolders.h"
#include "platform/DurableFiles.h"
#include "platform/FileSecurity.h"
#include "platform/SecurityDescriptor.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QRegularExpression>

namespace cudnnsetup::exchange {

namespace {

constexpr int kNonceBytes = 16;

QString exchangeFolder(const SystemContext &context)
{
    const StateFolders folders = StateFolders::of(context);
    return folders.exchange(folders.machine);
}

// Removes the folders of helpers that answered more than a day ago. Only this program makes
// anything in the exchange folder, which only administrators may change.
void removeOldAnswers(const QString &folder)
{
    const QDateTime dayAgo = QDateTime::currentDateTimeUtc().addDays(-1);
    const QFileInfoList entries =
        QDir(folder).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System);
    for (const QFileInfo &entry : entries) {
        if (isNonce(entry.fileName()) && entry.lastModified().toUTC() < dayAgo) {
            qCInfo(lcInstall).noquote() << "removing an old answer of an elevated run:" << entry.filePath();
            durable::discardTree(entry.filePath());
        }
    }
}

} // namespace

QString newNonce()
{
    quint32 words[kNonceBytes / sizeof(quint32)];
    QRandomGenerator::system()->fillRange(words);
    return QString::fromLatin1(QByteArray(reinterpret_cast<const char *>(words), kNonceBytes).toHex());
}

bool isNonce(const QString &text)
{
    static const QRegularExpression pattern(QStringLiteral("\\A[0-9a-f]{%1}\\z").arg(kNonceBytes * 2));
    return pattern.match(text).hasMatch();
}

bool isAccountSid(const QString &text)
{
    static const QRegularExpression pattern(QStringLiteral("\\AS-1(-[0-9]{1,15}){1,16}\\z"));
    return pattern.match(text).hasMatch();
}

QString resultFile(const SystemContext &context, const QString &nonce)
{
    return exchangeFolder(context) + QLatin1Char('/') + nonce + QStringLiteral("/result.json");
}

SystemResult writeResult(const QByteArray &result, const QString &nonce, const QString &requesterSid,
                         const SystemContext &context, const Elevation &elevation)
{
    const auto failure = [](const QString &message) { return SystemFailure{message, 0, {}}; };
    if (!isNonce(nonce))
        return failure(QStringLiteral("\"%1\" is no exchange nonce").arg(nonce));
    if (!requesterSid.isEmpty() && !isAccountSid(requesterSid))
        return failure(QStringLiteral("\"%1\" is no account SID").arg(requesterSid));
    const StateFolders folders = StateFolders::of(context);
    if (const Expected<void> prepared = folders.prepare(folders.machine, context, elevation); !prepared)
        return failure(prepared.error().message.toString() + QLatin1Char(' ') + prepared.error().details);
    // Elevated where the system keeps ACLs, prepare() made it the administrators' alone from its
    // first moment, having set aside one that others made or may change; on Linux the state folder
    // is root's alone. Where it is not there yet (a tree without ACLs) it is made so here.
    const QString exchange = exchangeFolder(context);
    const QFileInfo exchangeInfo(exchange);
    if (exchangeInfo.isSymLink() || exchangeInfo.isJunction())
        return failure(QStringLiteral("%1 is a link to %2").arg(exchange, exchangeInfo.symLinkTarget()));
    const FileSecurity &security = context.fileSecurity();
    if (!exchangeInfo.isDir()) {
        if (const SystemResult made = security.makeFolder(exchange, security::adminsOnlySddl()); !made)
            return failure(QStringLiteral("%1 cannot be made: %2").arg(exchange, made.error().message));
    }
    removeOldAnswers(exchange);
    // Made here, inside a folder no one else may add to; one already there is no folder of this run.
    // Its descriptor from its first moment (makeFolder): no window in which it inherits another.
    const QString folder = exchange + QLatin1Char('/') + nonce;
    const QString sddl =
        requesterSid.isEmpty() ? security::adminsOnlySddl() : security::exchangeResultSddl(requesterSid);
    if (const SystemResult made = security.makeFolder(folder, sddl); !made)
        return failure(
            QStringLiteral("%1 cannot be made, or is there already: %2").arg(folder, made.error().message));
    const QString file = resultFile(context, nonce);
    qCInfo(lcInstall).noquote() << "the outcome goes to" << file << "for" << requesterSid;
    return durable::write(result, file + QStringLiteral(".partial"), file);
}

} // namespace cudnnsetup::exchange

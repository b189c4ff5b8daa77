#include "platform/SecurityDescriptor.h"

#include <functional>

#include <QSet>

#include "platform/AccessRights.h"
#include "platform/WellKnownSids.h"

namespace cudnnsetup {

namespace {

const QString kTrustedInstaller =
    QStringLiteral("S-1-5-80-956008885-3418522649-1831038044-1853292631-2271478464");
const QString kSystem = QStringLiteral("S-1-5-18");
const QString kAdministrators = QStringLiteral("S-1-5-32-544");
const QString kEveryone = QStringLiteral("S-1-1-0");
const QString kAuthenticatedUsers = QStringLiteral("S-1-5-11");
const QString kCreatorOwner = QStringLiteral("S-1-3-0");
const QString kCreatorGroup = QStringLiteral("S-1-3-1");
const QString kOwnerRights = QStringLiteral("S-1-3-4");

// The groups every standard, interactively signed-in user is a member of: Everyone, Authenticated
// Users, Users, INTERACTIVE, LOCAL, CONSOLE LOGON, This Organization.
const QSet<QString> &standardUserGroups()
{
    static const QSet<QString> groups{kEveryone,
                                      kAuthenticatedUsers,
                                      QStringLiteral("S-1-5-32-545"),
                                      QStringLiteral("S-1-5-4"),
                                      QStringLiteral("S-1-2-0"),
                                      QStringLiteral("S-1-2-1"),
                                      QStringLiteral("S-1-5-15")};
    return groups;
}

bool isTrusted(const QString &sid)
{
    return sid == kSystem || sid == kAdministrators || sid == kTrustedInstaller;
}

quint32 mappedForFiles(quint32 mask)
{
    quint32 mapped = mask & ~(kGenericAll | kGenericRead | kGenericWrite | kGenericExecute);
    if (mask & kGenericAll)
        mapped |= kFileAllAccess;
    if (mask & kGenericRead)
        mapped |= kFileGenericRead;
    if (mask & kGenericWrite)
        mapped |= kFileGenericWrite;
    if (mask & kGenericExecute)
        mapped |= kFileGenericExecute;
    return mapped;
}

quint32 changeRights(ObjectRole role)
{
    switch (role) {
    case ObjectRole::File:
        return kWriteData | kAppendData | kDelete | kWriteDac | kWriteOwner;
    case ObjectRole::Folder:
    case ObjectRole::LibraryFolder:
        return kWriteData | kAppendData | kDeleteChild | kDelete | kWriteDac | kWriteOwner;
    case ObjectRole::Ancestor:
        return kDeleteChild | kDelete | kWriteDac | kWriteOwner;
    }
    return 0;
}

void appendOnce(QStringList &list, const QString &value)
{
    if (!list.contains(value))
        list.append(value);
}

// The accounts that `aces` (all applying to one object, in DACL order) let get one of `wanted`
// rights, as Windows' access check would decide it for a standard user and for every other account
// or group they name, in DACL order.
QStringList grantees(const QList<SecurityDescriptor::Ace> &aces, quint32 wanted,
                     const std::function<bool(const QString &)> &trusted)
{
    // The accounts to check: a standard user, and every other account or group the ACEs name, both
    // as a member of the standard groups and of only Everyone and Authenticated Users (a service
    // account is no member of Users, so a deny for Users does not stop it).
    QList<QSet<QString>> principals{standardUserGroups()};
    for (const SecurityDescriptor::Ace &ace : aces) {
        if (trusted(ace.sid) || standardUserGroups().contains(ace.sid))
            continue;
        principals.append(standardUserGroups() + QSet<QString>{ace.sid});
        principals.append({ace.sid, kEveryone, kAuthenticatedUsers});
    }
    QList<bool> grantsChange(aces.size(), false);
    for (const QSet<QString> &groups : principals) {
        quint32 granted = 0;
        quint32 denied = 0;
        for (qsizetype i = 0; i < aces.size(); ++i) {
            const SecurityDescriptor::Ace &ace = aces.at(i);
            if (!groups.contains(ace.sid))
                continue;
            const quint32 rights = mappedForFiles(ace.mask) & wanted;
            if (ace.type == SecurityDescriptor::Ace::Type::Deny) {
                denied |= rights & ~granted;
                continue;
            }
            const quint32 added = rights & ~granted & ~denied;
            granted |= added;
            grantsChange[i] = grantsChange[i] || added != 0;
        }
    }
    QStringList writers;
    for (qsizetype i = 0; i < aces.size(); ++i) {
        if (grantsChange.at(i))
            appendOnce(writers, aces.at(i).sid);
    }
    return writers;
}

} // namespace

WriteAudit WriteAudit::ofUnreadable(const QString &problem)
{
    WriteAudit audit;
    audit.unreadable.append(problem);
    return audit;
}

QList<Text> WriteAudit::whoMayChange() const
{
    QStringList names;
    if (!ownerTrusted && !owner.isEmpty())
        names.append(security::sidName(owner));
    for (const QString &writer : writers)
        names.append(security::sidName(writer));
    names.removeDuplicates();
    QList<Text> texts;
    for (const QString &name : std::as_const(names))
        texts.append(Text::verbatim(name));
    if (!unreadable.isEmpty())
        texts.append(
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "possibly anyone: its permissions cannot be read")));
    return texts;
}

QString WriteAudit::summary() const
{
    const auto named = [](const QString &sid) {
        const QString alias = security::sidAlias(sid);
        const QString name = security::sidName(sid);
        return name == sid ? alias : QStringLiteral("%1 (%2)").arg(alias, name);
    };
    QStringList parts;
    if (!owner.isEmpty())
        parts.append(QStringLiteral("owner %1").arg(named(owner)));
    else if (unreadable.isEmpty())
        parts.append(QStringLiteral("no owner"));
    if (!writers.isEmpty()) {
        QStringList names;
        for (const QString &writer : writers)
            names.append(named(writer));
        parts.append(QStringLiteral("may change it: ") + names.join(QStringLiteral(", ")));
    }
    if (!unreadable.isEmpty())
        parts.append(QStringLiteral("who may change it cannot be read: ") +
                     unreadable.join(QStringLiteral(", ")));
    if (writers.isEmpty() && unreadable.isEmpty())
        parts.append(QStringLiteral("only administrators may change it"));
    return parts.join(QStringLiteral("; "));
}

namespace security {

QString adminsOnlySddl()
{
    return QStringLiteral("O:BAG:SYD:PAI(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)(A;OICI;FX;;;BU)");
}

QString administratorsAloneSddl()
{
    return QStringLiteral("O:BAG:SYD:PAI(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)");
}

QString exchangeSddl(const QString &accountSid)
{
    return QStringLiteral("O:%1D:PAI(A;OICI;FA;;;%1)(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)").arg(accountSid);
}

QString exchangeResultSddl(const QString &accountSid)
{
    return QStringLiteral("O:BAG:SYD:PAI(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)(A;OICI;FRFX;;;%1)").arg(accountSid);
}

WriteAudit auditWriters(const SecurityDescriptor &descriptor, ObjectRole role, const QStringList &alsoTrusted)
{
    const auto trusted = [&](const QString &sid) { return isTrusted(sid) || alsoTrusted.contains(sid); };
    WriteAudit audit;
    audit.owner = descriptor.owner;
    audit.ownerTrusted = trusted(descriptor.owner);
    if (!audit.ownerTrusted && !descriptor.owner.isEmpty())
        audit.writers.append(descriptor.owner);
    if (!descriptor.hasDacl || descriptor.daclIsNull) {
        appendOnce(audit.writers, kEveryone);
        return audit;
    }
    for (const QString &ace : descriptor.unreadableAces)
        audit.unreadable.append(QStringLiteral("the entry %1").arg(ace));
    // An ACE for CREATOR OWNER or CREATOR GROUP matches nobody on the object itself, and on what
    // inherits it, whoever made that (who, if not an administrator, had to be let in by another
    // ACE); OWNER RIGHTS matches the owner, who is already judged above.
    const auto namesSomeone = [](const SecurityDescriptor::Ace &ace) {
        return ace.sid != kCreatorOwner && ace.sid != kCreatorGroup && ace.sid != kOwnerRights;
    };
    QList<SecurityDescriptor::Ace> onItself;
    QList<SecurityDescriptor::Ace> onItsFiles;
    for (const SecurityDescriptor::Ace &ace : descriptor.dacl) {
        if (!namesSomeone(ace))
            continue;
        if (!ace.inheritOnly)
            onItself.append(ace);
        if (ace.objectInherit)
            onItsFiles.append(ace);
    }
    for (const QString &writer : grantees(onItself, changeRights(role), trusted))
        appendOnce(audit.writers, writer);
    if (role == ObjectRole::LibraryFolder) {
        for (const QString &writer : grantees(onItsFiles, changeRights(ObjectRole::File), trusted))
            appendOnce(audit.writers, writer);
    }
    return audit;
}

QString sidAlias(const QString &sid)
{
    const WellKnownSid *known = wellKnownSid(sid);
    return known ? QString::fromLatin1(known->alias) : sid;
}

QString sidName(const QString &sid)
{
    if (sid == kTrustedInstaller)
        return QStringLiteral("TrustedInstaller");
    const WellKnownSid *known = wellKnownSid(sid);
    return known ? QString::fromLatin1(known->name) : sid;
}

} // namespace security

} // namespace cudnnsetup

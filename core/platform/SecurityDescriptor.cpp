#include "platform/SecurityDescriptor.h"

#include <array>
#include <functional>

#include <QRegularExpression>
#include <QSet>

namespace cudnnsetup {

namespace {

struct WellKnownSid
{
    const char *alias;
    const char *sid;
    const char *name;
};

// SDDL's aliases for SIDs that are the same on every Windows machine (Microsoft's "SID Strings").
constexpr std::array<WellKnownSid, 49> kWellKnownSids{{
    {"AA", "S-1-5-32-579", "Access Control Assistance Operators"},
    {"AC", "S-1-15-2-1", "ALL APPLICATION PACKAGES"},
    {"AN", "S-1-5-7", "Anonymous Logon"},
    {"AO", "S-1-5-32-548", "Account Operators"},
    {"AS", "S-1-18-1", "Authentication authority asserted identity"},
    {"AU", "S-1-5-11", "Authenticated Users"},
    {"BA", "S-1-5-32-544", "Administrators"},
    {"BG", "S-1-5-32-546", "Guests"},
    {"BO", "S-1-5-32-551", "Backup Operators"},
    {"BU", "S-1-5-32-545", "Users"},
    {"CD", "S-1-5-32-574", "Certificate Service DCOM Access"},
    {"CG", "S-1-3-1", "CREATOR GROUP"},
    {"CO", "S-1-3-0", "CREATOR OWNER"},
    {"CY", "S-1-5-32-569", "Cryptographic Operators"},
    {"ED", "S-1-5-9", "Enterprise Domain Controllers"},
    {"ER", "S-1-5-32-573", "Event Log Readers"},
    {"ES", "S-1-5-32-576", "RDS Endpoint Servers"},
    {"HA", "S-1-5-32-578", "Hyper-V Administrators"},
    {"HI", "S-1-16-12288", "High Mandatory Level"},
    {"IS", "S-1-5-32-568", "IIS_IUSRS"},
    {"IU", "S-1-5-4", "INTERACTIVE"},
    {"LS", "S-1-5-19", "LOCAL SERVICE"},
    {"LU", "S-1-5-32-559", "Performance Log Users"},
    {"LW", "S-1-16-4096", "Low Mandatory Level"},
    {"ME", "S-1-16-8192", "Medium Mandatory Level"},
    {"MP", "S-1-16-8448", "Medium Plus Mandatory Level"},
    {"MS", "S-1-5-32-577", "RDS Management Servers"},
    {"MU", "S-1-5-32-558", "Performance Monitor Users"},
    {"NO", "S-1-5-32-556", "Network Configuration Operators"},
    {"NS", "S-1-5-20", "NETWORK SERVICE"},
    {"NU", "S-1-5-2", "NETWORK"},
    {"OW", "S-1-3-4", "OWNER RIGHTS"},
    {"PO", "S-1-5-32-550", "Print Operators"},
    {"PS", "S-1-5-10", "PRINCIPAL SELF"},
    {"PU", "S-1-5-32-547", "Power Users"},
    {"RA", "S-1-5-32-575", "RDS Remote Access Servers"},
    {"RC", "S-1-5-12", "RESTRICTED"},
    {"RD", "S-1-5-32-555", "Remote Desktop Users"},
    {"RE", "S-1-5-32-552", "Replicator"},
    {"RM", "S-1-5-32-580", "Remote Management Users"},
    {"RU", "S-1-5-32-554", "Pre-Windows 2000 Compatible Access"},
    {"SI", "S-1-16-16384", "System Mandatory Level"},
    {"SO", "S-1-5-32-549", "Server Operators"},
    {"SS", "S-1-18-2", "Service asserted identity"},
    {"SU", "S-1-5-6", "SERVICE"},
    {"SY", "S-1-5-18", "SYSTEM"},
    {"UD", "S-1-5-84-0-0-0-0-0", "User Mode Drivers"},
    {"WD", "S-1-1-0", "Everyone"},
    {"WR", "S-1-5-33", "WRITE RESTRICTED"},
}};

const WellKnownSid *wellKnown(const QString &sid)
{
    for (const WellKnownSid &known : kWellKnownSids) {
        if (sid == QLatin1String(known.sid))
            return &known;
    }
    return nullptr;
}

// An account as SDDL writes it: a SID string, or an alias, as the SID where the alias stands for the
// same one on every machine. Any other alias (one Windows resolves against the machine or the domain,
// "DU" for Domain Users, or one newer than this list) and any other name is kept as written: an
// account that is no administrator. nullopt for what cannot be an account.
std::optional<QString> accountOf(const QString &text)
{
    static const QRegularExpression accountPattern(QStringLiteral("\\A[A-Za-z0-9-]+\\z"));
    for (const WellKnownSid &known : kWellKnownSids) {
        if (text == QLatin1String(known.alias))
            return QString::fromLatin1(known.sid);
    }
    if (!accountPattern.match(text).hasMatch())
        return std::nullopt;
    return text;
}

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

// File access rights (winnt.h).
constexpr quint32 kWriteData = 0x2;  // FILE_WRITE_DATA, FILE_ADD_FILE
constexpr quint32 kAppendData = 0x4; // FILE_APPEND_DATA, FILE_ADD_SUBDIRECTORY
constexpr quint32 kDeleteChild = 0x40;
constexpr quint32 kDelete = 0x10000;
constexpr quint32 kWriteDac = 0x40000;
constexpr quint32 kWriteOwner = 0x80000;
constexpr quint32 kGenericAll = 0x10000000;
constexpr quint32 kGenericExecute = 0x20000000;
constexpr quint32 kGenericWrite = 0x40000000;
constexpr quint32 kGenericRead = 0x80000000;
constexpr quint32 kFileAllAccess = 0x1f01ff;
constexpr quint32 kFileGenericRead = 0x120089;
constexpr quint32 kFileGenericWrite = 0x120116;
constexpr quint32 kFileGenericExecute = 0x1200a9;

struct RightCode
{
    const char *code;
    quint32 mask;
};

constexpr std::array<RightCode, 28> kRightCodes{{
    {"GA", kGenericAll},
    {"GR", kGenericRead},
    {"GW", kGenericWrite},
    {"GX", kGenericExecute},
    {"RC", 0x20000},
    {"SD", kDelete},
    {"WD", kWriteDac},
    {"WO", kWriteOwner},
    {"RP", 0x10},
    {"WP", 0x20},
    {"CC", 0x1},
    {"DC", 0x2},
    {"LC", 0x4},
    {"SW", 0x8},
    {"LO", 0x80},
    {"DT", 0x40},
    {"CR", 0x100},
    {"FA", kFileAllAccess},
    {"FR", kFileGenericRead},
    {"FW", kFileGenericWrite},
    {"FX", kFileGenericExecute},
    {"KA", 0xf003f},
    {"KR", 0x20019},
    {"KW", 0x20006},
    {"KX", 0x20019},
    {"NR", 0x1},
    {"NW", 0x2},
    {"NX", 0x4},
}};

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

// Reads SDDL from left to right; a method that finds no match leaves the position where it was.
class SddlReader
{
public:
    explicit SddlReader(const QString &text)
        : m_text(text)
    {
    }

    bool atEnd() const { return m_position >= m_text.size(); }
    int position() const { return m_position; }
    bool take(QLatin1String token)
    {
        if (!QStringView(m_text).mid(m_position).startsWith(token))
            return false;
        m_position += int(token.size());
        return true;
    }

    // The owner or group after "O:" or "G:": a SID string, or a two-letter alias (accountOf).
    std::optional<QString> account()
    {
        static const QRegularExpression sidPattern(QStringLiteral("S-1(-[0-9]+)+"));
        const QRegularExpressionMatch match =
            sidPattern.match(m_text, m_position, QRegularExpression::NormalMatch,
                             QRegularExpression::AnchorAtOffsetMatchOption);
        const int length = match.hasMatch() ? int(match.capturedLength()) : 2;
        const std::optional<QString> account = accountOf(m_text.mid(m_position, length));
        if (account)
            m_position += length;
        return account;
    }

    // The text up to the next unnested `;` or `)`, skipping quoted strings and the parentheses of a
    // conditional expression.
    QString field()
    {
        const int start = m_position;
        int depth = 0;
        bool quoted = false;
        for (; m_position < m_text.size(); ++m_position) {
            const QChar c = m_text.at(m_position);
            if (quoted) {
                quoted = c != QLatin1Char('"');
            } else if (c == QLatin1Char('"')) {
                quoted = true;
            } else if (c == QLatin1Char('(')) {
                ++depth;
            } else if (c == QLatin1Char(')')) {
                if (depth == 0)
                    break;
                --depth;
            } else if (c == QLatin1Char(';') && depth == 0) {
                break;
            }
        }
        return m_text.mid(start, m_position - start);
    }

private:
    const QString &m_text;
    int m_position = 0;
};

std::optional<quint32> parseRights(const QString &text)
{
    if (text.startsWith(QLatin1String("0x"), Qt::CaseInsensitive)) {
        bool ok = false;
        const quint32 mask = text.mid(2).toUInt(&ok, 16);
        return ok ? std::optional<quint32>(mask) : std::nullopt;
    }
    if (text.isEmpty() || text.size() % 2 != 0)
        return std::nullopt;
    quint32 mask = 0;
    for (int i = 0; i < text.size(); i += 2) {
        const QStringView code = QStringView(text).mid(i, 2);
        bool known = false;
        for (const RightCode &right : kRightCodes) {
            if (code == QLatin1String(right.code)) {
                mask |= right.mask;
                known = true;
                break;
            }
        }
        if (!known)
            return std::nullopt;
    }
    return mask;
}

struct AceFlags
{
    bool inheritOnly = false;
    bool objectInherit = false;
};

// Whether the flags make the ACE inherit-only, and inherited by files; nullopt for a flag SDDL does
// not have.
std::optional<AceFlags> parseFlags(const QString &text)
{
    static const QSet<QString> known{QStringLiteral("CI"), QStringLiteral("OI"), QStringLiteral("NP"),
                                     QStringLiteral("IO"), QStringLiteral("ID"), QStringLiteral("SA"),
                                     QStringLiteral("FA"), QStringLiteral("TP"), QStringLiteral("CR")};
    if (text.size() % 2 != 0)
        return std::nullopt;
    AceFlags flags;
    for (int i = 0; i < text.size(); i += 2) {
        const QString flag = text.mid(i, 2);
        if (!known.contains(flag))
            return std::nullopt;
        flags.inheritOnly = flags.inheritOnly || flag == QLatin1String("IO");
        flags.objectInherit = flags.objectInherit || flag == QLatin1String("OI");
    }
    return flags;
}

// How an ACE of this type counts when the question is "may someone write": object and callback
// allows may grant, so they count as allows; object and callback denies may not apply, so they
// are not relied on. Audit, alarm, label and policy ACEs belong to the SACL.
enum class AceUse
{
    Allow,
    Deny,
    Ignore,
};

std::optional<AceUse> aceUse(const QString &type)
{
    if (type == QLatin1String("A") || type == QLatin1String("OA") || type == QLatin1String("XA") ||
        type == QLatin1String("ZA"))
        return AceUse::Allow;
    if (type == QLatin1String("D"))
        return AceUse::Deny;
    static const QSet<QString> others{QStringLiteral("OD"), QStringLiteral("XD"), QStringLiteral("AU"),
                                      QStringLiteral("AL"), QStringLiteral("OU"), QStringLiteral("OL"),
                                      QStringLiteral("ML"), QStringLiteral("XU"), QStringLiteral("RA"),
                                      QStringLiteral("SP"), QStringLiteral("TL"), QStringLiteral("FL")};
    if (others.contains(type))
        return AceUse::Ignore;
    return std::nullopt;
}

Finding malformed(const QString &sddl, int position, const QString &why)
{
    return Finding::error(
        QStringLiteral("security.bad-descriptor"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "Windows described who may change a file in a form this "
                                             "program does not understand, so it does not trust the file.")),
        QStringLiteral("%1 at position %2 of %3").arg(why).arg(position).arg(sddl));
}

// The ACL after "D:" or "S:": its flags, then its ACEs; those it cannot read, as written.
struct ParsedAcl
{
    bool isNull = false;
    QList<SecurityDescriptor::Ace> aces;
    QStringList unreadable;
};

// What one ACE's fields, "(" and ")" left out, say: an entry that counts for who may write, one
// that does not (auditing, labels), or one this parser cannot read.
struct ReadAce
{
    enum class Kind
    {
        Counts,
        Ignored,
        Unreadable,
    };
    Kind kind = Kind::Unreadable;
    SecurityDescriptor::Ace ace;
};

ReadAce readAce(const QStringList &fields)
{
    if (fields.size() < 6 || fields.size() > 7)
        return {};
    const std::optional<AceUse> use = aceUse(fields.at(0));
    const std::optional<AceFlags> flags = parseFlags(fields.at(1));
    const std::optional<quint32> mask = parseRights(fields.at(2));
    const std::optional<QString> sid = accountOf(fields.at(5));
    if (!use || !flags || !mask || !sid)
        return {};
    if (*use == AceUse::Ignore)
        return {ReadAce::Kind::Ignored, {}};
    SecurityDescriptor::Ace ace;
    ace.type =
        *use == AceUse::Allow ? SecurityDescriptor::Ace::Type::Allow : SecurityDescriptor::Ace::Type::Deny;
    ace.inheritOnly = flags->inheritOnly;
    ace.objectInherit = flags->objectInherit;
    ace.mask = *mask;
    ace.sid = *sid;
    return {ReadAce::Kind::Counts, ace};
}

Expected<ParsedAcl> readAcl(SddlReader &reader, const QString &sddl)
{
    ParsedAcl acl;
    for (;;) {
        if (reader.take(QLatin1String("NO_ACCESS_CONTROL")))
            acl.isNull = true;
        else if (!reader.take(QLatin1String("P")) && !reader.take(QLatin1String("AI")) &&
                 !reader.take(QLatin1String("AR")))
            break;
    }
    while (reader.take(QLatin1String("("))) {
        const int aceStart = reader.position();
        QStringList fields;
        for (;;) {
            fields.append(reader.field());
            if (reader.take(QLatin1String(")")))
                break;
            if (!reader.take(QLatin1String(";")))
                return malformed(sddl, aceStart, QStringLiteral("unterminated ACE"));
        }
        // An entry of a type, with flags, rights or an account this parser does not know is kept
        // as unreadable, never dropped: it may be what lets others in.
        const ReadAce ace = readAce(fields);
        if (ace.kind == ReadAce::Kind::Counts)
            acl.aces.append(ace.ace);
        else if (ace.kind == ReadAce::Kind::Unreadable)
            acl.unreadable.append(QStringLiteral("(%1)").arg(fields.join(QLatin1Char(';'))));
    }
    return acl;
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

Expected<SecurityDescriptor> SecurityDescriptor::fromSddl(const QString &sddl)
{
    SecurityDescriptor descriptor;
    SddlReader reader(sddl);
    while (!reader.atEnd()) {
        const int start = reader.position();
        if (reader.take(QLatin1String("O:")) || reader.take(QLatin1String("G:"))) {
            const bool isOwner = sddl.at(start) == QLatin1Char('O');
            const std::optional<QString> sid = reader.account();
            if (!sid)
                return malformed(sddl, reader.position(), QStringLiteral("unknown account"));
            if (isOwner)
                descriptor.owner = *sid;
        } else if (reader.take(QLatin1String("D:"))) {
            Expected<ParsedAcl> acl = readAcl(reader, sddl);
            if (!acl)
                return acl.error();
            descriptor.hasDacl = true;
            descriptor.daclIsNull = acl->isNull;
            descriptor.dacl = acl->aces;
            descriptor.unreadableAces = acl->unreadable;
        } else if (reader.take(QLatin1String("S:"))) {
            Expected<ParsedAcl> acl = readAcl(reader, sddl);
            if (!acl)
                return acl.error();
        } else {
            return malformed(sddl, start, QStringLiteral("unexpected text"));
        }
    }
    return descriptor;
}

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
    const WellKnownSid *known = wellKnown(sid);
    return known ? QString::fromLatin1(known->alias) : sid;
}

QString sidName(const QString &sid)
{
    if (sid == kTrustedInstaller)
        return QStringLiteral("TrustedInstaller");
    const WellKnownSid *known = wellKnown(sid);
    return known ? QString::fromLatin1(known->name) : sid;
}

} // namespace security

} // namespace cudnnsetup

// SecurityDescriptor::fromSddl: SDDL's grammar, read without trusting the text.
#include "platform/SecurityDescriptor.h"

#include <array>

#include <QRegularExpression>

#include "platform/AccessRights.h"
#include "platform/WellKnownSids.h"

namespace cudnnsetup {

namespace {

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

} // namespace cudnnsetup

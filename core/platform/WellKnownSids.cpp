#include "platform/WellKnownSids.h"

#include <array>

#include <QRegularExpression>

namespace cudnnsetup {

namespace {

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

} // namespace

const WellKnownSid *wellKnownSid(const QString &sid)
{
    for (const WellKnownSid &known : kWellKnownSids) {
        if (sid == QLatin1String(known.sid))
            return &known;
    }
    return nullptr;
}

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

} // namespace cudnnsetup

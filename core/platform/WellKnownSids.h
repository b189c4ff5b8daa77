#pragma once

#include <optional>

#include <QString>

namespace cudnnsetup {

struct WellKnownSid
{
    const char *alias;
    const char *sid;
    const char *name;
};

// The SID's entry in SDDL's table of aliases for SIDs that are the same on every Windows machine
// (Microsoft's "SID Strings"), or null.
const WellKnownSid *wellKnownSid(const QString &sid);

// An account as SDDL writes it: a SID string, or an alias, as the SID where the alias stands for the
// same one on every machine. Any other alias (one Windows resolves against the machine or the domain,
// "DU" for Domain Users, or one newer than this list) and any other name is kept as written: an
// account that is no administrator. nullopt for what cannot be an account.
std::optional<QString> accountOf(const QString &text);

} // namespace cudnnsetup

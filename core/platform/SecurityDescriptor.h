#pragma once

#include "common/Expected.h"
#include "common/Text.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace cudnnsetup {

// A Windows security descriptor as data, read from its SDDL text (what
// ConvertSecurityDescriptorToStringSecurityDescriptorW writes), so that the question an elevated
// run has to answer before it trusts a file — could someone other than an administrator have
// written it? — is decided by code that every platform runs and tests, fed with real descriptors.
// Only the owner and the DACL matter here; the group and the SACL are read and ignored. Accounts
// are kept as written where SDDL's alias has no machine-independent SID ("DU", Domain Users) or
// the alias is not known here: such an account is no administrator, so what it is allowed counts.
class SecurityDescriptor
{
public:
    struct Ace
    {
        enum class Type
        {
            Allow,
            Deny,
        };
        Type type = Type::Allow;
        bool inheritOnly = false;   // IO: for the children only, not this object
        bool objectInherit = false; // OI: the files made in this folder inherit it
        quint32 mask = 0;           // access rights, generic ones as written
        QString sid;                // "S-1-5-32-545", or an alias Windows resolves per machine ("DU")
    };

    // Parses "O:BAG:SYD:PAI(A;OICI;FA;;;SY)(A;OICI;0x1200a9;;;BU)"; the error names the position.
    static Expected<SecurityDescriptor> fromSddl(const QString &sddl);

    // Inherited ACEs (ID) count as much as explicit ones: what a folder above grants is granted.
    QString owner; // a SID; empty when the descriptor names none
    bool hasDacl = false;
    bool daclIsNull = false; // "D:NO_ACCESS_CONTROL": everyone may do everything
    QList<Ace> dacl;
    // The DACL's entries this parser cannot read, as written ("(Q;;FA;;;SY)"): any of them may let
    // anyone change the object.
    QStringList unreadableAces;
};

// What the object is to the file being trusted, which decides the rights that count as a change:
// the file itself (write, append, delete, rights, owner), a folder between it and the trusted root
// (also adding and deleting children), or a folder above that root (whoever may delete, rename or
// re-permission it, or delete its children, could swap the whole tree). A library folder is a
// folder whose files programs load (one on PATH, the helper's own): as a folder, and also what the
// files put in it inherit (OI), since whoever may rewrite a DLL there runs code in every program
// that loads it.
enum class ObjectRole
{
    File,
    Folder,
    LibraryFolder,
    Ancestor,
};

// Who, besides SYSTEM, the Administrators and TrustedInstaller, may change an object.
struct WriteAudit
{
    QString owner;
    bool ownerTrusted = false;
    QStringList writers; // SIDs, aliases where SDDL has one ("BU", "AU", "WD"), in DACL order
    // What could not be read ("access denied", "the entry (Q;;FA;;;SY)"): someone nobody can name
    // may change it.
    QStringList unreadable;

    // Who may change an object whose descriptor could not be read or understood: perhaps anyone.
    static WriteAudit ofUnreadable(const QString &problem);

    bool trusted() const { return ownerTrusted && writers.isEmpty() && unreadable.isEmpty(); }
    // The names of all who may change it, an untrusted owner first ("Authenticated Users"), and
    // "possibly anyone" where something could not be read.
    QList<Text> whoMayChange() const;
    // "owner S-1-5-21-…-1001; may change it: BU (Users), AU (Authenticated Users)", for logs and
    // details.
    QString summary() const;
};

namespace security {

// The descriptor cuDNN Setup gives the folders only administrators may change: its state folder,
// and a folder it creates for the system PATH. Owner Administrators; protected; SYSTEM and
// Administrators full control, Users read and execute; inherited by everything below.
QString adminsOnlySddl();
// SYSTEM and the Administrators alone, full control; no one else may even read (copies of files
// taken from users, which may hold what only an administrator could read).
QString administratorsAloneSddl();
// The descriptor of the folder through which a process hands a request and a cancel to the elevated
// run it starts, which only reads them: owned by that process's account (`accountSid`), which,
// SYSTEM and the Administrators have full control; no one else. The elevated run may be another
// account (an administrator who typed their password for a standard user), which an owner-only
// temporary folder would lock out.
QString exchangeSddl(const QString &accountSid);
// The descriptor of the folder in which the elevated helper leaves its result for the process that
// asked for it (exchange::writeResult): owned by the Administrators; SYSTEM and the Administrators
// have full control, that process's account (`accountSid`) may read and nothing more.
QString exchangeResultSddl(const QString &accountSid);

// Checks `descriptor` as Windows' access check would for a standard user (Everyone, Authenticated
// Users, Users, Interactive) and for every other account or group its DACL names: explicit and
// inherited ACEs in order, a deny before the allow it overrides, inherit-only ACEs skipped (but for
// a library folder, what its files inherit is audited as a file), generic rights mapped as for
// files. A NULL DACL lets everyone write; an owner that is not trusted may always rewrite the DACL,
// so it is a writer too; an entry that could not be read makes it untrusted. `alsoTrusted` names
// accounts (SIDs) trusted besides SYSTEM, the Administrators and TrustedInstaller.
WriteAudit auditWriters(const SecurityDescriptor &descriptor, ObjectRole role,
                        const QStringList &alsoTrusted = {});

// SDDL's alias for a SID it has one for ("S-1-5-32-545" → "BU"), else the SID.
QString sidAlias(const QString &sid);
// A person's name for a SID ("Users", "Authenticated Users"), else the SID itself.
QString sidName(const QString &sid);

} // namespace security

} // namespace cudnnsetup

#pragma once

#include "platform/Elevation.h"
#include "platform/SystemContext.h"
#include "platform/SystemFailure.h"

#include <QByteArray>
#include <QString>

namespace cudnnsetup {

// How the elevated helper answers the process that asked for it without writing through a path
// that process controls (it may be a standard user's, approved over the shoulder, who could turn
// a folder of theirs into a link to any file). The helper makes
// <machine state folder>/exchange/<nonce> itself, inside the folder only administrators may
// change, lets the asking account read it and nothing more, and writes result.json there. The
// asking process names the nonce and its account on the helper's command line (--exchange,
// --requester) and reads the result from that folder.
namespace exchange {

// A new nonce: 32 lowercase hexadecimal digits from the system's secure random generator.
QString newNonce();
// `text` has exactly newNonce()'s form: no separator, dot, drive or any other character can make
// it name a folder outside the exchange folder.
bool isNonce(const QString &text);
// `text` is a SID string as Windows writes it: "S-1-", then numbers, each after a single dash.
bool isAccountSid(const QString &text);

// The file the helper given `nonce` leaves its result in (host path, in `context`'s tree).
QString resultFile(const SystemContext &context, const QString &nonce);

// The helper's side: makes the machine state folder ready (StateFolders::prepare, as `elevation`'s
// process, which makes its exchange folder the administrators' alone), then the folder of `nonce`, which must
// not exist yet, with security::exchangeResultSddl(`requesterSid`) (no requester: the administrators' alone),
// and writes `result` into it. What earlier helpers left there more than a day ago goes first: its requesters
// have read it long since, and they cannot remove it themselves.
SystemResult writeResult(const QByteArray &result, const QString &nonce, const QString &requesterSid,
                         const SystemContext &context, const Elevation &elevation);

} // namespace exchange

} // namespace cudnnsetup

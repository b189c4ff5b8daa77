#pragma once

namespace cudnnsetup {

class Elevation;

// Windows' Redirection Guard (the process mitigation ProcessRedirectionTrustPolicy): a process with
// it follows no junction or other redirection that a non-administrator made. An elevated run turns
// it on for itself before it touches a path, as a second wall behind its own checks of every
// folder it works in (a junction a student swaps in after a check is then not followed at all).
enum class RedirectionGuard
{
    On,         // Windows confirms the policy is enforced for this process
    NotOffered, // this Windows has no such policy (before Windows 11), or does not confirm it
    NotNeeded,  // not elevated, or not Windows: junctions the user made are the user's own
};

// Turns the guard on when `elevation` says this process has administrator rights, and logs what
// came of it.
RedirectionGuard guardElevatedProcessAgainstUserRedirections(const Elevation &elevation);

} // namespace cudnnsetup

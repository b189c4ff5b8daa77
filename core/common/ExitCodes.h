#pragma once

namespace cudnnsetup::exitcode {

// Query commands (detect, check, inspect, verify, doctor).
constexpr int Success = 0;
constexpr int ProblemsFound = 1; // the JSON says which
constexpr int UsageError = 2;    // bad arguments or unreadable input

// `status --against BASELINE`: the Nagios convention (OK, WARNING, CRITICAL, UNKNOWN) that
// monitoring and compliance tools read.
constexpr int Compliant = 0;
constexpr int Drifted = 1; // differs, and the repair file brings it back
constexpr int Broken = 2;  // differs in a way the repair file cannot fix
constexpr int Unknown = 3; // cannot be told: a value unreadable here, a baseline or command line unusable

} // namespace cudnnsetup::exitcode

#pragma once

namespace cudnnsetup::exitcode {

// Query commands (detect, check, inspect, verify, doctor).
constexpr int Success = 0;
constexpr int ProblemsFound = 1; // the JSON says which
constexpr int UsageError = 2;    // bad arguments or unreadable input

} // namespace cudnnsetup::exitcode

#pragma once

#include <QString>

namespace cudnnsetup {

struct VerifyReport;
struct ConsumerVerifyReport;
struct DoctorReport;

// A verification stage's name in the user's language ("load" -> "Load"); the id itself for one
// this version does not know. The terminal, the copied report and the Verify page say the same.
QString verifyStageName(const QString &id);

// The verification for a terminal and for "copy report": one line per stage with a mark and a
// word (never a colour alone), its message and fix, then the findings.
QString verifyText(const VerifyReport &report);

// `verify --for`: per program the modules loaded, the cuDNN bound and detection's prediction, then
// the findings and the result.
QString consumerVerifyText(const ConsumerVerifyReport &report);

// The doctor's diagnoses for a terminal, each with its fix and the repair it offers.
QString doctorText(const DoctorReport &report);

} // namespace cudnnsetup

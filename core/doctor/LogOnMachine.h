#pragma once

#include "doctor/Doctor.h"
#include "verify/ErrorLog.h"

#include <QList>

namespace cudnnsetup {

class DoctorFacts;

// One signature of a pasted error tied to the machine the doctor inspects. From the folders the
// text names it finds the Python environment and the consumer that failed (filling the signature's
// `environment`, `consumer` and `loads`), says which copy of the library that program loads here and
// why, or that none is reachable, and offers the repair that fixes exactly that: a rule's own
// (`rules`, the doctor's other diagnoses) where one fits, else one made the same way, else the
// prescribed action in words. A text whose folders are not on this machine is explained in general,
// saying it came from elsewhere.
Diagnosis diagnoseLoggedError(LogSignature &signature, const ErrorLog &log, const DoctorFacts &facts,
                              const QList<Diagnosis> &rules);

} // namespace cudnnsetup

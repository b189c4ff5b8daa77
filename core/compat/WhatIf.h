#pragma once

#include "common/Expected.h"
#include "compat/Matcher.h"

#include <QString>

namespace cudnnsetup {

class KnowledgeBase;

// Values typed on the command line (`cudnnctl check --driver 522.06 --cuda 12.2 --cudnn 8.9.7.29`)
// that replace what detection found. Empty means "as detected".
struct WhatIf
{
    QString os;     // windows | linux
    QString arch;   // x86_64 | arm64
    QString driver; // 535.98
    QString cuda;   // 12.2, v12.2, 12.2.1
    QString sm;     // 8.6
    QString gpu;    // "GeForce RTX 3060 Laptop GPU"
    QString cudnn;  // 8.9.7, 8.9.7.29 or an archive file name

    bool isEmpty() const;
};

// A version as people type it: "12", "12.2.1", "v12.2", "535.98"; invalid otherwise.
Version parseTypedVersion(const QString &text);

// `facts` with the what-if values applied; bad input is an error finding saying which value.
Expected<MatchFacts> applyWhatIf(MatchFacts facts, const WhatIf &whatIf, const KnowledgeBase &kb);

} // namespace cudnnsetup

#pragma once

#include "common/Finding.h"
#include "compat/KnowledgeBase.h"

#include <QString>

namespace cudnnsetup {

// Which compatibility database is in use, and why.
struct DatabaseChoice
{
    KnowledgeBase database;
    QString origin; // "embedded" or the file's path
    Findings findings;

    // `--compat-db FILE` always wins (an older one is used as asked, and said so); otherwise a
    // cudnn-compat.json beside the program replaces the embedded database when it is newer. A
    // file that cannot be used leaves the embedded one in place: an error finding when it was
    // asked for, a warning when it was only found.
    static DatabaseChoice builtIn();
    static DatabaseChoice choose(const QString &explicitFile, const QString &programFolder);
};

} // namespace cudnnsetup

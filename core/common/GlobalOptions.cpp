#include "common/GlobalOptions.h"

#include <QCoreApplication>

namespace cudnnsetup {

GlobalOptions::GlobalOptions()
    : systemRoot(QStringLiteral("system-root"),
                 QCoreApplication::translate(
                     "cudnnsetup",
                     "Inspect the system whose files are under DIR (a mounted image, a test sandbox)."),
                 QStringLiteral("DIR"))
    , compatDb(QStringLiteral("compat-db"),
               QCoreApplication::translate(
                   "cudnnsetup", "Use the compatibility database in FILE instead of the built-in one."),
               QStringLiteral("FILE"))
    , lang(QStringLiteral("lang"), QCoreApplication::translate("cudnnsetup", "Language: en or zh_CN."),
           QStringLiteral("LANG"))
    , log(QStringLiteral("log"), QCoreApplication::translate("cudnnsetup", "Also write the log to FILE."),
          QStringLiteral("FILE"))
{
}

} // namespace cudnnsetup

#include "common/InstallOptions.h"

namespace cudnnsetup {

InstallOptions::InstallOptions(const Descriptions &descriptions)
    : archive(QStringLiteral("archive"), descriptions.archive, descriptions.archiveValueName)
    , target(QStringLiteral("target"), descriptions.target, QStringLiteral("TARGET"))
    , path(QStringLiteral("path"), descriptions.path, QStringLiteral("SCOPE"))
    , cudnnVariables(QStringLiteral("cudnn-variables"), descriptions.cudnnVariables, QStringLiteral("SCOPE"))
    , ifInUse(QStringLiteral("if-in-use"), descriptions.ifInUse, QStringLiteral("WHAT"))
{
}

} // namespace cudnnsetup

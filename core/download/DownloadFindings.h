#pragma once

#include <QString>

#include "common/Finding.h"
#include "common/Text.h"
#include "platform/HttpTransfer.h"

namespace cudnnsetup {

// Where else to get the archive when this source cannot give it, worded for the wizard or cudnnctl.
Text otherSourceAdvice();

// What a transfer that stopped short means to the user, with what to do about it.
Finding transferFinding(const TransferResult &result, const QString &where, const QString &partPath,
                        qint64 partBytes, qint64 totalBytes);

} // namespace cudnnsetup

#pragma once

#include "common/Text.h"
#include "install/Receipt.h"

#include <QList>
#include <QString>

#include <utility>

namespace cudnnsetup {

// What uninstalling receipt `id` changes, read from its receipt and from those of its per-user
// parts among `receipts` (as installedReceipts() lists them): one line each, shown before the user
// confirms. Nothing is hashed here: the uninstall itself refuses when a file changed since.
QList<Text> uninstallPreview(const QString &id, const QList<std::pair<Receipt, QString>> &receipts);

} // namespace cudnnsetup

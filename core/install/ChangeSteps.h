#pragma once

#include "common/Finding.h"
#include "install/ChangeOutcome.h"
#include "install/InstallTarget.h"
#include "install/Receipt.h"
#include "install/Transaction.h"
#include "platform/PersistentEnvironment.h"
#include "platform/SystemContext.h"

#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>

#include <optional>

// What an install, its per-user part and an uninstall share: host paths, stored values, the
// outcome of a transaction. Internal to core/install.
namespace cudnnsetup::installer {

inline constexpr char kTool[] = "cudnn-setup " CUDNNSETUP_VERSION;

QString hostOf(const SystemContext &context, const QString &path);

// The host path of a symbolic link itself: its folder's, and its own name (hostOf follows links
// inside a --system-root tree, and would name what the link reads).
QString linkHostOf(const SystemContext &context, const QString &path);

// Where a file of `receipt` is on the host: a link it made as itself.
QString placedHostOf(const SystemContext &context, const Receipt &receipt, const QString &path);

std::optional<StoredEnvironmentValue> readValue(PersistentEnvironment &environment, EnvironmentScope scope,
                                                const QString &name);

// CUDNN_PATH, CUDNN_INCLUDE_DIR and CUDNN_LIBRARY for `target` in `scope` (for building OpenCV,
// ONNX Runtime or TensorFlow from source), as steps and as the receipt's record of them.
void addCudnnVariables(Transaction &transaction, QList<Receipt::EnvironmentChange> &changes,
                       EnvironmentScope scope, const InstallTarget &target, const SystemContext &context,
                       PersistentEnvironment &environment);

ChangeOutcome failed(const Findings &findings);

ChangeOutcome finished(Transaction::Result result, ChangeOutcome outcome);

QStringList describe(const Transaction &transaction);

// Folders deepest first, so each is empty when its turn comes.
QStringList deepestFirst(QSet<QString> folders);

// Whether a change to the loader's configuration rebuilds its cache: on the running Linux system;
// another system's files (--system-root) are that system's to rebuild.
bool rebuildsLibraryCache(const SystemContext &context);

} // namespace cudnnsetup::installer

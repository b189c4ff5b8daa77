#pragma once

#include "archive/ArchiveInspector.h"
#include "common/Expected.h"
#include "install/InstallTarget.h"
#include "install/PathEditor.h"
#include "platform/PersistentEnvironment.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace cudnnsetup {

// Which archive an install unpacks, by its bytes: what a plan promises and a receipt remembers.
struct ArchiveIdentity
{
    QString path;     // as the installing process reached it (native separators)
    QString fileName; // the file's own name
    QString sha256;   // of the whole file; empty when it was not taken (a repair's archive)
    qint64 size = 0;
    QString official; // ArchiveReport::officialName(): "match", "mismatch", "unknown"
    Version cudnn;
    QString cudaVariant;

    static ArchiveIdentity of(const QString &path, const ArchiveReport &report);
    QJsonObject toJson() const;
    static ArchiveIdentity fromJson(const QJsonObject &object);
};

// One install, whole: where, with which PATH and variables, from which archive, with which
// options. The Target page, `cudnnctl install`, answer files and the doctor's repairs all come
// to one; it is the only thing an elevated helper is handed (sealed: the helper's command line
// carries its SHA-256, so a plan changed after the administrator approved is refused), and the
// receipt keeps its target and archive.
struct InstallPlan
{
    static constexpr char kSchema[] = "cudnn-setup/plan/1";

    InstallTarget target;
    ArchiveIdentity archive;
    std::optional<EnvironmentScope> cudnnVariables; // CUDNN_PATH and its kin, none by default
    bool replaceInUse = false;                      // --if-in-use restart
    // The PATH clean-ups the user ticked among those PathEditor::analyse offered for the PATH the
    // target goes into (none without a PATH change); whoever installs the plan checks them against
    // that PATH as it reads it.
    QList<PathFix> pathFixes;

    // The plan as a file: compact JSON, the bytes the seal is taken of.
    QByteArray sealedBytes() const;
    QJsonObject toJson() const;
    // Refused ("plan.invalid") unless every part has its shape: the schema, a valid target
    // (InstallTarget::fromJson), an archive named by a 64-digit SHA-256, known scopes, PATH fixes
    // of PathFix's shape and only with a PATH change.
    static Expected<InstallPlan> fromJson(const QJsonObject &object);
    // "plan.invalid": a plan that is not one cuDNN Setup makes, `why` in the details.
    static Finding invalid(const QString &why);
    // A plan file handed over: refused ("plan.changed") unless its SHA-256 is `seal`, then read.
    static Expected<InstallPlan> unsealed(const QByteArray &bytes, const QString &seal);
};

} // namespace cudnnsetup

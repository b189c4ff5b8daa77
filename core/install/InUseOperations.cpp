// The operation that replaces a file a running program holds open.
#include "install/OperationFamilies.h"

#include "platform/DurableFiles.h"
#include "platform/FilesInUse.h"

#include <QDir>
#include <QFileInfo>

namespace cudnnsetup {

namespace operations {

namespace {

// The new file of one in use goes beside it, and Windows swaps them at its next start
// (MoveFileEx with MOVEFILE_DELAY_UNTIL_REBOOT). Undo removes the waiting file, so the swap at
// the next start finds nothing to do.
// A file in use (a DLL a running python.exe loaded) cannot be overwritten or removed, but it can
// be renamed within its folder: the running programs keep their copy under the new name, and
// programs started from now on load the new file at once.
class ReplaceInUse final : public Operation
{
public:
    ReplaceInUse(QString staged, QString destination, QString keepReplacedAs)
        : m_staged(std::move(staged))
        , m_destination(std::move(destination))
        , m_keepReplacedAs(std::move(keepReplacedAs))
    {
    }
    QString name() const override { return QStringLiteral("replace-in-use"); }
    QJsonObject arguments() const override
    {
        return {{QStringLiteral("staged"), m_staged},
                {QStringLiteral("destination"), m_destination},
                {QStringLiteral("keepReplacedAs"), m_keepReplacedAs}};
    }
    Text description() const override
    {
        return Text(QT_TRANSLATE_NOOP("cudnnsetup", "Replacing %1, which is in use"))
            .arg(QDir::toNativeSeparators(m_destination));
    }
    Expected<void> perform(OperationContext &context) override
    {
        // Beside it, so the rename stays on its volume; a name no earlier replacement left behind
        // (the file an earlier one set aside goes only at the next start of Windows).
        QString aside = m_destination + kAsideSuffix;
        for (int n = 2; QFileInfo::exists(aside) || QFileInfo(aside).isSymLink(); ++n)
            aside = m_destination + kAsideSuffix + QString::number(n);
        context.remember({{QStringLiteral("aside"), aside}});
        if (const SystemResult setAside = durable::rename(m_destination, aside); !setAside)
            return fileFailure(context, m_destination, setAside.error());
        if (const SystemResult placed = durable::rename(m_staged, m_destination); !placed) {
            if (const SystemResult back = durable::rename(aside, m_destination); !back)
                return fileFailure(context, m_destination, back.error());
            return fileFailure(context, m_destination, placed.error());
        }
        return {};
    }
    Expected<void> undo(OperationContext &context, const QJsonObject &remembered) override
    {
        const QString aside = remembered.value(QStringLiteral("aside")).toString();
        if (aside.isEmpty() || !QFileInfo::exists(aside))
            return {}; // nothing was set aside: the destination is still the old file
        if (QFileInfo::exists(m_destination) && !QFileInfo::exists(m_staged)) {
            if (const SystemResult restaged = durable::rename(m_destination, m_staged); !restaged)
                return fileFailure(context, m_destination, restaged.error());
        }
        if (const SystemResult restored = durable::rename(aside, m_destination); !restored)
            return fileFailure(context, m_destination, restored.error());
        return {};
    }
    // After the commit the old file goes where the receipt keeps it, by a rename where the state
    // folder is on the same volume (a loaded file may be renamed); else it is copied there, and the
    // file set aside, which stays loaded until its programs end, is removed at the next start.
    Expected<void> finish(OperationContext &context, const QJsonObject &remembered) override
    {
        const QString aside = remembered.value(QStringLiteral("aside")).toString();
        if (aside.isEmpty() || !QFileInfo::exists(aside))
            return {};
        if (!m_keepReplacedAs.isEmpty() && !QFileInfo::exists(m_keepReplacedAs)) {
            if (const SystemResult kept = renameOrCopy(aside, m_keepReplacedAs); !kept)
                return fileFailure(context, m_keepReplacedAs, kept.error());
            if (!QFileInfo::exists(aside))
                return {}; // renamed
        }
        if (durable::remove(aside))
            return {};
        const SystemResult scheduled =
            context.filesInUse
                ? context.filesInUse->removeAtReboot(aside)
                : SystemResult(SystemFailure{QStringLiteral("no way to ask the system"), 0, {aside}});
        if (!scheduled) {
            return Finding::error(
                QStringLiteral("install.restart-removal-failed"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "The replaced %1 cannot be removed, not even at the next "
                                       "start; it stays as %2."))
                    .arg(QDir::toNativeSeparators(m_destination), QDir::toNativeSeparators(aside)),
                scheduled.error().message);
        }
        return {};
    }
    QStringList changedPaths(const QJsonObject &remembered) const override
    {
        QStringList paths{m_staged, m_destination, remembered.value(QStringLiteral("aside")).toString()};
        if (!m_keepReplacedAs.isEmpty())
            paths << m_keepReplacedAs << m_keepReplacedAs + kPartialSuffix;
        return paths;
    }
    static std::unique_ptr<Operation> fromJson(const QJsonObject &arguments)
    {
        return std::make_unique<ReplaceInUse>(arguments.value(QStringLiteral("staged")).toString(),
                                              arguments.value(QStringLiteral("destination")).toString(),
                                              arguments.value(QStringLiteral("keepReplacedAs")).toString());
    }

private:
    static inline const QString kAsideSuffix = QStringLiteral(".cudnn-setup-replaced");

    QString m_staged;
    QString m_destination;
    QString m_keepReplacedAs;
};
} // namespace

void addInUseOperations(QHash<QString, Operation::Factory> &table)
{
    table.insert(QStringLiteral("replace-in-use"), &ReplaceInUse::fromJson);
}

std::unique_ptr<Operation> replaceInUse(const QString &staged, const QString &destination,
                                        const QString &keepReplacedAs)
{
    return std::make_unique<ReplaceInUse>(staged, destination, keepReplacedAs);
}
} // namespace operations

} // namespace cudnnsetup

// The operation that registers a library folder with the Linux loader: a file in /etc/ld.so.conf.d
// changed, and the loader's cache rebuilt after it.
#include "install/OperationFamilies.h"

#include "platform/ProcessRunner.h"

namespace cudnnsetup {

namespace operations {

namespace {

class RefreshingLibraryCache final : public Operation
{
public:
    RefreshingLibraryCache(std::unique_ptr<Operation> change, bool rebuildsCache)
        : m_change(std::move(change))
        , m_rebuildsCache(rebuildsCache)
    {
    }

    // A journal says whether the cache is rebuilt, never with which program: whoever could write
    // the journal would otherwise choose what root runs. One from before this rule named the
    // distribution's ldconfig, which reads as a rebuild; any other program is no step of ours.
    static std::unique_ptr<Operation> fromJson(const QJsonObject &arguments)
    {
        std::unique_ptr<Operation> change =
            Operation::create(arguments.value(QStringLiteral("change")).toString(),
                              arguments.value(QStringLiteral("arguments")).toObject());
        const QJsonValue rebuilds = arguments.value(QStringLiteral("rebuildsCache"));
        const QString namedProgram = arguments.value(QStringLiteral("ldconfig")).toString();
        if (!change || !(rebuilds.isBool() || rebuilds.isUndefined()) ||
            !(namedProgram.isEmpty() || namedProgram == QLatin1String("/usr/sbin/ldconfig") ||
              namedProgram == QLatin1String("/sbin/ldconfig")))
            return nullptr;
        return std::make_unique<RefreshingLibraryCache>(std::move(change),
                                                        rebuilds.toBool() || !namedProgram.isEmpty());
    }

    QString name() const override { return QStringLiteral("refreshing-library-cache"); }
    QJsonObject arguments() const override
    {
        return {{QStringLiteral("change"), m_change->name()},
                {QStringLiteral("arguments"), m_change->arguments()},
                {QStringLiteral("rebuildsCache"), m_rebuildsCache}};
    }
    Text description() const override { return m_change->description(); }

    Expected<void> perform(OperationContext &context) override
    {
        if (Expected<void> changed = m_change->perform(context); !changed)
            return changed;
        return rebuildCache();
    }
    Expected<void> undo(OperationContext &context, const QJsonObject &remembered) override
    {
        if (Expected<void> undone = m_change->undo(context, remembered); !undone)
            return undone;
        return rebuildCache();
    }
    Expected<void> finish(OperationContext &context, const QJsonObject &remembered) override
    {
        return m_change->finish(context, remembered);
    }
    QStringList changedPaths(const QJsonObject &remembered) const override
    {
        return m_change->changedPaths(remembered);
    }

private:
    Expected<void> rebuildCache() const
    {
        if (!m_rebuildsCache)
            return {};
        const QString ldconfig = hostLdconfig();
        const ProcessResult result =
            ldconfig.isEmpty() ? ProcessResult() : ProcessRunner().run(ldconfig, {}, 120000);
        if (result.succeeded())
            return {};
        return Finding::error(
            QStringLiteral("install.ldconfig-failed"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "ldconfig could not rebuild the loader's cache of library "
                                                 "folders.")),
            ldconfig.isEmpty()
                ? QStringLiteral("no ldconfig in /usr/sbin or /sbin")
                : result.summary() + QLatin1Char('\n') + QString::fromLocal8Bit(result.standardError),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "Run the install as root (sudo), or run ldconfig yourself.")));
    }

    std::unique_ptr<Operation> m_change;
    bool m_rebuildsCache = false;
};

} // namespace

void addLoaderOperations(QHash<QString, Operation::Factory> &table)
{
    table.insert(QStringLiteral("refreshing-library-cache"), &RefreshingLibraryCache::fromJson);
}

std::unique_ptr<Operation> refreshingLibraryCache(std::unique_ptr<Operation> change, bool rebuildsCache)
{
    return std::make_unique<RefreshingLibraryCache>(std::move(change), rebuildsCache);
}

} // namespace operations

} // namespace cudnnsetup

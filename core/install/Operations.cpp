#include "install/OperationFamilies.h"

namespace cudnnsetup {

namespace operations {

namespace {

// The one registry of the operations a journal may name: each family adds its own.
const QHash<QString, Operation::Factory> &factories()
{
    static const QHash<QString, Operation::Factory> table = [] {
        QHash<QString, Operation::Factory> all;
        addFileOperations(all);
        addUnpackOperations(all);
        addInUseOperations(all);
        addEnvironmentOperations(all);
        addLoaderOperations(all);
        return all;
    }();
    return table;
}

} // namespace

} // namespace operations

std::unique_ptr<Operation> Operation::create(const QString &name, const QJsonObject &arguments)
{
    const auto factory = operations::factories().constFind(name);
    return factory == operations::factories().constEnd() ? nullptr : (*factory)(arguments);
}

} // namespace cudnnsetup

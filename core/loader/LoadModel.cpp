#include "loader/LoadModel.h"

namespace cudnnsetup {

QString loadModelName(LoadModel model)
{
    switch (model) {
    case LoadModel::Program:
        return QStringLiteral("program");
    case LoadModel::PythonDllDirectories:
        return QStringLiteral("python");
    case LoadModel::CondaActivated:
        return QStringLiteral("conda");
    }
    return {};
}

std::optional<LoadModel> loadModelFromName(const QString &name)
{
    for (const LoadModel model :
         {LoadModel::Program, LoadModel::PythonDllDirectories, LoadModel::CondaActivated}) {
        if (loadModelName(model) == name)
            return model;
    }
    return std::nullopt;
}

} // namespace cudnnsetup

#include "BuildPaths.h"

QString BuildPaths::sourceDir()
{
    return QStringLiteral(CUDNNSETUP_SOURCE_DIR);
}

QString BuildPaths::fixtures()
{
    return QStringLiteral(CUDNNSETUP_SOURCE_DIR "/tests/fixtures");
}

QString BuildPaths::cudnnctl()
{
    return QStringLiteral(CUDNNCTL_PATH);
}

QString BuildPaths::shippedCudnnctl()
{
    return QStringLiteral(CUDNNCTL_SHIPPED_PATH);
}

QString BuildPaths::cudnnSetup()
{
    return QStringLiteral(CUDNN_SETUP_PATH);
}

QString BuildPaths::standinTool()
{
    return QStringLiteral(CUDNNSETUP_STANDIN_TOOL);
}

QString BuildPaths::standins()
{
    return QStringLiteral(CUDNNSETUP_STANDINS);
}

QString BuildPaths::standinArchives()
{
    return QStringLiteral(CUDNNSETUP_ARCHIVES);
}

#pragma once

#include <QCommandLineOption>
#include <QString>

namespace cudnnsetup {

// The options that say how to install, which `cudnnctl install` and `cudnn-setup --unattended` both
// take: spelt once here, so that a script may pass either program the same words. Each program
// describes them in its own terms (cudnnctl names the commands an option belongs to, cudnn-setup
// says --unattended); made after the translation is installed.
struct InstallOptions
{
    struct Descriptions
    {
        QString archive;
        QString archiveValueName; // cudnnctl's --archive is also doctor's (FILE), cudnn-setup's a ZIP
        QString target;
        QString path;
        QString cudnnVariables;
        QString ifInUse;
    };

    explicit InstallOptions(const Descriptions &descriptions);

    QCommandLineOption archive;
    QCommandLineOption target;
    QCommandLineOption path;
    QCommandLineOption cudnnVariables;
    QCommandLineOption ifInUse;
};

} // namespace cudnnsetup

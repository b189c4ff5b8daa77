#pragma once

#include "BuildPaths.h"
#include "Cudnnctl.h"
#include "Sandbox.h"
#include "SystemTrees.h"
#include "TreeSnapshot.h"
#include "platform/SystemPaths.h"

#include <QProcessEnvironment>
#include <QStringList>

// A sandbox Windows machine of a lab, as the end-to-end suites of installs use it: the system
// tree, the folders an install writes to, the environment that names them, and the runs of
// cudnnctl (or cudnn-setup) against it. Header-only: the test tools library stays as it is.
struct LabMachine
{
    static QString cudnnTarget() { return QStringLiteral("dir:C:\\Program Files\\NVIDIA\\CUDNN\\v9.1"); }
    static QString cudnnFolder() { return QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.1"); }

    Sandbox sandbox;
    QProcessEnvironment environment = sandboxEnvironment();
    QString database; // the --compat-db of every run (archives::StandIn's), when set

    explicit LabMachine(QString compatDatabase = {})
        : database(std::move(compatDatabase))
    {
        trees::windowsSystem(sandbox);
        sandbox.mkdir(QStringLiteral("C:\\Program Files"));
        sandbox.mkdir(QStringLiteral("C:\\Users\\lab\\AppData\\Local"));
        environment.insert(QStringLiteral("ProgramData"), QStringLiteral("C:\\ProgramData"));
        environment.insert(QStringLiteral("ProgramFiles"), QStringLiteral("C:\\Program Files"));
        environment.insert(QStringLiteral("LOCALAPPDATA"), QStringLiteral("C:\\Users\\lab\\AppData\\Local"));
        environment.insert(QStringLiteral("USERPROFILE"), QStringLiteral("C:\\Users\\lab"));
    }
    // What an install changes, without cuDNN Setup's own bookkeeping (journal, receipts, logs).
    TreeSnapshot tree() const
    {
        return TreeSnapshot::of(sandbox.root(), {QStringLiteral("ProgramData"),
                                                 QStringLiteral("Users/lab/AppData/Local/cuDNN Setup")});
    }
    // `program` (cudnnctl unless named) on this machine, in English.
    CudnnctlRun run(QStringList arguments, const QString &program = BuildPaths::cudnnctl()) const
    {
        arguments << QStringLiteral("--system-root") << sandbox.root() << QStringLiteral("--lang")
                  << QStringLiteral("en");
        if (!database.isEmpty())
            arguments << QStringLiteral("--compat-db") << database;
        return runCudnnctl(arguments, environment, program);
    }
    CudnnctlRun install(const QString &archive) const
    {
        return run({QStringLiteral("install"), QStringLiteral("--archive"), archive,
                    QStringLiteral("--target"), cudnnTarget(), QStringLiteral("--path"),
                    QStringLiteral("none"), QStringLiteral("--json")});
    }
    // The code a caller sees: Windows keeps all 32 bits, other systems the low 8.
    static int exitCode(int windowsCode)
    {
        return cudnnsetup::hostOsFamily() == cudnnsetup::OsFamily::Windows ? windowsCode : windowsCode & 0xff;
    }
};

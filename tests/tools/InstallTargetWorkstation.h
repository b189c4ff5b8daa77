#pragma once

#include "Sandbox.h"
#include "archive/ArchiveInspector.h"
#include "common/Finding.h"
#include "detect/SystemSnapshot.h"
#include "install/InstallTarget.h"
#include "platform/SystemContext.h"

#include <QByteArray>
#include <QHash>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <memory>
#include <optional>

// The Windows workstation the install-target suites share: a sandbox tree with CUDA 11.8, 12.2,
// 12.4 and 13.0, a conda base and env, a venv and folders for each rule of checkTarget; NVIDIA's
// archives of three eras (8.2 in a CUDA-style root, 8.9.7 and 9.1, 9.18 with bin\x64) inspected;
// and the helpers their tests read findings with. A suite's test class derives from it and calls
// initWorkstation() from its initTestCase().
class InstallTargetWorkstation
{
protected:
    inline static const QString kUser = QStringLiteral("C:\\Users\\\u5f20\u4e09"); // C:\Users\张三
    inline static const QString kCuda =
        QStringLiteral("C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\");
    inline static const QString kVenv = kUser + QStringLiteral("\\\u9879\u76ee\\.venv"); // ...\项目\.venv
    inline static const QString kConda = kUser + QStringLiteral("\\miniconda3");

    static cudnnsetup::SystemContext windowsContext(const Sandbox &sandbox,
                                                    const QProcessEnvironment &environment);
    static QProcessEnvironment windowsEnvironment();
    static cudnnsetup::CudaToolkit toolkit(const QString &version, const QString &binDir);
    // A Windows workstation as detection would report it: driver 591.59 (CUDA 13.1), CUDA 11.8, 12.2,
    // 12.4 and 13.0, a conda base and env, a venv.
    static cudnnsetup::SystemSnapshot
    workstationSnapshot(const QString &driverMaxCuda = QStringLiteral("13.1"));
    static QStringList ids(const cudnnsetup::Findings &findings,
                           cudnnsetup::Severity atLeast = cudnnsetup::Severity::Warning);
    static const cudnnsetup::Finding *findingOf(const cudnnsetup::Findings &findings, const QString &id);
    static QString describe(const cudnnsetup::Findings &findings);

    // The archives inspected and the tree made (QVERIFY and QCOMPARE say what failed).
    void initWorkstation();
    cudnnsetup::ArchiveReport inspectZip(const QString &fileName, const QByteArray &zip);
    const cudnnsetup::ArchiveReport &archive(const QString &key) const;
    const cudnnsetup::SystemContext &context() const { return *m_context; }
    cudnnsetup::InstallTarget target(const QString &spec, const QString &archiveKey = QStringLiteral("9.1"),
                                     std::optional<cudnnsetup::PathScope> scope = std::nullopt);

    QTemporaryDir m_archives;
    Sandbox m_sandbox;
    std::unique_ptr<cudnnsetup::SystemContext> m_context;
    QHash<QString, cudnnsetup::ArchiveReport> m_reports;
};

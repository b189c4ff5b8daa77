#pragma once

// What the wizard's page suites share: the machine recorded with the device, made a Windows
// workstation; the text of a page's labels; screenshots. Header-only, because the test tools
// library does not link Qt Widgets and only the GUI suites need these.

#include "CudnnArchiveLists.h"
#include "Sandbox.h"
#include "SystemTrees.h"
#include "TreeSnapshot.h"
#include "archive/ArchiveInspector.h"
#include "detect/SystemSnapshot.h"
#include "session/SetupSession.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>
#include <QWidget>
#include <QWizard>

#include <functional>

namespace wizardpagetests {

// The H200 machine as `cudnnctl detect` recorded it (tests/fixtures/nvidia-h200-linux).
inline cudnnsetup::SystemSnapshot recordedH200()
{
    const QJsonObject json =
        QJsonDocument::fromJson(
            Sandbox::readFixture(QStringLiteral("nvidia-h200-linux/cudnnctl-detect.json")))
            .object();
    const auto snapshot = cudnnsetup::SystemSnapshot::fromJson(json);
    if (!snapshot)
        qFatal("the H200 fixture does not load");
    return *snapshot;
}

// The H200 with the consumers `cudnnctl detect` found in its venv (torch 2.11 among them).
inline cudnnsetup::SystemSnapshot recordedH200WithConsumers()
{
    const QJsonArray consumers =
        QJsonDocument::fromJson(
            Sandbox::readFixture(QStringLiteral("nvidia-h200-linux/cudnnctl-detect-consumers.json")))
            .object()
            .value(QStringLiteral("consumers"))
            .toArray();
    QJsonObject json = recordedH200().toJson();
    json.insert(QStringLiteral("consumers"), consumers);
    return *cudnnsetup::SystemSnapshot::fromJson(json);
}

// The recorded H200 as a Windows workstation with the given CUDA toolkits (in their default
// folders) and nothing installed besides: Windows zips fit it, which the Linux machine refuses for
// their platform alone.
inline cudnnsetup::SystemSnapshot windowsH200(const QStringList &toolkits,
                                              const QString &driver = QStringLiteral("581.57"),
                                              const QString &driverMaxCuda = QStringLiteral("13.0"))
{
    using namespace cudnnsetup;
    SystemSnapshot snapshot = recordedH200();
    snapshot.os = OsInfo();
    snapshot.os.family = QStringLiteral("windows");
    snapshot.os.name = QStringLiteral("Windows 11 Pro");
    snapshot.os.version = QStringLiteral("10.0.26100");
    snapshot.os.arch = QStringLiteral("x64");
    snapshot.driver->version = driver;
    snapshot.driver->maxCuda = driverMaxCuda;
    snapshot.cudaToolkits.clear();
    for (const QString &version : toolkits) {
        CudaToolkit toolkit;
        toolkit.version = version;
        toolkit.path = QStringLiteral("C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v%1")
                           .arg(version.section(QLatin1Char('.'), 0, 1));
        toolkit.source = QStringLiteral("CUDA_PATH");
        toolkit.versionSource = QStringLiteral("version.json");
        toolkit.binDir = toolkit.path + QStringLiteral("\\bin");
        toolkit.libDir = toolkit.path + QStringLiteral("\\lib\\x64");
        snapshot.cudaToolkits.append(toolkit);
    }
    snapshot.cudnn.clear();
    snapshot.pythons.clear();
    snapshot.zlibwapi.clear();
    snapshot.environment = EnvironmentInfo();
    return snapshot;
}

// A label's text as a person reads it: without the zero-width spaces that let long paths break
// between folders (breakablePath).
inline QString labelText(const QWidget *page, const QString &name)
{
    const auto label = page->findChild<QLabel *>(name);
    return label ? label->text().remove(QChar(0x200B)) : QStringLiteral("<no %1>").arg(name);
}

// The part of `widget` a screenshot keeps. An Aero wizard (Windows) leaves its top band to the
// window manager, which draws the title and Back there; Wine has no such compositor and leaves the
// band blank, so pictures start at the wizard's content below it.
inline QRect shownArea(QWidget *widget)
{
    auto wizard = qobject_cast<QWizard *>(widget);
    if (!wizard || wizard->wizardStyle() != QWizard::AeroStyle)
        return widget->rect();
    QRect content;
    for (auto child : wizard->findChildren<QWidget *>(QString(), Qt::FindDirectChildrenOnly)) {
        const QRect area = child->geometry();
        if (child->isVisible() && area.width() * area.height() > content.width() * content.height())
            content = area;
    }
    return content.isEmpty() ? widget->rect() : content;
}

// Saves what `widget` shows as screenshots/NAME in the working folder (the build folder).
inline void saveScreenshot(QWidget *widget, const QString &name)
{
    // Rows added to a visible page are shown by a queued call: let it run, as a paint would.
    QCoreApplication::processEvents();
    const QString dir = QDir::currentPath() + QStringLiteral("/screenshots");
    QDir().mkpath(dir);
    QVERIFY(widget->grab(shownArea(widget)).save(dir + QLatin1Char('/') + name));
}

// Lets the current page finish what it checks in the background (the Target page's write test) before
// the user presses Next, as a person waits for the button to come on; at most a few seconds. False
// when it stays incomplete (Next then does not move, which the caller sees).
inline bool waitUntilComplete(QWizard &wizard)
{
    return QTest::qWaitFor([&] { return !wizard.currentPage() || wizard.currentPage()->isComplete(); }, 3000);
}

// Walks the wizard forward to page `id` the way a user does (the Hardware page keeps the session's
// snapshot); nullptr when a page on the way does not let the user on.
template <typename Page>
Page *openPage(QWizard &wizard, int id)
{
    wizard.show();
    while (wizard.currentId() != id) {
        const int before = wizard.currentId();
        waitUntilComplete(wizard);
        wizard.next();
        if (wizard.currentId() == before)
            return nullptr;
    }
    return qobject_cast<Page *>(wizard.currentPage());
}

// A Windows workstation in a sandbox, for the pages that install: the CUDA 12.9 toolkit in its
// default folder, a conda env "torch" and a venv "dl" in the user's profile, an old cuDNN 8.9 in a
// folder of its own; its snapshot (the recorded H200 made a Windows machine with these); and a
// session on it that has inspected NVIDIA's Windows zip of cuDNN 9.19 for CUDA 12 (kept outside the
// sandbox, so the sandbox's tree is only what the install changes).
struct Workstation
{
    static constexpr char kVersion[] = "9.19.0.56";
    static constexpr char kToolkit[] = "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.9";
    static constexpr char kOldCudnn[] = "C:\\Program Files\\NVIDIA\\CUDNN\\v8.9\\bin";
    static constexpr char kConda[] = "C:\\Users\\lab\\miniconda3\\envs\\torch";
    static constexpr char kVenv[] = "C:\\Users\\lab\\venvs\\dl";

    Sandbox sandbox;
    QTemporaryDir archiveFolder;
    QString archive;
    cudnnsetup::SystemSnapshot snapshot;
    cudnnsetup::SetupSession session;

    // What a test tells the session's context besides the sandbox (its volumes, running programs).
    using ContextChange = std::function<cudnnsetup::SystemContext(const cudnnsetup::SystemContext &)>;

    // `noise`: that many bytes that do not compress added, stored, to the largest DLL, so that an
    // install takes long enough to be cancelled halfway.
    explicit Workstation(int noise = 0, const ContextChange &change = {})
        : session(changed(cudnnsetup::SystemContext::rooted(build(sandbox)), change))
    {
        using namespace cudnnsetup;
        archive = archiveFolder.filePath(
            archives::windowsRoot(QLatin1String(kVersion), QStringLiteral("12")) + QStringLiteral(".zip"));
        QList<ZipWriter::Entry> entries = archives::entriesOf(
            archives::windowsFiles(QLatin1String(kVersion), QStringLiteral("12")), QLatin1String(kVersion));
        if (noise > 0) {
            for (ZipWriter::Entry &entry : entries) {
                if (entry.name.endsWith("/cudnn_engines_precompiled64_9.dll")) {
                    QByteArray bytes(noise, Qt::Uninitialized);
                    quint32 state = 20260101;
                    for (char &byte : bytes) {
                        state = state * 1664525u + 1013904223u;
                        byte = char(state >> 24);
                    }
                    entry.data += bytes;
                    entry.method = 0;
                }
            }
        }
        if (!ZipWriter(entries).save(archive))
            qFatal("the archive cannot be written");

        snapshot = windowsH200({QStringLiteral("12.9.1")});
        snapshot.cudaToolkits.first().path = QLatin1String(kToolkit);
        snapshot.cudaToolkits.first().binDir = QLatin1String(kToolkit) + QStringLiteral("\\bin");
        CudnnCopy old;
        old.version = QStringLiteral("8.9.7");
        old.directory = QLatin1String(kOldCudnn);
        old.path = old.directory + QStringLiteral("\\cudnn64_8.dll");
        old.cudaMajor = 12;
        old.source = QStringLiteral("path");
        snapshot.cudnn.append(old);
        PythonInstall conda;
        conda.path = QLatin1String(kConda) + QStringLiteral("\\python.exe");
        conda.version = QStringLiteral("3.12.3");
        conda.bits = 64;
        conda.arch = QStringLiteral("x64");
        conda.source = QStringLiteral("conda");
        PythonInstall venv = conda;
        venv.path = QLatin1String(kVenv) + QStringLiteral("\\Scripts\\python.exe");
        venv.source = QStringLiteral("venv");
        snapshot.pythons = {conda, venv};
        session.setSnapshot(snapshot);
        // The test-made archive stands in for NVIDIA's file of its name.
        session.setDatabase(
            DatabaseChoice{archives::databaseKnowing({archive}), QStringLiteral("embedded"), Findings()});

        InspectOptions options;
        options.verifyData = false;
        const auto report = inspectArchive(archive, session.database().database.publishedArchives(), options);
        if (!report || report->verdict != ArchiveReport::Verdict::Ok)
            qFatal("the archive does not pass its check");
        session.setArchive(*report);
    }

    // What an install changes, without cuDNN Setup's own bookkeeping (its lock, journal, receipts).
    TreeSnapshot tree() const
    {
        return TreeSnapshot::of(sandbox.root(), {QStringLiteral("ProgramData"),
                                                 QStringLiteral("Users/lab/AppData/Local/cuDNN Setup")});
    }
    QString hostPath(const QString &path) const { return sandbox.hostPath(path); }

private:
    static cudnnsetup::SystemContext changed(const cudnnsetup::SystemContext &context,
                                             const ContextChange &change)
    {
        return change ? change(context) : context;
    }

    // The tree, made before the session's context looks at it; the variables that tell where the
    // user's and the machine's folders are, as a Windows session has them.
    static QString build(const Sandbox &sandbox)
    {
        trees::windowsSystem(sandbox);
        trees::windowsToolkit(sandbox, QStringLiteral("12.9.1"));
        sandbox.mkdir(QStringLiteral("C:\\Program Files"));
        sandbox.mkdir(QStringLiteral("C:\\Users\\lab\\AppData\\Local"));
        sandbox.write(QLatin1String(kOldCudnn) + QStringLiteral("\\cudnn64_8.dll"), "MZ");
        sandbox.mkdir(QLatin1String(kConda) + QStringLiteral("\\conda-meta"));
        sandbox.write(QLatin1String(kConda) + QStringLiteral("\\python.exe"), "MZ");
        sandbox.write(QLatin1String(kVenv) + QStringLiteral("\\pyvenv.cfg"),
                      "home = C:\\Python312\nversion = 3.12.3\n");
        sandbox.write(QLatin1String(kVenv) + QStringLiteral("\\Scripts\\python.exe"), "MZ");
        qputenv("ProgramData", "C:\\ProgramData");
        qputenv("ProgramFiles", "C:\\Program Files");
        qputenv("ProgramW6432", "C:\\Program Files");
        qputenv("LOCALAPPDATA", "C:\\Users\\lab\\AppData\\Local");
        qputenv("USERPROFILE", "C:\\Users\\lab");
        return sandbox.root();
    }
};

} // namespace wizardpagetests

#pragma once

#include "platform/SystemPaths.h"

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>
#include <QTemporaryDir>

// How a stand-in tool (tests/tools/standin_tool.c) behaves when run.
struct ToolBehaviour
{
    QByteArray output;                            // stdout, unless an answer matches
    QList<QPair<QByteArray, QByteArray>> answers; // first argument prefix -> stdout
    QByteArray error;                             // stderr
    int exitCode = 0;
    int sleepMs = 0; // a hung tool sleeps longer than the caller waits
};

// A throw-away system root for tests: a folder that plays "/" (or "C:\") for --system-root.
class Sandbox
{
public:
    Sandbox();
    bool isValid() const { return m_dir.isValid(); }
    QString root() const { return m_dir.path(); }
    // `path` is the inspected system's path ("/usr/local/cuda-12.2/bin/nvcc", "C:\Windows\System32").
    QString hostPath(const QString &path) const;

    void mkdir(const QString &path) const;
    void write(const QString &path, const QByteArray &content = {}) const;
    // A program at `path` that behaves as told: a copy of the stand-in tool (built for this host)
    // and its spec. Only a tree of the host's own family can run it (SKIP_UNLESS_HOST).
    void writeTool(const QString &path, const ToolBehaviour &behaviour) const;
    // An executable shell script with this body (Linux hosts only: for what the stand-in tool
    // cannot do, such as leaving a child process behind).
    void writeScriptBody(const QString &path, const QByteArray &body) const;
    void symlink(const QString &target, const QString &linkPath) const;
    // Copies a file of the host (a fixture) into the sandbox.
    void copyFrom(const QString &hostSource, const QString &path) const;

    static QByteArray readFixture(const QString &relativePath);
    // The lines of one "== title" section of a recording that holds several commands' output.
    static QString fixtureSection(const QString &relativePath, const QString &title);
    static QString fixturePath(const QString &relativePath);

private:
    QTemporaryDir m_dir;
};

// Skips the test unless this host is of `family`: a tree's programs run only on a host of their own
// OS, and a Linux tree's symbolic links exist only on Linux hosts.
#define SKIP_UNLESS_HOST(family, why)                                                                        \
    do {                                                                                                     \
        if (cudnnsetup::hostOsFamily() != (family))                                                          \
            QSKIP(why);                                                                                      \
    } while (false)

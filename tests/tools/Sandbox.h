#pragma once

#include <QByteArray>
#include <QString>
#include <QTemporaryDir>

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
    // An executable shell script that prints `output` to stdout and exits with `exitCode`.
    void writeScript(const QString &path, const QByteArray &output, int exitCode = 0) const;
    // An executable shell script with this body (after the #!/bin/sh line).
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

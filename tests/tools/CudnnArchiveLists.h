#pragma once

#include "ZipWriter.h"
#include "compat/KnowledgeBase.h"

#include <QList>
#include <QString>
#include <QStringList>

// The exact file lists of NVIDIA's cuDNN archives (shared/reference/nvidia-compat.md §4b), for
// tests that build archives of the same shape. Paths are '/'-separated and start with the
// archive's top folder.
namespace archives {

// "cudnn-windows-x86_64-9.1.0.70_cuda12-archive" for ("9.1.0.70", "12").
QString windowsRoot(const QString &version, const QString &cudaVariant);
// Every file of the Windows zip of `version` (8.3 or later): bin/ (bin/x64/ from 9.18), include/,
// lib/x64/, LICENSE.
QStringList windowsFiles(const QString &version, const QString &cudaVariant);
// The files of a cuda/-rooted zip of 8.2 and earlier (cudnn-11.4-windows-x64-v8.2.4.15.zip).
QStringList cudaRootFiles(int cudnnMajor);
// The main files of a Linux tarball (cudnn-linux-x86_64-9.19.0.56_cuda13-archive.tar.xz).
QStringList linuxFiles(const QString &version, const QString &cudaVariant);
// A cudnn_version.h as NVIDIA writes it for `version` (8.x: *1000, 9.x: *10000).
QByteArray versionHeader(const QString &version);

// Zip entries for `files` with contents that pass inspection: every .dll a small x64 DLL (its path
// appended, so each differs), cudnn_version.h the header of `headerVersion`, anything else text.
QList<ZipWriter::Entry> entriesOf(const QStringList &files, const QString &headerVersion);
// The zip of NVIDIA's Windows archive `version` for `cudaVariant`, as entriesOf() fills it.
QByteArray windowsZip(const QString &version, const QString &cudaVariant);
// What linuxZip() holds in `file` of linuxFiles(version, …): each library a small ELF file with its
// soname, cudnn_version.h the header of `version`, anything else text.
QByteArray linuxFileData(const QString &file, const QString &version);
// NVIDIA's Linux archive `version` for `cudaVariant` as a zip of linuxFiles(): each library a small
// ELF file with its soname, cudnn_version.h the header of `version`, anything else text.
QByteArray linuxZip(const QString &version, const QString &cudaVariant);
// windowsZip() with one byte of its last file (the LICENSE text) changed, CRC and all: a file that
// is sound but not the one NVIDIA published.
QByteArray alteredWindowsZip(const QString &version, const QString &cudaVariant);

// The embedded database with NVIDIA's record of `file` given another checksum, so a test-made
// archive can be "the official file".
cudnnsetup::KnowledgeBase databaseWithChecksum(const QString &file, const QString &sha256);
// The embedded database without NVIDIA's archive records (each needs its checksum), for tests of
// what a name or the content says:
// a test-made archive under NVIDIA's name is then of unknown origin, not an altered copy.
cudnnsetup::KnowledgeBase databaseWithoutChecksums();
// The embedded database with each test-made archive at `archivePaths` under NVIDIA's name (or as a
// browser renames it) recorded as the file NVIDIA published: the test's stand-in for it. Other
// names are left out.
cudnnsetup::KnowledgeBase databaseKnowing(const QStringList &archivePaths);
// The same as the JSON of a --compat-db file.
QByteArray databaseJsonKnowing(const QStringList &archivePaths);
// That JSON written to `databasePath`, for --compat-db; returns the path.
QString writeDatabaseKnowing(const QString &databasePath, const QStringList &archivePaths);

// A test-made copy of NVIDIA's Windows archive, under NVIDIA's name, and the database (for
// --compat-db) that takes it for NVIDIA's file.
struct StandIn
{
    QString archive;
    QString database;
};
// Writes windowsZip(version, cudaVariant) and its database into `folder`.
StandIn writeStandIn(const QString &folder, const QString &version, const QString &cudaVariant);

// NVIDIA's redistrib_<release>.json as a mirror serves it, listing one Windows archive `file` of
// cuDNN `version` with its SHA-256 and size.
QByteArray redistManifest(const QString &version, const QString &file, const QString &sha256, qint64 size);

} // namespace archives

#pragma once

#include "install/Operations.h"
#include "platform/SystemFailure.h"

#include <QHash>
#include <QString>

namespace cudnnsetup {

// The families of operations, each in its own file, and what each adds to the one registry
// (Operation::create) under the names its journal steps carry.
namespace operations {

void addFileOperations(QHash<QString, Operation::Factory> &table);        // FileOperations.cpp
void addUnpackOperations(QHash<QString, Operation::Factory> &table);      // UnpackOperations.cpp
void addEnvironmentOperations(QHash<QString, Operation::Factory> &table); // EnvironmentOperations.cpp
void addInUseOperations(QHash<QString, Operation::Factory> &table);       // InUseOperations.cpp
void addLoaderOperations(QHash<QString, Operation::Factory> &table);      // LoaderOperations.cpp

// What the file families share. A file being written is named `path + kPartialSuffix` until it is
// whole.
extern const QString kPartialSuffix;
// `from` at `to`, renamed where it can be, else copied (`from` stays then): what moving a file
// to another volume starts with. Nothing is left at `to` when it fails.
SystemResult renameOrCopy(const QString &from, const QString &to);

} // namespace operations

} // namespace cudnnsetup

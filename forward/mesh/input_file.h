#pragma once
// Opening an input file the user named. Before anything is opened the path is checked
// to be a regular file, so a folder, a FIFO (which would block forever) or a device such
// as /dev/zero (which would be read until memory runs out) is an InputError naming the
// path instead. Every reader of user files goes through these functions.
#include <cstdint>
#include <fstream>
#include <string>

namespace softfit {

// InputError "<path>: cannot open <what> (<reason>)" unless `path` is a regular file.
// `what` names the kind of file ("file", "SDF volume header", ...).
void requireRegularFile(const std::string& path, const std::string& what = "file");
// The path as messages show it: a NUL character (which would end the message) as "\0".
std::string printablePath(const std::string& path);
// InputError "<path>: <what> is not a folder (...)" unless `path` is an existing folder.
void requireFolder(const std::string& path, const std::string& what = "folder");

// The file opened for reading (binary mode), after requireRegularFile.
std::ifstream openInputFile(const std::string& path, const std::string& what = "file");
// The whole file, after requireRegularFile; InputError naming the path on a read error.
std::string readInputFile(const std::string& path, const std::string& what = "file");

// True when a count read from a file cannot be right: more than 65536 records that need
// more than `bytesAvailable` bytes at `minimumBytesPerRecord` each. Readers refuse such a
// count before allocating for it (a smaller one is left to their end-of-file message).
bool countExceedsFile(long long count, long double minimumBytesPerRecord, std::uintmax_t bytesAvailable);

}  // namespace softfit

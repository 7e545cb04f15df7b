#pragma once
// Outputs that a failed or interrupted run can never leave looking complete (issue 25).
// A command that writes a folder calls beginRun before writing (it removes the marker
// and the files an earlier run wrote under the given names) and markRunComplete after
// its last file: a folder without `run_complete.txt` holds a failed or interrupted run.
// Single result files are written under a temporary name and renamed over the target.
#include <functional>
#include <string>
#include <vector>

namespace softfit {

constexpr const char* kRunCompleteMarker = "run_complete.txt";

// Removes `folder`/run_complete.txt first, then `folder`/each of `outputs` (best effort:
// a file that cannot be removed is overwritten by the run or left without the marker).
void beginRun(const std::string& folder, const std::vector<std::string>& outputs = {});

// Writes `folder`/run_complete.txt holding `summary`; InputError naming it on failure.
void markRunComplete(const std::string& folder, const std::string& summary);

// Calls write(temporary) for a temporary path next to `path`, then renames it to `path`
// (atomic on one file system): `path` is either the old file or the complete new one.
// When write throws, the temporary is removed and the exception propagates.
void writeAtomically(const std::string& path, const std::function<void(const std::string&)>& write);

}  // namespace softfit

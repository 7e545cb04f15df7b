#pragma once
// Deterministic mutation fuzzing of text readers (issue 25): seeded mutations of a valid
// input (byte flips, deletions, duplications, and numbers replaced by hostile values such
// as 2000000000, 4294967297, 1e400, -1, nan), each fed to a reader that must either
// succeed or throw softfit::InputError: any other exception is a defect (a crash or hang
// ends the test run itself). A fixed seed keeps CI deterministic.
#include <gtest/gtest.h>

#include <cctype>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "forward/errors.h"

namespace softfit::testing {

inline std::vector<std::string> mutationsOf(const std::string& seed, int count, unsigned rngSeed = 25) {
  static const char* const kHostile[] = {"2000000000", "4294967297", "2147483647", "1e400", "-1", "0", "nan",
                                         "-2147483648", "1e300", "99999999999", ""};
  std::mt19937 rng(rngSeed);
  std::vector<std::string> out;
  for (int i = 0; i < count; ++i) {
    std::string s = seed;
    const int edits = 1 + static_cast<int>(rng() % 3);
    for (int e = 0; e < edits && !s.empty(); ++e) {
      std::size_t at = rng() % s.size();
      switch (rng() % 4) {
        case 0: s[at] = static_cast<char>(rng() % 256); break;  // flip a byte
        case 1: s.erase(at, 1 + rng() % 16); break;             // delete a run
        case 2: s.insert(at, s.substr(at, 1 + rng() % 32)); break;  // duplicate a run
        default: {  // replace the number at or after `at` by a hostile value
          while (at < s.size() && !std::isdigit(static_cast<unsigned char>(s[at]))) ++at;
          std::size_t end = at;
          while (end < s.size() && (std::isalnum(static_cast<unsigned char>(s[end])) || s[end] == '.' || s[end] == '-' ||
                                    s[end] == '+'))
            ++end;
          if (at < s.size()) s.replace(at, end - at, kHostile[rng() % (sizeof(kHostile) / sizeof(*kHostile))]);
        }
      }
    }
    out.push_back(s);
  }
  return out;
}

// Writes each mutation of `seed` to `path` and runs `read(path)`: only InputError may escape.
template <class Read>
void fuzzReader(const std::string& seed, const std::string& path, int count, Read read) {
  int index = 0;
  for (const std::string& input : mutationsOf(seed, count)) {
    std::ofstream(path, std::ios::binary) << input;
    try {
      read(path);
    } catch (const softfit::InputError&) {
    } catch (const std::exception& e) {
      ADD_FAILURE() << path << " mutation " << index << ": " << typeid(e).name() << ": " << e.what() << "\n--- input:\n"
                    << input.substr(0, 2000);
    }
    ++index;
  }
}

}  // namespace softfit::testing

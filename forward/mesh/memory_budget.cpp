#include "forward/mesh/memory_budget.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>

#include "forward/errors.h"

namespace softfit {

long double physicalMemoryBytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), pageSize = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || pageSize <= 0) return 1e12L;
  return static_cast<long double>(pages) * static_cast<long double>(pageSize);
}

void requireMemory(long double bytes, const std::string& what) {
  const long double available = physicalMemoryBytes();
  if (std::isfinite(static_cast<double>(bytes)) && bytes <= available) return;
  char text[160];
  std::snprintf(text, sizeof(text), ": needs about %.3g GB of memory, more than this machine's %.3g GB",
                static_cast<double>(bytes) / 1e9, static_cast<double>(available) / 1e9);
  throw InputError(what + text);
}

}  // namespace softfit

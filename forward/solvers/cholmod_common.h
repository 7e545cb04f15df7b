#pragma once
// A cholmod_common started (silent: failures are reported through return values, not
// printed) and finished with its owner, however the owner's scope ends. CHOLMOD's calls
// write workspace into their common: one per thread.
#include <cholmod.h>

namespace softfit {

struct CholmodCommon {
  cholmod_common common;
  CholmodCommon() {
    cholmod_start(&common);
    common.print = 0;
  }
  ~CholmodCommon() { cholmod_finish(&common); }
  CholmodCommon(const CholmodCommon&) = delete;
  CholmodCommon& operator=(const CholmodCommon&) = delete;
};

}  // namespace softfit

// A library file that names a CLI option: the check must refuse it.
#include <stdexcept>
void check(int n) {
  if (n < 1) throw std::invalid_argument("--max-iterations must be at least 1");
}

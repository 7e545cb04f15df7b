#include "apps/commands/exit_codes.h"

#include <cstdio>
#include <filesystem>
#include <ios>
#include <new>
#include <stdexcept>

#include "forward/errors.h"

namespace softfit::apps {

namespace {

int report(const char* prefix, const char* what, int code) {
  std::fprintf(stderr, "%s: %s\n", prefix, what);
  return code;
}

}  // namespace

int reportEscapedException(CLI::App& app) {
  try {
    throw;
  } catch (const CLI::ValidationError& e) {  // an option value out of its range (option_checks.h)
    return report("error", e.what(), kExitBadInput);
  } catch (const CLI::ConversionError& e) {  // an option value that is not of its type ("--seed abc")
    return report("error", e.what(), kExitBadInput);
  } catch (const CLI::ParseError& e) {
    const int cliCode = app.exit(e);  // prints help/version (code 0) or the parse error
    return cliCode == 0 ? kExitSuccess : kExitUsage;
  } catch (const InputError& e) {
    return report("error", e.what(), kExitBadInput);
  } catch (const SolveError& e) {
    return report("solve failed", e.what(), kExitSolveFailed);
  } catch (const std::filesystem::filesystem_error& e) {
    return report("error: file system", e.what(), kExitBadInput);
  } catch (const std::ios_base::failure& e) {
    return report("error: reading or writing a file failed", e.what(), kExitBadInput);
  } catch (const std::bad_alloc&) {
    return report("error", "out of memory: the input asks for more memory than is available (check its sizes and counts)",
                  kExitBadInput);
  } catch (const std::length_error& e) {
    return report("error: a size in the input is too large", e.what(), kExitBadInput);
  } catch (const std::out_of_range& e) {
    return report("error: a value in the input is out of range", e.what(), kExitBadInput);
  } catch (const std::exception& e) {
    return report("internal error (please report it with the command line)", e.what(), kExitInternalError);
  } catch (...) {
    return report("internal error (please report it with the command line)", "unknown exception", kExitInternalError);
  }
}

}  // namespace softfit::apps

#include "apps/distribute/work_distribution.h"

#include <exception>
#include <stdexcept>

#include "forward/errors.h"

namespace softfit::apps {

TaskResult runTask(const std::function<std::string(int index)>& task, int index) {
  TaskResult result;
  try {
    result.bytes = task(index);
  } catch (const InputError& e) {
    result.error = TaskResult::Error::Input;
    result.message = e.what();
  } catch (const SolveError& e) {
    result.error = TaskResult::Error::Solve;
    result.message = e.what();
  } catch (const std::exception& e) {
    result.error = TaskResult::Error::Other;
    result.message = e.what();
  } catch (...) {
    result.error = TaskResult::Error::Other;
    result.message = "unknown exception";
  }
  return result;
}

void TaskResult::rethrow() const {
  switch (error) {
    case Error::None: return;
    case Error::Input: throw InputError(message);
    case Error::Solve: throw SolveError(message);
    case Error::Other: throw std::runtime_error(message);
  }
}

std::vector<TaskResult> SerialDistribution::runAll(int count, const std::function<std::string(int index)>& task) {
  std::vector<TaskResult> results;
  for (int i = 0; i < count; ++i) results.push_back(runTask(task, i));
  return results;
}

}  // namespace softfit::apps

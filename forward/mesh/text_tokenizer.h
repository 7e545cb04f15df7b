#pragma once
// Whitespace tokenizer over a whole text file with line tracking, shared by the
// mesh-file readers. Every error it raises is an InputError "<path>:<line>: <what>".
#include <string>
#include <string_view>

namespace softfit {

class TextTokenizer {
 public:
  // Reads the whole file; throws InputError naming `path` if it cannot be opened.
  // `commentChar` (0 = none) starts a comment that runs to the end of the line.
  explicit TextTokenizer(std::string path, char commentChar = '\0');

  const std::string& path() const { return path_; }

  // True when only whitespace and comments remain.
  bool atEnd();
  // True when another token follows on the line of the last token read.
  bool moreOnLine();
  // Skips the remainder of the line of the last token read.
  void skipRestOfLine();

  // Next token; `what` names the expected item in the error raised at end of file.
  std::string_view token(const char* what);
  // Next token parsed as an integer / a finite-or-not real number.
  long long integer(const char* what);
  double real(const char* what);
  // Next token as the count N of records of at least `tokensPerRecord` tokens each that
  // follow: fails unless 0 <= N <= 2e9 and the rest of the file can hold N such records
  // (countExceedsFile, input_file.h; a token takes at least 2 bytes), so a count such as
  // "Tetrahedra 2000000000" in a small file is refused before anything is allocated.
  long long count(const char* what, long long tokensPerRecord);
  // Next token, which must equal `keyword` exactly.
  void expect(std::string_view keyword);

  // Line (1-based) of the last token read (1 before the first).
  int line() const { return line_; }

  // Throws InputError "<path>:<line>: <message>".
  [[noreturn]] void fail(const std::string& message) const;
  // Throws InputError "<path>:<line>: <message>" for an explicit line.
  [[noreturn]] void failAt(int line, const std::string& message) const;
  // Throws InputError "<path>: <message>" (no line number).
  [[noreturn]] void failFile(const std::string& message) const;

 private:
  void skipSpace(bool stopAtNewline);

  std::string path_;
  std::string text_;
  char comment_;
  std::size_t pos_ = 0;
  int line_ = 1;      // line of the last token returned
  int scanLine_ = 1;  // line at pos_
};

// Parses a whole token as a number; false when it is not one.
bool parseInteger(std::string_view token, long long& value);
bool parseReal(std::string_view token, double& value);

}  // namespace softfit

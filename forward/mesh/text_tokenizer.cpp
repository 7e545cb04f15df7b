#include "forward/mesh/text_tokenizer.h"

#include <charconv>
#include <fstream>
#include <sstream>
#include <utility>

#include "forward/errors.h"
#include "forward/mesh/input_file.h"

namespace softfit {

namespace {

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'; }

std::string_view withoutPlus(std::string_view token) {
  if (token.size() > 1 && token[0] == '+') token.remove_prefix(1);
  return token;
}

}  // namespace

bool parseInteger(std::string_view token, long long& value) {
  token = withoutPlus(token);
  const char* end = token.data() + token.size();
  auto [ptr, ec] = std::from_chars(token.data(), end, value);
  return ec == std::errc() && ptr == end && !token.empty();
}

bool parseReal(std::string_view token, double& value) {
  token = withoutPlus(token);
  const char* end = token.data() + token.size();
  auto [ptr, ec] = std::from_chars(token.data(), end, value, std::chars_format::general);
  return ec == std::errc() && ptr == end && !token.empty();
}

TextTokenizer::TextTokenizer(std::string path, char commentChar) : path_(std::move(path)), comment_(commentChar) {
  text_ = readInputFile(path_);
}

void TextTokenizer::skipSpace(bool stopAtNewline) {
  while (pos_ < text_.size()) {
    const char c = text_[pos_];
    if (c == '\n') {
      if (stopAtNewline) return;
      ++scanLine_;
      ++pos_;
    } else if (isSpace(c)) {
      ++pos_;
    } else if (comment_ != '\0' && c == comment_) {
      while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
    } else {
      return;
    }
  }
}

bool TextTokenizer::atEnd() {
  skipSpace(false);
  return pos_ >= text_.size();
}

bool TextTokenizer::moreOnLine() {
  if (scanLine_ != line_) return false;
  skipSpace(true);
  return pos_ < text_.size() && text_[pos_] != '\n';
}

void TextTokenizer::skipRestOfLine() {
  if (scanLine_ != line_) return;  // already past the line of the last token
  while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
}

std::string_view TextTokenizer::token(const char* what) {
  skipSpace(false);
  // At the end, report the line of the last token (where the data stopped).
  if (pos_ >= text_.size()) fail(std::string("unexpected end of file while reading ") + what);
  line_ = scanLine_;
  const std::size_t start = pos_;
  while (pos_ < text_.size() && !isSpace(text_[pos_]) && !(comment_ != '\0' && text_[pos_] == comment_)) ++pos_;
  return std::string_view(text_).substr(start, pos_ - start);
}

long long TextTokenizer::integer(const char* what) {
  const std::string_view t = token(what);
  long long value = 0;
  if (!parseInteger(t, value)) fail(std::string("expected an integer for ") + what + ", found '" + std::string(t) + "'");
  return value;
}

double TextTokenizer::real(const char* what) {
  const std::string_view t = token(what);
  double value = 0.0;
  if (!parseReal(t, value)) fail(std::string("expected a number for ") + what + ", found '" + std::string(t) + "'");
  return value;
}

long long TextTokenizer::count(const char* what, long long tokensPerRecord) {
  const long long n = integer(what);
  if (n < 0 || n > 2'000'000'000LL) fail(std::string("invalid ") + what + " " + std::to_string(n));
  // A token takes at least 2 bytes (a character and a separator; the last needs no separator).
  if (countExceedsFile(n, 2.0L * tokensPerRecord, text_.size() - pos_ + 1))
    fail(std::string(what) + " " + std::to_string(n) + " is more than the file holds (" +
         std::to_string(text_.size() - pos_) + " bytes remain; " + std::to_string(tokensPerRecord) +
         " values per record)");
  return n;
}

void TextTokenizer::expect(std::string_view keyword) {
  const std::string what = "'" + std::string(keyword) + "'";
  const std::string_view t = token(what.c_str());
  if (t != keyword) fail("expected " + what + ", found '" + std::string(t) + "'");
}

void TextTokenizer::fail(const std::string& message) const {
  throw InputError(path_ + ":" + std::to_string(line_) + ": " + message);
}

void TextTokenizer::failAt(int line, const std::string& message) const {
  throw InputError(path_ + ":" + std::to_string(line) + ": " + message);
}

void TextTokenizer::failFile(const std::string& message) const { throw InputError(path_ + ": " + message); }

}  // namespace softfit

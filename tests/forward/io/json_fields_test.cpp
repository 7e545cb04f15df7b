// JsonFields: integers are read as 64 bits and range-checked (no wrap modulo 2^32);
// readJsonFile turns any nlohmann error (syntax, a number such as 1e400) into an
// InputError naming the file.
#include "forward/io/json_fields.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "forward/errors.h"

namespace softfit {
namespace {

template <class F>
std::string inputErrorOf(F&& body) {
  try {
    body();
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no InputError";
  return "";
}

TEST(JsonFields, IntegersOutsideTheIntRangeAreRefusedNotWrapped) {
  const nlohmann::json j = nlohmann::json::parse(
      R"({"steps": 4294967299, "low": -4294967296, "max": 2147483647, "min": -2147483648, "cells": [1, 4294967297, 1]})");
  const JsonFields f(j, "time");
  EXPECT_EQ(f.integer("max"), 2147483647);
  EXPECT_EQ(f.integer("min"), -2147483647 - 1);
  const std::string steps = inputErrorOf([&] { f.integer("steps"); });
  EXPECT_NE(steps.find("time.steps"), std::string::npos) << steps;
  EXPECT_NE(steps.find("out of range"), std::string::npos) << steps;
  EXPECT_NE(inputErrorOf([&] { f.integer("low", 3); }).find("time.low"), std::string::npos);
  const std::string cells = inputErrorOf([&] { f.integerArray("cells"); });
  EXPECT_NE(cells.find("time.cells[1]"), std::string::npos) << cells;
}

TEST(JsonFields, ReadJsonFileNamesTheFileForANumberThatOverflowsADouble) {
  const std::string path = (std::filesystem::temp_directory_path() / "softfit_json_fields_1e400.json").string();
  std::ofstream(path) << R"({"material": {"youngs_modulus": 1e400}})";
  const std::string message = inputErrorOf([&] { readJsonFile(path); });
  std::filesystem::remove(path);
  EXPECT_NE(message.find(path), std::string::npos) << message;
}

}  // namespace
}  // namespace softfit

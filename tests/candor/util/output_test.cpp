// Processes without a shell, crash-safe files, RFC 4180 fields and the checks on Weka learners of grids.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "candor/experiments/weka.hpp"
#include "candor/util/output.hpp"
#include "candor/util/process.hpp"

namespace fs = std::filesystem;
using namespace candor;

namespace {

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("candor-output-test-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string read(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

std::size_t temporary_files(const fs::path& dir) {
  std::size_t n = 0;
  for (const auto& e : fs::directory_iterator(dir))
    n += e.path().filename().string().find(".tmp-") != std::string::npos;
  return n;
}

}  // namespace

TEST(Process, ArgumentsReachTheProgramAsTheyAreAndNoShellReadsThem) {
  const fs::path dir = fresh_dir("argv");
  const std::string attack = "x'$(touch " + (dir / "PWNED").string() + ")'; touch " + (dir / "PWNED2").string() + "\n#";
  ProcessOptions o;
  o.capture_stdout = true;
  const ProcessResult r = run_process({"printf", "%s|", attack, "two words"}, o);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.output, attack + "|two words|");
  EXPECT_FALSE(fs::exists(dir / "PWNED"));
  EXPECT_FALSE(fs::exists(dir / "PWNED2"));
}

TEST(Process, ExitCodesSignalsAndMissingPrograms) {
  const std::string python = CANDOR_TEST_PYTHON;
  EXPECT_EQ(run_process({python, "-c", "import sys; sys.exit(3)"}).exit_code, 3);
  EXPECT_EQ(run_process({python, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGKILL)"}).exit_code, 128 + 9);
  EXPECT_EQ(run_process({"candor-no-such-program-anywhere"}).exit_code, 127);
  const fs::path dir = fresh_dir("stderr");
  ProcessOptions o;
  o.stderr_path = (dir / "err.txt").string();
  EXPECT_EQ(run_process({python, "-c", "import sys; sys.stderr.write('oops\\n')"}, o).exit_code, 0);
  EXPECT_EQ(read(dir / "err.txt"), "oops\n");
  o.stderr_path.clear();
  o.capture_stdout = o.stderr_to_stdout = true;
  EXPECT_EQ(
      run_process({python, "-c", "import sys; print('out'); sys.stdout.flush(); sys.stderr.write('err')"}, o).output,
      "out\nerr");
}

TEST(Output, AtomicWriteReplacesWholeAndLeavesNoTemporaryFile) {
  const fs::path dir = fresh_dir("atomic");
  const std::string path = (dir / "m.json").string();
  write_file_atomic(path, "first\n");
  write_file_atomic(path, "second, longer\n");
  EXPECT_EQ(read(path), "second, longer\n");
  EXPECT_EQ(temporary_files(dir), 0u);
  EXPECT_THROW(write_file_atomic((dir / "no-folder" / "m.json").string(), "x"), OutputError);
  fs::create_directories(dir / "a-dir");
  EXPECT_THROW(write_file_atomic((dir / "a-dir").string(), "x"), OutputError);
  EXPECT_EQ(read(path), "second, longer\n");
}

// A writer killed at a random moment of a long write leaves the previous file as it was, every time.
TEST(Output, WriterKilledMidwayLeavesThePreviousFileWhole) {
  const fs::path dir = fresh_dir("killed");
  const std::string path = (dir / "m.json").string();
  write_file_atomic(path, "the previous model\n");
  for (int attempt = 0; attempt < 3; ++attempt) {
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      const std::string big(256u << 20, 'x');
      try {
        write_file_atomic(path, big);
      } catch (...) {
      }
      ::_exit(0);
    }
    // Kill it once its temporary file exists and is being filled.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (temporary_files(dir) == 0 && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    ::kill(child, SIGKILL);
    int status = 0;
    ::waitpid(child, &status, 0);
    ASSERT_TRUE(WIFSIGNALED(status)) << "the writer finished before it could be killed";
    EXPECT_EQ(read(path), "the previous model\n");
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path() != fs::path(path)) fs::remove(e.path());
  }
}

TEST(Output, CsvFieldsFollowRfc4180) {
  EXPECT_EQ(csv_field("plain"), "plain");
  EXPECT_EQ(csv_field(""), "");
  EXPECT_EQ(csv_field("yes,sure"), "\"yes,sure\"");
  EXPECT_EQ(csv_field("p(no \"way\")"), "\"p(no \"\"way\"\")\"");
  EXPECT_EQ(csv_field("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(csv_field("cr\r"), "\"cr\r\"");
  EXPECT_EQ(csv_field(" padded"), "\" padded\"");
}

TEST(Weka, ClassifiersAndTheirOptionsAreReadAsArguments) {
  const WekaClassifier w =
      parse_weka_classifier("weka.classifiers.meta.AdaBoostM1  -W weka.classifiers.trees.J48 -- -C 0.25");
  EXPECT_EQ(w.class_name, "weka.classifiers.meta.AdaBoostM1");
  EXPECT_EQ(w.options, (std::vector<std::string>{"-W", "weka.classifiers.trees.J48", "--", "-C", "0.25"}));
  EXPECT_EQ(w.text(), "weka.classifiers.meta.AdaBoostM1 -W weka.classifiers.trees.J48 -- -C 0.25");
  EXPECT_EQ(parse_weka_classifier("weka.classifiers.rules.JRip -F 3 -N 2.0 -O 2 -S 1").options.size(), 8u);
  EXPECT_EQ(parse_weka_classifier("weka.classifiers.functions.Logistic -R 1.0E-8 -M -1").options.back(), "-1");
}

TEST(Weka, WhatCouldRunCommandsOrTouchFilesIsRefused) {
  for (const std::string& text : std::vector<std::string>{
           "weka.classifiers.rules.ZeroR\ntouch PWNED #",
           "-cp . Evil",
           "-cp /tmp Evil",
           "weka.classifiers.rules.ZeroR -d out.model",
           "weka.classifiers.rules.ZeroR -l in.model",
           "weka.classifiers.rules.ZeroR -t x.arff",
           "weka.classifiers.rules.ZeroR -T x",
           "weka.classifiers.rules.ZeroR -xml opts",
           "weka.classifiers.rules.ZeroR -threshold-file f",
           "weka.classifiers.rules.ZeroR -classifications weka.classifiers.evaluation.output.prediction.CSV",
           "weka.classifiers.misc.SerializedClassifier -model m",
           "weka.classifiers.misc.InputMappedClassifier -L m",
           "weka.classifiers.rules.ZeroR $(touch X)",
           "weka.classifiers.rules.ZeroR `id`",
           "weka.classifiers.rules.ZeroR;id",
           "weka.classifiers.rules.ZeroR | id",
           "weka.classifiers.rules.ZeroR > f",
           "weka.classifiers.rules.ZeroR 'q'",
           "weka.classifiers.rules.ZeroR @args",
           "weka.classifiers.rules.ZeroR -Dx=y",
           "java.lang.Runtime",
           "weka.core.Version",
           "weka.classifiers.",
           "weka.classifiers..J48",
           "weka.classifiers.trees.1J48",
           "",
           "   ",
           std::string("weka.classifiers.rules.ZeroR\0 x", 31)})
    EXPECT_THROW(parse_weka_classifier(text), std::invalid_argument) << text;
}

// A replaced file keeps its permission bits (a private 0600 model stays 0600), and a new one gets the umask's.
TEST(Output, ReplacedFileKeepsItsModeAndNewFileTheUmasks) {
  const fs::path dir = fresh_dir("mode");
  const fs::path file = dir / "model.json";
  write_file_atomic(file.string(), "first\n");
  const mode_t mask = ::umask(0);
  ::umask(mask);
  EXPECT_EQ(fs::status(file).permissions(), static_cast<fs::perms>(0666 & ~mask));
  for (const fs::perms mode :
       {static_cast<fs::perms>(0600), static_cast<fs::perms>(0640), static_cast<fs::perms>(0755)}) {
    fs::permissions(file, mode);
    write_file_atomic(file.string(), "again\n");
    EXPECT_EQ(fs::status(file).permissions(), mode);
    EXPECT_EQ(read(file), "again\n");
  }
  fs::remove_all(dir);
}

// Run as root (as CI is), a file of another user keeps that owner and group when candor replaces it.
TEST(Output, ReplacedFileKeepsItsOwner) {
  if (::geteuid() != 0) GTEST_SKIP() << "changing a file's owner needs root";
  const fs::path dir = fresh_dir("owner");
  const fs::path file = dir / "theirs.json";
  write_file_atomic(file.string(), "first\n");
  ASSERT_EQ(::chown(file.c_str(), 12345, 23456), 0);
  write_file_atomic(file.string(), "second\n");
  struct stat st {};
  ASSERT_EQ(::stat(file.c_str(), &st), 0);
  EXPECT_EQ(st.st_uid, 12345u);
  EXPECT_EQ(st.st_gid, 23456u);
  EXPECT_EQ(read(file), "second\n");
  fs::remove_all(dir);
}

// Without following links, a link at the path is replaced, and what it pointed to stays untouched; a FIFO is
// refused instead of written into (which would wait for a reader for ever).
TEST(Output, WriteThatFollowsNoLinkReplacesTheLinkAndRefusesAFifo) {
  const fs::path dir = fresh_dir("nofollow");
  const fs::path outside = dir / "outside.txt";
  write_file_atomic(outside.string(), "keep\n");
  fs::create_symlink(outside, dir / "entry.json");
  write_file_atomic((dir / "entry.json").string(), "cache\n", false);
  EXPECT_FALSE(fs::is_symlink(dir / "entry.json"));
  EXPECT_EQ(read(dir / "entry.json"), "cache\n");
  EXPECT_EQ(read(outside), "keep\n");
  ASSERT_EQ(::mkfifo((dir / "fifo.json").c_str(), 0600), 0);
  EXPECT_THROW(write_file_atomic((dir / "fifo.json").string(), "x", false), OutputError);
  fs::remove_all(dir);
}

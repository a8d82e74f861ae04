#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <memory>

#include "journal/json_read.h"
#include "journal/writer.h"
#include "scratch_dir.h"

namespace aj {
namespace {

std::vector<std::string> read_lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

JsonValue parse_line(const std::string& line) {
  auto v = parse_json(line);
  REQUIRE_MESSAGE(v.has_value(), line);
  return *v;
}

mode_t mode_of(const std::string& path) {
  struct stat st {};
  REQUIRE(::lstat(path.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

// A fixed clock that ticks one millisecond per event.
JournalWriter::Clock ticking_clock() {
  auto t = std::make_shared<std::chrono::system_clock::time_point>(
      std::chrono::system_clock::time_point(std::chrono::seconds(1796064000)));
  return [t] {
    *t += std::chrono::milliseconds(1);
    return *t;
  };
}

}  // namespace

TEST_CASE("the default journal lives under the state directory's sessions") {
  CHECK(default_journal_path("/home/a/.local/state/agentjail", "3f2a") ==
        "/home/a/.local/state/agentjail/sessions/3f2a.jsonl");
}

TEST_CASE("the writer creates private directories and a private file") {
  ScratchDir tmp("aj-journal-test");
  std::string path = tmp.path + "/state/agentjail/sessions/s1.jsonl";
  mode_t old = ::umask(0);  // the modes must not depend on a permissive umask
  auto w = JournalWriter::open(path, "s1");
  ::umask(old);
  REQUIRE_MESSAGE(w.has_value(), w.error().render());
  CHECK(mode_of(path) == 0600);
  CHECK(mode_of(tmp.path + "/state") == 0700);
  CHECK(mode_of(tmp.path + "/state/agentjail/sessions") == 0700);
  CHECK((::fcntl(w->fd(), F_GETFD) & FD_CLOEXEC) != 0);
}

TEST_CASE("seq starts at 1 and has no gaps; ts and session are stamped") {
  ScratchDir tmp("aj-journal-test");
  std::string path = tmp.path + "/j.jsonl";
  auto w = JournalWriter::open(path, "abc");
  REQUIRE(w.has_value());
  w->set_clock(ticking_clock());
  for (int i = 0; i < 5; ++i) REQUIRE(w->write(JournalEvent("exec").with_pid(i)).has_value());
  REQUIRE(w->write(JournalEvent("syscall.deny").deny("seccomp")).has_value());
  REQUIRE(w->finish().has_value());
  auto lines = read_lines(path);
  REQUIRE(lines.size() == 6);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    JsonValue v = parse_line(lines[i]);
    CHECK(v.get("seq")->as_uint() == i + 1);
    CHECK(v.get("session")->text == "abc");
    CHECK(v.get("v")->as_int() == 1);
  }
  CHECK(parse_line(lines[0]).get("ts")->text == "2026-11-30T18:40:00.001000Z");
  CHECK(parse_line(lines[5]).get("ts")->text == "2026-11-30T18:40:00.006000Z");
  CHECK(w->last_seq() == 6);
  CHECK(w->counts() == JournalCounts{{"exec", 5}, {"syscall.deny", 1}});
  CHECK(w->denied() == 1);
}

TEST_CASE("the writer redacts secrets in every string field") {
  ScratchDir tmp("aj-journal-test");
  std::string path = tmp.path + "/j.jsonl";
  auto w = JournalWriter::open(path, "s");
  REQUIRE(w.has_value());
  w->redactor().add_secret_environment({"MY_API_KEY=supersecretvalue"});
  JournalEvent e("exec");
  e.allow("seccomp", "rule supersecretvalue")
      .set("path", "/tmp/supersecretvalue")
      .set("argv", std::vector<std::string>{"curl", "-H", "Authorization: Bearer abc123def456",
                                            "--password", "hunter2", "supersecretvalue"})
      .set("cwd", "ghp_0123456789abcdefghijABCDEFGHIJklmn");
  REQUIRE(w->write(std::move(e)).has_value());
  auto lines = read_lines(path);
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].find("supersecretvalue") == std::string::npos);
  CHECK(lines[0].find("hunter2") == std::string::npos);
  CHECK(lines[0].find("abc123def456") == std::string::npos);
  CHECK(lines[0].find("ghp_") == std::string::npos);
  JsonValue v = parse_line(lines[0]);
  CHECK(v.get("path")->text == "/tmp/[REDACTED]");
  CHECK(v.get("rule")->text == "rule [REDACTED]");
  CHECK(v.get("argv")->items[2].text == "Authorization: Bearer [REDACTED]");
  CHECK(v.get("argv")->items[4].text == "[REDACTED]");
}

TEST_CASE("long strings and long lists are cut, after redaction") {
  ScratchDir tmp("aj-journal-test");
  std::string path = tmp.path + "/j.jsonl";
  auto w = JournalWriter::open(path, "s");
  REQUIRE(w.has_value());
  std::string secret = "ghp_0123456789abcdefghijABCDEFGHIJklmn";
  std::string longarg = std::string(JournalWriter::kMaxStringBytes - 10, 'a') + " " + secret;
  std::vector<std::string> many(5000, std::string(100, 'b'));
  REQUIRE(w->write(JournalEvent("exec").set("path", longarg).set("argv", many)).has_value());
  auto lines = read_lines(path);
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].find("ghp_0123") == std::string::npos);  // never half a secret
  JsonValue v = parse_line(lines[0]);
  CHECK(v.get("path")->text.size() < JournalWriter::kMaxStringBytes + 32);
  const auto& items = v.get("argv")->items;
  CHECK(items.size() < many.size());
  CHECK(items.back().text.find(" more]") != std::string::npos);
}

TEST_CASE("the writer appends to an existing journal and refuses a symbolic link") {
  ScratchDir tmp("aj-journal-test");
  std::string path = tmp.path + "/j.jsonl";
  {
    std::ofstream out(path);
    out << "{\"v\":1,\"event\":\"old\"}\n";
  }
  {
    auto w = JournalWriter::open(path, "s");
    REQUIRE(w.has_value());
    REQUIRE(w->write(JournalEvent("new")).has_value());
  }
  CHECK(read_lines(path).size() == 2);

  std::string link = tmp.path + "/link.jsonl";
  REQUIRE(::symlink(path.c_str(), link.c_str()) == 0);
  auto w = JournalWriter::open(link, "s");
  REQUIRE_FALSE(w.has_value());
  CHECK(w.error().render().find("symbolic link") != std::string::npos);
  CHECK(read_lines(path).size() == 2);
}

TEST_CASE("fd:N writes to an inherited descriptor and takes it over") {
  ScratchDir tmp("aj-journal-test");
  std::string path = tmp.path + "/j.jsonl";
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  REQUIRE(fd > 2);
  {
    auto w = JournalWriter::open("fd:" + std::to_string(fd), "s");
    REQUIRE(w.has_value());
    CHECK(w->fd() == fd);
    CHECK((::fcntl(fd, F_GETFD) & FD_CLOEXEC) != 0);
    REQUIRE(w->write(JournalEvent("session.start")).has_value());
  }
  CHECK(::fcntl(fd, F_GETFD) < 0);  // closed with the writer
  CHECK(read_lines(path).size() == 1);
}

TEST_CASE("bad journal targets are refused with a clear message") {
  const char* bad[] = {"", "fd:", "fd:x", "fd:-1", "fd:999999", "fd:12x"};
  for (const char* t : bad) {
    CAPTURE(t);
    auto w = JournalWriter::open(t, "s");
    CHECK_FALSE(w.has_value());
  }
  int p[2];
  REQUIRE(::pipe(p) == 0);
  auto ro = JournalWriter::open("fd:" + std::to_string(p[0]), "s");
  REQUIRE_FALSE(ro.has_value());
  CHECK(ro.error().render().find("not open for writing") != std::string::npos);
  ::close(p[0]);
  ::close(p[1]);
}

TEST_CASE("a failed write is an error and does not use up a sequence number") {
  // /dev/full: every write fails with ENOSPC.
  auto w = JournalWriter::open("/dev/full", "s");
  REQUIRE(w.has_value());
  auto r = w->write(JournalEvent("exec"));
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().errnum == ENOSPC);
  CHECK(r.error().render().find("/dev/full") != std::string::npos);
  CHECK(w->last_seq() == 0);
  CHECK(w->counts().empty());
}

TEST_CASE("a journal on a pipe gets whole lines") {
  int p[2];
  REQUIRE(::pipe(p) == 0);
  auto w = JournalWriter::open("fd:" + std::to_string(p[1]), "s");
  REQUIRE(w.has_value());
  REQUIRE(w->write(JournalEvent("a")).has_value());
  REQUIRE(w->write(JournalEvent("b")).has_value());
  REQUIRE(w->finish().has_value());  // fsync on a pipe is not an error
  char buf[4096];
  ssize_t n = ::read(p[0], buf, sizeof buf);
  REQUIRE(n > 0);
  std::string got(buf, static_cast<std::size_t>(n));
  CHECK(std::count(got.begin(), got.end(), '\n') == 2);
  CHECK(got.find("\"event\":\"a\"") != std::string::npos);
  ::close(p[0]);
}

}  // namespace aj

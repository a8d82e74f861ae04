#include <doctest/doctest.h>

#include "journal/event.h"
#include "journal/reader.h"
#include "journal/sessions.h"
#include "journal/summary.h"

namespace aj {
namespace {

JournalRecord record(const std::string& line) {
  auto r = parse_journal_line(line);
  REQUIRE_MESSAGE(r.has_value(), line);
  return *r;
}

// A record as the writer would produce it.
JournalRecord written(const JournalEvent& e, std::uint64_t seq = 1,
                      const std::string& session = "s1",
                      const std::string& ts = "2026-11-29T18:40:00.123456Z") {
  std::string line = serialize_journal_event(e, {ts, session, seq});
  line.pop_back();
  return record(line);
}

}  // namespace

TEST_CASE("a journal line parses into its common fields") {
  JournalRecord r =
      record(R"({"v":1,"ts":"2026-11-29T18:40:00.123456Z","session":"3f2a","seq":7,"event":"exec",)"
             R"("decision":"allow","layer":"seccomp","pid":42,"path":"/bin/ls"})");
  CHECK(r.event == "exec");
  CHECK(r.decision == "allow");
  CHECK(r.session == "3f2a");
  CHECK(r.ts == "2026-11-29T18:40:00.123456Z");
  CHECK(r.seq == 7u);
  CHECK(r.pid == 42);
  CHECK(r.json.string_or("path") == "/bin/ls");
}

TEST_CASE("lines that are not journal events are recognised") {
  const char* bad[] = {
      "",
      "not json",
      "[1,2]",
      "\"string\"",
      "{}",
      R"({"event":"exec"})",          // no version
      R"({"v":"1","event":"exec"})",  // version not a number
      R"({"v":0,"event":"exec"})",    // no such version
      R"({"v":1,"event":7})",         // event not a string
      R"({"v":1,"event":"exec")",     // cut off
      R"({"v":1,"event":"exec"} {"v":1})",
  };
  for (const char* line : bad) {
    CAPTURE(line);
    CHECK_FALSE(parse_journal_line(line).has_value());
  }
}

TEST_CASE("the filters keep denials, exact event types and event families") {
  std::vector<JournalRecord> all = {
      written(JournalEvent("session.start")),
      written(JournalEvent("exec").allow("seccomp")),
      written(JournalEvent("syscall.deny").deny("seccomp")),
      written(JournalEvent("net.connect").deny("proxy")),
      written(JournalEvent("net.request").allow("proxy")),
      written(JournalEvent("session.end")),
  };
  struct Row {
    bool denied;
    std::vector<std::string> events;
    std::vector<std::string> want;
  };
  const Row rows[] = {
      {false,
       {},
       {"session.start", "exec", "syscall.deny", "net.connect", "net.request", "session.end"}},
      {true, {}, {"syscall.deny", "net.connect"}},
      {false, {"exec"}, {"exec"}},
      {false, {"exec", "session.end"}, {"exec", "session.end"}},
      {false, {"net"}, {"net.connect", "net.request"}},
      {false, {"session"}, {"session.start", "session.end"}},
      {true, {"net"}, {"net.connect"}},
      {false, {"ne"}, {}},  // a family is a whole dotted word
      {false, {"exec.x"}, {}},
      {true, {"exec"}, {}},
  };
  for (const Row& r : rows) {
    JournalFilter f{r.denied, r.events};
    std::vector<std::string> got;
    for (const JournalRecord& rec : all)
      if (f.matches(rec)) got.push_back(rec.event);
    CAPTURE(r.denied);
    CAPTURE(r.events.size());
    CHECK(got == r.want);
  }
}

TEST_CASE("the line buffer holds back a line until its newline arrives") {
  LineBuffer b;
  b.feed("one\ntw");
  CHECK(b.next_line() == "one");
  CHECK_FALSE(b.next_line());
  b.feed("o\r\nthree");
  CHECK(b.next_line() == "two");
  CHECK_FALSE(b.next_line());
  b.feed("\n\n");
  CHECK(b.next_line() == "three");
  CHECK(b.next_line() == "");
  CHECK_FALSE(b.next_line());
  CHECK_FALSE(b.take_rest());
  b.feed("tail");
  CHECK_FALSE(b.next_line());
  CHECK(b.take_rest() == "tail");
}

TEST_CASE("following stops once every session seen has ended") {
  SessionTracker t;
  CHECK_FALSE(t.all_ended());
  t.add(written(JournalEvent("session.start"), 1, "a"));
  t.add(written(JournalEvent("exec"), 2, "a"));
  CHECK_FALSE(t.all_ended());
  t.add(written(JournalEvent("session.end"), 3, "a"));
  CHECK(t.all_ended());
  t.add(written(JournalEvent("session.start"), 1, "b"));  // a second session appended
  CHECK_FALSE(t.all_ended());
  t.add(written(JournalEvent("session.end"), 9, "b"));
  CHECK(t.all_ended());
}

TEST_CASE("each event type has a one-line summary") {
  struct Row {
    JournalEvent event;
    const char* summary;
  };
  const Row rows[] = {
      {JournalEvent("session.start")
           .set("argv", std::vector<std::string>{"bash", "-c", "ls; git --version"})
           .set("profile_chain",
                std::vector<std::string>{"/p/base.toml", "/etc/p/default.toml", "command line"}),
       "bash -c 'ls; git --version' (profile default)"},
      {JournalEvent("session.start")
           .set("argv", std::vector<std::string>{"x"})
           .set("profile_chain", std::vector<std::string>{"command line"}),
       "x"},
      {JournalEvent("session.end").set("exit_code", 0).set("duration_ms", 1234).set("denied", 2),
       "exit 0 after 1.2s, 2 denied"},
      {JournalEvent("session.end").set("exit_code", 0).set("duration_ms", 44).set("denied", 0),
       "exit 0 after 44ms"},
      {JournalEvent("session.end").set("exit_code", 124).set("timed_out", true),
       "exit 124 (timeout)"},
      {JournalEvent("session.end").set("exit_code", 137).set("signal", 9), "exit 137 (SIGKILL)"},
      {JournalEvent("session.end"), "ended"},
      {JournalEvent("exec")
           .with_pid(12)
           .set("ppid", 5)
           .set("path", "/usr/bin/git")
           .set("argv", std::vector<std::string>{"git", "--version"}),
       "/usr/bin/git: git --version (pid 12, ppid 5)"},
      {JournalEvent("syscall.deny")
           .with_pid(7)
           .set("syscall", "ioctl")
           .set("args", "request=TIOCSTI (0x5412)")
           .set("errno", 1)
           .set("error", "EPERM"),
       "ioctl(request=TIOCSTI (0x5412)) -> EPERM (pid 7)"},
      {JournalEvent("syscall.deny")
           .set("syscall", "socket")
           .set("args", std::vector<std::string>{"AF_PACKET", "SOCK_RAW"})
           .set("errno", 1),
       "socket(AF_PACKET, SOCK_RAW) -> 1"},
      {JournalEvent("fs.deny")
           .with_pid(3)
           .set("path", "/home/u/.ssh/id_rsa")
           .set("access", "read")
           .set("syscall", "openat"),
       "read /home/u/.ssh/id_rsa (openat, pid 3)"},
      {JournalEvent("fs.deny")
           .with_pid(4)
           .set("path", "/tmp/k")
           .set("leads_to", "/home/u/.ssh/id_rsa")
           .set("access", "read"),
       "read /tmp/k -> /home/u/.ssh/id_rsa (pid 4)"},
      {JournalEvent("limit").set("limit", "wall_time").set("value", "90s"), "wall_time 90s"},
      {JournalEvent("signal").set("signal", 15).set("name", "TERM").set("action", "forwarded"),
       "SIGTERM (forwarded)"},
      {JournalEvent("signal").set("signal", 2), "SIGINT"},
      {JournalEvent("net.connect")
           .set("host", "evil.example")
           .set("port", 443)
           .set("reason", "not in allowlist"),
       "evil.example:443 (not in allowlist)"},
      {JournalEvent("approval").set("what", "x").set("granted", false), "what=x granted=false"},
  };
  for (const Row& r : rows) {
    CAPTURE(r.event.event);
    CHECK(journal_summary(written(r.event)) == r.summary);
  }
}

TEST_CASE("summaries cannot smuggle terminal control sequences") {
  JournalEvent e("exec");
  e.set("path", "/tmp/\x1b]0;pwned\x07x")
      .set("argv", std::vector<std::string>{"a\nb",
                                            "\xe2\x80\xae"
                                            "txt"});
  std::string s = journal_summary(written(e));
  CHECK(s.find('\x1b') == std::string::npos);
  CHECK(s.find('\x07') == std::string::npos);
  CHECK(s.find('\n') == std::string::npos);
  CHECK(s.find("\xe2\x80\xae") == std::string::npos);
  CHECK(s.find("\\x1b]0;pwned\\x07") != std::string::npos);
  CHECK(display_safe("ok \xc2\x9b c1 \xff") == "ok \\u009b c1 \\xff");
  // Past U+FFFF, eight digits: "\ue0041" would read as U+E004 and a "1".
  CHECK(display_safe("tag \xf3\xa0\x81\x81"
                     "1") == "tag \\U000e00411");
  // Characters that show nothing: soft hyphen, Arabic letter mark, zero-width
  // space, line separator, word joiner, byte-order mark, a tag character.
  struct Row {
    const char* in;
    const char* out;
  };
  const Row rows[] = {{"a\xc2\xad", "a\\u00ad"},
                      {"a\xd8\x9c", "a\\u061c"},
                      {"a\xe2\x80\x8b", "a\\u200b"},
                      {"a\xe2\x80\xa8", "a\\u2028"},
                      {"a\xe2\x81\xa0", "a\\u2060"},
                      {"a\xef\xbb\xbf", "a\\ufeff"},
                      {"a\xf3\xa0\x80\x81", "a\\U000e0001"},
                      {"caf\xc3\xa9", "caf\xc3\xa9"},
                      {"a\xcd\x8f", "a\\u034f"},
                      {"a\xe3\x85\xa4", "a\\u3164"},
                      {"a\xef\xb8\x8f", "a\\ufe0f"},
                      {"a\\u202e", "a\\\\u202e"}};
  for (const Row& r : rows) {
    CAPTURE(r.in);
    CHECK(display_safe(r.in) == r.out);
  }
}

TEST_CASE("words are shell-quoted only when needed") {
  CHECK(shell_quote("ls") == "ls");
  CHECK(shell_quote("/usr/bin/git") == "/usr/bin/git");
  CHECK(shell_quote("") == "''");
  CHECK(shell_quote("a b") == "'a b'");
  CHECK(shell_quote("it's") == "'it'\\''s'");
  CHECK(shell_quote("$HOME") == "'$HOME'");
  CHECK(shell_join({"sh", "-c", "true; false"}) == "sh -c 'true; false'");
}

TEST_CASE("the table shows time, event, decision and summary") {
  CHECK(display_time("2026-11-29T18:40:00.123456Z", TimeZone::kUtc) == "18:40:00.123");
  CHECK(display_time("2026-11-29T18:40:00Z", TimeZone::kUtc) == "18:40:00.000");
  CHECK(display_time("2026-11-29T18:40:00.5Z", TimeZone::kUtc, true) == "2026-11-29 18:40:00");
  CHECK(display_time("yesterday", TimeZone::kUtc) == "yesterday");
  CHECK(display_time("2026-11-29T18:40:00.1+01:00", TimeZone::kUtc) ==
        "2026-11-29T18:40:00.1+01:00");
  CHECK(journal_table_header() == "TIME          EVENT          DECISION  SUMMARY");
  JournalEvent e("syscall.deny");
  e.deny("seccomp").set("syscall", "ptrace").set("args", "PTRACE_ATTACH, 1");
  CHECK(journal_table_row(written(e), TimeZone::kUtc) ==
        "18:40:00.123  syscall.deny   deny      ptrace(PTRACE_ATTACH, 1)");
  CHECK(journal_table_row(written(JournalEvent("session.start")), TimeZone::kUtc) ==
        "18:40:00.123  session.start  -         ");
}

TEST_CASE("sessions are summarised from their events, newest last") {
  SessionIndex index;
  auto add = [&](const JournalEvent& e, const std::string& session, const std::string& ts) {
    index.add(written(e, 1, session, ts), "/s/" + session + ".jsonl", session);
  };
  add(JournalEvent("session.start").set("argv", std::vector<std::string>{"make", "-j8"}), "newer",
      "2026-11-29T18:00:00.000000Z");
  add(JournalEvent("syscall.deny").deny("seccomp"), "newer", "2026-11-29T18:00:01.000000Z");
  add(JournalEvent("net.connect").deny("proxy"), "newer", "2026-11-29T18:00:02.000000Z");
  add(JournalEvent("session.end").set("exit_code", 2), "newer", "2026-11-29T18:00:03.000000Z");
  add(JournalEvent("session.start").set("argv", std::vector<std::string>{"sh", "-c", "x y"}),
      "older", "2026-11-28T09:00:00.000000Z");
  add(JournalEvent("exec").allow("seccomp"), "older", "2026-11-28T09:00:01.000000Z");

  std::vector<SessionSummary> s = index.sessions();
  REQUIRE(s.size() == 2);
  CHECK(s[0].id == "older");
  CHECK_FALSE(s[0].ended);
  CHECK(s[0].denied == 0);
  CHECK(s[0].events == 2);
  CHECK(s[1].id == "newer");
  CHECK(s[1].ended);
  CHECK(s[1].exit == "2");
  CHECK(s[1].denied == 2);
  CHECK(s[1].argv == std::vector<std::string>{"make", "-j8"});
  CHECK(format_session_table(s, TimeZone::kUtc) ==
        "SESSION  START                EXIT            DENIED  COMMAND\n"
        "older    2026-11-28 09:00:00  -                    0  sh -c 'x y'\n"
        "newer    2026-11-29 18:00:00  2                    2  make -j8\n");
}

TEST_CASE("a whole session is summarised from its first and last lines") {
  JournalRecord start =
      written(JournalEvent("session.start").set("argv", std::vector<std::string>{"make", "-j8"}), 1,
              "s1", "2026-11-29T18:00:00.000000Z");
  JournalEvent end("session.end");
  end.set("exit_code", 2).set("denied", static_cast<std::uint64_t>(7));
  JournalRecord last = written(end, 5000, "s1", "2026-11-29T18:10:00.000000Z");

  auto s = summary_from_ends(start, last, "/s/s1.jsonl", "s1");
  REQUIRE(s.has_value());
  CHECK(s->id == "s1");
  CHECK(s->start == "2026-11-29T18:00:00.000000Z");
  CHECK(s->argv == std::vector<std::string>{"make", "-j8"});
  CHECK(s->ended);
  CHECK(s->exit == "2");
  CHECK(s->denied == 7);
  CHECK(s->events == 5000);

  // The same session added again, by its events, replaces the summary.
  SessionIndex index;
  index.add_summary(*s);
  index.add(start, "/s/s1.jsonl", "s1");
  REQUIRE(index.sessions().size() == 1);
}

TEST_CASE("first and last lines that do not frame one session are read through instead") {
  JournalRecord start = written(JournalEvent("session.start"), 1, "s1");
  JournalEvent end("session.end");
  end.set("exit_code", 0).set("denied", static_cast<std::uint64_t>(0));
  JournalEvent end_without_count("session.end");
  end_without_count.set("exit_code", 0);

  SUBCASE("the last line is not session.end: still running, or killed") {
    CHECK_FALSE(summary_from_ends(start, written(JournalEvent("exec").allow("seccomp"), 9, "s1"),
                                  "/s/s1.jsonl", "s1"));
  }
  SUBCASE("the first line is not session.start") {
    CHECK_FALSE(summary_from_ends(written(JournalEvent("exec").allow("seccomp"), 1, "s1"),
                                  written(end, 9, "s1"), "/s/s1.jsonl", "s1"));
  }
  SUBCASE("two sessions in one file") {
    CHECK_FALSE(summary_from_ends(start, written(end, 9, "s2"), "/s/s1.jsonl", "s1"));
  }
  SUBCASE("session.end without its denial count (written by hand)") {
    CHECK_FALSE(summary_from_ends(start, written(end_without_count, 9, "s1"), "/s/s1.jsonl", "s1"));
  }
  SUBCASE("the sequence runs backwards") {
    CHECK_FALSE(summary_from_ends(written(JournalEvent("session.start"), 10, "s1"),
                                  written(end, 9, "s1"), "/s/s1.jsonl", "s1"));
  }
}

TEST_CASE("events without a session id are filed under the journal's name") {
  SessionIndex index;
  index.add(record(R"({"v":1,"event":"exec","ts":"2026-01-01T00:00:00Z"})"), "/x/f.jsonl", "f");
  auto s = index.sessions();
  REQUIRE(s.size() == 1);
  CHECK(s[0].id == "f");
}

}  // namespace aj

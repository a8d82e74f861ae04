// `agentjail journal` and `agentjail sessions`: read the journals the
// supervisor wrote under $XDG_STATE_HOME/agentjail/sessions (or any journal
// file) back as a table, filtered, or followed while a session runs.
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "app_commands.h"
#include "base/exit_codes.h"
#include "base/log.h"
#include "base/unique_fd.h"
#include "journal/event.h"
#include "journal/reader.h"
#include "journal/sessions.h"
#include "journal/summary.h"

namespace aj {
namespace {

constexpr int kExitJournalProblem = 1;  // no such session, unreadable, malformed lines
constexpr long kFollowPollNs = 200'000'000;

// As the writer's default (sys/host_probe.cc): where run put the journals.
std::string sessions_dir() {
  const char* state = std::getenv("XDG_STATE_HOME");
  std::string base;
  if (state && *state) {
    base = state;
  } else {
    const char* home = std::getenv("HOME");
    base = std::string(home && *home ? home : "/") + "/.local/state";
  }
  return base + "/agentjail/sessions";
}

struct JournalFile {
  std::string path;
  std::string stem;  // the file name without ".jsonl": the session id
};

// Every *.jsonl regular file in dir (missing dir: none).
std::vector<JournalFile> journal_files(const std::string& dir) {
  std::vector<JournalFile> out;
  DIR* d = ::opendir(dir.c_str());
  if (!d) return out;
  while (struct dirent* ent = ::readdir(d)) {
    std::string name = ent->d_name;
    constexpr std::string_view kSuffix = ".jsonl";
    if (name.size() <= kSuffix.size() ||
        name.compare(name.size() - kSuffix.size(), kSuffix.size(), kSuffix) != 0)
      continue;
    std::string path = dir + "/" + name;
    struct stat st {};
    if (::stat(path.c_str(), &st) < 0 || !S_ISREG(st.st_mode)) continue;
    out.push_back({path, name.substr(0, name.size() - kSuffix.size())});
  }
  ::closedir(d);
  std::sort(out.begin(), out.end(),
            [](const JournalFile& a, const JournalFile& b) { return a.path < b.path; });
  return out;
}

Result<UniqueFd> open_for_reading(const std::string& path) {
  if (path == "-") return UniqueFd(::fcntl(0, F_DUPFD_CLOEXEC, 3));
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return sys_error("open", path, errno);
  return UniqueFd(fd);
}

// Reads what is there now; false on a read error (reported).
bool read_available(int fd, const std::string& path, LineBuffer& lines) {
  char buf[65536];
  while (true) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n > 0) {
      lines.feed(std::string_view(buf, static_cast<std::size_t>(n)));
    } else if (n == 0) {
      return true;
    } else if (errno != EINTR) {
      log::error("{}", sys_error("read", path, errno).error.render());
      return false;
    }
  }
}

// The start of a journal: the ts of its first event, or the file's mtime.
std::string journal_start(const JournalFile& f) {
  auto fd = open_for_reading(f.path);
  if (fd) {
    char buf[16384];
    ssize_t n = ::read(fd->get(), buf, sizeof buf);
    if (n > 0) {
      std::string_view text(buf, static_cast<std::size_t>(n));
      if (auto r = parse_journal_line(text.substr(0, text.find('\n'))); r && !r->ts.empty())
        return r->ts;
    }
  }
  struct stat st {};
  if (::stat(f.path.c_str(), &st) < 0) return {};
  auto t = std::chrono::system_clock::from_time_t(st.st_mtim.tv_sec);
  return format_journal_time(t);
}

// FILE, SESSION (or a unique prefix of one), or the newest session.
Result<std::string> resolve_source(const CliOptions& o) {
  const std::string dir = sessions_dir();
  if (o.journal_source && !o.journal_last) {
    const std::string& s = *o.journal_source;
    if (s == "-" || s.find('/') != std::string::npos) return s;
    // A session first, then a file of that name: a jailed command knows its
    // session id and may leave a file so named in the workspace, to be shown
    // in place of its journal to a user who looks it up from there.
    struct stat st {};
    const bool file = ::stat(s.c_str(), &st) == 0;
    std::vector<std::string> matches;
    for (const JournalFile& f : journal_files(dir)) {
      if (f.stem == s) matches = {f.path};
      if (f.stem == s) break;
      if (f.stem.compare(0, s.size(), s) == 0) matches.push_back(f.path);
    }
    if (matches.size() == 1) {
      if (file)
        log::warn(
            "'{}' is a session in {}: showing its journal, not the file '{}' here (say ./{} "
            "for the file)",
            s, dir, s, s);
      return matches[0];
    }
    if (file) return s;
    if (matches.size() > 1)
      return fail(fmt::format("session '{}' is ambiguous: {} sessions in {} start with it", s,
                              matches.size(), dir));
    return fail(fmt::format("no journal file '{}' and no such session in {}", s, dir));
  }
  std::string newest, newest_start;
  for (const JournalFile& f : journal_files(dir)) {
    std::string start = journal_start(f);
    if (newest.empty() || start >= newest_start) {
      newest = f.path;
      newest_start = start;
    }
  }
  if (newest.empty()) return fail(fmt::format("no recorded sessions in {}", dir));
  return newest;
}

class Printer {
 public:
  Printer(const CliOptions& o, std::string path) : o_(o), path_(std::move(path)) {
    filter_.denied_only = o.journal_denied;
    filter_.events = o.journal_events;
  }

  void line(const std::string& text) {
    ++line_no_;
    if (text.empty()) return;
    auto r = parse_journal_line(text);
    if (!r) {
      log::error("{}:{}: not a journal event", path_, line_no_);
      ++malformed_;
      return;
    }
    tracker_.add(*r);
    if (!filter_.matches(*r)) return;
    if (o_.json) {
      std::fputs(r->raw.c_str(), stdout);
      std::fputc('\n', stdout);
      return;
    }
    if (!header_done_) {
      std::puts(journal_table_header().c_str());
      header_done_ = true;
    }
    std::puts(journal_table_row(*r, TimeZone::kLocal).c_str());
  }

  bool all_ended() const { return tracker_.all_ended(); }
  std::size_t malformed() const { return malformed_; }

 private:
  const CliOptions& o_;
  std::string path_;
  JournalFilter filter_;
  SessionTracker tracker_;
  std::size_t line_no_ = 0;
  std::size_t malformed_ = 0;
  bool header_done_ = false;
};

void drain(LineBuffer& lines, Printer& printer) {
  while (auto l = lines.next_line()) printer.line(*l);
}

}  // namespace

int command_journal(const CliOptions& o) {
  if (o.journal_source && o.journal_last) {
    log::error("journal: give either FILE|SESSION or --last, not both");
    return kExitSetupFailed;
  }
  for (const std::string& type : o.journal_events)
    if (!is_event_type(type)) {
      log::error("--event '{}': not an event type (one of {}, or the part before a dot)",
                 display_safe(type), event_types_listed());
      return kExitSetupFailed;
    }
  auto path = resolve_source(o);
  if (!path) {
    log::error("{}", path.error().render());
    return kExitJournalProblem;
  }
  auto fd = open_for_reading(*path);
  if (!fd || !fd->valid()) {
    log::error("{}", fd ? "cannot read standard input" : fd.error().render());
    return kExitJournalProblem;
  }
  LineBuffer lines;
  Printer printer(o, *path == "-" ? "(standard input)" : *path);
  bool ok = read_available(fd->get(), *path, lines);
  drain(lines, printer);
  // Following: poll a file for growth; a partial last line waits for its
  // newline. End of input on a pipe is final: nothing more will come.
  struct stat st {};
  bool growable = ::fstat(fd->get(), &st) == 0 && S_ISREG(st.st_mode);
  while (ok && o.journal_follow && growable && !printer.all_ended()) {
    std::fflush(stdout);
    struct timespec pause {
      0, kFollowPollNs
    };
    ::nanosleep(&pause, nullptr);
    ok = read_available(fd->get(), *path, lines);
    drain(lines, printer);
  }
  if (auto rest = lines.take_rest()) printer.line(*rest);
  std::fflush(stdout);
  if (!ok || printer.malformed() > 0) return kExitJournalProblem;
  return 0;
}

namespace {

// Journals up to this size are read through; a longer one is summarised
// from its first and last lines when they frame one whole session.
constexpr off_t kReadThroughBytes = 128 * 1024;
constexpr std::size_t kEndWindowBytes = 64 * 1024;

// Up to `size` bytes of fd from offset, or nullopt.
std::optional<std::string> read_window(int fd, off_t offset, std::size_t size) {
  std::string buf(size, '\0');
  const ssize_t n = ::pread(fd, buf.data(), size, offset);
  if (n <= 0) return std::nullopt;
  buf.resize(static_cast<std::size_t>(n));
  return buf;
}

// The journal's first line, when it ends within the window.
std::optional<JournalRecord> first_line(int fd) {
  const auto buf = read_window(fd, 0, kEndWindowBytes);
  const std::size_t nl = buf ? buf->find('\n') : std::string::npos;
  if (nl == std::string::npos) return std::nullopt;
  return parse_journal_line(std::string_view(*buf).substr(0, nl));
}

// The journal's last line, when it is complete (not mid-write) and starts
// within the window.
std::optional<JournalRecord> last_line(int fd, off_t size) {
  const auto buf = read_window(fd, size - static_cast<off_t>(kEndWindowBytes), kEndWindowBytes);
  if (!buf || buf->back() != '\n') return std::nullopt;
  const std::size_t nl = buf->rfind('\n', buf->size() - 2);
  if (nl == std::string::npos) return std::nullopt;
  return parse_journal_line(std::string_view(*buf).substr(nl + 1, buf->size() - nl - 2));
}

std::optional<SessionSummary> summarize_long_journal(int fd, const JournalFile& f) {
  struct stat st {};
  if (::fstat(fd, &st) < 0 || st.st_size <= kReadThroughBytes) return std::nullopt;
  auto first = first_line(fd);
  auto last = last_line(fd, st.st_size);
  if (!first || !last) return std::nullopt;
  return summary_from_ends(*first, *last, f.path, f.stem);
}

}  // namespace

int command_sessions(const CliOptions&) {
  const std::string dir = sessions_dir();
  SessionIndex index;
  bool ok = true;
  for (const JournalFile& f : journal_files(dir)) {
    auto fd = open_for_reading(f.path);
    if (!fd) {
      log::warn("{}", fd.error().render());
      continue;
    }
    if (auto summary = summarize_long_journal(fd->get(), f)) {
      index.add_summary(std::move(*summary));
      continue;
    }
    LineBuffer lines;
    ok = read_available(fd->get(), f.path, lines) && ok;
    auto add = [&](const std::string& text) {
      if (auto r = parse_journal_line(text)) index.add(*r, f.path, f.stem);
    };
    while (auto l = lines.next_line()) add(*l);
    if (auto rest = lines.take_rest()) add(*rest);
  }
  std::vector<SessionSummary> sessions = index.sessions();
  if (sessions.empty()) {
    log::warn("no recorded sessions in {}", dir);
    return 0;
  }
  std::fputs(format_session_table(sessions, TimeZone::kLocal).c_str(), stdout);
  return ok ? 0 : kExitJournalProblem;
}

}  // namespace aj

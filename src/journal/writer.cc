#include "journal/writer.h"

#include <errno.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <charconv>

#include "sys/make_dirs.h"

namespace aj {
namespace {

// Creates the missing directories of path's parent (see sys/make_dirs.h).
Result<void> make_parents(const std::string& path) {
  std::size_t slash = path.rfind('/');
  if (slash == std::string::npos || slash == 0) return {};
  return make_private_dirs(path.substr(0, slash));
}

Result<UniqueFd> open_fd_target(std::string_view target, std::string_view number) {
  int n = -1;
  auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), n);
  if (number.empty() || ec != std::errc() || end != number.data() + number.size() || n < 0)
    return fail(
        fmt::format("journal target '{}': expected fd:N with N a descriptor number", target));
  int flags = ::fcntl(n, F_GETFL);
  if (flags < 0) return sys_error("journal descriptor", std::string(target), errno);
  if ((flags & O_ACCMODE) == O_RDONLY)
    return fail(fmt::format("journal target '{}': descriptor is not open for writing", target));
  if (n <= 2) {  // keep the standard streams ours to share, not to close
    int dup = ::fcntl(n, F_DUPFD_CLOEXEC, 3);
    if (dup < 0) return sys_error("fcntl F_DUPFD_CLOEXEC", std::string(target), errno);
    return UniqueFd(dup);
  }
  // Close-on-exec so the jailed command never inherits its own journal.
  if (::fcntl(n, F_SETFD, FD_CLOEXEC) < 0)
    return sys_error("fcntl F_SETFD", std::string(target), errno);
  return UniqueFd(n);
}

Result<UniqueFd> open_path_target(const std::string& path) {
  AJ_TRY_CTX(make_parents(path), "journal directory");
  // Read and write: after a short write the writer reads its own tail back
  // before cutting it off (append). A file we may only write is used as such.
  constexpr int kFlags = O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY;
  int fd = ::open(path.c_str(), O_RDWR | kFlags, 0600);
  if (fd < 0 && errno == EACCES) fd = ::open(path.c_str(), O_WRONLY | kFlags, 0600);
  if (fd < 0 && errno == ELOOP)
    return fail(fmt::format("journal '{}' is a symbolic link; refusing to follow it", path));
  if (fd < 0) return sys_error("open journal", path, errno);
  return UniqueFd(fd);
}

// Cuts s to at most max bytes without splitting a UTF-8 sequence.
void truncate_string(std::string& s, std::size_t max) {
  if (s.size() <= max) return;
  std::size_t cut = max;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  std::size_t dropped = s.size() - cut;
  s.resize(cut);
  s += fmt::format("...[+{} bytes]", dropped);
}

void truncate_list(std::vector<std::string>& list) {
  std::size_t total = 0;
  for (std::size_t i = 0; i < list.size(); ++i) {
    truncate_string(list[i], JournalWriter::kMaxStringBytes);
    total += list[i].size();
    if (total > JournalWriter::kMaxListBytes && i + 1 < list.size()) {
      std::size_t more = list.size() - i - 1;
      list.resize(i + 1);
      list.push_back(fmt::format("[+{} more]", more));
      return;
    }
  }
}

}  // namespace

std::string default_journal_path(std::string_view state_dir, std::string_view session_id) {
  return fmt::format("{}/sessions/{}.jsonl", state_dir, session_id);
}

JournalWriter::JournalWriter(UniqueFd fd, std::string target, std::string session, bool regular)
    : fd_(std::move(fd)),
      target_(std::move(target)),
      session_(std::move(session)),
      regular_(regular),
      clock_([] { return std::chrono::system_clock::now(); }) {}

Result<JournalWriter> JournalWriter::open(std::string_view target, std::string_view session_id) {
  if (target.empty()) return fail("journal target is empty");
  UniqueFd fd;
  if (target == "-") {
    fd = AJ_TRY(open_fd_target(target, "1"));
  } else if (target.substr(0, 3) == "fd:") {
    fd = AJ_TRY(open_fd_target(target, target.substr(3)));
  } else {
    fd = AJ_TRY(open_path_target(std::string(target)));
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) < 0) return sys_error("fstat", std::string(target), errno);
  if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode) && !S_ISCHR(st.st_mode) &&
      !S_ISSOCK(st.st_mode))
    return fail(fmt::format("journal '{}' is not a file, pipe, socket or terminal", target));
  return JournalWriter(std::move(fd), std::string(target), std::string(session_id),
                       S_ISREG(st.st_mode));
}

JournalEvent JournalWriter::redacted(JournalEvent e) const {
  e.layer = redactor_.redact(e.layer);
  e.rule = redactor_.redact(e.rule);
  for (JournalField& f : e.fields) {
    if (auto* s = std::get_if<std::string>(&f.value)) {
      *s = redactor_.redact(*s);
      truncate_string(*s, kMaxStringBytes);
    } else if (auto* list = std::get_if<std::vector<std::string>>(&f.value)) {
      *list = redactor_.redact_argv(*list);
      truncate_list(*list);
    }
  }
  return e;
}

Result<void> JournalWriter::write(JournalEvent event) {
  const std::string name = event.event;
  const bool deny = event.decision == "deny";
  JournalStamp stamp{format_journal_time(clock_()), session_, next_seq_};
  AJ_TRY(append(serialize_journal_event(redacted(std::move(event)), stamp)));
  ++next_seq_;
  if (deny) ++denied_;
  for (auto& [counted, n] : counts_) {
    if (counted == name) {
      ++n;
      return {};
    }
  }
  counts_.emplace_back(name, 1);
  return {};
}

Result<void> JournalWriter::append(const std::string& line) {
  std::size_t done = 0;
  int err = 0;
  while (done < line.size()) {
    ssize_t n = ::write(fd_.get(), line.data() + done, line.size() - done);
    if (n > 0) {
      done += static_cast<std::size_t>(n);
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else if (n < 0 && errno == EAGAIN) {  // a non-blocking fd:N: wait, the line must go out
      struct pollfd p {
        fd_.get(), POLLOUT, 0
      };
      ::poll(&p, 1, -1);
    } else {
      err = n < 0 ? errno : EIO;
      break;
    }
  }
  if (done == line.size()) {
    bytes_ += done;
    return {};
  }
  if (done > 0) {
    // Never leave half a line: readers would see garbage, and the next line
    // would be glued to it. In a file, cut our own tail off again (checking
    // it is ours); elsewhere, end the fragment so the next line stands alone.
    struct stat st {};
    std::string tail(done, '\0');
    if (regular_ && ::fstat(fd_.get(), &st) == 0 && st.st_size >= static_cast<off_t>(done) &&
        ::pread(fd_.get(), tail.data(), done, st.st_size - static_cast<off_t>(done)) ==
            static_cast<ssize_t>(done) &&
        tail == line.substr(0, done)) {
      if (::ftruncate(fd_.get(), st.st_size - static_cast<off_t>(done)) < 0) {
        // Nothing more to do: the write error below is what matters.
      }
    } else if (::write(fd_.get(), "\n", 1) < 0) {
      // Same: report the original error.
    }
  }
  return sys_error("write journal", target_, err);
}

void JournalWriter::reserve(std::uint64_t bytes) {
  struct stat st {};
  if (!regular_ || reserved_ > 0 || ::fstat(fd_.get(), &st) != 0) return;
  // Allocated beyond the end without changing the size: appends land in it
  // even once the command has filled the filesystem.
  if (::fallocate(fd_.get(), FALLOC_FL_KEEP_SIZE, st.st_size, static_cast<off_t>(bytes)) == 0)
    reserved_ = bytes;
}

Result<void> JournalWriter::finish() {
  struct stat st {};
  if (reserved_ > 0 && ::fstat(fd_.get(), &st) == 0) {
    // Give back what the session did not use: a truncation to the current
    // size frees the blocks allocated past the end (a hole punched there
    // frees nothing on ext4). Failing, it leaves them: no error to report.
    [[maybe_unused]] const int freed = ::ftruncate(fd_.get(), st.st_size);
    reserved_ = 0;
  }
  if (::fsync(fd_.get()) < 0 && errno != EINVAL && errno != EROFS && errno != ENOTSUP)
    return sys_error("fsync journal", target_, errno);
  return {};
}

}  // namespace aj

// The supervisor's journal: one JSON line per event, appended with a single
// write(2) and so flushed per event, fsynced at the end. Assigns the
// gap-free sequence number and the timestamp, and redacts every string.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "base/error.h"
#include "base/unique_fd.h"
#include "journal/event.h"
#include "journal/redact.h"

namespace aj {

// <state>/sessions/<session>.jsonl
std::string default_journal_path(std::string_view state_dir, std::string_view session_id);

class JournalWriter {
 public:
  using Clock = std::function<std::chrono::system_clock::time_point()>;

  // Longer strings are cut (after redaction) and marked "...[+N bytes]"; a list
  // of strings stops after kMaxListBytes with a last element "[+N more]".
  static constexpr std::size_t kMaxStringBytes = 4096;
  static constexpr std::size_t kMaxListBytes = 65536;

  // target: a path (parents created 0700, the file 0600, appended to; a
  // symbolic link is refused), "-" (standard output) or "fd:N" (an inherited
  // descriptor open for writing; N > 2 is taken over and made close-on-exec).
  static Result<JournalWriter> open(std::string_view target, std::string_view session_id);

  JournalWriter(JournalWriter&&) noexcept = default;
  JournalWriter& operator=(JournalWriter&&) noexcept = default;

  // Add the session's secret values here before the first write.
  Redactor& redactor() { return redactor_; }
  void set_clock(Clock clock) { clock_ = std::move(clock); }

  // Stamps, redacts and appends one event. On failure nothing half-written
  // stays in a regular file, the sequence number is not used up, and the
  // error names the target; the caller decides whether the session goes on.
  Result<void> write(JournalEvent event);
  // fsync (a no-op for pipes and terminals).
  Result<void> finish();
  // Allocates `bytes` past a file journal's end for the lines to come, so a
  // command that fills the filesystem does not end its record; finish()
  // frees what is left. No effect on streams, or where fallocate fails.
  void reserve(std::uint64_t bytes);

  const std::string& target() const { return target_; }
  const std::string& session_id() const { return session_; }
  int fd() const { return fd_.get(); }
  std::uint64_t last_seq() const { return next_seq_ - 1; }
  // Events written so far, by event name, in order of first appearance
  // (for session.end's "counts"), and how many had decision "deny".
  const JournalCounts& counts() const { return counts_; }
  std::uint64_t denied() const { return denied_; }
  // Bytes this writer appended (the whole lines written).
  std::uint64_t bytes_written() const { return bytes_; }

 private:
  JournalWriter(UniqueFd fd, std::string target, std::string session, bool regular);
  JournalEvent redacted(JournalEvent e) const;
  Result<void> append(const std::string& line);

  UniqueFd fd_;
  std::string target_;
  std::string session_;
  bool regular_ = false;
  std::uint64_t reserved_ = 0;  // bytes allocated past the end by reserve()
  Redactor redactor_;
  Clock clock_;
  std::uint64_t next_seq_ = 1;
  JournalCounts counts_;
  std::uint64_t denied_ = 0;
  std::uint64_t bytes_ = 0;
};

}  // namespace aj

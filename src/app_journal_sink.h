// The run's journal: session.start, what the supervisor observes (exec,
// syscall.deny, signal, limit) and session.end, written by the supervisor
// only, outside the jail.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app_commands.h"
#include "journal/writer.h"
#include "supervise/events.h"

namespace aj {

// [journal] max_size when a profile does not set it: room for millions of
// events, far from filling a disk.
inline constexpr std::uint64_t kDefaultJournalMaxSize = std::uint64_t{1} << 30;

struct JournalSettings {
  bool exec = true;       // journal every execve
  bool denied = true;     // journal syscall refusals
  bool required = false;  // stop the session rather than run unlogged
  // Stop the session once this many bytes are written (0: no limit), so a
  // command cannot fill the disk through the journal, nor outgrow it and go
  // on unrecorded. max_size_rule: where the limit was set ("FILE:LINE:COL"
  // or "built in").
  std::uint64_t max_size = 0;
  std::string max_size_rule;
};

class JournalSink final : public EventSink {
 public:
  JournalSink(JournalWriter writer, JournalSettings settings);

  void session_start(const Prepared& p, const std::vector<std::string>& active_layers,
                     const std::string& digest);
  // Names the profile item behind a refused syscall.
  void set_rule_lookup(std::function<std::string(const std::string&)> f) {
    rule_for_ = std::move(f);
  }
  void session_end(int exit_code, std::optional<int> signal, bool timed_out);

  void exec(int pid, int ppid, const std::string& path,
            const std::vector<std::string>& argv) override;
  void syscall_denied(int pid, const std::string& syscall, const std::string& detail,
                      int err) override;
  void fs_denied(int pid, const FsDenial& denial) override;
  void signal_forwarded(int sig, bool escalated) override;
  void limit_hit(const std::string& which, const std::string& value) override;
  // A path the profile keeps read-only but the jail could not (Plan::watched)
  // that the session changed: what happened to it (or beneath it) and which
  // entries changed; for a git config file, the settings that run code it
  // holds now and did not before.
  void watched_changed(const std::string& path, const std::string& rule, const std::string& what,
                       const std::string& reason, const std::vector<std::string>& changed,
                       const std::vector<std::string>& git_settings_added);
  // New symbolic links beneath a git directory (fs.changed, "links added").
  // unsearched: directories that could not be listed; searched_all: false
  // when the walk stopped at its limit.
  void links_added(const std::string& path, const std::string& rule, const std::string& reason,
                   const std::vector<std::string>& links, const std::vector<std::string>& targets,
                   const std::vector<std::string>& unsearched, bool searched_all);
  bool healthy() const override { return !(settings_.required && failed_) && !over_size_; }
  bool record_before_continue() const override { return settings_.required; }

  const std::string& target() const { return writer_.target(); }

 private:
  void emit(JournalEvent e);
  void emit_limit(const std::string& layer, const std::string& rule, const std::string& which,
                  const std::string& value);

  JournalWriter writer_;
  JournalSettings settings_;
  bool failed_ = false;
  bool ended_ = false;      // session.end written
  bool over_size_ = false;  // max_size reached: the session is being stopped
  std::function<std::string(const std::string&)> rule_for_;
  std::chrono::steady_clock::time_point start_;
};

// FNV-1a 64 of the effective policy's explain JSON: a stable digest to tell
// two sessions' policies apart (not a security hash).
std::string policy_digest(const std::string& text);

}  // namespace aj

#include "app_journal_sink.h"

#include <fmt/format.h>
#include <signal.h>

#include <cstring>

#include "base/log.h"
#include "base/units.h"
#include "config.h"

namespace aj {
namespace {

// Room allocated past the journal's end when the session starts (some 4,000
// exec events): a command that fills the filesystem cannot end the record.
constexpr std::uint64_t kJournalReserveBytes = 1 << 20;

}  // namespace

std::string policy_digest(const std::string& text) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return fmt::format("fnv1a64:{:016x}", h);
}

JournalSink::JournalSink(JournalWriter writer, JournalSettings settings)
    : writer_(std::move(writer)), settings_(settings), start_(std::chrono::steady_clock::now()) {}

void JournalSink::emit(JournalEvent e) {
  // After session.end (the session is empty by then) nothing is recorded:
  // the supervisor may still forward a signal while the init tears down.
  if (failed_ || ended_) return;
  auto r = writer_.write(std::move(e));
  if (!r) {
    failed_ = true;
    log::error("journal: {}{}", r.error().render(),
               settings_.required ? "; stopping the session (journal.required)" : "");
    return;
  }
  if (settings_.max_size != 0 && !over_size_ && writer_.bytes_written() >= settings_.max_size) {
    // Recorded, then the supervisor stops the session (healthy() is false);
    // what happens until the session is gone is still written.
    over_size_ = true;
    const std::string size = format_size(settings_.max_size);
    log::error("journal: {} written, its [journal] max_size ({}): stopping the session", size,
               settings_.max_size_rule);
    emit_limit("supervisor", settings_.max_size_rule, "journal_size", size);
  }
}

void JournalSink::session_start(const Prepared& p, const std::vector<std::string>& layers,
                                const std::string& digest) {
  writer_.reserve(kJournalReserveBytes);
  JournalEvent e("session.start");
  e.set("version", AJ_VERSION);
  e.set("profile_chain", p.policy.chain);
  e.set("policy_digest", digest);
  e.set("argv", p.plan.argv);
  e.set("workspace", p.plan.workspace);
  e.set("cwd", p.plan.cwd);
  e.set("network", to_string(p.plan.net));
  e.set("layers", layers);
  e.set("kernel", p.facts.kernel_release);
  e.set("landlock_abi", static_cast<std::int64_t>(p.facts.landlock_abi));
  e.set("uid", static_cast<std::int64_t>(p.plan.uid));
  emit(std::move(e));
}

void JournalSink::session_end(int exit_code, std::optional<int> sig, bool timed_out) {
  JournalEvent e("session.end");
  e.set("exit_code", static_cast<std::int64_t>(exit_code));
  if (sig) e.set("signal", static_cast<std::int64_t>(*sig));
  e.set("timed_out", timed_out);
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                                  start_);
  e.set("duration_ms", static_cast<std::int64_t>(ms.count()));
  JournalCounts counts = writer_.counts();
  e.set("counts", JournalValue(counts));
  e.set("denied", static_cast<std::uint64_t>(writer_.denied()));
  emit(std::move(e));
  ended_ = true;
  if (auto r = writer_.finish(); !r) log::error("journal: {}", r.error().render());
}

void JournalSink::exec(int pid, int ppid, const std::string& path,
                       const std::vector<std::string>& argv) {
  if (!settings_.exec) return;
  JournalEvent e("exec");
  e.allow("seccomp", "built in").with_pid(pid);
  e.set("ppid", static_cast<std::int64_t>(ppid));
  e.set("path", path);
  e.set("argv", argv);
  emit(std::move(e));
}

void JournalSink::syscall_denied(int pid, const std::string& syscall, const std::string& detail,
                                 int err) {
  if (!settings_.denied) return;
  JournalEvent e("syscall.deny");
  e.deny("seccomp", rule_for_ ? rule_for_(syscall) : "[seccomp]").with_pid(pid);
  e.set("syscall", syscall);
  e.set("args", detail);
  e.set("errno", static_cast<std::int64_t>(err));
  e.set("error", std::string(strerrorname_np(err) ? strerrorname_np(err) : ""));
  emit(std::move(e));
}

void JournalSink::fs_denied(int pid, const FsDenial& d) {
  if (!settings_.denied) return;
  JournalEvent e("fs.deny");
  e.deny(d.layer, d.rule).with_pid(pid);
  e.set("path", d.path);
  if (!d.leads_to.empty()) e.set("leads_to", d.leads_to);
  e.set("access", d.access);
  e.set("reason", d.reason);
  emit(std::move(e));
}

void JournalSink::signal_forwarded(int sig, bool escalated) {
  JournalEvent e("signal");
  e.set("signal", static_cast<std::int64_t>(sig));
  e.set("name", std::string(sigabbrev_np(sig) ? sigabbrev_np(sig) : "?"));
  e.set("action", escalated ? "escalated to SIGKILL" : "forwarded");
  emit(std::move(e));
}

void JournalSink::limit_hit(const std::string& which, const std::string& value) {
  emit_limit(which == "wall_time" ? "supervisor" : "cgroup", "[limits] " + which, which, value);
}

void JournalSink::watched_changed(const std::string& path, const std::string& rule,
                                  const std::string& what, const std::string& reason,
                                  const std::vector<std::string>& changed,
                                  const std::vector<std::string>& git_settings_added) {
  JournalEvent e("fs.changed");
  e.layer = "supervisor (watch)";
  e.rule = rule;
  e.set("path", path);
  e.set("change", what);
  e.set("reason", reason);
  e.set("entries", changed);
  if (!git_settings_added.empty()) e.set("git_settings_added", git_settings_added);
  emit(std::move(e));
}

void JournalSink::links_added(const std::string& path, const std::string& rule,
                              const std::string& reason, const std::vector<std::string>& links,
                              const std::vector<std::string>& targets,
                              const std::vector<std::string>& unsearched, bool searched_all) {
  JournalEvent e("fs.changed");
  e.layer = "supervisor (watch)";
  e.rule = rule;
  e.set("path", path);
  e.set("change", links.empty() ? "links unchecked" : "links added");
  e.set("reason", reason);
  e.set("entries", links);
  e.set("link_targets", targets);
  if (!unsearched.empty()) e.set("unsearched", unsearched);
  e.set("searched_all", searched_all);
  emit(std::move(e));
}

void JournalSink::emit_limit(const std::string& layer, const std::string& rule,
                             const std::string& which, const std::string& value) {
  JournalEvent e("limit");
  e.deny(layer, rule);
  e.set("limit", which);
  e.set("value", value);
  emit(std::move(e));
}

}  // namespace aj

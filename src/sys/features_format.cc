#include "sys/features_format.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string_view>

#include "base/json.h"

namespace aj {
namespace {

// Pretty-printed JSON, written by hand: objects, scalars and string lists.
class JsonWriter {
 public:
  void open(std::string_view key = {}) {
    item(key);
    out_ += '{';
    first_.push_back(true);
  }
  void close() {
    bool empty = first_.back();
    first_.pop_back();
    if (!empty) newline();
    out_ += '}';
  }
  void str(std::string_view key, std::string_view v) {
    item(key);
    out_ += json_string(v);
  }
  void str_or_null(std::string_view key, std::string_view v) {
    if (v.empty())
      null(key);
    else
      str(key, v);
  }
  void num(std::string_view key, long v) {
    item(key);
    out_ += std::to_string(v);
  }
  void num_or_null(std::string_view key, const std::optional<long>& v) {
    if (v)
      num(key, *v);
    else
      null(key);
  }
  void boolean(std::string_view key, bool v) {
    item(key);
    out_ += v ? "true" : "false";
  }
  void null(std::string_view key) {
    item(key);
    out_ += "null";
  }
  void list(std::string_view key, const std::vector<std::string>& v) {
    item(key);
    out_ += '[';
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (i) out_ += ", ";
      out_ += json_string(v[i]);
    }
    out_ += ']';
  }
  std::string take() { return std::move(out_) + "\n"; }

 private:
  void item(std::string_view key) {
    if (first_.empty()) return;  // the top-level value has no key
    if (!first_.back()) out_ += ',';
    first_.back() = false;
    newline();
    out_ += json_string(key);
    out_ += ": ";
  }
  void newline() {
    out_ += '\n';
    out_.append(2 * first_.size(), ' ');
  }

  std::string out_;
  std::vector<bool> first_;  // per open object: nothing written yet
};

void write_attempt(JsonWriter& j, const FeatureAttempt& a, std::string_view explanation) {
  j.boolean("available", a.works);
  j.num("uid", a.uid);
  j.str_or_null("failed_stage", a.stage);
  if (a.err)
    j.num("errno", a.err);
  else
    j.null("errno");
  j.str_or_null("error", errno_text(a.err));
  j.str_or_null("explanation", explanation);
}

std::string yes_no(bool b) { return b ? "yes" : "no"; }

// "unshare: EPERM (Operation not permitted)" for a failed attempt.
std::string failure_text(const FeatureAttempt& a) {
  std::string out = a.stage;
  if (a.err) out += (out.empty() ? "" : ": ") + errno_text(a.err);
  if (a.stage == "child" && a.err == 0) out = "the probe child died";
  return out;
}

FeatureRow userns_row(const Features& f, const FeatureAttempt& a, std::string name) {
  std::string detail = fmt::format("as uid {}", a.uid);
  if (!a.works) {
    detail = fmt::format("as uid {}: {}", a.uid, failure_text(a));
    auto why = userns_explanation(f, a);
    if (!why.empty()) detail += "; " + why;
  }
  return {std::move(name), yes_no(a.works), std::move(detail)};
}

FeatureRow overlay_row(const FeatureAttempt& a, std::string name) {
  std::string detail = fmt::format("as uid {}", a.uid);
  if (!a.detail.empty()) detail += fmt::format(", with option {}", a.detail);
  if (!a.works) {
    detail = fmt::format("as uid {}: {}", a.uid, failure_text(a));
    auto why = overlay_explanation(a);
    if (!why.empty()) detail += "; " + why;
  }
  return {std::move(name), yes_no(a.works), std::move(detail)};
}

FeatureRow landlock_row(int abi) {
  if (abi <= 0) return {"landlock", "no", "not built in or disabled at boot (lsm=)"};
  std::string detail = fmt::to_string(fmt::join(landlock_feature_names(abi), " "));
  if (abi > 7) detail += fmt::format(" (ABI {} is newer than agentjail knows; used as 7)", abi);
  return {"landlock", fmt::format("ABI {}", abi), std::move(detail)};
}

std::vector<FeatureRow> seccomp_rows(const SeccompFeature& s) {
  std::vector<FeatureRow> rows;
  std::string detail = s.filter ? "actions: " + fmt::to_string(fmt::join(s.actions, " "))
                                : "seccomp(2): " + errno_text(s.filter_err);
  if (s.current_mode == 2) detail += "; this process already runs under a seccomp filter";
  rows.push_back({"seccomp filter", yes_no(s.filter), std::move(detail)});
  if (!s.user_notif) {
    rows.push_back({"seccomp user notification", "no",
                    "SECCOMP_GET_NOTIF_SIZES: " + errno_text(s.user_notif_err)});
  } else if (s.sync_wake_up.works) {
    rows.push_back({"seccomp user notification", "yes", "SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP: yes"});
  } else {
    rows.push_back({"seccomp user notification", "yes",
                    "SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP: no (" + failure_text(s.sync_wake_up) +
                        "; needs Linux >= 6.6)"});
  }
  return rows;
}

FeatureRow cgroup_row(const CgroupFeature& c) {
  const std::pair<const char*, bool> controllers[] = {
      {"memory", c.memory}, {"pids", c.pids}, {"cpu", c.cpu}};
  std::vector<std::string> have, lack;
  for (auto [name, ok] : controllers) (ok ? have : lack).push_back(name);
  std::string detail;
  if (c.kind == "v1") {
    // Each v1 controller lives in its own hierarchy: name each base.
    const std::pair<const char*, const std::string*> bases[] = {
        {"memory", &c.v1_memory_base}, {"pids", &c.v1_pids_base}, {"cpu", &c.v1_cpu_base}};
    std::vector<std::string> at;
    for (auto [name, base] : bases)
      if (!base->empty()) at.push_back(fmt::format("{} at {}", name, *base));
    detail = at.empty() ? "no controller usable" : fmt::to_string(fmt::join(at, ", "));
  } else if (c.kind != "none") {
    detail = have.empty() ? "no controller usable" : fmt::to_string(fmt::join(have, " "));
    if (!c.base.empty()) detail += " under " + c.base;
  }
  if (c.kind != "none" && !lack.empty() && !have.empty())
    detail += " (not " + fmt::to_string(fmt::join(lack, " ")) + ")";
  if (!c.reason.empty()) detail += (detail.empty() ? "" : "; ") + c.reason;
  if (c.kind == "none") detail += (detail.empty() ? "" : "; ") + std::string("rlimits only");
  return {"cgroups", c.kind, std::move(detail)};
}

FeatureRow tiocsti_row(const std::optional<long>& legacy) {
  if (!legacy)
    return {"tiocsti", "allowed",
            "no dev.tty.legacy_tiocsti (kernel < 6.2): TIOCSTI works for everyone; the seccomp "
            "filter blocks it"};
  if (*legacy == 0)
    return {"tiocsti", "blocked",
            "dev.tty.legacy_tiocsti = 0: the kernel refuses TIOCSTI without CAP_SYS_ADMIN"};
  return {"tiocsti", "allowed",
          fmt::format("dev.tty.legacy_tiocsti = {}: TIOCSTI works for everyone; the seccomp "
                      "filter blocks it",
                      *legacy)};
}

}  // namespace

std::vector<std::string> landlock_feature_names(int abi) {
  // Index i: what ABI i + 1 added.
  static const std::vector<std::vector<std::string>> kAdded = {
      {"fs"},      {"refer"},     {"truncate"},
      {"tcp"},     {"ioctl_dev"}, {"scope_abstract_unix", "scope_signal"},
      {"logging"},
  };
  std::vector<std::string> out;
  for (int i = 0; i < abi && i < static_cast<int>(kAdded.size()); ++i)
    out.insert(out.end(), kAdded[i].begin(), kAdded[i].end());
  return out;
}

std::string errno_text(int err) {
  if (err == 0) return "";
  const char* name = ::strerrorname_np(err);
  std::string text = std::strerror(err);
  return name ? fmt::format("{} ({})", name, text) : fmt::format("errno {} ({})", err, text);
}

std::string userns_explanation(const Features& f, const FeatureAttempt& a) {
  if (a.works) return "";
  const UsernsFeature& u = f.userns;
  if (a.stage == "drop to uid 65534") return "the probe could not become uid 65534";
  // Root (CAP_SYS_ADMIN) is exempt from the Debian knob and the AppArmor rule.
  if (a.uid != 0 && u.unprivileged_userns_clone == 0)
    return "kernel.unprivileged_userns_clone = 0 forbids them to unprivileged users";
  if (u.max_user_namespaces == 0) return "user.max_user_namespaces = 0 disables them";
  if (a.uid != 0 && u.apparmor_restrict.value_or(0) != 0)
    return "AppArmor restricts unprivileged user namespaces "
           "(kernel.apparmor_restrict_unprivileged_userns = 1); an AppArmor profile for "
           "agentjail that allows userns lifts it";
  if (a.stage == "unshare") {
    switch (a.err) {
      case ENOSPC:
        return fmt::format("the user namespace limit is reached (user.max_user_namespaces = {})",
                           u.max_user_namespaces ? std::to_string(*u.max_user_namespaces) : "?");
      case EUSERS: return "user namespaces are nested too deep (32 levels)";
      case EINVAL: return "the kernel was built without user namespaces (CONFIG_USER_NS)";
      case EPERM:
      case EACCES:
        if (f.seccomp.current_mode == 2)
          return "refused by the seccomp filter this process already runs under "
                 "(a container's?)";
        return "refused by a security module or an outer seccomp filter (a container?)";
      default: break;
    }
  }
  if (a.stage == "uid_map" || a.stage == "gid_map" || a.stage == "setgroups")
    return "the namespace was created but its id map could not be written "
           "(a security module denying capabilities inside it?)";
  return "";
}

std::string overlay_explanation(const FeatureAttempt& a) {
  if (a.works) return "";
  for (const char* s : {"drop to uid 65534", "unshare", "setgroups", "uid_map", "gid_map"})
    if (a.stage == s) return "it needs a user namespace (see user namespaces)";
  if (a.stage == "mount overlay") {
    if (a.err == ENODEV) return "overlayfs is not available (module not loaded?)";
    if (a.err == EPERM || a.err == EINVAL)
      return "this kernel refuses overlayfs in a user namespace (Linux >= 5.11 allows it)";
  }
  if (a.stage == "write through overlay") return "it mounted, but a write through it failed";
  return "";
}

std::vector<FeatureRow> feature_rows(const Features& f) {
  std::vector<FeatureRow> rows;
  rows.push_back({"kernel", f.kernel.empty() ? "?" : f.kernel, ""});
  FeatureRow userns = userns_row(f, f.userns.caller, "user namespaces");
  if (f.userns.max_user_namespaces &&
      userns.detail.find("max_user_namespaces") == std::string::npos)
    userns.detail += fmt::format("; user.max_user_namespaces = {}", *f.userns.max_user_namespaces);
  rows.push_back(std::move(userns));
  if (f.userns.unprivileged)
    rows.push_back(userns_row(f, *f.userns.unprivileged, "user namespaces (unprivileged)"));
  rows.push_back(landlock_row(f.landlock_abi));
  for (auto& r : seccomp_rows(f.seccomp)) rows.push_back(std::move(r));
  rows.push_back(cgroup_row(f.cgroup));
  rows.push_back(overlay_row(f.overlay.caller, "overlay in userns"));
  if (f.overlay.unprivileged)
    rows.push_back(overlay_row(*f.overlay.unprivileged, "overlay in userns (unprivileged)"));
  rows.push_back(tiocsti_row(f.legacy_tiocsti));
  return rows;
}

std::string format_features_text(const Features& f) {
  auto rows = feature_rows(f);
  std::size_t name_w = 0, status_w = 0;
  for (const auto& r : rows) {
    name_w = std::max(name_w, r.name.size());
    status_w = std::max(status_w, r.status.size());
  }
  std::string out;
  for (const auto& r : rows) {
    std::string line =
        fmt::format("{:<{}}  {:<{}}  {}", r.name, name_w, r.status, status_w, r.detail);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

std::string format_features_json(const Features& f) {
  JsonWriter j;
  j.open();
  // First, so that its "available" is the first user-namespace boolean.
  j.open("user_namespaces");
  write_attempt(j, f.userns.caller, userns_explanation(f, f.userns.caller));
  if (f.userns.unprivileged) {
    j.open("unprivileged");
    write_attempt(j, *f.userns.unprivileged, userns_explanation(f, *f.userns.unprivileged));
    j.close();
  } else {
    j.null("unprivileged");
  }
  j.num_or_null("unprivileged_userns_clone", f.userns.unprivileged_userns_clone);
  j.num_or_null("max_user_namespaces", f.userns.max_user_namespaces);
  j.num_or_null("apparmor_restrict_unprivileged_userns", f.userns.apparmor_restrict);
  j.close();

  j.str("kernel", f.kernel);
  j.num("euid", f.euid);

  j.open("landlock");
  j.boolean("available", f.landlock_abi > 0);
  j.num("abi", f.landlock_abi);
  j.list("features", landlock_feature_names(f.landlock_abi));
  j.close();

  const SeccompFeature& s = f.seccomp;
  j.open("seccomp");
  j.boolean("filter", s.filter);
  j.str_or_null("filter_error", errno_text(s.filter_err));
  if (s.current_mode >= 0)
    j.num("current_mode", s.current_mode);
  else
    j.null("current_mode");
  j.list("actions", s.actions);
  j.boolean("user_notification", s.user_notif);
  j.str_or_null("user_notification_error", errno_text(s.user_notif_err));
  j.boolean("notif_sync_wake_up", s.sync_wake_up.works);
  j.str_or_null("notif_sync_wake_up_error",
                s.sync_wake_up.works ? "" : failure_text(s.sync_wake_up));
  j.close();

  j.open("cgroups");
  j.str("kind", f.cgroup.kind);
  j.str_or_null("base", f.cgroup.base);
  j.boolean("memory", f.cgroup.memory);
  j.boolean("pids", f.cgroup.pids);
  j.boolean("cpu", f.cgroup.cpu);
  j.str_or_null("reason", f.cgroup.reason);
  if (f.cgroup.kind == "v1") {
    j.open("v1_bases");
    j.str_or_null("memory", f.cgroup.v1_memory_base);
    j.str_or_null("pids", f.cgroup.v1_pids_base);
    j.str_or_null("cpu", f.cgroup.v1_cpu_base);
    j.close();
  } else {
    j.null("v1_bases");
  }
  j.close();

  j.open("overlay");
  write_attempt(j, f.overlay.caller, overlay_explanation(f.overlay.caller));
  j.str_or_null("extra_options", f.overlay.caller.detail);
  if (f.overlay.unprivileged) {
    j.open("unprivileged");
    write_attempt(j, *f.overlay.unprivileged, overlay_explanation(*f.overlay.unprivileged));
    j.str_or_null("extra_options", f.overlay.unprivileged->detail);
    j.close();
  } else {
    j.null("unprivileged");
  }
  j.close();

  j.open("tiocsti");
  j.num_or_null("legacy_tiocsti", f.legacy_tiocsti);
  j.boolean("blocked_by_kernel", f.legacy_tiocsti == 0);
  j.close();

  j.close();
  return j.take();
}

}  // namespace aj

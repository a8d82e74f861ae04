#include "profile/merge.h"

#include <algorithm>
#include <cstdint>
#include <string>

namespace aj {
namespace {

// The spellings of one path that a removal may have meant: "~/" and
// "${HOME}/" alike, no trailing or doubled '/'. Only for the hint.
std::string loose_form(std::string v) {
  if (v == "~" || v.starts_with("~/")) v = "${HOME}" + v.substr(1);
  std::string out;
  for (char c : v)
    if (c != '/' || out.empty() || out.back() != '/') out += c;
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

std::string as_text(const std::string& v) { return v; }
std::string as_text(std::uint16_t port) { return std::to_string(port); }

// Unmatched removals are collected, not ignored: a removal that misses
// its entry ("!~/.cache" against "${HOME}/.cache") leaves the grant in
// place, and the jail would run with more than the profile says.
class Merger {
 public:
  explicit Merger(std::vector<Diagnostic>* unmatched) : unmatched_(unmatched) {}

  template <typename T>
  void list(const char* key, const ListEdit<T>& edit, std::vector<Item<T>>* out) {
    if (edit.reset) out->clear();
    for (const auto& r : edit.remove) {
      if (std::erase_if(*out, [&](const Item<T>& e) { return e.value == r.value; }) == 0)
        note_unmatched(key, r, *out);
    }
    for (const auto& a : edit.add) {
      bool present = std::any_of(out->begin(), out->end(),
                                 [&](const Item<T>& e) { return e.value == a.value; });
      if (!present) out->push_back(a);
    }
  }

 private:
  template <typename T>
  void note_unmatched(const char* key, const Item<T>& removal, const std::vector<Item<T>>& list) {
    if (!unmatched_) return;
    const std::string value = as_text(removal.value);
    std::string message = "'!" + value + "' in " + key +
                          " removes nothing: no inherited entry is written '" + value +
                          "' (entries are compared as written)";
    for (const auto& e : list) {
      if (loose_form(as_text(e.value)) != loose_form(value)) continue;
      message += "; did you mean '!" + as_text(e.value) + "' (" + e.where.str() + ")?";
      break;
    }
    unmatched_->push_back({removal.where, message});
  }

  std::vector<Diagnostic>* unmatched_;
};

template <typename T>
void merge_scalar(const std::optional<Item<T>>& value, std::optional<Item<T>>* out) {
  if (value) *out = value;
}

template <typename T>
void merge_scalar(const std::optional<Item<T>>& value, Item<T>* out) {
  if (value) *out = *value;
}

void merge_filesystem(const ProfileLayer::Filesystem& in, Merger& m, FilesystemPolicy* out) {
  merge_scalar(in.workspace, &out->workspace);
  m.list("filesystem.read_only", in.read_only, &out->read_only);
  m.list("filesystem.read_write", in.read_write, &out->read_write);
  m.list("filesystem.exec", in.exec, &out->exec);
  m.list("filesystem.hide", in.hide, &out->hide);
  m.list("filesystem.tmpfs", in.tmpfs, &out->tmpfs);
  m.list("filesystem.optional", in.optional, &out->optional);
}

void merge_network(const ProfileLayer::Network& in, Merger& m, NetworkPolicy* out) {
  merge_scalar(in.mode, &out->mode);
  m.list("network.allow", in.allow, &out->allow);
  merge_scalar(in.deny_private, &out->deny_private);
  m.list("network.tcp_connect", in.tcp_connect, &out->tcp_connect);
  m.list("network.tcp_bind", in.tcp_bind, &out->tcp_bind);
}

void merge_seccomp(const ProfileLayer::Seccomp& in, Merger& m, SeccompPolicy* out) {
  merge_scalar(in.default_action, &out->default_action);
  m.list("seccomp.deny", in.deny, &out->deny);
  m.list("seccomp.allow", in.allow, &out->allow);
  merge_scalar(in.action, &out->action);
  merge_scalar(in.errno_value, &out->errno_value);
}

void merge_limits(const LimitsPolicy& in, LimitsPolicy* out) {
  merge_scalar(in.memory, &out->memory);
  merge_scalar(in.processes, &out->processes);
  merge_scalar(in.open_files, &out->open_files);
  merge_scalar(in.file_size, &out->file_size);
  merge_scalar(in.cpu_time_ms, &out->cpu_time_ms);
  merge_scalar(in.wall_time_ms, &out->wall_time_ms);
}

void merge_environment(const ProfileLayer::Environment& in, Merger& m, EnvironmentPolicy* out) {
  m.list("environment.keep", in.keep, &out->keep);
  m.list("environment.pass", in.pass, &out->pass);
  for (const auto& name : in.unset) out->set.erase(name.value);
  for (const auto& [name, value] : in.set) out->set.insert_or_assign(name, value);
}

void merge_journal(const JournalPolicy& in, JournalPolicy* out) {
  merge_scalar(in.path, &out->path);
  merge_scalar(in.exec, &out->exec);
  merge_scalar(in.denied, &out->denied);
  merge_scalar(in.network, &out->network);
  merge_scalar(in.required, &out->required);
  merge_scalar(in.trace, &out->trace);
  merge_scalar(in.max_size, &out->max_size);
}

}  // namespace

Policy merge_layers(const std::vector<ProfileLayer>& layers, std::vector<Diagnostic>* unmatched) {
  Policy policy;
  Merger m(unmatched);
  for (const ProfileLayer& layer : layers) {
    policy.chain.push_back(layer.file);
    if (layer.description) policy.description = layer.description->value;
    m.list("profile.require", layer.require, &policy.require);
    merge_filesystem(layer.filesystem, m, &policy.filesystem);
    merge_network(layer.network, m, &policy.network);
    merge_seccomp(layer.seccomp, m, &policy.seccomp);
    merge_limits(layer.limits, &policy.limits);
    merge_environment(layer.environment, m, &policy.environment);
    merge_journal(layer.journal, &policy.journal);
  }
  return policy;
}

}  // namespace aj

#include "profile/merge.h"

#include <algorithm>

namespace aj {
namespace {

template <typename T>
void merge_list(const ListEdit<T>& edit, std::vector<Item<T>>* out) {
  if (edit.reset) out->clear();
  for (const auto& r : edit.remove) {
    std::erase_if(*out, [&](const Item<T>& e) { return e.value == r.value; });
  }
  for (const auto& a : edit.add) {
    bool present =
        std::any_of(out->begin(), out->end(), [&](const Item<T>& e) { return e.value == a.value; });
    if (!present) out->push_back(a);
  }
}

template <typename T>
void merge_scalar(const std::optional<Item<T>>& value, std::optional<Item<T>>* out) {
  if (value) *out = value;
}

template <typename T>
void merge_scalar(const std::optional<Item<T>>& value, Item<T>* out) {
  if (value) *out = *value;
}

void merge_filesystem(const ProfileLayer::Filesystem& in, FilesystemPolicy* out) {
  merge_scalar(in.workspace, &out->workspace);
  merge_list(in.read_only, &out->read_only);
  merge_list(in.read_write, &out->read_write);
  merge_list(in.exec, &out->exec);
  merge_list(in.hide, &out->hide);
  merge_list(in.tmpfs, &out->tmpfs);
  merge_list(in.optional, &out->optional);
}

void merge_network(const ProfileLayer::Network& in, NetworkPolicy* out) {
  merge_scalar(in.mode, &out->mode);
  merge_list(in.allow, &out->allow);
  merge_scalar(in.deny_private, &out->deny_private);
  merge_list(in.tcp_connect, &out->tcp_connect);
  merge_list(in.tcp_bind, &out->tcp_bind);
}

void merge_seccomp(const ProfileLayer::Seccomp& in, SeccompPolicy* out) {
  merge_scalar(in.default_action, &out->default_action);
  merge_list(in.deny, &out->deny);
  merge_list(in.allow, &out->allow);
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

void merge_environment(const ProfileLayer::Environment& in, EnvironmentPolicy* out) {
  merge_list(in.keep, &out->keep);
  merge_list(in.pass, &out->pass);
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

Policy merge_layers(const std::vector<ProfileLayer>& layers) {
  Policy policy;
  for (const ProfileLayer& layer : layers) {
    policy.chain.push_back(layer.file);
    if (layer.description) policy.description = layer.description->value;
    merge_list(layer.require, &policy.require);
    merge_filesystem(layer.filesystem, &policy.filesystem);
    merge_network(layer.network, &policy.network);
    merge_seccomp(layer.seccomp, &policy.seccomp);
    merge_limits(layer.limits, &policy.limits);
    merge_environment(layer.environment, &policy.environment);
    merge_journal(layer.journal, &policy.journal);
  }
  return policy;
}

}  // namespace aj

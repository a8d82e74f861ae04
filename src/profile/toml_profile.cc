#include "profile/toml_profile.h"

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>

#include "policy/layers.h"
#include "profile/syntax.h"
#include "profile/toml_reader.h"

namespace aj {
namespace toml_adapter {
namespace {

constexpr std::array<EnumName<WorkspaceMode>, 3> kWorkspaceModes = {
    {{"bind", WorkspaceMode::kBind},
     {"overlay", WorkspaceMode::kOverlay},
     {"none", WorkspaceMode::kNone}}};
constexpr std::array<EnumName<NetMode>, 4> kNetModes = {{{"none", NetMode::kNone},
                                                         {"loopback", NetMode::kLoopback},
                                                         {"proxy", NetMode::kProxy},
                                                         {"host", NetMode::kHost}}};
constexpr std::array<EnumName<SeccompDefault>, 2> kSeccompDefaults = {
    {{"allow", SeccompDefault::kAllow}, {"deny", SeccompDefault::kDeny}}};
constexpr std::array<EnumName<SeccompAction>, 3> kSeccompActions = {
    {{"errno", SeccompAction::kErrno},
     {"kill", SeccompAction::kKill},
     {"log", SeccompAction::kLog}}};

}  // namespace

// ---- section schemas ----

namespace {

Result<std::string> path_entry(std::string_view text) {
  AJ_TRY(check_profile_path(text));
  return std::string(text);
}

}  // namespace

void Reader::extends_value(const toml::node& n, StringList* out) {
  auto add = [&](const toml::node& e) {
    const auto* s = e.as_string();
    if (!s) {
      error(e.source(), "expected a string in 'extends', found " + type_name(e));
      return;
    }
    const std::string& v = s->get();
    bool is_path = v.find('/') != std::string::npos ||
                   (v.size() > 5 && v.compare(v.size() - 5, 5, ".toml") == 0);
    if (!is_path && !is_profile_name(v)) {
      error(e.source(), "invalid profile name " + quote(v) +
                            " in 'extends'; a name is made of letters, digits, '.', '_' and '-' "
                            "(or give a path)");
      return;
    }
    out->push_back(item(v, e));
  };
  if (const toml::array* arr = n.as_array()) {
    for (const toml::node& e : *arr) add(e);
  } else if (n.is_string()) {
    add(n);
  } else {
    error(n.source(),
          "expected a string or an array of strings for 'extends', found " + type_name(n));
  }
}

std::vector<Reader::KeyRule> Reader::profile_rules(ProfileLayer* out) {
  auto layer = [](std::string_view name) -> Result<std::string> {
    if (is_known_layer(name)) return std::string(name);
    std::vector<std::string_view> names;
    for (const auto& l : known_layers()) names.push_back(l.name);
    if (auto s = did_you_mean(name, names)) {
      return fail("unknown layer " + quote(name) + "; did you mean " + quote(*s) + "?");
    }
    return fail("unknown layer " + quote(name) + "; known layers are " +
                std::string(known_layer_list()));
  };
  return {
      {"extends", [=, this](const toml::node& n) { extends_value(n, &out->extends); }},
      {"description",
       [=, this](const toml::node& n) { string_value(n, "description", &out->description); }},
      {"require",
       [=, this](const toml::node& n) { string_list(n, "require", layer, &out->require); },
       &out->require.reset},
  };
}

std::vector<Reader::KeyRule> Reader::filesystem_rules(ProfileLayer::Filesystem* fs) {
  auto list = [this](std::string_view key, ListEdit<std::string>* edit) -> KeyRule {
    return {key, [=, this](const toml::node& n) { string_list(n, key, path_entry, edit); },
            &edit->reset};
  };
  return {
      {"workspace",
       [=, this](const toml::node& n) {
         enum_value(n, "workspace", kWorkspaceModes, &fs->workspace);
       }},
      list("read_only", &fs->read_only),
      list("read_write", &fs->read_write),
      list("exec", &fs->exec),
      list("hide", &fs->hide),
      list("tmpfs", &fs->tmpfs),
      list("optional", &fs->optional),
  };
}

std::vector<Reader::KeyRule> Reader::network_rules(ProfileLayer::Network* net) {
  return {
      {"mode", [=, this](const toml::node& n) { enum_value(n, "mode", kNetModes, &net->mode); }},
      {"allow",
       [=, this](const toml::node& n) { string_list(n, "allow", check_host_pattern, &net->allow); },
       &net->allow.reset},
      {"deny_private",
       [=, this](const toml::node& n) { bool_value(n, "deny_private", &net->deny_private); }},
      {"tcp_connect",
       [=, this](const toml::node& n) { port_list(n, "tcp_connect", &net->tcp_connect); },
       &net->tcp_connect.reset},
      {"tcp_bind", [=, this](const toml::node& n) { port_list(n, "tcp_bind", &net->tcp_bind); },
       &net->tcp_bind.reset},
  };
}

std::vector<Reader::KeyRule> Reader::seccomp_rules(ProfileLayer::Seccomp* sc) {
  auto names = [this](std::string_view name) -> Result<std::string> {
    if (name.empty()) return fail("empty syscall name");
    if (names_ && !names_(name)) {
      return fail(std::string(name[0] == '@' ? "unknown syscall group " : "unknown syscall ") +
                  quote(name));
    }
    return std::string(name);
  };
  return {
      {"default",
       [=, this](const toml::node& n) {
         enum_value(n, "default", kSeccompDefaults, &sc->default_action);
       }},
      {"deny", [=, this](const toml::node& n) { string_list(n, "deny", names, &sc->deny); },
       &sc->deny.reset},
      {"allow", [=, this](const toml::node& n) { string_list(n, "allow", names, &sc->allow); },
       &sc->allow.reset},
      {"action",
       [=, this](const toml::node& n) { enum_value(n, "action", kSeccompActions, &sc->action); }},
      {"errno", [=, this](const toml::node& n) { errno_value(n, &sc->errno_value); }},
  };
}

std::vector<Reader::KeyRule> Reader::limits_rules(LimitsPolicy* lim) {
  return {
      {"memory", [=, this](const toml::node& n) { size_value(n, "memory", 1, &lim->memory); }},
      {"file_size",
       [=, this](const toml::node& n) { size_value(n, "file_size", 0, &lim->file_size); }},
      {"processes",
       [=, this](const toml::node& n) { count_value(n, "processes", &lim->processes); }},
      {"open_files",
       [=, this](const toml::node& n) { count_value(n, "open_files", &lim->open_files); }},
      {"cpu_time",
       [=, this](const toml::node& n) { duration_value(n, "cpu_time", &lim->cpu_time_ms); }},
      {"wall_time",
       [=, this](const toml::node& n) { duration_value(n, "wall_time", &lim->wall_time_ms); }},
  };
}

void Reader::env_set(const toml::node& n, ProfileLayer::Environment* out) {
  const toml::table* t = n.as_table();
  if (!t) {
    error(n.source(), "expected a table of strings for 'set', found " + type_name(n));
    return;
  }
  for (auto&& [key, value] : *t) {
    if (!is_env_name(key.str())) {
      error(key.source(), "invalid environment variable name " + quote(key.str()) + " in 'set'");
    } else if (const auto* s = value.as_string()) {
      out->set.emplace_back(std::string(key.str()), item(s->get(), value));
    } else {
      error(value.source(), "expected a string for 'set." + std::string(key.str()) + "', found " +
                                type_name(value));
    }
  }
}

void Reader::check_env_conflicts(const ProfileLayer::Environment& env) {
  for (const auto& u : env.unset) {
    for (const auto& [name, value] : env.set) {
      if (name != u.value) continue;
      diags_->push_back({u.where, quote(name) + " is both set and unset in [environment]"});
    }
  }
}

std::vector<Reader::KeyRule> Reader::environment_rules(ProfileLayer::Environment* env) {
  auto glob = [](std::string_view s) -> Result<std::string> {
    if (is_env_glob(s)) return std::string(s);
    return fail("invalid environment name or glob " + quote(s) + " in 'keep'");
  };
  auto exact = [](std::string_view key) {
    return [key](std::string_view s) -> Result<std::string> {
      if (is_env_name(s)) return std::string(s);
      return fail("invalid environment variable name " + quote(s) + " in " + quote(key) +
                  (key == "pass" ? "; pass takes exact names, not globs" : ""));
    };
  };
  return {
      {"keep", [=, this](const toml::node& n) { string_list(n, "keep", glob, &env->keep); },
       &env->keep.reset},
      {"pass",
       [=, this](const toml::node& n) { string_list(n, "pass", exact("pass"), &env->pass); },
       &env->pass.reset},
      {"set", [=, this](const toml::node& n) { env_set(n, env); }},
      {"unset",
       [=, this](const toml::node& n) {
         ListEdit<std::string> names;
         string_list(n, "unset", exact("unset"), &names, /*removals=*/false);
         env->unset.insert(env->unset.end(), names.add.begin(), names.add.end());
       }},
  };
}

std::vector<Reader::KeyRule> Reader::journal_rules(JournalPolicy* j) {
  auto flag = [this](std::string_view key, std::optional<Item<bool>>* out) -> KeyRule {
    return {key, [=, this](const toml::node& n) { bool_value(n, key, out); }};
  };
  return {
      {"path",
       [=, this](const toml::node& n) {
         std::optional<Item<std::string>> path;
         string_value(n, "path", &path);
         if (!path) return;
         if (auto ok = check_profile_path(path->value); !ok) {
           error(n.source(), ok.error().render());
           return;
         }
         j->path = std::move(path);
       }},
      flag("exec", &j->exec),
      flag("denied", &j->denied),
      flag("network", &j->network),
      flag("required", &j->required),
      flag("trace", &j->trace),
      {"max_size", [=, this](const toml::node& n) { size_value(n, "max_size", 1, &j->max_size); }},
  };
}

}  // namespace toml_adapter

using toml_adapter::kSections;
using toml_adapter::Reader;

ProfileLayer parse_profile_text(std::string_view text, const std::string& file_label,
                                const NameValidator& is_known_syscall_or_group,
                                std::vector<Diagnostic>* diags) {
  ProfileLayer layer;
  layer.file = file_label;
  std::vector<Diagnostic> found;
  Reader reader(file_label, is_known_syscall_or_group, &found);
  try {
    toml::table root = toml::parse(text, std::string_view(file_label));
    reader.read_document(root, &layer);
  } catch (const toml::parse_error& e) {
    reader.error(e.source(), "syntax error: " + std::string(e.description()));
  }
  sort_diagnostics(&found);
  diags->insert(diags->end(), found.begin(), found.end());
  return layer;
}

ProfileLayer parse_profile_file(const std::string& path,
                                const NameValidator& is_known_syscall_or_group,
                                std::vector<Diagnostic>* diags) {
  std::string text;
  int err = 0;
  if (std::FILE* f = std::fopen(path.c_str(), "rbe")) {
    char buf[8192];
    size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
    if (std::ferror(f)) err = errno != 0 ? errno : EIO;  // e.g. EISDIR
    std::fclose(f);
  } else {
    err = errno;
  }
  if (err != 0) {
    diags->push_back({{path, 0, 0}, std::string("cannot read profile: ") + std::strerror(err)});
    ProfileLayer layer;
    layer.file = path;
    return layer;
  }
  return parse_profile_text(text, path, is_known_syscall_or_group, diags);
}

std::vector<std::string> profile_schema_keys() {
  std::vector<std::string> out;
  ProfileLayer scratch;
  std::vector<Diagnostic> unused;
  Reader reader("", {}, &unused);
  for (auto section : kSections) {
    bool has_replace = false;
    for (const auto& r : reader.rules(section, &scratch)) {
      out.push_back(std::string(section) + "." + std::string(r.name));
      has_replace = has_replace || r.reset;
    }
    if (has_replace) out.push_back(std::string(section) + ".replace");
  }
  return out;
}

}  // namespace aj

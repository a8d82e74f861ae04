#include "journal/claude_settings.h"

#include <set>

#include "base/json.h"
#include "journal/json_read.h"

namespace aj {
namespace {

void canonical(const JsonValue& v, std::string& out) {
  switch (v.kind) {
    case JsonValue::Kind::kNull: out += "null"; return;
    case JsonValue::Kind::kBool: out += v.boolean ? "true" : "false"; return;
    case JsonValue::Kind::kNumber: out += v.text; return;
    case JsonValue::Kind::kString: out += json_string(v.text); return;
    case JsonValue::Kind::kArray:
      out += '[';
      for (std::size_t i = 0; i < v.items.size(); ++i) {
        if (i) out += ',';
        canonical(v.items[i], out);
      }
      out += ']';
      return;
    case JsonValue::Kind::kObject:
      out += '{';
      for (std::size_t i = 0; i < v.members.size(); ++i) {
        if (i) out += ',';
        out += json_string(v.members[i].first) + ':';
        canonical(v.members[i].second, out);
      }
      out += '}';
      return;
  }
}

std::string canonical(const JsonValue& v) {
  std::string out;
  canonical(v, out);
  return out;
}

// One entry per server: a server added to a list already there is named.
void add_servers(const std::string& where, const JsonValue* servers,
                 std::map<std::string, std::string>& out) {
  if (!servers) return;
  if (!servers->is_object()) {
    out[where] = canonical(*servers);
    return;
  }
  for (const auto& [name, value] : servers->members) out[where + "." + name] = canonical(value);
}

// Per project: what runs or is allowed there without asking (the trust
// accepted for a directory lets the hooks of its .claude/settings.json run
// with no dialog).
constexpr const char* kProjectSettings[] = {"allowedTools", "enabledMcpjsonServers",
                                            "enableAllProjectMcpServers", "hasTrustDialogAccepted",
                                            "hasClaudeMdExternalIncludesApproved"};
// For every session: approvals given once.
constexpr const char* kUserSettings[] = {"bypassPermissionsModeAccepted", "customApiKeyResponses"};

// A name repeated in one object: JSON.parse, which Claude Code reads the file
// with, keeps the last, our parser the first; what Claude Code would see is
// then not what was compared.
bool has_repeated_names(const JsonValue& v) {
  if (v.is_array()) {
    for (const auto& item : v.items)
      if (has_repeated_names(item)) return true;
    return false;
  }
  if (!v.is_object()) return false;
  std::set<std::string_view> names;
  for (const auto& [name, value] : v.members)
    if (!names.insert(name).second || has_repeated_names(value)) return true;
  return false;
}

}  // namespace

std::optional<std::map<std::string, std::string>> claude_code_run_settings(std::string_view json) {
  auto doc = parse_json(json);
  if (!doc || !doc->is_object() || has_repeated_names(*doc)) return std::nullopt;
  std::map<std::string, std::string> out;
  add_servers("mcpServers", doc->get("mcpServers"), out);
  for (const char* key : kUserSettings)
    if (const JsonValue* v = doc->get(key)) out[key] = canonical(*v);
  const JsonValue* projects = doc->get("projects");
  if (projects && projects->is_object()) {
    for (const auto& [path, project] : projects->members) {
      if (!project.is_object()) continue;
      const std::string where = "projects[" + path + "]";
      add_servers(where + ".mcpServers", project.get("mcpServers"), out);
      for (const char* key : kProjectSettings)
        if (const JsonValue* v = project.get(key)) out[where + "." + key] = canonical(*v);
    }
  }
  return out;
}

std::vector<std::string> claude_code_settings_changed(
    const std::map<std::string, std::string>& before,
    const std::map<std::string, std::string>& after) {
  std::vector<std::string> out;
  for (const auto& [name, value] : after) {
    auto was = before.find(name);
    if (was == before.end())
      out.push_back(name + " (added)");
    else if (was->second != value)
      out.push_back(name + " (changed)");
  }
  for (const auto& [name, value] : before)
    if (!after.count(name)) out.push_back(name + " (removed)");
  return out;
}

}  // namespace aj

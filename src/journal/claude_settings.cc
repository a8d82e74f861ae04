#include "journal/claude_settings.h"

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

// Per project: what runs or is allowed there without asking.
constexpr const char* kProjectSettings[] = {"allowedTools", "enabledMcpjsonServers",
                                            "enableAllProjectMcpServers"};

}  // namespace

std::optional<std::map<std::string, std::string>> claude_code_run_settings(std::string_view json) {
  auto doc = parse_json(json);
  if (!doc || !doc->is_object()) return std::nullopt;
  std::map<std::string, std::string> out;
  add_servers("mcpServers", doc->get("mcpServers"), out);
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

#include "profile/loader.h"

#include <algorithm>
#include <filesystem>
#include <set>
#include <system_error>

#include "profile/merge.h"

namespace aj {
namespace {

namespace fs = std::filesystem;

// The identity of a profile file for cycle and repeat detection: two spellings
// of one file ("a/../b.toml", a symlink) are the same profile.
std::string identity(const std::string& path) {
  std::error_code ec;
  fs::path canon = fs::weakly_canonical(path, ec);
  return ec ? path : canon.string();
}

std::string base_name(const std::string& path) { return fs::path(path).filename().string(); }

std::string parent_dir(const std::string& path) {
  std::string dir = fs::path(path).parent_path().string();
  return dir.empty() ? "." : dir;
}

class ChainLoader {
 public:
  ChainLoader(const std::vector<SearchDir>& search, const NameValidator& names,
              std::vector<ProfileLayer>* layers, std::vector<Diagnostic>* diags)
      : search_(search), names_(names), layers_(layers), diags_(diags) {}

  // Parses path, then its parents depth-first, then appends its own layer, so
  // that every parent precedes its children in *layers_.
  void visit(const std::string& path) {
    std::string id = identity(path);
    if (done_.count(id)) return;  // reached before through another branch
    stack_.push_back({id, path});
    ProfileLayer layer = parse_profile_file(path, names_, diags_);
    for (const Item<std::string>& parent : layer.extends) follow(path, parent);
    stack_.pop_back();
    done_.insert(id);
    layers_->push_back(std::move(layer));
  }

 private:
  struct Frame {
    std::string id;
    std::string path;
  };

  void follow(const std::string& child, const Item<std::string>& parent) {
    Result<std::string> found = resolve_profile(parent.value, search_, parent_dir(child), child);
    if (!found) {
      diags_->push_back({parent.where, "cannot extend '" + parent.value + "': " +
                                           found.error().render()});
      return;
    }
    std::string id = identity(*found);
    auto on_stack = std::find_if(stack_.begin(), stack_.end(),
                                 [&](const Frame& f) { return f.id == id; });
    if (on_stack != stack_.end()) {
      std::string chain;
      for (auto it = on_stack; it != stack_.end(); ++it) chain += base_name(it->path) + " -> ";
      chain += base_name(*found);
      diags_->push_back({parent.where, "extends cycle: " + chain});
      return;
    }
    visit(*found);
  }

  const std::vector<SearchDir>& search_;
  const NameValidator& names_;
  std::vector<ProfileLayer>* layers_;
  std::vector<Diagnostic>* diags_;
  std::vector<Frame> stack_;
  std::set<std::string> done_;
};

}  // namespace

std::vector<Diagnostic> load_chain(std::string_view name_or_path,
                                   const std::vector<SearchDir>& search,
                                   const NameValidator& is_known_syscall_or_group,
                                   std::vector<ProfileLayer>* layers) {
  std::vector<Diagnostic> diags;
  Result<std::string> top = resolve_profile(name_or_path, search, "");
  if (!top) {
    diags.push_back({{}, top.error().render()});
    return diags;
  }
  ChainLoader loader(search, is_known_syscall_or_group, layers, &diags);
  loader.visit(*top);
  return diags;
}

LoadResult load_policy(std::string_view name_or_path, const std::vector<SearchDir>& search,
                       const std::vector<ProfileLayer>& extra_layers,
                       const NameValidator& is_known_syscall_or_group) {
  LoadResult result;
  std::vector<ProfileLayer> layers;
  result.diagnostics = load_chain(name_or_path, search, is_known_syscall_or_group, &layers);
  if (!result.diagnostics.empty()) return result;
  layers.insert(layers.end(), extra_layers.begin(), extra_layers.end());
  result.policy = merge_layers(layers);
  return result;
}

std::vector<Diagnostic> check_profile(std::string_view name_or_path,
                                      const std::vector<SearchDir>& search,
                                      const NameValidator& is_known_syscall_or_group) {
  std::vector<ProfileLayer> layers;
  return load_chain(name_or_path, search, is_known_syscall_or_group, &layers);
}

}  // namespace aj

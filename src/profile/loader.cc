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
              std::vector<ProfileLayer>* layers)
      : search_(search), names_(names), layers_(layers) {}

  // Parses path, then its parents depth-first, then appends its own layer, so
  // that every parent precedes its children in *layers_. Diagnostics go to
  // *diags grouped by file: this file's (its `extends` errors included) before
  // its parents'.
  void visit(const std::string& path, std::vector<Diagnostic>* diags) {
    std::string id = identity(path);
    if (done_.count(id)) return;  // reached before through another branch
    stack_.push_back({id, path});
    std::vector<Diagnostic> own, parents;
    ProfileLayer layer = parse_profile_file(path, names_, &own);
    for (const Item<std::string>& parent : layer.extends) follow(path, parent, &own, &parents);
    stack_.pop_back();
    done_.insert(id);
    layers_->push_back(std::move(layer));
    sort_diagnostics(&own);
    diags->insert(diags->end(), own.begin(), own.end());
    diags->insert(diags->end(), parents.begin(), parents.end());
  }

 private:
  struct Frame {
    std::string id;
    std::string path;
  };

  void follow(const std::string& child, const Item<std::string>& parent,
              std::vector<Diagnostic>* own, std::vector<Diagnostic>* parents) {
    Result<std::string> found = resolve_profile(parent.value, search_, parent_dir(child), child);
    if (!found) {
      own->push_back(
          {parent.where, "cannot extend '" + parent.value + "': " + found.error().render()});
      return;
    }
    std::string id = identity(*found);
    auto on_stack =
        std::find_if(stack_.begin(), stack_.end(), [&](const Frame& f) { return f.id == id; });
    if (on_stack != stack_.end()) {
      std::string chain;
      for (auto it = on_stack; it != stack_.end(); ++it) chain += base_name(it->path) + " -> ";
      chain += base_name(*found);
      own->push_back({parent.where, "extends cycle: " + chain});
      return;
    }
    visit(*found, parents);
  }

  const std::vector<SearchDir>& search_;
  const NameValidator& names_;
  std::vector<ProfileLayer>* layers_;
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
  ChainLoader loader(search, is_known_syscall_or_group, layers);
  loader.visit(*top, &diags);
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
  Policy merged = merge_layers(layers, &result.diagnostics);
  if (result.diagnostics.empty()) result.policy = std::move(merged);
  return result;
}

std::vector<Diagnostic> check_profile(std::string_view name_or_path,
                                      const std::vector<SearchDir>& search,
                                      const NameValidator& is_known_syscall_or_group) {
  std::vector<ProfileLayer> layers;
  std::vector<Diagnostic> diags =
      load_chain(name_or_path, search, is_known_syscall_or_group, &layers);
  if (diags.empty()) merge_layers(layers, &diags);  // removals that match nothing
  return diags;
}

}  // namespace aj

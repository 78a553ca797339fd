#include "twin/runtime/model/src/model_registry.h"

#include <mutex>
#include <string>
#include <unordered_map>

namespace asc_twin::model {
namespace {

struct Registry {
  std::mutex mutex;
  uint32_t next_id = 1;
  std::unordered_map<uint32_t, std::shared_ptr<LoadedModel>> models;
};

Registry &TheRegistry() {
  static Registry *registry = new Registry();  // never destroyed: models may be unloaded at exit
  return *registry;
}

}  // namespace

uint32_t RegisterModel(std::shared_ptr<LoadedModel> model) {
  Registry &registry = TheRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  const uint32_t id = registry.next_id++;
  registry.models.emplace(id, std::move(model));
  return id;
}

std::shared_ptr<LoadedModel> FindModel(uint32_t id) {
  Registry &registry = TheRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  auto it = registry.models.find(id);
  return it == registry.models.end() ? nullptr : it->second;
}

bool UnregisterModel(uint32_t id) {
  std::shared_ptr<LoadedModel> model;  // destroyed after the lock is released
  Registry &registry = TheRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  auto it = registry.models.find(id);
  if (it == registry.models.end()) return false;
  model = std::move(it->second);
  registry.models.erase(it);
  return true;
}

Status InvalidModelId(const char *api, uint32_t id) {
  return Status(ACL_ERROR_INVALID_MODEL_ID,
                std::string(api) + ": model id " + std::to_string(id) + " is not loaded (never loaded or unloaded)");
}

}  // namespace asc_twin::model

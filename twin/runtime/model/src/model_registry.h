// Process-wide table of loaded models by model id (ids start at 1 and are never reused).
#ifndef TWIN_RUNTIME_MODEL_SRC_MODEL_REGISTRY_H_
#define TWIN_RUNTIME_MODEL_SRC_MODEL_REGISTRY_H_

#include <cstdint>
#include <memory>

#include "twin/runtime/model/src/loaded_model.h"

namespace asc_twin::model {

uint32_t RegisterModel(std::shared_ptr<LoadedModel> model);
// nullptr if `id` is not loaded.
std::shared_ptr<LoadedModel> FindModel(uint32_t id);
// false if `id` is not loaded.
bool UnregisterModel(uint32_t id);

Status InvalidModelId(const char *api, uint32_t id);

}  // namespace asc_twin::model

#endif  // TWIN_RUNTIME_MODEL_SRC_MODEL_REGISTRY_H_

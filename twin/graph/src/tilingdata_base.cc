// optiling::TilingDef and the tiling data class factory (libregister.so); see
// include/register/tilingdata_base.h for the layout rules.
#include "register/tilingdata_base.h"

#include <algorithm>
#include <map>
#include <mutex>

#include "log.h"

namespace optiling {
TilingDef::~TilingDef() {
  if (owns_data_) delete[] data_ptr_;
}

void TilingDef::SaveToBuffer(void *pdata, size_t capacity) {
  if (inited_data_ptr_) return;  // the fields already live in the caller's memory
  if (pdata == nullptr || capacity < data_size_) {
    GeLogError("TilingDef::SaveToBuffer of tiling data '" + std::string(class_name_) + "': the buffer holds " +
               (pdata == nullptr ? std::string("nothing (null)") : std::to_string(capacity) + " bytes") +
               ", the data is " + std::to_string(data_size_) + " bytes; nothing was written");
    return;
  }
  if (data_size_ > 0 && pdata != data_ptr_) std::memcpy(pdata, data_ptr_, data_size_);
}

std::vector<FieldInfo> TilingDef::GetFieldInfo() const { return field_info_; }

const char *TilingDef::GetTilingClassName() const { return class_name_; }

size_t TilingDef::GetDataSize() const { return data_size_; }

void TilingDef::SetDataPtr(void *dataPtr) {
  if (dataPtr == nullptr) {
    GeLogError("TilingDef::SetDataPtr of tiling data '" + std::string(class_name_) + "': the pointer is null");
    return;
  }
  PointInto(static_cast<uint8_t *>(dataPtr));
  inited_data_ptr_ = true;
}

void TilingDef::CheckAlignAndGenPlaceHolder(const char *name, size_t typeSize) {
  if (typeSize == 0 || data_size_ % typeSize == 0) return;
  size_t pad = typeSize - data_size_ % typeSize;
  field_info_.emplace_back("uint8_t", name, pad);
  data_size_ += pad;
}

size_t TilingDef::AddField(const char *dtype, const char *name, size_t type_size) {
  CheckAlignAndGenPlaceHolder((std::string(name) + "PH").c_str(), type_size);
  size_t offset = data_size_;
  field_info_.emplace_back(dtype, name);
  data_size_ += type_size;
  max_align_ = std::max(max_align_, type_size);
  InitData();
  return offset;
}

size_t TilingDef::AddArrayField(const char *dtype, const char *name, size_t element_size, size_t count) {
  CheckAlignAndGenPlaceHolder((std::string(name) + "PH").c_str(), element_size);
  size_t offset = data_size_;
  field_info_.emplace_back(dtype, name, count);
  data_size_ += element_size * count;
  max_align_ = std::max(max_align_, element_size);
  InitData();
  return offset;
}

size_t TilingDef::AddStructField(const char *struct_type, const char *name, TilingDef *field) {
  // A nested struct starts where its own widest member may: its fields stay naturally aligned,
  // as in the C struct the kernel reads.
  CheckAlignAndGenPlaceHolder((std::string(name) + "PH").c_str(), field->max_align_);
  size_t offset = data_size_;
  field_info_.emplace_back("struct", name, struct_type, field->data_size_);
  data_size_ += field->data_size_;
  max_align_ = std::max(max_align_, field->max_align_);
  struct_fields_.emplace_back(field, offset);
  InitData();
  return offset;
}

void TilingDef::InitData() {
  // Fields are registered one by one while the object is constructed: grow the bytes each time,
  // keeping what is already there.
  uint8_t *grown = new uint8_t[data_size_ == 0 ? 1 : data_size_]();
  if (data_ptr_ != nullptr) {
    std::memcpy(grown, data_ptr_, std::min(allocated_size_, data_size_));
    if (owns_data_) delete[] data_ptr_;
  }
  data_ptr_ = grown;
  owns_data_ = true;
  allocated_size_ = data_size_;
  for (auto &nested : struct_fields_) {
    TilingDef *field = nested.first;
    // A struct field not attached yet still owns its bytes (values its constructor set): move
    // them in. Attached ones were part of the old bytes and only need re-pointing.
    if (field->owns_data_ && field->data_size_ > 0) {
      std::memcpy(data_ptr_ + nested.second, field->data_ptr_, field->data_size_);
    }
    field->PointInto(data_ptr_ + nested.second);
  }
}

void TilingDef::PointInto(uint8_t *data) {
  if (owns_data_) delete[] data_ptr_;
  data_ptr_ = data;
  owns_data_ = false;
  for (auto &nested : struct_fields_) nested.first->PointInto(data + nested.second);
}

void TilingDef::GeLogError(const std::string &str) const { GE_TWIN_LOGE("%s", str.c_str()); }

namespace {
struct TilingClassRegistry {
  std::mutex mutex;
  std::map<std::string, TilingDataConstructor> constructors;
};

TilingClassRegistry &Registry() {
  static TilingClassRegistry *registry = new TilingClassRegistry();  // never destroyed: used by static dtors
  return *registry;
}
}  // namespace

CTilingDataClassFactory &CTilingDataClassFactory::GetInstance() {
  static CTilingDataClassFactory *factory = new CTilingDataClassFactory();
  return *factory;
}

void CTilingDataClassFactory::RegisterTilingData(const char *op_type, const TilingDataConstructor constructor) {
  if (op_type == nullptr || constructor == nullptr) return;
  std::lock_guard<std::mutex> lock(Registry().mutex);
  if (!Registry().constructors.emplace(op_type, constructor).second) {
    GE_TWIN_LOGI("tiling data class of op type '%s' is already registered; keeping the first", op_type);
  }
}

std::shared_ptr<TilingDef> CTilingDataClassFactory::CreateTilingDataInstance(const char *op_type) {
  TilingDataConstructor constructor = nullptr;
  {
    std::lock_guard<std::mutex> lock(Registry().mutex);
    auto it = Registry().constructors.find(op_type == nullptr ? "" : op_type);
    if (it != Registry().constructors.end()) constructor = it->second;
  }
  if (constructor == nullptr) {
    GE_TWIN_LOGE("CTilingDataClassFactory: no tiling data class is registered for op type '%s'",
                 op_type == nullptr ? "" : op_type);
    return nullptr;
  }
  return constructor();
}
}  // namespace optiling

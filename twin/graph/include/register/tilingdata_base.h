/*
 * register/tilingdata_base.h: host-side tiling data classes, as CANN's (libregister.so).
 *
 *   namespace optiling {
 *   BEGIN_TILING_DATA_DEF(AddCustomTilingData)
 *     TILING_DATA_FIELD_DEF(uint32_t, totalLength);          // set_totalLength / get_totalLength
 *     TILING_DATA_FIELD_DEF_ARR(uint16_t, 3, tiles);         // set_tiles(const uint16_t *) / get_tiles()
 *     TILING_DATA_FIELD_DEF_STRUCT(MatmulTiling, mm);        // mm.set_... / mm.get_...
 *   END_TILING_DATA_DEF;
 *   REGISTER_TILING_DATA_CLASS(AddCustom, AddCustomTilingData)
 *   }
 *
 * Layout (what SaveToBuffer writes and the kernel reads): fields in declaration order; each field
 * starts at a multiple of its type's size (arrays: of the element size; nested structs: of their
 * largest member), with uint8_t placeholder fields "<name>PH" filling the gaps; GetDataSize() is
 * the end of the last field (no tail padding). Field types are int8_t..uint64_t and float; nested
 * structs must themselves be defined with BEGIN_TILING_DATA_DEF.
 */
#ifndef INC_EXTERNAL_REGISTER_TILINGDATA_BASE_H_
#define INC_EXTERNAL_REGISTER_TILINGDATA_BASE_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "graph/ascend_string.h"
#include "graph/ge_error_codes.h"

namespace optiling {
/* One entry of a tiling layout: classType_ "0" scalar, "1" array, "2" nested struct. */
class GE_FUNC_VISIBILITY FieldInfo {
 public:
  FieldInfo(const char *dtype, const char *name) : dtype_(dtype), name_(name), classType_("0") {}
  FieldInfo(const char *dtype, const char *name, size_t arrSize)
      : dtype_(dtype), name_(name), arrSize_(arrSize), classType_("1") {}
  FieldInfo(const char *dtype, const char *name, const char *structType, size_t structSize)
      : dtype_(dtype), name_(name), structType_(structType), structSize_(structSize), classType_("2") {}

  ge::AscendString dtype_;
  ge::AscendString name_;
  size_t arrSize_ = 0;
  ge::AscendString structType_;
  size_t structSize_ = 0;
  ge::AscendString classType_;
};

template <typename T>
struct IsTilingFieldType
    : std::integral_constant<bool, std::is_same<T, int8_t>::value || std::is_same<T, uint8_t>::value ||
                                       std::is_same<T, int16_t>::value || std::is_same<T, uint16_t>::value ||
                                       std::is_same<T, int32_t>::value || std::is_same<T, uint32_t>::value ||
                                       std::is_same<T, int64_t>::value || std::is_same<T, uint64_t>::value ||
                                       std::is_same<T, float>::value> {};
/* A scalar field may also be bool (CANN's TopK sample declares TILING_DATA_FIELD_DEF(bool, isLargest)). */
template <typename T>
struct IsTilingScalarFieldType
    : std::integral_constant<bool, IsTilingFieldType<T>::value || std::is_same<T, bool>::value> {};

/* Base of every BEGIN_TILING_DATA_DEF class: owns the serialized bytes the fields live in. */
class GE_FUNC_VISIBILITY TilingDef {
 public:
  virtual ~TilingDef();
  /* Not copyable: nested struct fields point into their parent's bytes. */
  TilingDef(const TilingDef &) = delete;
  TilingDef &operator=(const TilingDef &) = delete;

  /* Copies the GetDataSize() bytes to pdata; a null pdata or capacity < GetDataSize() writes
   * nothing and logs an error. After SetDataPtr the bytes already live in the caller's memory and
   * nothing is copied (as in CANN). */
  void SaveToBuffer(void *pdata, size_t capacity);
  std::vector<FieldInfo> GetFieldInfo() const;
  const char *GetTilingClassName() const;
  size_t GetDataSize() const;
  /* Makes the fields read and write dataPtr (GetDataSize() bytes, owned by the caller) instead of
   * this object's own bytes: a view of serialized tiling data. */
  void SetDataPtr(void *dataPtr);
  /* Appends a uint8_t placeholder field `name` so that the next field starts at a multiple of
   * typeSize. */
  void CheckAlignAndGenPlaceHolder(const char *name, size_t typeSize);

 protected:
  TilingDef() = default;
  /* Called by the field macros in declaration order; each returns the new field's offset. */
  size_t AddField(const char *dtype, const char *name, size_t type_size);
  size_t AddArrayField(const char *dtype, const char *name, size_t element_size, size_t count);
  size_t AddStructField(const char *struct_type, const char *name, TilingDef *field);
  /* Grows the bytes to GetDataSize(), keeping the values set so far, and re-points nested structs. */
  void InitData();
  void GeLogError(const std::string &str) const;

  uint8_t *data_ptr_ = nullptr;
  size_t data_size_ = 0;
  const char *class_name_ = "";
  std::vector<FieldInfo> field_info_;

 private:
  void PointInto(uint8_t *data);  // nested: use the parent's bytes from now on

  std::vector<std::pair<TilingDef *, size_t>> struct_fields_;  // nested struct field, its offset
  size_t max_align_ = 1;
  size_t allocated_size_ = 0;
  bool owns_data_ = false;
  bool inited_data_ptr_ = false;  // SetDataPtr was called
};

using TilingDataConstructor = std::shared_ptr<TilingDef> (*)();

/* Process-wide op type -> tiling data class registry (filled by REGISTER_TILING_DATA_CLASS). */
class GE_FUNC_VISIBILITY CTilingDataClassFactory {
 public:
  static CTilingDataClassFactory &GetInstance();
  /* The first registration of an op type wins; later ones are ignored (logged at info level). */
  void RegisterTilingData(const char *op_type, const TilingDataConstructor constructor);
  /* A new instance of the op type's class, or nullptr (with an error logged) if none is registered. */
  std::shared_ptr<TilingDef> CreateTilingDataInstance(const char *op_type);

 private:
  CTilingDataClassFactory() = default;
  ~CTilingDataClassFactory() = default;
  CTilingDataClassFactory(const CTilingDataClassFactory &) = delete;
  CTilingDataClassFactory &operator=(const CTilingDataClassFactory &) = delete;
};

class TilingDataClassRegistrar {
 public:
  TilingDataClassRegistrar(const char *op_type, TilingDataConstructor constructor) {
    CTilingDataClassFactory::GetInstance().RegisterTilingData(op_type, constructor);
  }
};
}  // namespace optiling

#define BEGIN_TILING_DATA_DEF(class_name)           \
  class class_name : public ::optiling::TilingDef { \
   public:                                          \
    class_name() { class_name_ = #class_name; }     \
    explicit class_name(void *ptr) {                \
      class_name_ = #class_name;                    \
      SetDataPtr(ptr);                              \
    }

#define TILING_DATA_FIELD_DEF(data_type, field_name)                                                                   \
 public:                                                                                                               \
  static_assert(::optiling::IsTilingScalarFieldType<data_type>::value,                                                 \
                "TILING_DATA_FIELD_DEF(" #data_type ", " #field_name "): fields are int8_t..uint64_t, float or bool"); \
  void set_##field_name(data_type field_name) {                                                                        \
    ::std::memcpy(data_ptr_ + field_name##_offset_, &field_name, sizeof(data_type));                                   \
  }                                                                                                                    \
  data_type get_##field_name() const {                                                                                 \
    data_type value;                                                                                                   \
    ::std::memcpy(&value, data_ptr_ + field_name##_offset_, sizeof(data_type));                                        \
    return value;                                                                                                      \
  }                                                                                                                    \
                                                                                                                       \
 private:                                                                                                              \
  size_t field_name##_offset_ = AddField(#data_type, #field_name, sizeof(data_type));

/* set_<field> copies arr_size elements from the pointer; get_<field> points into the data. */
#define TILING_DATA_FIELD_DEF_ARR(arr_type, arr_size, field_name)                                                     \
 public:                                                                                                              \
  static_assert(::optiling::IsTilingFieldType<arr_type>::value,                                                       \
                "TILING_DATA_FIELD_DEF_ARR(" #arr_type ", " #field_name "): elements are int8_t..uint64_t or float"); \
  void set_##field_name(const arr_type *field_name) {                                                                 \
    if (field_name != nullptr) {                                                                                      \
      ::std::memcpy(data_ptr_ + field_name##_offset_, field_name, sizeof(arr_type) * (arr_size));                     \
    }                                                                                                                 \
  }                                                                                                                   \
  arr_type *get_##field_name() { return reinterpret_cast<arr_type *>(data_ptr_ + field_name##_offset_); }             \
                                                                                                                      \
 private:                                                                                                             \
  size_t field_name##_offset_ = AddArrayField(#arr_type, #field_name, sizeof(arr_type), (arr_size));

#define TILING_DATA_FIELD_DEF_STRUCT(struct_type, field_name)                 \
 public:                                                                      \
  static_assert(::std::is_base_of<::optiling::TilingDef, struct_type>::value, \
                "TILING_DATA_FIELD_DEF_STRUCT(" #struct_type ", " #field_name \
                "): the type must be defined "                                \
                "with BEGIN_TILING_DATA_DEF");                                \
  struct_type field_name;                                                     \
                                                                              \
 private:                                                                     \
  size_t field_name##_offset_ = AddStructField(#struct_type, #field_name, &field_name);

#define END_TILING_DATA_DEF \
  }                         \
  ;

#define REGISTER_TILING_DATA_CLASS(op_type, class_name)                                             \
  static ::std::shared_ptr<::optiling::TilingDef> GeTwinNewTilingData_##op_type##_##class_name() {  \
    return ::std::make_shared<class_name>();                                                        \
  }                                                                                                 \
  static const ::optiling::TilingDataClassRegistrar g_ge_twin_tiling_data_##op_type##_##class_name( \
      #op_type, &GeTwinNewTilingData_##op_type##_##class_name);

#endif /* INC_EXTERNAL_REGISTER_TILINGDATA_BASE_H_ */

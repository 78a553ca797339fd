// ListTensorDesc / TensorDesc: the GM description of a dynamic list of input tensors that a
// kernel receives as one argument. Layout (as CANN's samples build it on the host): a uint64_t
// ptrOffset (bytes from the start to the data pointers), then per tensor {uint32_t dim,
// uint32_t index, uint64_t shape[dim]}, then one uint64_t data pointer per tensor. The number
// of tensors is what fits before ptrOffset. Every GM read is checked.
#ifndef ASC_TWIN_KERNEL_OPERATOR_LIST_TENSOR_INTF_H_
#define ASC_TWIN_KERNEL_OPERATOR_LIST_TENSOR_INTF_H_

#include <cstdint>
#include <cstring>

#include "asc_twin/block_state.h"
#include "kernel_tensor.h"

namespace AscendC {

class ListTensorDesc;

template <class T>
class TensorDesc {
 public:
  __aicore__ inline TensorDesc() {}
  __aicore__ inline ~TensorDesc() {}
  // Where GetDesc copies the shape (dim values); without it GetShape reads GM.
  __aicore__ inline void SetShapeAddr(uint64_t* shapePtr) { shapeOut_ = shapePtr; }
  __aicore__ inline uint64_t GetDim() { return dim_; }
  __aicore__ inline uint64_t GetIndex() { return index_; }
  __aicore__ inline uint64_t GetShape(uint32_t offset) {
    if (offset >= dim_)
      twin::RaiseTrap("TensorDesc::GetShape: offset %u is beyond the tensor's %u dimensions", offset, dim_);
    return shapeOut_ != nullptr ? shapeOut_[offset] : shape_[offset];
  }
  __aicore__ inline __gm__ T* GetDataPtr() { return data_; }
  __aicore__ inline GlobalTensor<T> GetDataObj() {
    GlobalTensor<T> g;
    uint64_t n = 1;
    for (uint32_t i = 0; i < dim_; ++i) n *= GetShape(i);
    g.SetGlobalBuffer(data_, n);
    return g;
  }

 private:
  friend class ListTensorDesc;
  uint32_t dim_ = 0;
  uint32_t index_ = 0;
  const uint64_t* shape_ = nullptr;
  uint64_t* shapeOut_ = nullptr;
  __gm__ T* data_ = nullptr;
};

class ListTensorDesc {
 public:
  __aicore__ inline ListTensorDesc() {}
  __aicore__ inline ~ListTensorDesc() {}
  __aicore__ inline ListTensorDesc(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff) {
    Init(data, length, shapeSize);
  }
  __aicore__ inline void Init(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff) {
    (void)shapeSize;
    base_ = reinterpret_cast<__gm__ uint8_t*>(data);
    const uint64_t ptrOffset = Read64("ListTensorDesc", 0);
    if (ptrOffset < 8 || ptrOffset % 8 != 0) {
      twin::RaiseTrap("ListTensorDesc: ptrOffset %llu is not a multiple of 8 past the header",
                      static_cast<unsigned long long>(ptrOffset));
    }
    // Walk the descriptions up to the data pointers.
    count_ = 0;
    for (uint64_t at = 8; at < ptrOffset; ++count_) {
      const uint32_t dim = static_cast<uint32_t>(Read64("ListTensorDesc", at) & 0xffffffffu);
      at += 8 * (1 + uint64_t{dim});
      if (at > ptrOffset) {
        twin::RaiseTrap("ListTensorDesc: tensor %u's shape (%u dimensions) runs past ptrOffset %llu", count_, dim,
                        static_cast<unsigned long long>(ptrOffset));
      }
    }
    ptrOffset_ = ptrOffset;
    if (length != 0xffffffff && ptrOffset + 8ull * count_ > length) {
      twin::RaiseTrap("ListTensorDesc: %u tensors need %llu bytes, the description has %u", count_,
                      static_cast<unsigned long long>(ptrOffset + 8ull * count_), length);
    }
  }
  template <class T>
  __aicore__ inline void GetDesc(TensorDesc<T>& desc, uint32_t index) {
    CheckIndex("ListTensorDesc::GetDesc", index);
    uint64_t at = 8;
    for (uint32_t i = 0; i < index; ++i) at += 8 * (1 + (Read64("ListTensorDesc::GetDesc", at) & 0xffffffffu));
    const uint64_t head = Read64("ListTensorDesc::GetDesc", at);
    desc.dim_ = static_cast<uint32_t>(head & 0xffffffffu);
    desc.index_ = static_cast<uint32_t>(head >> 32);
    twin::CheckGm("ListTensorDesc::GetDesc", base_ + at + 8, 8ull * desc.dim_);
    desc.shape_ = reinterpret_cast<const uint64_t*>(base_ + at + 8);
    if (desc.shapeOut_ != nullptr) std::memcpy(desc.shapeOut_, desc.shape_, 8ull * desc.dim_);
    desc.data_ = GetDataPtr<T>(index);
  }
  template <class T>
  __aicore__ inline __gm__ T* GetDataPtr(uint32_t index) {
    CheckIndex("ListTensorDesc::GetDataPtr", index);
    return reinterpret_cast<__gm__ T*>(
        static_cast<uintptr_t>(Read64("ListTensorDesc::GetDataPtr", ptrOffset_ + 8ull * index)));
  }
  __aicore__ inline uint32_t GetSize() { return count_; }

 private:
  uint64_t Read64(const char* api, uint64_t at) const {
    if (base_ == nullptr) twin::RaiseTrap("%s: no description (Init not called)", api);
    twin::CheckGm(api, base_ + at, 8);
    uint64_t v;
    std::memcpy(&v, base_ + at, 8);
    return v;
  }
  void CheckIndex(const char* api, uint32_t index) const {
    if (index >= count_) twin::RaiseTrap("%s: index %u is beyond the list's %u tensors", api, index, count_);
  }
  __gm__ uint8_t* base_ = nullptr;
  uint64_t ptrOffset_ = 0;
  uint32_t count_ = 0;
};

}  // namespace AscendC

#endif  // ASC_TWIN_KERNEL_OPERATOR_LIST_TENSOR_INTF_H_

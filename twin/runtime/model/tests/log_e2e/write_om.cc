// Writes a one-kernel OM that claims SoC argv[2] / NpuArch argv[3] (the kernel image argv[4]) to
// argv[1]: an OM "built for another SoC" for test_refusal_logs.py.
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

#include "acl/acl_base.h"
#include "twin/om/om_format.h"
#include "twin/om/om_writer.h"
#include "twin/om/tests/binding_builders.h"

int main(int argc, char **argv) {
  if (argc != 5) return 2;
  std::ifstream kernel_file(argv[4], std::ios::binary);
  const std::string kernels((std::istreambuf_iterator<char>(kernel_file)), std::istreambuf_iterator<char>());
  asc_twin::om::ModelDef model;
  model.set_format_version(asc_twin::om::kFormatVersion);
  model.set_name("foreign");
  model.set_soc_version(argv[2]);
  model.set_npu_arch(static_cast<uint32_t>(std::strtoul(argv[3], nullptr, 10)));
  for (auto *tensors : {model.mutable_inputs(), model.mutable_outputs()}) {
    auto *t = tensors->Add();
    t->set_name("t");
    t->set_data_type(ACL_FLOAT);
    t->set_format(ACL_FORMAT_ND);
    t->add_dims(16);
    t->set_size(64);
  }
  auto *copy = model.add_tasks()->mutable_memcpy();
  *copy->mutable_src() = asc_twin::om::testing::InputBinding(0);
  *copy->mutable_dst() = asc_twin::om::testing::OutputBinding(0);
  copy->set_size(64);
  std::ofstream out(argv[1], std::ios::binary);
  out << asc_twin::om::SerializeOm(model, {kernels});
  return out ? 0 : 1;
}

/* Online from C++: GE's Session compiles the graph (calling the Python holder) and runs it. */
#include <cstdlib>
#include <iostream>
#include <map>
#include <vector>

#include "abs_sub_graph.h"
#include "ge_api.h"

int main() {
  const uint32_t seed = std::getenv("ABS_SUB_SEED") ? std::atoi(std::getenv("ABS_SUB_SEED")) : 7u;
  std::cout << "seed=" << seed << std::endl;
  const abs_sub::Case c = abs_sub::MakeCase(seed);
  std::map<ge::AscendString, ge::AscendString> options = {{"ge.exec.deviceId", "0"}, {"ge.graphRunMode", "0"}};
  if (ge::GEInitialize(options) != ge::SUCCESS) {
    std::cerr << "GEInitialize failed: " << ge::GEGetErrorMsg() << std::endl;
    return 1;
  }
  int status = 1;
  {
    ge::Session session(options);
    const ge::TensorDesc desc(ge::Shape(abs_sub::kShape), ge::FORMAT_ND, ge::DT_FLOAT);
    std::vector<ge::Tensor> inputs = {
        ge::Tensor(desc, reinterpret_cast<const uint8_t *>(c.x1.data()), c.x1.size() * sizeof(float)),
        ge::Tensor(desc, reinterpret_cast<const uint8_t *>(c.x2.data()), c.x2.size() * sizeof(float))};
    std::vector<ge::Tensor> outputs;
    if (session.AddGraph(1, abs_sub::BuildGraph()) != ge::SUCCESS) {
      std::cerr << "AddGraph failed: " << ge::GEGetErrorMsg() << std::endl;
    } else if (session.RunGraph(1, inputs, outputs) != ge::SUCCESS) {
      std::cerr << "RunGraph failed: " << ge::GEGetErrorMsg() << std::endl;
    } else if (outputs.size() != 1 || outputs[0].GetSize() != c.expected.size() * sizeof(float)) {
      std::cerr << "unexpected outputs" << std::endl;
    } else {
      const size_t bad = abs_sub::CountMismatches(reinterpret_cast<const float *>(outputs[0].GetData()), c.expected);
      if (bad == 0) {
        std::cout << "CPP_SESSION_RUN=PASS" << std::endl;
        status = 0;
      } else {
        std::cerr << bad << " elements differ from |x1 - x2|" << std::endl;
      }
    }
  }
  ge::GEFinalize();
  return status;
}

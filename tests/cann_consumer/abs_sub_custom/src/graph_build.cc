/* Offline step 1: write the graph as AIR for atc. */
#include <iostream>

#include "abs_sub_graph.h"

int main() {
  ge::Graph graph = abs_sub::BuildGraph();
  if (graph.SaveToFile("./abs_sub.air") != ge::GRAPH_SUCCESS) {
    std::cerr << "failed to write abs_sub.air" << std::endl;
    return 1;
  }
  std::cout << "PY_COMPILE_AIR_BUILD=PASS" << std::endl;
  return 0;
}

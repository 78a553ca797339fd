// REG_OP-generated classes: accessors, dynamic instances, attrs and defaults, the factory.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "all_ops.h"
#include "exe_graph/runtime/shape.h"
#include "graph/operator_factory.h"
#include "test_ops.h"
#include "test_support.h"

using namespace ge;

namespace {
std::vector<int64_t> RandomDims(std::mt19937_64 &rng) {
  std::uniform_int_distribution<int> rank(1, 5);
  std::uniform_int_distribution<int64_t> dim(1, 4096);
  std::vector<int64_t> dims(rank(rng));
  for (auto &d : dims) d = dim(rng);
  return dims;
}

TensorDesc RandomDesc(std::mt19937_64 &rng) {
  static const DataType kTypes[] = {DT_FLOAT, DT_FLOAT16, DT_INT32, DT_INT8, DT_BF16, DT_INT64};
  static const Format kFormats[] = {FORMAT_ND, FORMAT_NCHW, FORMAT_NHWC, FORMAT_NC1HWC0};
  TensorDesc desc(Shape(RandomDims(rng)), kFormats[rng() % 4], kTypes[rng() % 6]);
  desc.SetOriginShape(Shape(RandomDims(rng)));
  return desc;
}
}  // namespace

TEST(RegOp, EnumValuesMatchCann) {
  EXPECT_EQ(DT_FLOAT, 0);
  EXPECT_EQ(DT_INT16, 6);
  EXPECT_EQ(DT_BF16, 27);
  EXPECT_EQ(DT_MAX, 43);
  EXPECT_EQ(FORMAT_ND, 2);
  EXPECT_EQ(FORMAT_C1HWNCoC0, 25);
  EXPECT_EQ(FORMAT_FRACTAL_NZ, 29);
  EXPECT_EQ(FORMAT_NCL, 47);
  EXPECT_EQ(FORMAT_END, 52);
  EXPECT_EQ(GRAPH_FAILED, 0xFFFFFFFFu);
  EXPECT_EQ(GRAPH_PARAM_INVALID, 50331649u);
  EXPECT_EQ(OP_WITHOUT_IR_DATATYPE_INFER_RULE, 50331645u);
}

TEST(RegOp, DataProtoHasIndexDefaultZero) {
  op::Data data("data_x");
  EXPECT_EQ(data.GetName(), "data_x");
  EXPECT_EQ(data.GetOpType(), "Data");
  EXPECT_EQ(data.get_attr_index(), 0);
  EXPECT_EQ(data.set_attr_index(3).get_attr_index(), 3);
  EXPECT_EQ(op::Data::name_in_x(), "x");
  EXPECT_EQ(op::Data::name_out_y(), "y");
  EXPECT_EQ(op::Data::name_attr_index(), "index");
  EXPECT_EQ(data.GetInputsSize(), 1u);
  EXPECT_EQ(data.GetOutputsSize(), 1u);
  EXPECT_TRUE(OperatorFactory::IsExistOp("Data"));
}

TEST(RegOp, AttrDefaultsAndSetters) {
  auto rng = ge_twin_test::SeededRng("RegOp.AttrDefaultsAndSetters");
  op::TwinConcatTest node("concat");
  EXPECT_FLOAT_EQ(node.get_attr_scale(), 1.5f);
  EXPECT_EQ(node.get_attr_mode(), "sum");
  EXPECT_TRUE(node.get_attr_flag());
  EXPECT_EQ(node.get_attr_pads(), (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(node.get_attr_dst_type(), DT_INT32);
  EXPECT_EQ(node.get_attr_weights(), (std::vector<float>{0.5f, 0.25f}));
  EXPECT_EQ(node.get_attr_grid(), (std::vector<std::vector<int64_t>>{{1, 2}, {3}}));
  EXPECT_EQ(node.get_attr_names(), (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(node.get_attr_empty_list().empty());
  // A required attr has no value until set.
  int64_t axis = 0;
  EXPECT_EQ(node.GetAttr("axis", axis), GRAPH_FAILED);

  for (int round = 0; round < 20; ++round) {
    int64_t a = static_cast<int64_t>(rng() % 2001) - 1000;
    float scale = std::uniform_real_distribution<float>(-100.f, 100.f)(rng);
    std::vector<int64_t> pads = RandomDims(rng);
    std::string mode = "m" + std::to_string(rng() % 100000);
    bool flag = (rng() & 1) != 0;
    node.set_attr_axis(a)
        .set_attr_scale(scale)
        .set_attr_pads(pads)
        .set_attr_mode(mode)
        .set_attr_flag(flag)
        .set_attr_dst_type(DT_FLOAT16);
    EXPECT_EQ(node.get_attr_axis(), a);
    EXPECT_EQ(node.get_attr_scale(), scale);
    EXPECT_EQ(node.get_attr_pads(), pads);
    EXPECT_EQ(node.get_attr_mode(), mode);
    EXPECT_EQ(node.get_attr_flag(), flag);
    EXPECT_EQ(node.get_attr_dst_type(), DT_FLOAT16);
  }
  // Kind mismatch and narrowing are refused, not converted.
  std::string wrong;
  EXPECT_EQ(node.GetAttr("axis", wrong), GRAPH_FAILED);
  node.SetAttr("big", static_cast<int64_t>(1) << 40);
  int32_t narrow = 0;
  EXPECT_EQ(node.GetAttr("big", narrow), GRAPH_FAILED);

  std::map<AscendString, AscendString> types;
  ASSERT_EQ(node.GetAllAttrNamesAndTypes(types), GRAPH_SUCCESS);
  EXPECT_EQ(std::string(types[AscendString("grid")].GetString()), "ListListInt");
  EXPECT_EQ(std::string(types[AscendString("dst_type")].GetString()), "Type");
}

TEST(RegOp, DynamicInputsAndOutputs) {
  auto rng = ge_twin_test::SeededRng("RegOp.DynamicInputsAndOutputs");
  op::TwinConcatTest node("concat");
  EXPECT_EQ(node.GetInputsSize(), 1u);  // only the optional bias until instances are created
  node.create_dynamic_input_x(3);
  EXPECT_EQ(node.GetInputsSize(), 4u);
  std::vector<TensorDesc> descs;
  for (uint32_t i = 0; i < 3; ++i) {
    descs.push_back(RandomDesc(rng));
    ASSERT_EQ(node.update_dynamic_input_desc_x(i, descs.back()), GRAPH_SUCCESS);
  }
  for (uint32_t i = 0; i < 3; ++i) {
    EXPECT_EQ(node.get_dynamic_input_desc_x(i), descs[i]);
    EXPECT_EQ(node.GetInputDescByName(("x" + std::to_string(i)).c_str()), descs[i]);
    EXPECT_EQ(node.GetInputDesc(i), descs[i]);  // flat index: x instances come first (IR order)
  }
  // Inserting at the front shifts existing instances (and their names) back.
  node.create_dynamic_input_x(2, false);
  EXPECT_EQ(node.GetInputsSize(), 6u);
  EXPECT_EQ(node.get_dynamic_input_desc_x(2), descs[0]);
  EXPECT_EQ(node.get_dynamic_input_desc_x(4), descs[2]);
  node.create_dynamic_input_byindex_x(1, 3);
  EXPECT_EQ(node.get_dynamic_input_desc_x(2), descs[0]);
  EXPECT_EQ(node.get_dynamic_input_desc_x(4), descs[1]);
  EXPECT_EQ(node.update_dynamic_input_desc_x(99, descs[0]), GRAPH_FAILED);

  TensorDesc bias = RandomDesc(rng);
  EXPECT_EQ(node.update_input_desc_bias(bias), GRAPH_SUCCESS);
  EXPECT_EQ(node.get_input_desc_bias(), bias);
  EXPECT_EQ(node.GetInputDesc(6), bias);

  EXPECT_EQ(node.GetOutputsSize(), 1u);
  node.create_dynamic_output_extra(2);
  EXPECT_EQ(node.GetOutputsSize(), 3u);
  TensorDesc y = RandomDesc(rng), e1 = RandomDesc(rng);
  EXPECT_EQ(node.update_output_desc_y(y), GRAPH_SUCCESS);
  EXPECT_EQ(node.update_dynamic_output_desc_extra(1, e1), GRAPH_SUCCESS);
  EXPECT_EQ(node.get_output_desc_y(), y);
  EXPECT_EQ(node.get_dynamic_output_desc_extra(1), e1);
  EXPECT_EQ(node.GetOutputDesc(2), e1);
  EXPECT_EQ(node.UpdateOutputDesc("nope", y), GRAPH_FAILED);
}

TEST(RegOp, FactoryCreatesRegisteredTypes) {
  std::vector<AscendString> types;
  ASSERT_EQ(OperatorFactory::GetOpsTypeList(types), GRAPH_SUCCESS);
  bool has_concat = false;
  for (const auto &t : types) has_concat = has_concat || std::string(t.GetString()) == "TwinConcatTest";
  EXPECT_TRUE(has_concat);
  Operator made = OperatorFactory::CreateOperator("made", "TwinConcatTest");
  ASSERT_FALSE(made.IsEmpty());
  EXPECT_EQ(made.GetOpType(), "TwinConcatTest");
  float scale = 0;
  EXPECT_EQ(made.GetAttr("scale", scale), GRAPH_SUCCESS);
  EXPECT_FLOAT_EQ(scale, 1.5f);
  EXPECT_TRUE(OperatorFactory::CreateOperator("x", "NoSuchOpType").IsEmpty());
  EXPECT_FALSE(OperatorFactory::IsExistOp("NoSuchOpType"));
}

TEST(RegOp, SetInputChecksNamesAndIndexes) {
  op::Data a("a"), b("b");
  op::TwinNoImplTest n("n");
  n.set_input_x(a);       // fine
  n.set_input_x(b, 5);    // out of range: logged, edge unchanged (checked through AIR in air_test)
  n.SetInput("nope", a);  // unknown input: logged
  Operator empty;
  EXPECT_TRUE(empty.IsEmpty());
  EXPECT_EQ(empty.UpdateInputDesc("x", TensorDesc()), GRAPH_FAILED);
  AscendString name;
  EXPECT_EQ(empty.GetName(name), GRAPH_FAILED);
}

TEST(GertShape, Basics) {
  auto rng = ge_twin_test::SeededRng("GertShape.Basics");
  for (int round = 0; round < 50; ++round) {
    std::vector<int64_t> dims = RandomDims(rng);
    gert::Shape s;
    int64_t expect = 1;
    for (int64_t d : dims) {
      s.AppendDim(d);
      expect *= d;
    }
    EXPECT_EQ(s.GetDimNum(), dims.size());
    EXPECT_EQ(s.GetShapeSize(), expect);
    for (size_t i = 0; i < dims.size(); ++i) EXPECT_EQ(s.GetDim(i), dims[i]);
    gert::Shape copy;
    copy = s;
    EXPECT_TRUE(copy == s);
    copy.SetDim(0, dims[0] + 1);
    EXPECT_TRUE(copy != s);
  }
  gert::Shape scalar;
  EXPECT_TRUE(scalar.IsScalar());
  EXPECT_EQ(scalar.GetShapeSize(), 1);
  EXPECT_EQ((gert::Shape{2, -1}).GetShapeSize(), -1);
  EXPECT_EQ((gert::Shape{1LL << 40, 1LL << 40}).GetShapeSize(), -1);  // overflow
  EXPECT_EQ(scalar.GetDim(0), gert::Shape::kInvalidDimValue);
  gert::Shape full;
  for (size_t i = 0; i < gert::Shape::kMaxDimNum + 3; ++i) full.AppendDim(2);
  EXPECT_EQ(full.GetDimNum(), gert::Shape::kMaxDimNum);
}

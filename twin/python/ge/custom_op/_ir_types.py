"""Kinds of canonical-IR inputs/outputs and the attr type strings of ir_meta dicts."""

from enum import IntEnum


class InputType(IntEnum):
    REQUIRED = 0
    OPTIONAL = 1
    DYNAMIC = 2


class OutputType(IntEnum):
    REQUIRED = 0
    DYNAMIC = 1


class AttrType:
    INT = "VT_INT"
    FLOAT = "VT_FLOAT"
    BOOL = "VT_BOOL"
    STRING = "VT_STRING"
    DATA_TYPE = "VT_DATA_TYPE"
    TENSOR = "VT_TENSOR"
    LIST_INT = "VT_LIST_INT"
    LIST_FLOAT = "VT_LIST_FLOAT"
    LIST_BOOL = "VT_LIST_BOOL"
    LIST_STRING = "VT_LIST_STRING"
    LIST_DATA_TYPE = "VT_LIST_DATA_TYPE"
    LIST_LIST_INT = "VT_LIST_LIST_INT"

    ALL = (
        INT,
        FLOAT,
        BOOL,
        STRING,
        DATA_TYPE,
        TENSOR,
        LIST_INT,
        LIST_FLOAT,
        LIST_BOOL,
        LIST_STRING,
        LIST_DATA_TYPE,
        LIST_LIST_INT,
    )

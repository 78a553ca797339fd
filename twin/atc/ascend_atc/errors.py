"""ATC's error-manager codes and the one exception type every failure of a run becomes.

Codes mirror CANN's ATC: E10001 invalid parameter value, E10004 a
required parameter is missing or empty, E10007 missing --framework, E19999 internal error.
"""


class AtcError(Exception):
    """A failure reported on the console as ``<code>: <message>`` after ATC's failure line."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


def invalid_value(flag: str, value: str, reason: str) -> AtcError:
    return AtcError("E10001", f"Value [{value}] for parameter [--{flag}] is invalid. Reason: {reason}")


def missing_value(flag: str) -> AtcError:
    return AtcError("E10004", f"Value for [--{flag}] is empty.")


def missing_framework() -> AtcError:
    return AtcError(
        "E10007", "[--framework] is required. The value must be any of 0(Caffe), 1(MindSpore), 3(TensorFlow), 5(Onnx)."
    )


def internal(message: str) -> AtcError:
    return AtcError("E19999", f"Internal Error! {message}")


def printable(text: str) -> str:
    """Control characters (newlines, escapes, ...) from names in the input shown as \\xNN, and a
    huge text shortened in the middle, so an error stays one readable line that cannot drive the
    terminal (the twin's logger's rule, ascend_log.printable)."""
    import ascend_log

    return ascend_log.printable(text)

"""The one exception type the driver raises for user-facing failures."""


class BishengError(Exception):
    """A failure reported as one `bisheng: error: ...` line and a non-zero exit.

    `status` is the exit code (clang's own status when a compile failed; any
    compiler diagnostics have already been relayed to stderr by then).
    """

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status

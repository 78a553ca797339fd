"""ge.error.GeError: the exception GE's Python API raises for failed GE calls."""

from typing import Optional

import ascend_log


class GeError(RuntimeError):
    def __init__(
        self,
        message: str,
        error_message: Optional[str] = None,
        api_name: Optional[str] = None,
        context: Optional[dict] = None,
    ) -> None:
        super().__init__(message)
        self.error_message = error_message
        self.api_name = api_name
        self.context = context or {}


def make_ge_error(api_name: str, error_message: str = "", **context) -> GeError:
    """``"<api> failed; k=v, ...; <error text>"`` as CANN's raise_ge_error formats it."""
    # A message that quotes user input (a crafted name, a dumped value) stays readable; GE's
    # own diagnostics fit in the bound (4 lines' worth of the logger's MAX_MESSAGE_CHARS).
    error_message = (
        ascend_log.shorten(error_message, 4 * ascend_log.MAX_MESSAGE_CHARS) if error_message else error_message
    )
    parts = [f"{api_name} failed"]
    if context:
        parts.append(", ".join(f"{key}={value}" for key, value in context.items()))
    if error_message:
        parts.append(error_message)
    return GeError("; ".join(parts), error_message=error_message, api_name=api_name, context=context)

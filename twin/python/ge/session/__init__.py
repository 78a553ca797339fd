"""ge.session: graph sessions."""

from .session import Session

__all__ = ["Session"]

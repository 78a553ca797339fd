"""Validity flags shared by borrowed views.

A callback context owns one ``Lease``; every object it lends (tensors, shapes, attrs, arg
builders, workspaces, platform info) keeps a reference and checks it on each access. Ending the
callback expires the lease, so objects smuggled out of the callback fail loudly instead of
reading state that no longer exists (CANN's pybind views behave the same).
"""

NATIVE_EXPIRED = "Borrowed native object has expired"
HANDLE_EXPIRED = "handle has expired"


class Lease:
    __slots__ = ("_valid",)

    def __init__(self) -> None:
        self._valid = True

    @property
    def valid(self) -> bool:
        return self._valid

    def expire(self) -> None:
        self._valid = False

    def check(self, message: str = NATIVE_EXPIRED) -> None:
        if not self._valid:
            raise RuntimeError(message)


# Owned objects (user-constructed StorageShape, TensorDesc ...) use a lease that never expires.
PERMANENT = Lease()

"""Errors of the graph compiler and of the Session backend."""


class GraphCompileError(RuntimeError):
    """Graph compilation failed; the message is one line naming node, op and cause
    (a kernel compiler's diagnostics follow on later lines when there are any)."""


class ModelRunError(RuntimeError):
    """Loading or executing a compiled model failed (one line, with the ACL error code)."""


class NotStaticModelError(GraphCompileError):
    """The graph cannot become one static OM: a graph input has a dynamic shape, or a node runs a
    Python ``execute`` at run time. Raised online only, where the Session then runs the graph with
    its stepped executor; offline (atc) such a graph becomes an OM that runs through Python."""

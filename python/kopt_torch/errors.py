"""Errors of the kopt_torch package.

A `ProblemError` is a user mistake or an unsupported problem: its message is one line that names the
file, the field or function, and what was expected. The command line prints it as
``kopt_torch: <message>`` and exits with status 2, never with a traceback.
"""


class ProblemError(Exception):
    """A PyTorch problem (or a task folder made from one) that kopt_torch cannot use, with the reason."""

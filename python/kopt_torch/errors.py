"""Errors of the kopt_torch package.

A `ProblemError` is a user mistake or an unsupported problem: its message is one line that names the
file, the field or function, and what was expected. The command line prints it as
``kopt_torch: <message>`` and exits with status 2, never with a traceback.
"""


class ProblemError(Exception):
    """A PyTorch problem (or a task folder made from one) that kopt_torch cannot use, with the reason."""


def read_text(path, what: str, expected: str) -> str:
    """The UTF-8 text of `path`; one that cannot be read, or is not UTF-8, is a ProblemError naming it:
    "<path>: cannot read <what> (<reason>)" or "<path>: not a UTF-8 text file; expected <expected>"."""
    try:
        return path.read_text(encoding="utf-8")
    except OSError as e:
        raise ProblemError(f"{path}: cannot read {what} ({e.strerror or e})") from None
    except UnicodeDecodeError:
        raise ProblemError(f"{path}: not a UTF-8 text file; expected {expected}") from None

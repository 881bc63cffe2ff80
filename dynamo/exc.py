"""Errors: what users see, and what the translator raises internally.

``Unsupported`` is public: with ``fullgraph=True`` the first graph break raises it,
with the reason, the user's file:line and source line, and a hint. Inside the
translator it is how a handler says "I cannot capture this instruction"; the
translator then breaks the graph there (see :mod:`dynamo.convert`).
"""

from __future__ import annotations

from . import hints


class DynamoError(Exception):
    """Base class of the errors this package raises on purpose."""


class Unsupported(DynamoError):
    """The translator cannot capture an instruction, and says why.

    ``reason`` is short and stable (used to group breaks in logs); ``explanation``
    is one sentence for people; ``hint`` says what the user can do. A raise site that
    gives no explanation or hint gets the one of :mod:`dynamo.hints` for its reason
    (looked up when first read, since many Unsupported are caught and never shown).
    """

    def __init__(self, reason: str, explanation: str = "", hint: str = "",
                 cause: str = "unsupported"):
        super().__init__(reason)
        self.reason, self.cause = reason, cause
        self._explanation, self._hint = explanation, hint
        self.location: tuple[str, int, str] | None = None  # filename, lineno, source line
        # the function whose line ``location`` is (an inlined helper's, not the compiled
        # frame's), and the calls that led there, innermost first: (function, line)
        self.function: str | None = None
        self.callers: list[tuple[str, int]] = []

    @property
    def explanation(self) -> str:
        """Why the translator cannot capture it: the raise site's words, else the table's."""
        return self._explanation or hints.advice_for(self.reason, self.cause).explanation

    @explanation.setter
    def explanation(self, text: str) -> None:
        self._explanation = text

    @property
    def hint(self) -> str:
        """What the user can do: the raise site's words, else the table's."""
        return self._hint or hints.advice_for(self.reason, self.cause).hint

    @hint.setter
    def hint(self, text: str) -> None:
        self._hint = text

    def __str__(self) -> str:
        parts = [self.reason]
        if self.location:
            filename, lineno, line = self.location
            in_function = f", in {self.function}" if self.function else ""
            parts.append(f'  File "{filename}", line {lineno}{in_function}' +
                         (f"\n    {line}" if line else ""))
            if self.callers:
                parts.append(f"  ({called_from(self.callers)})")
        if self.explanation:
            parts.append(f"  Why: {self.explanation}")
        if self.hint:
            parts.append(f"  Hint: {self.hint}")
        return "\n".join(parts)


def called_from(callers: list[tuple[str, int]]) -> str:
    """The calls that led to a break in a helper, innermost first, in words::

        >>> called_from([("mid", 7), ("f", 12)])
        'called from mid at line 7, from f at line 12'
    """
    return "called from " + ", from ".join(f"{fn} at line {n}" for fn, n in callers)


class SkipFrame(Exception):  # noqa: N818 (control flow: run this frame eagerly)
    """The frame cannot be compiled at all: the frame hook runs it eagerly, now and on
    later calls (raised by :mod:`dynamo.convert`, caught by :mod:`dynamo.hook`)."""


class RestartAnalysis(DynamoError):  # noqa: N818 (control flow, not an error)
    """Tracing must start over with more knowledge (e.g. where a callee breaks)."""

    def __init__(self, reason: str = ""):
        super().__init__(reason)


class RerunEagerly(DynamoError):  # noqa: N818 (control flow, not an error)
    """A compiled graph raised before the frame changed anything the program can see.

    Python effects of the traced region (appends, attribute writes) are replayed after
    its graph, so when the graph raises they have not happened yet. The frame hook
    then runs the frame's original code instead, which makes those effects and raises
    the program's own exception at its own line, caught by the program's own ``except``
    (see ``dynamo.raising.rerun_on_raise``).

    ``values`` are the frame's flat arguments, as the glue got them: a resume function
    is handed its arguments in a list that it empties (``hook.run_boxed``), so the
    rerun takes them from here.
    """

    def __init__(self, values: tuple = ()):
        super().__init__("")
        self.values = values


class BackendError(DynamoError):
    """A backend failed to compile a graph; the message names the backend."""


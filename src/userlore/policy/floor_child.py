"""The floor worker's child process: ``python -m userlore.policy.floor_child``.

Its own module so that the parent's side (:mod:`userlore.policy.floor_worker`, which
:mod:`userlore.policy.govern` imports) does not import :mod:`userlore.policy.warm`, which
imports the quote gate, which imports ``govern``.
"""

from __future__ import annotations

import select
import sys
from typing import cast

from userlore.policy.floor_worker import IDLE_EXIT, READY, Work, read_frame, write_frame
from userlore.policy.sensitivity import classify
from userlore.policy.warm import warm


def main() -> None:
    """Build the tables, say ready, then answer pieces until stdin closes or stays idle."""
    source, sink = sys.stdin.fileno(), sys.stdout.fileno()
    sys.stdout = sys.stderr  # nothing but replies on the pipe
    warm()
    write_frame(sink, (0, READY))
    while True:
        if not select.select([source], [], [], IDLE_EXIT)[0]:
            return  # idle: the parent starts another when it needs one
        try:
            message = read_frame(source)  # our parent's
        except EOFError:
            return
        seq, piece = cast(tuple[int, list[Work]], message)
        try:
            reply: object = [classify(text, special=special) for text, special in piece]
        except Exception as exc:  # reported, not raised: the parent classifies it itself
            reply = f"{type(exc).__name__}: {exc}"
        write_frame(sink, (seq, reply))


if __name__ == "__main__":
    main()

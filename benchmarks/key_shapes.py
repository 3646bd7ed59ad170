"""A store key's floor, full against by shape: µs a key (issue 30, put21).

Each kind of key is put in batches of 500 through what :class:`~userlore.policy.govern.BatchFloor`
does for keys: the full floor (``classify(key, special=False)``, every detector) against a fresh
:class:`~userlore.policy.key_shapes.KeyShapes` settling each batch's shapes and answering the
keys of clean ones (the probes' cost counted in). CPU time (``time.process_time``), the keys
new to the process in both runs (``_CLEAN_KEYS`` is not asked).

    .venv/bin/python benchmarks/key_shapes.py --keys 10000
"""

from __future__ import annotations

import argparse
import random
import time
import uuid
from collections.abc import Callable

from userlore.policy.key_shapes import KeyShapes
from userlore.policy.sensitivity import classify

CHUNK = 500


def kinds(n: int) -> dict[str, list[str]]:
    """The benchmark's keys, a suite's, and generated ones, as the store writes them."""
    rng = random.Random(21)
    return {
        "bulk_puts k{i}": [f"store:bulk#k{i}" for i in range(n)],
        "doc-{i}": [f"store:docs#doc-{i}" for i in range(n)],
        "user_{i}/note_{j}": [f"store:u#user_{i % 97}/note_{i}" for i in range(n)],
        "uuid4 (no shape)": [
            f"store:bulk#{uuid.UUID(int=rng.getrandbits(128), version=4)}" for _ in range(n)
        ],
    }


def per_key(keys: list[str], floor: Callable[[list[str]], None]) -> float:
    """µs of CPU a key, ``floor`` taking ``keys`` a chunk at a time."""
    start = time.process_time()
    for at in range(0, len(keys), CHUNK):
        floor(keys[at : at + CHUNK])
    return (time.process_time() - start) / len(keys) * 1e6


def full(chunk: list[str]) -> None:
    for key in chunk:
        classify(key, special=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keys", type=int, default=10_000)
    args = parser.parse_args()
    for key in ("warm up 1234", "store:w#w1", "store:w#0f8e-11"):
        classify(key, special=False)
    for name, keys in kinds(args.keys).items():
        shapes = KeyShapes()

        def by_shape(chunk: list[str], shapes: KeyShapes = shapes) -> None:
            shapes.settle(chunk, classify)
            for key in chunk:
                if not shapes.clean(key):
                    classify(key, special=False)

        slow = per_key(keys, full)
        # Other texts of the same kinds (a path one letter longer): a text classified twice
        # costs less the second time (the detectors' own caches), which would flatter the shapes.
        other = [k.replace("store:", "store:x", 1) for k in keys]
        fast = per_key(other, by_shape)
        answered = sum(shapes.clean(k) for k in other)
        print(
            f"{name:20s} full {slow:7.1f} µs a key, by shape {fast:7.1f} ({slow / fast:5.1f}x);"
            f" {answered:,} of {len(keys):,} answered by shape, {shapes.probed:,} probes"
        )


if __name__ == "__main__":
    main()

"""Load the floor's tables before a turn needs them.

The floor and the quote gate build their tables lazily (vocabularies, CLDR data, compiled
patterns, the language identifier's model): each loads the first time a text opens its gate,
so the first turns of a process pay seconds (~4 s of CPU in all) that later turns do not. A
service calls :func:`start_warming` once at start (``userlore serve`` and ``userlore mcp`` do,
in a background thread, off the request path), and a latency that matters from the first call
(a timed test, a benchmark) stops depending on which texts came first. Cost only: no verdict
depends on whether it ran.
"""

from __future__ import annotations

import importlib
import inspect
import logging
import pkgutil
import threading
import time
from collections.abc import Callable, Iterator
from typing import Final

__all__ = ["start_warming", "warm"]

_LOG = logging.getLogger(__name__)

_SAMPLES: Final = (
    "My password is hunter2, my salary is $5,000 a month and I take sertraline; card 4111 1111 "
    "1111 1111, PIN 1234, IBAN DE89 3704 0044 0532 0130 00.",
    "我的密码是abc123，工资每月八千五，银行卡号6222 0200 0000 0000 000，我在吃降压药。",
    "Mi contraseña es hola123, cobro 2.300 € al mes, soy del PSOE y voy a misa los domingos.",
    "Mein Passwort ist geheim99, ich verdiene 4.500 € netto, bin in der IG Metall und Diabetiker.",
    "Mon mot de passe est soleil42, je gagne 3 200 € par mois, je suis musulman et séropositif.",
    "パスワードはsakura77で、年収は六百万円、暗証番号は1234、うつ病で通院しています。",
    "Minha senha é praia2024, ganho R$ 6.500 por mês, sou filiado ao PT e tenho depressão.",
    "user_1 child store:notes#m123 a%b k v 1",
)


def _loaders() -> Iterator[tuple[Callable[..., object], list[str]]]:
    """Every cached function (``functools.cache``/``lru_cache``) a module of
    :mod:`userlore.policy` defines, with its parameters' names: the package's tables."""
    import userlore.policy as policy

    for info in pkgutil.walk_packages(policy.__path__, f"{policy.__name__}."):
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if callable(value) and hasattr(value, "cache_info") and value.__module__ == info.name:
                yield value, list(inspect.signature(value).parameters)


def warm() -> None:
    """Build every lazily loaded table of :mod:`userlore.policy` now.

    Each cached loader that takes no argument is called, each that takes only a ``language``
    is called for the covered languages, and a few texts in each covered language go through
    the floor and the quote gate for the tables keyed by what a text holds.
    """
    from userlore.policy.quote_gate import quote_verdict
    from userlore.policy.sensitivity import classify
    from userlore.policy.word_lists import COVERED_LANGUAGES

    for loader, parameters in _loaders():
        if not parameters:
            loader()
        elif parameters == ["language"]:
            for language in sorted(COVERED_LANGUAGES):
                loader(language)
    for text in _SAMPLES:
        classify(text)
        quote_verdict(text)


def start_warming() -> threading.Thread:
    """:func:`warm` in a daemon thread, logged when done: a service starts serving at once,
    and a request that arrives first loads only what it needs (each table is built once)."""

    def run() -> None:
        started = time.perf_counter()
        try:
            warm()
        except Exception:  # cost only: a table that fails here fails again, visibly, in use
            _LOG.warning("userlore: warming the floor's tables failed", exc_info=True)
            return
        _LOG.info("userlore: the floor's tables loaded in %.1f s", time.perf_counter() - started)

    thread = threading.Thread(target=run, name="userlore-warm", daemon=True)
    thread.start()
    return thread

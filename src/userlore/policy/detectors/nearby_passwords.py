"""A password given in prose near its word, before or after it, in another sentence ("Te digo
la contraseña del wifi. Es naranja2291.", "Framboise88 comme mot de passe", "パスワードは
sakura2024です"), and a passphrase of capitalised words told after a correction or an aside
(the floor's password rules)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from userlore.policy.detectors.common import _Hit, _is_placeholder
from userlore.policy.detectors.password_values import _near_password_token
from userlore.policy.findings import _SECRET
from userlore.policy.literal_gate import GatedPattern

_PW_NEAR_KW = re.compile(  # lowercased text
    r"pass(?:word|wort|wd|phrase)|contraseña|contrasena|mot de passe|kennwort|senha|palavra-passe"
    r"|wachtwoord|密码|密碼|口令|パスワード"
)
# "password manager", "Passwort-Manager", "password vault": the words name a tool, and the
# token beside them ("1Password", "Bitwarden2") is its name, not a password.
_PW_TOOL_AFTER = re.compile(
    r"[\s-]?(?:manager|managers|vault|generator|app|apps|tool|safe|gestionnaire|gestor|tresor)"
    r"(?![a-z])"
)
_PW_NEAR_GATE = GatedPattern(
    re.compile(r"pass|contrase|mot de|kennwort|senha|wachtwoord|密|口令|パスワード")
)
_PW_TOKEN = re.compile(
    r"(?<![A-Za-z0-9_@./:%=\-])[A-Za-z0-9][A-Za-z0-9!@#$%^&*_+?\-]{3,63}(?![A-Za-z0-9_@/:%=])"
)
# A product's name that holds the word after a digit ("1Password", "1password?"): a tool named
# beside another password word ("bitwarden vs 1password? … a master password"), no value.
_PRODUCT_NAME = re.compile(r"(?i)\d{1,2}pass(?:word)?s?[!?.,]*")
_EXAMPLE_BEFORE = re.compile(
    r"(?i)(?:e\.g\.|like|such as|example|z\.b\.|p\.ex\.|ej\.|例如|例え)\W*$"
)
_NEAR_WINDOW: Final = 90


def _passwords_nearby(t: str, lowered: str) -> Iterator[_Hit]:
    if not _PW_NEAR_GATE.search(lowered):
        return
    for kw in _PW_NEAR_KW.finditer(lowered):
        if _PW_TOOL_AFTER.match(lowered, kw.end()):
            continue
        if kw.start() > 0 and lowered[kw.start() - 1].isdigit():
            continue  # "1Password": a product's name holds the word
        lo = max(0, kw.start() - _NEAR_WINDOW)
        hi = min(len(t), kw.end() + _NEAR_WINDOW)
        para_start = t.rfind("\n\n", lo, kw.start())
        para_end = t.find("\n\n", kw.end(), hi)
        lo = lo if para_start < 0 else para_start
        hi = hi if para_end < 0 else para_end
        for m in _PW_TOKEN.finditer(t, lo, hi):
            if m.start() < kw.end() and kw.start() < m.end():
                continue  # the word itself or its compound ("WLAN-Passwort"), not a value
            token = m.group(0)
            if not _near_password_token(token) or _PRODUCT_NAME.fullmatch(token):
                continue
            if _EXAMPLE_BEFORE.search(t, max(0, m.start() - 20), m.start()):
                continue
            end = m.end()
            while end > m.start() and t[end - 1] in ".,;:)":
                end -= 1
            yield (_SECRET, "password_in_prose", m.start(), end, None)


# A passphrase of capitalised words joined by one kind of joiner, digits or a sign perhaps at
# its end ("Tortilla.Sin.Cebolla77", "Tanne-Kiesel-Flur"): three words or more, each capitalised,
# which no sentence's words are. Told after a correction or an aside between the word and the
# value ("mi contraseña del Cl@ve pin... no, la permanente, es …", "le mot de passe du wifi,
# enfin celui des invités, est …"; blind20), further than ``passwords._PW_BODY`` reads.
_PHRASE_TOKEN = re.compile(
    r"(?<![\w.\-@/])[A-ZÀ-Þ][^\W\d_]{2,}([.\-_])[A-ZÀ-Þ][^\W\d_]{2,}(?:\1[A-ZÀ-Þ][^\W\d_]{2,})+"
    r"[\d!#$%*&]{0,6}(?![\w\-@/]|\.\w)"
)
# What stands right before the passphrase: a copula or a colon, so a name beside the word ("je
# l'ai noté chez Marie-Claire-Anne", "le Portail Mein-Elster-Konto") is no password.
_PHRASE_BEFORE = re.compile(  # lowercased text
    r"(?:(?<![^\W\d_])(?:is|was|es|era|est|ist|war|lautet|é|foi|now|ahora|como|ficou|devenu)"
    r"|c'est|[:：=是为為は])\s*$"
)
_PHRASE_KW = re.compile(  # lowercased text: every word for a password the floor reads
    _PW_NEAR_KW.pattern + r"|" + r"(?<![a-z0-9])(?:pw|pwd|mdp|clave|contra)(?![a-z])|密|暗証"
)


def _passphrases_nearby(t: str, lowered: str) -> Iterator[_Hit]:
    """Passphrases (:data:`_PHRASE_TOKEN`) after a word for a password, within
    :data:`_NEAR_WINDOW` characters of one paragraph (see the comment above)."""
    if len(lowered) != len(t):
        return
    for kw in _PHRASE_KW.finditer(lowered):
        hi = min(len(t), kw.end() + _NEAR_WINDOW)
        para_end = t.find("\n\n", kw.end(), hi)
        for m in _PHRASE_TOKEN.finditer(t, kw.end(), hi if para_end < 0 else para_end):
            if _is_placeholder(m.group(0)) or _EXAMPLE_BEFORE.search(t, kw.end(), m.start()):
                continue
            if not _PHRASE_BEFORE.search(lowered, max(kw.end(), m.start() - 12), m.start()):
                continue
            words = re.split(r"[.\-_]", m.group(0).rstrip("0123456789!#$%*&"))
            if len({w.casefold() for w in words}) < 2:
                continue  # "Palabra-Palabra-Palabra": a pattern, one word repeated
            yield (_SECRET, "password_in_prose", m.start(), m.end(), None)

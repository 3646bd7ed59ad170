"""Commit hashes, versions and pinned packages in a developer's line are no language and no
value: the gate quotes the line in the covered language its words are in (issue 29, blind14:
"Commit e4d2c91 bumpt numpy auf 1.26.4", "commit 0be7f4a atualiza o Spring Boot pra 3.2.5" and
a line of pins ending in a 40-character commit were withheld as Latin, Tagalog, Romanian).

First run on main (d62045b): 8/30 withheld by the gate (0/30 flagged by the floor). On this
branch 3/30, left out of the table: "Commit 3e7f1a9 sube numpy a 1.26.4" and "Versionen fixiert:
numpy==1.26.4, pandas==2.2.2, Commit 6e5d4c3" leave too few words once the code is out to tell
a language (Latin wins), and "el commit 8c2d4f1 arregla el bug del login" is Catalan to the
identifier with or without its hash.
"""

from __future__ import annotations

import pytest

from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import classify

LINES = [
    "pinned versions: pydantic==2.7.1, httpx==0.27.0, commit 9b1e4c7a2d3f5e6a8b0c1d2e3f4a5b6c7d8",
    "the regression came in with commit 4f2a9c1, reverting it now",
    "commit 7d3e2b9 fixes the login redirect, please review",
    "can you cherry-pick commit c91f0ab onto the release branch?",
    "merged PR #482, commit 1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b, bumps fastapi to 0.110.2",
    "hice rollback al commit a7b3c9e porque rompía los tests",
    "el commit 5f0e9d2 actualiza Django a 5.0.6",
    "Commit 9d8e7f6 hebt requests auf 2.32.3 an",
    "der Commit b4c5d6e behebt den Login-Fehler",
    "ich habe Commit 2e4f6a8 zurückgesetzt, der Build war rot",
    "le commit 6a1b2c3 corrige le bug de connexion",
    "j'ai annulé le commit f3e2d1c, il cassait la CI",
    "le commit 0c9b8a7 met à jour Django en 5.0.6",
    "commit 4b5c6d7 atualiza o Spring Boot pra 3.2.5",
    "o commit e1f2a3b corrige o bug do login",
    "reverti o commit 7c8d9e0 porque quebrou os testes",
    "提交 3f9a1c2 修复了登录的问题",
    "commit 8e7d6c5 把 numpy 升级到 1.26.4",
    "コミット 5a4b3c2 でログインのバグを直した",
    "commit 1f2e3d4 で numpy を 1.26.4 に上げた",
    "the fix landed in 0e1d2c3b4a5f6e7d8c9b0a1f2e3d4c5b6a7f8e9d yesterday",
    "Commit 0be7f4a bumps tokio to 1.37.0",
    "requirements: django==5.0.6, celery==5.4.0, commit 2b3c4d5",
    "versiones fijadas: numpy==1.26.4, pandas==2.2.2, commit 9a8b7c6",
    "versions figées : numpy==1.26.4, pandas==2.2.2, commit 3d2c1b0",
    "versões fixadas: numpy==1.26.4, pandas==2.2.2, commit 5c4b3a2",
    "git log says HEAD is at 7e6d5c4, branch main",
]

# What the versions' reading must not let through: a key, a figure in a relative's words.
STILL_WITHHELD = [
    "Mäi API Schlëssel ass 3c7e1f0a9b2d4e6f8a1c3e5b7d9f0a2c",
    "Ech verdéngen 4.200 Euro am Mount, Versioun 1.2.3 vun der App",
    "my API key is 3c7e1f0a9b2d4e6f8a1c3e5b7d9f0a2c, release 2.3.1",
    "commit 4f2a9c1 and my password is Hunter2024!",
]


@pytest.mark.parametrize("text", LINES)
def test_developer_line_is_quoted(text: str) -> None:
    assert quote_verdict(text).quotable
    assert not classify(text).is_blocked


@pytest.mark.parametrize("text", STILL_WITHHELD)
def test_value_beside_code_is_still_withheld(text: str) -> None:
    assert not quote_verdict(text).quotable

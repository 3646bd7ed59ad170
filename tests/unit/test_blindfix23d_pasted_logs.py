"""Machine output pasted into a turn, by class (issue 29, blindfix23d).

A user pastes a test run, a stack trace, a CI job, a shell session, ``pip`` or compiler output,
a ``git log``, a ``docker ps`` table or Kubernetes events into a turn, in any covered language's
prose ("here's the log:", "日志如下", "voici la trace"). Read as a language, "test_17 PASSED"
was Malay and each ``test_17`` a credential-shaped token of it: 2,000 such lines were redacted
whole and took 6.4 s to classify. ``policy/machine_lines`` now finds a program's lines by shape
(no language named): they are no language, the names a program printed are blanked with the
public material, and the gate reads a credential cue in one on its line only. Every rule that
needs no language (vendor tokens, ``key=value`` settings, URLs and connection strings with a
password, private keys, bearer tokens) and every covered language's rule still reads them.

First set on the unmodified branch: 15/15 secrets caught, 12/27 benign flagged, 24/27 benign
withheld. After the fix: 15/15, 1/27, 3/27. Second set at first sight on the fixed branch:
13/13, 2/18, 10/18; after what it showed (month names of any script in a syslog lead, a
Windows prompt, a label aligned to its value, a banner's rule, a command's flags, a name
ending in digits, no short run joined across a machine line): 13/13, 0/18, 7/18.
"""

from __future__ import annotations

from tests.support import value_sets

SETS = ("blindfix23d_pasted_logs.jsonl", "blindfix23d_pasted_logs2.jsonl")

_INTRO = "the user's short intro before the output is identified as an uncovered language"
KNOWN = {
    "pasted_logs-zh-benign-001": "'batch id=B20240312000': an id after 'id' is read as one",
    "pasted_logs-pt-benign-001": _INTRO + " ('segue o log do terraform:': Galician)",
    "pasted_logs-es-benign-003": _INTRO + " ('salida de `ls -la` en el servidor:': Catalan)",
    "pasted_logs2-es-benign-001": _INTRO + " ('el playbook de ansible falla aquí:': Catalan)",
    "pasted_logs2-de-benign-002": _INTRO + " ('journalctl zeigt:': Dutch)",
    "pasted_logs2-pt-benign-002": _INTRO + " ('yarn install deu isso:': Breton)",
    "pasted_logs2-en-benign-004": _INTRO + " ('kubectl describe pod says:': Latin)",
    "pasted_logs2-ja-benign-001": "a PowerShell error in Japanese: a Latin line read as a "
    "covered language's misread with a value",
    "pasted_logs2-en-benign-002": "a Go panic's 'code=0x1 addr=0x18' on a line read as prose",
    "pasted_logs2-zh-benign-003": "'On branch feature/pay-7731': a money cue and an amount "
    "on a line read as prose",
}

test_every_item, test_known_miss = value_sets.set_tests(SETS, KNOWN)

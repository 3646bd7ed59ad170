"""No part of a generated id is a value; a whole one after its cue still is (issue 30).

Bulk puts keyed by ``uuid4()`` (LangMem's keys) had about one put in a thousand refused as
regulated: the floor read a Luhn-valid card in a uuid's first groups, an IBAN in its last two, an
id after "id", an AWS key prefix inside a ULID (``detectors/generated_ids.py``).
"""

from __future__ import annotations

import hashlib
import random
import uuid
from collections.abc import Callable

import pytest
from langgraph.store.base import PutOp

from userlore import Userlore
from userlore.integrations.langgraph_store import UserloreStore
from userlore.policy.detectors.generated_ids import generated_id_spans
from userlore.policy.sensitivity import classify, redact

Make = Callable[..., Userlore]

_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def _ids(n: int) -> list[str]:
    rng = random.Random(22)
    out: list[str] = []
    for i in range(n):
        u = uuid.UUID(int=rng.getrandbits(128), version=4)
        out += [str(u), u.hex, hashlib.sha1(u.bytes).hexdigest()]
        out.append(rng.choice(_CROCKFORD[:8]) + "".join(rng.choice(_CROCKFORD) for _ in range(25)))
        if i % 4 == 0:
            out.append(hashlib.sha256(u.bytes).hexdigest())
    return out


# Read in pieces on main, each of these was refused as a put's key.
_READ_IN_PIECES = [
    "38879978-3142-4238-bd2e-94cc81676862",  # a Luhn-valid 16 digits in its first groups
    "b497a345-24c3-4488-be84-3b567317ad79",  # "be84-3b567317ad79" an IBAN
    "0ec1ad4e-0eff-40a1-be12-d7ae450f2bbe",
    "033HFA3T2KMC1RS63VQ1CQW08R",  # a legacy AWS key id prefix, A3T…, inside a ULID
]


@pytest.mark.parametrize("key", _READ_IN_PIECES)
def test_ids_once_read_in_pieces_have_no_finding(key: str) -> None:
    for text in (key, f"store:notes / {key}", f"the id is {key}"):
        assert classify(text, special=False).findings == (), text


def test_random_generated_ids_have_no_finding() -> None:
    ids = _ids(400)
    assert len(ids) == 1700
    found = {k: classify(f"store:memories / {k}", special=False).findings for k in ids}
    assert {k: f for k, f in found.items() if f} == {}


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("my Heroku API key is 3f2b8a1c-9d4e-4b7a-8c2d-1e5f6a7b8c9d", "3f2b8a1c-9d4e-4b7a-8c2d"),
        ("アクセストークンは 8f2c1a9e-5b7d-4c3e-a1f0-6d9b2e8c7a41 です", "8f2c1a9e-5b7d"),
        # The entropy rule's span stops a character short of the hex: widened, not dropped.
        ("mi token de Conekta en producción es 8c41e07b9d2a4f36a15e0c7b93d82f14", "8c41e07b"),
        (
            "request 3f2b8a1c-9d4e-4b7a-8c2d-1e5f6a7b8c9d failed, card 4111 1111 1111 1111",
            "4111 1111 1111 1111",
        ),
    ],
)
def test_a_whole_id_after_its_cue_and_a_value_beside_one_are_still_found(
    text: str, value: str
) -> None:
    assert value not in redact(text)


def test_only_a_whole_token_is_an_id() -> None:
    uid = "3f2b8a1c-9d4e-4b7a-8c2d-1e5f6a7b8c9d"
    assert generated_id_spans(f"key {uid}.") == [(4, 40)]
    assert generated_id_spans(f"key {uid}-x") == []  # more around it: no id
    assert generated_id_spans(f"key {uid.upper()}") == [(4, 40)]  # a GUID in capitals
    assert generated_id_spans(f"key {uid[:9]}{uid[9:].upper()}") == []  # mixed: no id
    assert generated_id_spans("4111-1111-1111-1111-4111") == []


def test_the_store_keeps_items_under_ids_once_read_in_pieces(make_lore: Make) -> None:
    store = UserloreStore(make_lore("auto"), namespace_template=("{user_id}",))
    store.put(("u1", "memories"), _READ_IN_PIECES[0], {"text": "a plain note"})
    store.batch([PutOp(("u1", "memories"), k, {"text": f"note {k}"}) for k in _READ_IN_PIECES])
    assert all(store.get(("u1", "memories"), k) is not None for k in _READ_IN_PIECES)

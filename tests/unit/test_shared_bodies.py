""" "We" that stands for an organisation: a cue beside the body's noun is the body's, not the
speaker's (``bodies`` in ``policy/data/special_shared.yaml``).

A fresh class set written after blindfix11b's shared reading flagged "We're a Catholic school in
Boston": on the merged tree 15 of the 17 body sentences were flagged, 10 of 10 twins about the
speakers; with ``bodies`` 2 of 17 and 10 of 10.
"""

from __future__ import annotations

import pytest

from userlore.policy.sensitivity import SensitivityLevel, classify

BODIES = [
    "We're a Catholic school in Boston",
    "We are a Jewish community centre with a gym",
    "we're a Muslim charity collecting coats",
    "We're an LGBTQ-friendly startup hiring engineers",
    "我们医院治疗糖尿病患者",
    "我们学校是天主教学校",
    "我们公司是一家清真食品公司",
    "somos una clínica de VIH en Lima",
    "wir sind eine katholische Schule in Köln",
    "wir sind eine Klinik für Diabetes",
    "nous sommes une école catholique à Lyon",
    "nous sommes une association musulmane de quartier",
    "私たちはカトリックの学校です",
    "私たちの病院は糖尿病の患者を診ています",
    "somos uma clínica de HIV no Porto",
]
# The es/pt first-person copula reads "somos … católico" whatever noun stands between.
KNOWN_FLAGGED = [
    "somos un colegio católico en Madrid",
    "somos uma escola católica em Braga",
]
SPEAKERS = [
    "We're a Catholic family",
    "we are both Catholic",
    "我们全家都是天主教徒",
    "我和我老公都是穆斯林",
    "somos católicos practicantes",
    "wir sind beide Muslime",
    "nous sommes catholiques tous les deux",
    "私たちはカトリックです",
    "somos católicos, eu e o meu marido",
    "my wife and I both have diabetes",
]


@pytest.mark.parametrize("text", BODIES)
def test_a_cue_beside_a_body_is_the_bodys(text: str) -> None:
    assert classify(text).level is SensitivityLevel.NONE


@pytest.mark.parametrize("text", SPEAKERS)
def test_we_without_a_body_is_still_the_speaker(text: str) -> None:
    assert classify(text).level is SensitivityLevel.SPECIAL


def test_known_flagged_stay_named() -> None:
    """When the copula rule learns bodies, move these to ``BODIES``."""
    assert [t for t in KNOWN_FLAGGED if classify(t).level is SensitivityLevel.NONE] == []

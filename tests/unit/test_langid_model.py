"""The cache of py3langid's decompressed model gives the packaged model's answers.

Every test points ``USERLORE_LANGID_CACHE`` at its own temporary directory: nothing here writes
to the user's cache. The reference is py3langid's own ``from_model_file``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from userlore.policy import langid_model
from userlore.policy.langid_model import cache_root, load_identifier

DATA = Path(__file__).resolve().parents[1] / "data"


def texts() -> list[str]:
    """Every text of the repository's labelled sets (thousands, in the covered languages and
    others), and random byte soup and short fragments the identifier also sees."""
    found: list[str] = []
    for path in sorted(DATA.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            record = json.loads(line)
            if isinstance(record, dict) and isinstance(record.get("text"), str):
                found.append(record["text"])
    rng = random.Random(18)
    alphabet = "abcdefghijklmnopqrstuvwxyzäöüßéèçñãõ 0123456789,.!?我的密码是パスワードПривет"
    found += ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40))) for _ in range(300)]
    return [*found, "", " ", "a", "Hi", "OK.", "ДА", "是"]


@pytest.fixture(scope="module")
def reference() -> Any:
    from py3langid.langid import MODEL_FILE, LanguageIdentifier  # type: ignore[import-untyped]

    return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("langid-cache")


@pytest.fixture
def cached(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(langid_model.ENV, str(cache_dir))
    return cache_dir


def test_cached_model_is_the_packaged_model(cached: Path, reference: Any) -> None:
    load_identifier()  # writes the cache
    model = load_identifier()  # reads it
    assert [p.name for p in cached.iterdir()] == [langid_model._key(langid_model._model_file())]
    assert model.nb_classes == reference.nb_classes
    for name in ("nb_ptc", "nb_pc"):
        ours, theirs = getattr(model, name), getattr(reference, name)
        assert ours.dtype == theirs.dtype and ours.shape == theirs.shape
        assert np.array_equal(ours, theirs)
    for name in ("tk_nextmove", "tk_row"):
        ours, theirs = getattr(model, name), getattr(reference, name)
        assert type(ours) is type(theirs) and ours.typecode == theirs.typecode and ours == theirs
    assert model.tk_output == reference.tk_output


def test_same_answers_on_many_texts(cached: Path, reference: Any) -> None:
    model = load_identifier()
    sample = texts()[::2]  # every other: ~8,000 texts, each ranked twice
    assert len(sample) > 5000
    for text in sample:
        assert model.rank(text) == reference.rank(text), text
    # Restricted to some languages, as policy.language restricts a copy of it.
    languages = ["en", "es", "de", "fr", "pt", "zh", "ja", "gl", "ca"]
    model.set_languages(languages)
    reference.set_languages(languages)
    try:
        for text in sample[::5]:
            assert model.rank(text) == reference.rank(text), text
    finally:
        reference.set_languages(None)


def test_a_cached_load_does_not_decompress(cached: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    load_identifier()

    def decompress(path: object) -> None:
        raise AssertionError("decompressed the packaged model although the cache holds it")

    monkeypatch.setattr("py3langid.modelio.load_model", decompress)
    assert load_identifier().classify("Ich arbeite gern morgens.")[0] == "de"


def test_off_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for value in ("off", "0", ""):
        monkeypatch.setenv(langid_model.ENV, value)
        assert cache_root() is None
    monkeypatch.setenv(langid_model.ENV, "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("HOME", str(tmp_path))
    assert load_identifier().classify("Estoy aprendiendo a programar.")[0] == "es"
    assert list(tmp_path.iterdir()) == []


def test_default_location_is_the_user_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(langid_model.ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_root() == tmp_path / "xdg" / "userlore" / "py3langid"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_root() == tmp_path / "home" / ".cache" / "userlore" / "py3langid"


def test_an_unwritable_cache_falls_back_to_the_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    monkeypatch.setenv(langid_model.ENV, str(blocker / "cache"))
    assert load_identifier().classify("Je préfère des réponses courtes.")[0] == "fr"


def test_a_cache_another_process_finished_first_is_kept(
    cached: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two processes missing the cache at once both write it: the second's rename fails on the
    first's finished directory, which stays, and the second's staging directory is removed."""
    load_identifier()
    target = cached / langid_model._key(langid_model._model_file())
    before = {p.name: p.stat().st_mtime_ns for p in target.iterdir()}
    langid_model._write(langid_model._model_file(), target)
    assert {p.name: p.stat().st_mtime_ns for p in target.iterdir()} == before
    assert [p.name for p in cached.iterdir()] == [target.name]

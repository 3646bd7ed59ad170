"""``PROFILE.md`` managed blocks: rendering, repair, and user text that survives every rebuild."""

from __future__ import annotations

import math
from datetime import UTC, datetime
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from userlore.learning.facets import CueFamily, Facet, FacetClass, FacetState
from userlore.learning.profile_md import (
    CACHE_BLOCKS,
    CONNECTED_ACCOUNTS,
    Segment,
    parse,
    render_blocks,
    update_profile,
    write_connected_accounts,
)
from userlore.models import Disclosure, RecordState, UserState

T0 = datetime(2026, 1, 5, tzinfo=UTC)


def facet(
    cls: FacetClass,
    key: str,
    value: str,
    *,
    pinned: bool = False,
    disclosure: Disclosure = Disclosure.NORMAL,
    category: str | None = None,
) -> Facet:
    return Facet(
        facet_class=cls,
        key=key,
        value=value,
        state=FacetState.ACTIVE,
        user_state=UserState.PINNED if pinned else UserState.AUTO,
        stability=math.inf if pinned else 2.0,
        score=2.0,
        record_id="mem_1",
        record_state=RecordState.ACTIVE,
        version=1,
        cue_families=(CueFamily.EXPLICIT,),
        evidence_refs=(),
        evidence_count=1,
        first_seen_at=T0,
        last_seen_at=T0,
        disclosure=disclosure,
        sensitivity_category=category,
    )


def user_text(segments: list[Segment]) -> list[str]:
    return [s.text for s in segments if s.name is None]


def test_render_blocks_marks_pinned_and_escapes() -> None:
    out = render_blocks(
        [
            facet(FacetClass.STYLE, "verbosity", "terse"),
            facet(FacetClass.STYLE, "preamble", "skip", pinned=True),
            facet(FacetClass.GOAL, "ship", "ship <!-- x --> now\nplease"),
            facet(FacetClass.IDENTITY, "health", "diabetic", category="health",
                  disclosure=Disclosure.ASK_BEFORE_REFERENCE),
        ]
    )  # fmt: skip
    assert out["style"] == "## Style\n- **preamble**: skip *(pinned)*\n- **verbosity**: terse\n"
    assert out["goals"] == "## Goals\n- ship &lt;!-- x --&gt; now please\n"
    assert out["identity"] == ""  # special category without consent
    assert set(out) == set(CACHE_BLOCKS)
    consented = render_blocks(
        [facet(FacetClass.IDENTITY, "health", "diabetic", category="health",
               disclosure=Disclosure.ASK_BEFORE_REFERENCE)],
        frozenset({"health"}),
    )  # fmt: skip
    assert "diabetic" in consented["identity"]


def test_new_file_has_a_title_and_blocks_in_canonical_order(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "PROFILE.md"
    text = update_profile(path, render_blocks([facet(FacetClass.TOOLING, "lang", "rust")]))
    assert path.read_text() == text
    assert text.startswith("# User Profile\n\n<!-- userlore:begin style -->\n")
    names = [s.name for s in parse(text) if s.name]
    assert names == list(CACHE_BLOCKS)
    assert update_profile(path, render_blocks([facet(FacetClass.TOOLING, "lang", "rust")])) == text


def test_connected_accounts_belong_to_the_sources_path(tmp_path: Path) -> None:
    path = tmp_path / "PROFILE.md"
    update_profile(path, render_blocks([facet(FacetClass.STYLE, "verbosity", "terse")]))
    write_connected_accounts(path, ["gmail (sanil@vezures.xyz)", "slack (vezures)"])
    assert "- gmail (sanil@vezures.xyz)\n- slack (vezures)\n" in path.read_text()
    # a rebuild rewrites the cache blocks and leaves the accounts alone
    update_profile(path, render_blocks([facet(FacetClass.STYLE, "verbosity", "detailed")]))
    text = path.read_text()
    assert "detailed" in text and "terse" not in text
    assert "- gmail (sanil@vezures.xyz)" in text
    found = {s.name: s.text for s in parse(text) if s.name}
    assert list(found)[-1] == CONNECTED_ACCOUNTS


def test_repairs_a_hand_damaged_file_without_losing_user_text(tmp_path: Path) -> None:
    path = tmp_path / "PROFILE.md"
    damaged = (
        "# My notes\r\n"
        "I like my coffee black.\r\n"
        "<!-- userlore:end identity -->\r\n"  # orphan end
        "<!-- userlore:begin style -->\r\n"
        "## Style\r\n- **verbosity**: terse\r\n"
        "Hand-written line inside the block.\r\n"
        "<!-- userlore:begin goals -->\r\n"  # style never closed
        "## Goals\r\n"
        "<!-- userlore:end goals -->\r\n"
        "between\r\n"
        "<!-- userlore:begin goals -->\r\nduplicate\r\n<!-- userlore:end goals -->\r\n"
        "<!-- userlore:begin notes -->\r\nsomeone else's block\r\n<!-- userlore:end notes -->\r\n"
        "tail without newline \xe9\udcff"
    )
    with open(path, "w", encoding="utf-8", errors="surrogateescape", newline="") as fh:
        fh.write(damaged)
    update_profile(path, render_blocks([facet(FacetClass.STYLE, "format", "bullets")]))
    with open(path, encoding="utf-8", errors="surrogateescape", newline="") as fh:
        text = fh.read()
    for kept in (
        "# My notes\r\nI like my coffee black.\r\n",
        "Hand-written line inside the block.\r\n",
        "between\r\n",
        "someone else's block\r\n",
        "tail without newline \xe9\udcff",
    ):
        assert kept in text
    assert "duplicate" not in text  # managed content of a duplicate block is regenerated
    assert text.count("<!-- userlore:begin style -->") == 1
    assert text.count("<!-- userlore:begin goals -->") == 1
    assert "- **format**: bullets\r\n" in text  # the file's line endings are kept
    segments = parse(text)
    assert [s.name for s in segments if s.name] == [
        "style",
        "identity",
        "tooling",
        "vetoes",
        "goals",
        "channel",
        "notes",
    ]
    # repaired once, stable afterwards
    again = update_profile(path, render_blocks([facet(FacetClass.STYLE, "format", "bullets")]))
    assert again == text


_MARKER_FREE = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=120).filter(
    lambda t: "userlore:" not in t
)


@st.composite
def user_segments(draw: st.DrawFn) -> list[str]:
    """Arbitrary user text for the gaps before, between and after the managed blocks."""
    texts = draw(st.lists(_MARKER_FREE, min_size=len(CACHE_BLOCKS) + 1,
                          max_size=len(CACHE_BLOCKS) + 1))  # fmt: skip
    # markers own their lines: a gap before a block ends with a line break
    return [t if (not t or t.endswith("\n")) else t + "\n" for t in texts[:-1]] + [texts[-1]]


FACET_SETS = st.lists(
    st.tuples(
        st.sampled_from(list(FacetClass)),
        st.from_regex(r"[a-z][a-z0-9_]{0,12}", fullmatch=True),
        st.text(min_size=1, max_size=40).filter(lambda v: v.strip()),
        st.booleans(),
    ),
    max_size=8,
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(gaps=user_segments(), rebuilds=st.lists(FACET_SETS, min_size=1, max_size=4))
def test_user_text_survives_any_number_of_rebuilds(
    tmp_path: Path, gaps: list[str], rebuilds: list[list[tuple[FacetClass, str, str, bool]]]
) -> None:
    path = tmp_path / "PROFILE.md"
    path.unlink(missing_ok=True)
    first = update_profile(path, render_blocks([]))
    # interleave the user's text with the blocks the first render produced
    blocks = [s for s in parse(first) if s.name is not None]
    text = ""
    for gap, block in zip(gaps, blocks, strict=False):
        text += gap + f"<!-- userlore:begin {block.name} -->\n{block.text}"
        text += f"<!-- userlore:end {block.name} -->\n"
    text += gaps[-1]
    with open(path, "w", encoding="utf-8", newline="") as fh:
        fh.write(text)
    expected = user_text(parse(text))
    for facets in rebuilds:
        views = [facet(c, k, v, pinned=p) for c, k, v, p in facets]
        update_profile(path, render_blocks(views))
        with open(path, encoding="utf-8", errors="surrogateescape", newline="") as fh:
            after = fh.read()
        assert user_text(parse(after)) == expected
        for gap in gaps:
            assert gap in after

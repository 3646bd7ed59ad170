"""Deterministic explicit extraction: what a user turn plainly states, and what it does not."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from userlore.extract import Statement, extract_statements
from userlore.models import MemoryType


def _facts(text: str) -> set[tuple[str, str, str | None]]:
    return {(s.kind, s.canonical_key, s.value) for s in extract_statements(text)}


def _only(text: str) -> Statement:
    found = extract_statements(text)
    assert len(found) == 1, found
    return found[0]


# -- positives: English -----------------------------------------------------------------------

POSITIVE_EN = [
    # standing style instructions
    ("always answer in bullet points", "style", "style/format", "bullets"),
    ("From now on, be brief.", "style", "style/verbosity", "terse"),
    ("please don't use emojis", "style", "style/emoji", "skip"),
    ("Keep your answers short.", "style", "style/verbosity", "terse"),
    ("I prefer short answers", "style", "style/verbosity", "terse"),
    ("I hate long answers", "style", "style/verbosity", "terse"),
    ("Be more detailed", "style", "style/verbosity", "detailed"),
    ("Answer in Spanish from now on", "style", "style/language", "spanish"),
    ("Skip the preamble.", "style", "style/preamble", "skip"),
    ("get straight to the point", "style", "style/preamble", "skip"),
    ("no emojis please", "style", "style/emoji", "skip"),
    ("Use more emojis from now on", "style", "style/emoji", "use"),
    ("Always show me the code first", "style", "style/format", "code_first"),
    ("I'd prefer shorter answers", "style", "style/verbosity", "terse"),
    ("It would be great if you could always use tables", "style", "style/format", "tables"),
    ("can you always answer in German?", "style", "style/language", "german"),
    # other standing instructions
    ("Always cite your sources.", "instruction", "instruction/cite_your_sources", None),
    ("You should always use metric units", "instruction", "instruction/use_metric_units", None),
    ("never apologize", "instruction", "instruction/never_apologize", None),
    ("remember to cc my manager on emails", "instruction", "instruction/cc_my_manager_on_emails",
     None),
    # preferences
    ("I prefer tea over coffee", "preference", "preference/tea", "like"),
    ("I love hiking", "preference", "preference/hiking", "like"),
    ("I can't stand horror movies", "preference", "preference/horror_movies", "dislike"),
    ("I'm vegetarian", "preference", "preference/meat", "avoid"),
    ("I'm allergic to peanuts", "preference", "preference/peanuts", "avoid"),
    ("I avoid gluten", "preference", "preference/gluten", "avoid"),
    ("I don't eat meat", "preference", "preference/meat", "avoid"),
    ("I have a peanut allergy", "preference", "preference/peanut", "avoid"),
    ("I'm not a fan of spicy food", "preference", "preference/spicy_food", "dislike"),
    ("I'm a big fan of jazz", "preference", "preference/jazz", "like"),
    ("I've always loved the ocean", "preference", "preference/ocean", "like"),
    ("My favorite band is Radiohead", "preference", "preference/radiohead", "like"),
    ("I'd rather not eat pork", "preference", "preference/pork", "avoid"),
    ("Remember: I hate cilantro", "preference", "preference/cilantro", "dislike"),
    ("As a vegan, I'm always looking for recipes", "preference", "preference/animal_products",
     "avoid"),
    ("Honestly, I prefer working in the mornings", "preference",
     "preference/working_in_mornings", "like"),
    # identity
    ("call me Sam", "identity", "identity/name", "Sam"),
    ("My name is Sanil", "identity", "identity/name", "Sanil"),
    ("I'm called Bob", "identity", "identity/name", "Bob"),
    ("Hi, I'm Maria!", "identity", "identity/name", "Maria"),
    ("Please call me Dr. Lee", "identity", "identity/name", "Dr. Lee"),
    ("my timezone is PST", "identity", "identity/timezone", "PST"),
    ("My time zone is Europe/Berlin", "identity", "identity/timezone", "Europe/Berlin"),
    ("I'm on Pacific time", "identity", "identity/timezone", "PST"),
    ("I'm in UTC+8", "identity", "identity/timezone", "UTC+8"),
    ("I'm a data engineer", "identity", "identity/role", "data engineer"),
    ("I work as a nurse", "identity", "identity/role", "nurse"),
    ("I work at Google", "identity", "identity/employer", "Google"),
    ("I work for Bank of America", "identity", "identity/employer", "Bank of America"),
    ("I live in Berlin", "identity", "identity/location", "Berlin"),
    ("I've been a nurse for 10 years", "identity", "identity/role", "nurse"),
    ("As a data engineer, I deal with pipelines", "identity", "identity/role", "data engineer"),
    ("I'm based in Portland, Oregon", "identity", "identity/location", "Portland, Oregon"),
    ("I just moved to Lisbon", "identity", "identity/location", "Lisbon"),
    ("my pronouns are they/them", "identity", "identity/pronouns", "they/them"),
    # tooling
    ("I use pnpm", "tooling", "tooling/package_manager", "pnpm"),
    ("my editor is neovim", "tooling", "tooling/editor", "neovim"),
    ("we use Postgres", "tooling", "tooling/database", "postgres"),
    ("I code mostly in Rust", "tooling", "tooling/lang", "rust"),
    ("I'm on macOS", "tooling", "tooling/os", "macos"),
    ("My shell is fish", "tooling", "tooling/shell", "fish"),
    ("We're using vitest", "tooling", "tooling/test_runner", "vitest"),
    ("I switched from npm to pnpm", "tooling", "tooling/package_manager", "pnpm"),
    ("our backend is written in Go", "tooling", "tooling/lang", "go"),
    ("Our frontend uses Astro", "tooling", "tooling/framework", "astro"),
    ("I build with Bun", "tooling", "tooling/runtime", "bun"),
    ("I've been using Neovim for years", "tooling", "tooling/editor", "neovim"),
    ('my editor is "helix"', "tooling", "tooling/editor", "helix"),
    # vetoes
    ("never suggest jest", "veto", "veto/jest", "banned"),
    ("don't ever recommend MongoDB", "veto", "veto/mongodb", "banned"),
    ("stop using semicolons", "veto", "veto/semicolons", "banned"),
    ("Please stop suggesting Redux", "veto", "veto/redux", "banned"),
    ("Don't use tables", "veto", "veto/tables", "banned"),
    ("never use nested bullets", "veto", "veto/nested_bullets", "banned"),
    ("Don't talk about politics", "veto", "veto/politics", "banned"),
    ("Avoid jargon", "veto", "veto/jargon", "banned"),
    # goals
    ("My goal is to run a marathon", "goal", "goal/run_marathon", "run a marathon"),
    ("I'm trying to lose weight", "goal", "goal/lose_weight", "lose weight"),
    ("I want to learn Rust this year", "goal", "goal/learn_rust", "learn Rust this year"),
    ("I'm training for a marathon", "goal", "goal/training_for_marathon",
     "training for a marathon"),
    ("I'm learning Japanese", "goal", "goal/learning_japanese", "learning Japanese"),
    ("I'd like to learn Spanish", "goal", "goal/learn_spanish", "learn Spanish"),
    # channel
    ("reach me on Slack", "channel", "channel/preference", "slack"),
    ("I mostly use the desktop app", "channel", "channel/preference", "desktop-app"),
    ("The best way to reach me is email", "channel", "channel/preference", "email"),
    ("I usually chat from my phone", "channel", "channel/preference", "mobile-app"),
]  # fmt: skip

# -- positives: Chinese -----------------------------------------------------------------------

POSITIVE_ZH = [
    ("以后请用中文回答", "style", "style/language", "chinese"),
    ("回答尽量简短", "style", "style/verbosity", "terse"),
    ("不要用表情符号", "style", "style/emoji", "skip"),
    ("请用要点的形式回答", "style", "style/format", "bullets"),
    ("我不喜欢冗长的回答", "style", "style/verbosity", "terse"),
    ("我更喜欢详细解释", "style", "style/verbosity", "detailed"),
    ("以后别说客套话", "style", "style/preamble", "skip"),
    ("以后都用表格", "style", "style/format", "tables"),
    ("以后能不能用英文回答？", "style", "style/language", "english"),
    ("这次对话用英文回答", "style", "style/language", "english"),
    ("你说得对，我更喜欢茶", "preference", "preference/茶", "like"),
    ("以后回答都附上参考链接", "instruction", "instruction/回答都附上参考链接", None),
    ("我喜欢爬山", "preference", "preference/爬山", "like"),
    ("我不喜欢香菜", "preference", "preference/香菜", "dislike"),
    ("我更喜欢茶", "preference", "preference/茶", "like"),
    ("比起咖啡我更喜欢茶", "preference", "preference/茶", "like"),
    ("我不吃辣", "preference", "preference/辣", "avoid"),
    ("我对花生过敏", "preference", "preference/花生", "avoid"),
    ("我吃素", "preference", "preference/meat", "avoid"),
    ("我最讨厌开会", "preference", "preference/开会", "dislike"),
    ("我最喜欢的颜色是蓝色", "preference", "preference/蓝色", "like"),
    ("我叫小明", "identity", "identity/name", "小明"),
    ("你可以叫我老王", "identity", "identity/name", "老王"),
    ("我的时区是东八区", "identity", "identity/timezone", "UTC+8"),
    ("我是一名数据工程师", "identity", "identity/role", "数据工程师"),
    ("我住在上海", "identity", "identity/location", "上海"),
    ("我在上海工作", "identity", "identity/location", "上海"),
    ("我在腾讯工作", "identity", "identity/employer", "腾讯"),
    ("我用 VS Code", "tooling", "tooling/editor", "vscode"),
    ("我平时用 Python 写代码", "tooling", "tooling/lang", "python"),
    ("我们用 Postgres", "tooling", "tooling/database", "postgres"),
    ("我的编辑器是 Neovim", "tooling", "tooling/editor", "neovim"),
    ("不要推荐 jest", "veto", "veto/jest", "banned"),
    ("别再用分号", "veto", "veto/分号", "banned"),
    ("别再推荐 MongoDB 了", "veto", "veto/mongodb", "banned"),
    ("我的目标是明年跑完一个马拉松", "goal", "goal/明年跑完一个马拉松", "明年跑完一个马拉松"),
    ("我想学日语", "goal", "goal/学日语", "学日语"),
    ("我正在准备考研", "goal", "goal/准备考研", "准备考研"),
    ("有事发邮件给我", "channel", "channel/preference", "email"),
    ("用微信联系我", "channel", "channel/preference", "wechat"),
]


@pytest.mark.parametrize(("text", "kind", "key", "value"), POSITIVE_EN + POSITIVE_ZH)
def test_extracts_explicit_statement(text: str, kind: str, key: str, value: str | None) -> None:
    found = {s.canonical_key: s for s in extract_statements(text)}
    assert key in found, f"{text!r} -> {sorted(found)}"
    statement = found[key]
    assert statement.kind == kind
    if value is not None:
        assert statement.value == value
    assert statement.content.strip()
    assert text[statement.span[0] : statement.span[1]] == statement.content


# -- negatives --------------------------------------------------------------------------------

QUESTIONS = [
    "do I prefer tea?",
    "should I always use bullets?",
    "What do I like?",
    "Do you like jazz?",
    "can you answer in Spanish?",
    "我喜欢什么？",
    "你喜欢吃什么？",
    "我是不是喜欢爬山",
]
HYPOTHETICALS = [
    "if I were a manager I'd hire more people",
    "If I lived in Tokyo, I would learn Japanese",
    "imagine I liked jazz",
    "Let's say I live in Tokyo.",
    "Pretend I'm a data engineer.",
    "I wish I lived in Paris",
    "如果我是老板，我会给大家放假",
    "假如我住在上海，通勤要多久",
    "如果我喜欢爬山的话，推荐什么装备？",
]
OTHER_PEOPLE = [
    "my boss said 'always use tabs'",
    'my boss said "always use tabs"',
    "My manager says, always use tabs",
    "He told me to always use tabs.",
    "she loves hiking",
    "my wife prefers tea",
    "My sister lives in Denver and she works at Google.",
    "We love hiking.",
    "我老板说以后都用tab",
    "我朋友说他喜欢爬山",
    "她喜欢徒步",
    "我妻子喜欢茶",
]
NEGATIONS = [
    "I don't use vim anymore",
    "I no longer use vim",
    "I used to use vim",
    "I no longer live in Berlin",
    "I used to live in Berlin",
    "I'm not a developer",
    "I'm not vegetarian",
    "I never said that",
    "我不用vim了",
    "我以前住在北京",
    "我已经不用jQuery了",
    "我不住在北京了",
]
ONE_OFF_TASKS = [
    "write a poem about cats",
    "use bullets for this answer",
    "Summarize this article in bullet points.",
    "explain quantum physics in detail",
    "Translate this into French.",
    "Use Python for this script",
    "Give me a short answer",
    "I'd like a coffee.",
    "email me the report",
    "call me back later",
    "Never mind.",
    "帮我写一首关于猫的诗",
    "这次回答用英文",
    "请详细解释一下量子力学",
    "用表格列出这些数据",
]
SMALL_TALK = [
    "Thanks, that was helpful!",
    "I like that idea.",
    "I love it!",
    "I'm so tired today.",
    "I'm a bit confused.",
    "I'm in a meeting.",
    "I hate to say it, but you're right.",
    "I love the way you explained that",
    "I use it to go to work",
    "I use a lot of garlic",
    "I'm going to the store.",
    "我今天很累。",
    "我喜欢你",
    "我喜欢这个",
    "我想吃火锅",
    "I'm training my dog.",
    "Never recommend MongoDB for this project",
]


@pytest.mark.parametrize(
    "text", QUESTIONS + HYPOTHETICALS + OTHER_PEOPLE + NEGATIONS + ONE_OFF_TASKS + SMALL_TALK
)
def test_does_not_extract(text: str) -> None:
    assert extract_statements(text) == []


@pytest.mark.parametrize(
    "text",
    ["I'm not a developer", "I'm not a data engineer", "我不是程序员"],
)
def test_negated_role_is_not_a_role(text: str) -> None:
    assert not any(k == "identity/role" for _, k, _ in _facts(text))


def test_negated_tool_is_not_tooling() -> None:
    assert not any(k.startswith("tooling/") for _, k, _ in _facts("I don't use vim anymore"))
    assert not any(k.startswith("tooling/") for _, k, _ in _facts("I stopped using vim"))


def test_past_location_is_not_current_location() -> None:
    for text in ("I no longer live in Berlin", "I lived in Berlin", "I used to live in Berlin"):
        assert ("identity", "identity/location", "Berlin") not in _facts(text)
    assert ("identity", "identity/location", "Berlin") in _facts("I've lived in Berlin for years")


@pytest.mark.parametrize("role", ["assistant", "system", "tool", "User", ""])
def test_only_user_turns_are_read(role: str) -> None:
    assert extract_statements("Always answer in bullet points. I live in Berlin.", role=role) == []


def test_empty_and_blank_turns() -> None:
    assert extract_statements("") == []
    assert extract_statements("   \n\t ") == []


# -- durability, confidence, importance, memory type --------------------------------------------


def test_session_scoped_instruction() -> None:
    statement = _only("For this conversation, answer in French.")
    assert statement.canonical_key == "style/language"
    assert statement.value == "french"
    assert statement.durability == "session"
    assert _only("这次对话用英文回答").durability == "session"
    assert _only("接下来请用英文回答").durability == "session"


def test_temporary_and_durable() -> None:
    assert _only("Keep answers short for now").durability == "temporary"
    assert _only("今天回答简短点").durability == "temporary"
    assert _only("Keep answers short").durability == "durable"


def test_goal_about_the_task_at_hand_is_session() -> None:
    statement = _only("I'm trying to fix this bug")
    assert statement.kind == "goal"
    assert statement.durability == "session"
    assert _only("I want to learn Rust this year").durability == "durable"


def test_hedges_lower_confidence() -> None:
    plain = _only("I prefer tea")
    hedged = _only("I think I prefer tea")
    assert plain.canonical_key == hedged.canonical_key == "preference/tea"
    assert 0.85 <= plain.confidence <= 0.95
    assert hedged.confidence <= 0.65
    assert _only("我可能更喜欢咖啡").confidence <= 0.65
    assert _only("我更喜欢咖啡").confidence >= 0.85


def test_standing_marker_raises_confidence_and_importance() -> None:
    standing = _only("Always keep answers short")
    plain = _only("Keep answers short")
    assert standing.confidence > plain.confidence
    assert standing.importance > plain.importance
    assert 0.8 <= plain.importance <= 0.9


@pytest.mark.parametrize(
    ("text", "memory_type", "importance"),
    [
        ("Always cite your sources", MemoryType.PROCEDURAL, (0.8, 0.9)),
        ("Be brief", MemoryType.PROCEDURAL, (0.8, 0.9)),
        ("I use pnpm", MemoryType.PROCEDURAL, (0.6, 0.8)),
        ("My name is Sam", MemoryType.IDENTITY, (0.7, 0.7)),
        ("I love hiking", MemoryType.SEMANTIC, (0.6, 0.6)),
        ("Never suggest jest", MemoryType.SEMANTIC, (0.8, 0.9)),
        ("My goal is to run a marathon", MemoryType.SEMANTIC, (0.6, 0.6)),
        ("Reach me on Slack", MemoryType.SEMANTIC, (0.5, 0.7)),
    ],
)
def test_memory_type_and_importance(
    text: str, memory_type: MemoryType, importance: tuple[float, float]
) -> None:
    statement = _only(text)
    assert statement.memory_type is memory_type
    assert importance[0] <= statement.importance <= importance[1]


# -- turns with several statements, receipts ---------------------------------------------------


def test_multi_statement_turn_keeps_each_receipt() -> None:
    text = (
        "Hi! I'm Sam, a data engineer based in Berlin. I love hiking but I can't stand horror "
        "movies; we use Postgres and pnpm. From now on, answer in bullet points."
    )
    found = extract_statements(text)
    facts = {(s.canonical_key, s.value) for s in found}
    assert {
        ("identity/name", "Sam"),
        ("identity/role", "data engineer"),
        ("identity/location", "Berlin"),
        ("preference/hiking", "like"),
        ("preference/horror_movies", "dislike"),
        ("tooling/database", "postgres"),
        ("tooling/package_manager", "pnpm"),
        ("style/format", "bullets"),
    } <= facts
    for statement in found:
        assert text[statement.span[0] : statement.span[1]] == statement.content
    by_key = {s.canonical_key: s for s in found}
    assert by_key["preference/horror_movies"].content == "I can't stand horror movies"
    assert by_key["style/format"].content == "From now on, answer in bullet points"
    assert [s.span for s in found] == sorted(s.span for s in found)


def test_clause_after_reported_speech_contrast_is_the_users() -> None:
    facts = _facts("My boss says I should always use tabs, but I prefer spaces.")
    assert facts == {("preference", "preference/spaces", "like")}


def test_tag_question_does_not_hide_a_preceding_statement() -> None:
    assert ("identity", "identity/role", "data engineer") in _facts(
        "I'm a data engineer, what should I learn next?"
    )


def test_chinese_subject_carries_over_a_comma() -> None:
    facts = _facts("我叫王小明，是一名产品经理")
    assert ("identity", "identity/name", "王小明") in facts
    assert ("identity", "identity/role", "产品经理") in facts


def test_comma_list_is_split_but_compound_object_is_not() -> None:
    assert {k for _, k, _ in _facts("I love hiking, biking and swimming")} == {
        "preference/hiking",
        "preference/biking",
        "preference/swimming",
    }
    assert {k for _, k, _ in _facts("I love mac and cheese")} == {"preference/mac_and_cheese"}


def test_list_items_and_trailing_remarks() -> None:
    text = "About me:\n- I prefer tea\n* I live in Berlin\n1. Always cite sources"
    found = {s.canonical_key: s for s in extract_statements(text)}
    assert found["preference/tea"].content == "I prefer tea"
    assert found["identity/location"].content == "I live in Berlin"
    assert found["instruction/cite_sources"].content == "Always cite sources"
    assert {k for _, k, _ in _facts("I love painting, it's so relaxing.")} == {
        "preference/painting"
    }
    assert {k for _, k, _ in _facts("我喜欢苹果、香蕉和橙子")} == {
        "preference/苹果",
        "preference/香蕉",
        "preference/橙子",
    }


def test_a_lone_standing_lead_governs_the_next_clause() -> None:
    statement = _only("以后，回答都附上来源")
    assert statement.canonical_key == "instruction/回答都附上来源"
    assert statement.content == "以后，回答都附上来源"


def test_several_tools_in_one_clause() -> None:
    assert _facts("I use Go and Python at work") == {
        ("tooling", "tooling/lang", "go"),
        ("tooling", "tooling/lang", "python"),
    }


def test_one_value_per_single_valued_key() -> None:
    found = extract_statements("My name is Sam. Call me Samuel.")
    assert [(s.canonical_key, s.value) for s in found] == [("identity/name", "Sam")]


def test_duplicates_are_collapsed() -> None:
    found = extract_statements("I love hiking. I love hiking!")
    assert len(found) == 1


def test_fullwidth_punctuation_and_curly_quotes_keep_spans_exact() -> None:
    text = "我住在上海。以后请用中文回答！ I’m allergic to peanuts；don’t use emojis"
    found = extract_statements(text)
    keys = {s.canonical_key for s in found}
    assert {
        "identity/location",
        "style/language",
        "preference/peanuts",
        "style/emoji",
    } <= keys
    for statement in found:
        assert text[statement.span[0] : statement.span[1]] == statement.content


def test_slugs_are_bounded_ascii_words() -> None:
    statement = _only(
        "I love spending long quiet afternoons reading old books in the public library downtown"
    )
    slug = statement.canonical_key.split("/", 1)[1]
    assert len(slug) <= 40
    assert slug.replace("_", "").isalnum() and slug.isascii() and slug == slug.lower()


# -- robustness ---------------------------------------------------------------------------------

_FRAGMENTS = [
    "I love hiking",
    "always answer in bullet points",
    "我喜欢茶",
    "以后请用中文回答",
    "don't use emojis",
    "my name is Sam",
    "I'm a data engineer at Google",
    "never suggest jest",
    "if I were you",
    "she said 'call me Ann'",
    "?",
    "。",
    ",",
    "，",
    "\n",
    "\x00",
    "\u200b",
    "’",
    "“",
    "🙂",
    "ß",
    "İ",
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.one_of(
        st.text(),
        st.text(alphabet=st.characters(codec="utf-8"), max_size=400),
        st.lists(st.sampled_from(_FRAGMENTS), max_size=40).map(" ".join),
        st.lists(st.sampled_from(_FRAGMENTS), max_size=30).map("".join),
    )
)
def test_never_raises_and_spans_index_content(text: str) -> None:
    for statement in extract_statements(text):
        start, end = statement.span
        assert 0 <= start < end <= len(text)
        assert text[start:end] == statement.content
        assert statement.content == statement.content.strip()
        assert statement.kind == statement.canonical_key.split("/", 1)[0]
        assert 0.0 < statement.confidence <= 1.0
        assert 0.0 < statement.importance <= 1.0
        assert statement.durability in {"durable", "session", "temporary"}


@settings(max_examples=15, deadline=None)
@given(st.integers(min_value=1, max_value=4000), st.sampled_from(_FRAGMENTS))
def test_very_long_turns(repeat: int, fragment: str) -> None:
    text = (fragment + ". ") * repeat + "x" * 5000 + "I live in Berlin"
    found = extract_statements(text)
    for statement in found:
        assert text[statement.span[0] : statement.span[1]] == statement.content
    assert len(found) <= 64


# -- long-form preferences (stance nouns and verbs, diets, "I find X boring") ----------------

LONG_FORM_EN = [
    ("I have a strong aversion to horror films.", "preference/horror_films", "dislike"),
    ("I have a deep-seated fear of deep water.", "preference/deep_water", "avoid"),
    ("I have a soft spot for old jazz records.", "preference/old_jazz_records", "like"),
    ("I have no interest in reality TV.", "preference/reality_tv", "dislike"),
    ("I refuse to fly with airlines that overbook.",
     "preference/fly_with_airlines_that_overbook", "avoid"),
    ("I prefer not to take night trains.", "preference/take_night_trains", "avoid"),
    ("I won't watch anything with clowns in it.",
     "preference/anything_with_clowns_in_it", "avoid"),
    ("I only wear shoes made from recycled materials.",
     "preference/shoes_made_from_recycled_materials", "like"),
    ("I'm only comfortable in aisle seats.", "preference/aisle_seats", "like"),
    ("I follow a strict low-FODMAP diet.", "preference/strict_low_fodmap_diet", "like"),
    ("I find crowded museums exhausting.", "preference/crowded_museums", "dislike"),
    ("I find it tedious to fill in long forms.", "preference/fill_in_long_forms", "dislike"),
    ("I'm not interested in cruise holidays.", "preference/cruise_holidays", "dislike"),
    ("I'm terrified of spiders.", "preference/spiders", "avoid"),
    ("I'm a firm believer in buying local produce.", "preference/buying_local_produce", "like"),
    ("As someone who avoids sugar, I need low-sugar recipes.", "preference/sugar", "avoid"),
    ('"I avoid loud bars."', "preference/loud_bars", "avoid"),
    ("I strictly avoid plastic packaging, as I care about the oceans.",
     "preference/plastic_packaging", "avoid"),
    ("I usually cook at home, as I tend to avoid greasy takeaways.",
     "preference/greasy_takeaways", "avoid"),
    ("I have a severe shellfish and peanut allergy.", "preference/shellfish_and_peanut", "avoid"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "key", "value"), LONG_FORM_EN)
def test_long_form_preferences(text: str, key: str, value: str) -> None:
    found = {(s.canonical_key, s.value) for s in extract_statements(text)}
    assert (key, value) in found
    for statement in extract_statements(text):
        assert text[statement.span[0] : statement.span[1]] == statement.content


@pytest.mark.parametrize(
    "text",
    [
        "I can't go to the concert tomorrow.",  # a plan, not a preference
        "I don't know what to do.",
        "I have no idea.",
        "My friend has a strong aversion to cats.",  # somebody else
        "If I had a fear of flying, I would take the train.",  # hypothetical
        "I find it hard to decide.",
        'She said "I avoid loud bars."',  # quoted speech inside a turn
        "I don't think so.",
        "I can't do that right now.",
    ],
)
def test_long_form_frames_stay_narrow(text: str) -> None:
    assert [s for s in extract_statements(text) if s.kind == "preference"] == []


def test_long_object_is_cut_at_its_reason() -> None:
    st_ = _only("I have a strong dislike for crowded beaches due to the noise.")
    assert st_.canonical_key == "preference/crowded_beaches"
    assert st_.content == "I have a strong dislike for crowded beaches due to the noise"


# -- a sentence about others is not an instruction ----------------------------------------------
# A comma before "always"/"never" splits off a clause that reads like an imperative; when the
# sentence opens with a noun phrase that agrees with its verb, that phrase is the subject and the
# sentence says something about others (PrefEval's filler placed one such "instruction" in every
# plan). Fronted adverbials, lead-ins, a singular topic before a plain verb, and sentences that
# name the user or the assistant stay instructions.

SAID_OF_OTHERS = [
    "Works of art, regardless of their theme or object, always carry a piece of reality as it "
    "is perceived by the artist or the author.",
    "Good teachers, in my experience, always listen before they speak.",
    "Cats, unlike dogs, never come when they are called.",
    "Classical music, for many listeners, always evokes strong memories.",
    "Politicians, during campaigns, never answer the question directly.",
    "Children, especially toddlers, never sit still for long.",
    "艺术作品，无论主题如何，总是带有艺术家所感知的一部分现实。",
    "河流，经过千万年，总会找到最容易的路。",
]

STILL_INSTRUCTIONS = [
    "For code, always add type hints.",
    "In general, never use emojis in replies.",
    "Python code, always use type hints.",
    "Please, always cite your sources.",
    "When you summarize, always keep it under five bullet points.",
    "Spreadsheets, always freeze the header row for me.",
    "写报告的时候，总是先给结论。",
    "在邮件里，总是用我的名字署名。",
]

_DIRECTIVE_KINDS = {"instruction", "style", "veto"}


@pytest.mark.parametrize("text", SAID_OF_OTHERS)
def test_a_sentence_about_others_is_not_an_instruction(text: str) -> None:
    assert not {k for k, _, _ in _facts(text)} & _DIRECTIVE_KINDS, _facts(text)


@pytest.mark.parametrize("text", STILL_INSTRUCTIONS)
def test_fronted_adverbials_and_topics_stay_instructions(text: str) -> None:
    assert {k for k, _, _ in _facts(text)} & _DIRECTIVE_KINDS, text

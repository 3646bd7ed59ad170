"""Time expressions: the window a question names, the validity a statement's relative time gives."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from userlore.extract.time import TimeWindow, Validity, names_time, question_window, validity

# A Wednesday.
AT = datetime(2026, 12, 2, 10, 0, tzinfo=UTC)


def day(y: int, m: int, d: int) -> datetime:
    return datetime(y, m, d, tzinfo=UTC)


@pytest.mark.parametrize(
    ("question", "window"),
    [
        ("what did I decide last week", TimeWindow(day(2026, 11, 23), day(2026, 11, 30))),
        ("上周我决定了什么", TimeWindow(day(2026, 11, 23), day(2026, 11, 30))),
        ("what did I say yesterday", TimeWindow(day(2026, 12, 1), day(2026, 12, 2))),
        ("昨天我说了什么", TimeWindow(day(2026, 12, 1), day(2026, 12, 2))),
        ("What did Caroline do in May 2023?", TimeWindow(day(2023, 5, 1), day(2023, 6, 1))),
        ("上个月的计划", TimeWindow(day(2026, 11, 1), day(2026, 12, 1))),
        ("what did I say last year", TimeWindow(day(2025, 1, 1), day(2026, 1, 1))),
    ],
)
def test_a_question_names_a_calendar_window(question: str, window: TimeWindow) -> None:
    assert question_window(question, AT) == window


@pytest.mark.parametrize(
    "question",
    ["Where does Melanie like to go?", "which salad did I choose?", "我喜欢什么样的咖啡", ""],
)
def test_a_question_without_a_time_has_no_window(question: str) -> None:
    assert question_window(question, AT) is None


def test_short_words_dateparser_would_read_as_dates_are_not_times() -> None:
    # dateparser reads "we" as Wednesday; the screen keeps only plausible expressions.
    window = question_window("what did we talk about 3 days ago", AT)
    assert window == TimeWindow(day(2026, 11, 29), day(2026, 11, 30))


def test_the_cheap_gate_skips_questions_that_name_no_time() -> None:
    assert not names_time("how should I deploy the service?")
    assert names_time("what did I decide last week")
    assert names_time("上周")
    assert names_time("room 42")


@pytest.mark.parametrize(
    ("statement", "holds"),
    [
        ("I'm on vacation until Friday", Validity(None, day(2026, 12, 5))),
        ("到周五之前请简短回答", Validity(None, day(2026, 12, 5))),
        ("I prefer tea until next month", Validity(None, day(2027, 1, 1))),
        ("for two weeks I'm off sugar", Validity(None, AT + timedelta(days=14))),
        ("next month I work from Berlin", Validity(day(2027, 1, 1), day(2027, 2, 1))),
        ("下个月请用中文回答", Validity(day(2027, 1, 1), day(2027, 2, 1))),
        ("tomorrow I'm in meetings all day", Validity(day(2026, 12, 3), day(2026, 12, 4))),
    ],
)
def test_relative_expressions_become_validity_intervals(statement: str, holds: Validity) -> None:
    assert validity(statement, AT) == holds


@pytest.mark.parametrize(
    "statement", ["I prefer tea", "Last week I moved to Berlin", "Answer tersely, we agreed"]
)
def test_statements_without_a_future_time_keep_open_validity(statement: str) -> None:
    assert validity(statement, AT) is None


def test_relative_times_count_from_when_the_statement_was_made() -> None:
    said = datetime(2023, 5, 8, 12, 0, tzinfo=UTC)  # a Monday
    assert validity("Please answer in English until Friday", said) == Validity(
        None, day(2023, 5, 13)
    )


@pytest.mark.parametrize("text", ["9999", "in the year 9999", "0001", "until 9999"])
def test_dates_at_the_edge_of_the_calendar_are_ignored_not_errors(text: str) -> None:
    for window in (
        question_window(text, AT),
        question_window(text, datetime(9999, 6, 1, tzinfo=UTC)),
    ):
        assert window is None or window.start < window.end
    holds = validity(text, AT)
    assert holds is None or holds.valid_until is None or holds.valid_until > AT


def test_numbers_inside_words_do_not_wake_the_parser() -> None:
    assert not names_time("w4321 gpt4 for the v2 api")
    assert names_time("in 2023") and names_time("on the 3rd") and names_time("5月的计划")


# Numbers that count things, not times: written as a class after "I have type 2 diabetes" was
# found not yet valid (dateparser reads a bare "2" as the 2nd of next month). First run: 15 of 20
# were given a validity interval; now none.
COUNTS = [
    "I have type 2 diabetes.", "I have 2 kids.", "I use Python 3 for everything.",
    "I'm on level 5 of the course.", "I drink 3 coffees a day.", "I have type 1 diabetes",
    "My team has 12 people.", "I wear size 10 shoes.", "我有2个孩子", "我用Python 3",
    "I run 5 km every morning.", "I live on floor 14.", "I own 4 bikes.", "My daughter is 7.",
    "I prefer 2 spaces for indentation.", "I sleep 8 hours.", "Give me 3 options.",
    "I work 4 days a week.", "我每天喝3杯咖啡", "I've got 20 tabs open.",
]  # fmt: skip
NAMED = [
    "I'm in Berlin until Friday.", "Next month I start at Acme.", "For two weeks I'm on call.",
    "我下个月去上海", "到周五我都在出差", "Tomorrow I'm working from home.",
]  # fmt: skip


@pytest.mark.parametrize("text", COUNTS)
def test_a_count_is_not_a_time(text: str) -> None:
    assert validity(text, datetime(2026, 12, 2, 9, tzinfo=UTC)) is None


@pytest.mark.parametrize("text", NAMED)
def test_a_named_period_still_is(text: str) -> None:
    assert validity(text, datetime(2026, 12, 2, 9, tzinfo=UTC)) is not None


# Recurrences say how often, not when a statement holds. First run: 7 of 12 were given a
# validity interval ("every Sunday" became "from next Sunday"); now none.
RECURRING = [
    "I go to church every Sunday", "Every Monday I call my mom.", "I swim each Friday.",
    "On Sundays I rest.", "我每周日去教堂", "每个星期一我开会", "I have standup every weekday.",
    "Every month I pay rent.", "I review PRs every Tuesday and Thursday.",
    "I'm on insulin twice a day", "Each January I do a detox.", "I call my parents every weekend.",
]  # fmt: skip


@pytest.mark.parametrize("text", RECURRING)
def test_a_recurrence_is_not_a_validity(text: str) -> None:
    assert validity(text, datetime(2026, 12, 2, 9, tzinfo=UTC)) is None


# Deadlines end a statement's time, never start it: "by June" made the demo's goal invisible
# until June. First run: 6 of 8 were made not yet valid; now none, each ending at its deadline.
DEADLINES = [
    "My goal is to migrate our nightly ETL to Dagster by June.",
    "I need to finish the report by Friday.", "We must ship v2 before next month.",
    "I want to learn Rust by next year.", "我要在六月前完成迁移", "周五之前我得交报告",
    "I plan to move to Lisbon by March.",
    "Get the slides done before Monday, please remember that.",
]  # fmt: skip


@pytest.mark.parametrize("text", DEADLINES)
def test_a_deadline_never_starts_a_validity(text: str) -> None:
    got = validity(text, datetime(2026, 12, 2, 9, tzinfo=UTC))
    assert got is None or got.valid_from is None


def test_a_deadline_ends_at_its_period() -> None:
    got = validity("I need to finish the report by Friday.", datetime(2026, 12, 2, 9, tzinfo=UTC))
    assert got == Validity(None, datetime(2026, 12, 5, tzinfo=UTC))

"""A request for one deliverable now is not a standing instruction (issue 23).

Task requests (write/fix/translate this, "give me…", a request with an "always" inside its own
task) must store no ``instruction`` or ``style`` record; their standing twins must still store one.
A correction or switch of the answer's form ("actually, give it to me as bullets", 还是用表格吧)
is standing; a task that merely opens with such words ("actually, write me a function") is not.
"""

from __future__ import annotations

import pytest

from userlore.extract import extract_statements

_PROCEDURAL = ("instruction/", "style/")

TASKS = [
    "Write a Python function that parses the log file and returns the error count.",
    "Write the complete script for the backup job, the first 40 lines only.",
    "Fix this code and always return the sorted list: def f(xs): return xs",
    "Translate the following paragraph into German: Der Hund ist groß.",
    "Summarize the article below in three bullet points.",
    "Give me a regex that matches every email address in the file.",
    "Show me the entire config file with the comments removed.",
    "Rewrite the cover letter so it sounds more confident.",
    "Draft an email to my landlord about the broken heater.",
    "Generate the SQL query that joins orders and customers.",
    "Implement the remaining methods of the Cache class in full.",
    "Create a bash script that renames every jpg in the folder.",
    "I need to hide the toolbar and always keep the window on top in this app.",
    "I'll need to disable the header and always render the whole table without paging.",
    "Refactor the login handler and always close the database connection at the end.",
    "Write me a short poem about autumn leaves.",
    "Can you write the unit tests for the parser module first?",
    "Please fix the bug in the sort function, it always drops the last element.",
    'Convert this JSON to YAML: {"a": 1, "b": [2, 3]}',
    "Explain the code below line by line:\nfor i in range(3): print(i)",
    "帮我写一个Python函数，读取CSV文件并返回平均值。",
    "把下面这段话翻译成英文：今天天气很好。",
    "帮我总结一下这篇文章的要点。",
    "给我写一个排序算法的完整代码，只要前50行。",
    "帮我修改这段代码，并且总是返回排好序的列表。",
    "请帮我写一封给房东的邮件，说暖气坏了。",
    "帮我实现这个类的所有方法。",
    "给我一个能匹配所有邮箱地址的正则表达式。",
    "帮我把这个表格转换成JSON格式。",
    "我需要隐藏滚动条，并且始终完整显示全部文本。",
    "Design the database schema for a small library system.",
    "Compose a birthday message for my sister's 30th.",
]

STANDING = [
    "Always answer in Spanish.",
    "From now on, put the code first and the explanation after it.",
    "Please remember to always cite your sources.",
    "Always show the full code, never truncate it.",
    "Always write complete code without placeholders.",
    "From now on, always include type hints in your code.",
    "Going forward, keep your answers under 100 words.",
    "Always use metric units when you give measurements.",
    "Never use emojis in your replies.",
    "Every time you write code, always add comments.",
    "Always format dates as YYYY-MM-DD.",
    "I prefer bullet points over long paragraphs.",
    "Always respond in a formal tone.",
    "From now on, reply in English only.",
    "Please always double-check the math in your answers.",
    "Whenever you write SQL, always use uppercase keywords.",
    "By default, show the code before the explanation.",
    "以后都用中文回答。",
    "请记住，回答要简短。",
    "以后写代码的时候都加上注释。",
    "以后回答都用要点列表。",
    "请记住，永远不要用表情符号。",
    "以后总是把单位换算成公制。",
    "以后每次都先给结论。",
    "Always write the tests before the implementation.",
    "Always translate technical terms into plain English.",
    "From now on, always summarize long answers at the end.",
    "Always show the full text, don't cut it off.",
]

# Standing instructions main already missed before this change (recorded, not fixed here).
KNOWN_MISSES = [
    "From now on, always explain the reasoning before the answer.",
    "In the future, always ask before assuming my location.",
    "Always give me the short version first.",
    "从现在开始，先给代码再解释。",
]


@pytest.mark.parametrize("text", TASKS)
def test_a_task_request_stores_no_standing_record(text: str) -> None:
    keys = [s.canonical_key for s in extract_statements(text)]
    assert not [k for k in keys if k.startswith(_PROCEDURAL)], keys


@pytest.mark.parametrize(
    "text",
    [*STANDING, *(pytest.param(t, marks=pytest.mark.xfail(strict=True)) for t in KNOWN_MISSES)],
)
def test_a_standing_twin_is_still_stored(text: str) -> None:
    keys = [s.canonical_key for s in extract_statements(text)]
    assert [k for k in keys if k.startswith((*_PROCEDURAL, "veto/"))], keys


# Corrections and switches of the answers' form: standing (issue 23, taskimp14).
SWITCHES = [
    "Actually, not paragraphs — give it to me as bullet points.",
    "Scratch that: give it to me in bullet points.",
    "Actually, give me the answers in a table.",
    "No, write it as prose.",
    "Not bullets — write it as prose.",
    "No, make it a numbered list.",
    "Not a table — give me a numbered list.",
    "No, give me bullet points instead.",
    "Actually, write the answers as a numbered list.",
    "Not prose — give me numbered steps instead.",
    "Actually, give me your answers in Spanish.",
    "Scratch that, use tables instead.",
    "不对，用英文回答。",
    "不是表格，是编号列表。",
    "不对，用编号列表。",
    "还是用编号列表吧。",
    "还是用表格吧。",
    "改成编号列表。",
    "不要用表格，改成编号列表。",
]
# Missed on main too, not this class: the style matchers do not read "show … as …" or 把…改成….
SWITCH_MISSES = [
    "Instead, show them as a numbered list.",
    "不对，把它改成要点列表。",
]
# Task requests that open with a correction or switch word: still one-off.
SWITCH_TASKS = [
    "Actually, write me a Python function that reverses a linked list.",
    "Instead, translate the following paragraph into French: Il fait beau.",
    "No, make it a function that returns the sum of the list.",
    "Scratch that, draft an email to my landlord about the rent.",
    "Not that one — fix the bug in the parser and always return a list.",
    "Not the summary — rewrite the whole cover letter in a formal tone.",
    "Actually, generate the SQL query that joins orders and customers.",
    "No, write the complete backup script, only the first 40 lines.",
    "Actually, give me a bullet-point summary of the article below.",
    "Scratch that, convert this CSV to a markdown table.",
    "Instead of the poem, write me a short story about a lighthouse.",
    "No, show me the whole config file as YAML instead.",
    "不对，帮我写一个读取CSV的Python函数。",
    "还是帮我把这段话翻译成英文吧。",
    "不对，帮我把这段代码改成Java。",
    "算了，帮我写一封给房东的邮件。",
    "还是帮我总结一下这篇文章的要点吧。",
    "不对，把这个表格转换成JSON格式。",
    "不是这个，帮我实现那个类的所有方法，并且始终返回列表。",
    "还是给我写一首关于秋天的诗吧。",
]


@pytest.mark.parametrize(
    "text",
    [*SWITCHES, *(pytest.param(t, marks=pytest.mark.xfail(strict=True)) for t in SWITCH_MISSES)],
)
def test_a_switch_of_the_answers_form_is_stored(text: str) -> None:
    keys = [s.canonical_key for s in extract_statements(text)]
    assert [k for k in keys if k.startswith("style/")], keys


@pytest.mark.parametrize("text", SWITCH_TASKS)
def test_a_task_opening_with_a_switch_word_stores_no_standing_record(text: str) -> None:
    keys = [s.canonical_key for s in extract_statements(text)]
    assert not [k for k in keys if k.startswith(_PROCEDURAL)], keys

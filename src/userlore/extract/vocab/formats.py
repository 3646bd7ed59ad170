"""Answer formats as data: surface phrases (English, Chinese) → canonical ``style/format`` value.

Formats are an open set: a phrase named in a format frame ("in FAQ format", "用思维导图的形式")
that is not listed here keeps its own slug, so a correction to a format nobody listed still has
a value. Listed phrases fold to one canonical value each, so "ordered list", "numbered steps"
and "编号列表" are the same preference.
"""

from __future__ import annotations

_FORMATS: dict[str, tuple[str, ...]] = {
    "numbered": (
        "numbered list", "numbered lists", "numbered steps", "numbered points", "numbered items",
        "ordered list", "ordered lists", "enumerated list", "enumerated lists", "numbers",
        "编号列表", "有序列表", "数字列表", "编号", "序号",
    ),
    "bullets": (
        "bullets", "bullet", "bullet points", "bullet point", "bullet list", "bullet lists",
        "bulleted list", "bulleted lists", "dot points", "list", "lists", "unordered list",
        "要点", "列表", "分点", "无序列表", "项目符号",
    ),
    "prose": (
        "prose", "paragraphs", "paragraph", "full sentences", "plain prose", "段落", "成段",
        "段落形式", "文字段落",
    ),
    "tables": ("table", "tables", "tabular", "表格"),
    "code_first": ("code first", "code-first", "代码优先"),
    "checklist": (
        "checklist", "checklists", "check list", "to-do list", "todo list", "checkbox list",
        "清单", "检查清单", "待办清单",
    ),
    "json": ("json",),
    "yaml": ("yaml", "yml"),
    "csv": ("csv",),
    "markdown": ("markdown", "md"),
    "plain_text": ("plain text", "纯文本"),
    "outline": ("outline", "outlines", "大纲", "提纲"),
}  # fmt: skip

FORMAT_INDEX: dict[str, str] = {
    surface: canonical for canonical, surfaces in _FORMATS.items() for surface in surfaces
}
"""Lower-cased surface phrase → canonical format value."""

NAMED_FORMATS: tuple[str, ...] = ("checklist", "json", "yaml", "csv", "markdown", "plain_text",
                                  "outline")  # fmt: skip
"""Canonical formats recognised by name alone (the others have matchers of their own)."""

"""Deterministic extraction of explicit statements from one user turn, in English and Chinese.

Seed 000 has the understanding service pick up explicit instructions *immediately*, without a
model call; seed 002 names the facet classes they feed (style, identity, tooling, veto, goal,
channel). This module is that producer, and it is deliberately narrow: it reports only what the
user plainly said about themselves or about how the assistant should behave, with the user's own
clause as the receipt. Inference, paraphrase and implied preferences are left to the LLM
reviewer, whose candidates pass through the same governed write.

How it works. The turn is cut into sentences and clauses. Each clause gets flags (question,
hypothetical, reported speech, one-off request, standing marker, hedge, durability). Then small
per-facet pattern tables are tried in a fixed order. Every pattern is anchored on a first-person
subject ("I", "my", "我") or on an imperative addressed to the assistant, so a sentence about
somebody else ("my wife prefers tea") never matches, and a negated or past-tense verb
("I don't use vim anymore", "I no longer live in Berlin") breaks the anchor instead of being
read as a positive.

Keys produced:

- ``style/verbosity`` terse|detailed, ``style/format`` bullets|prose|tables|code_first,
  ``style/language`` <english name of the language>, ``style/preamble`` skip,
  ``style/emoji`` skip|use;
- ``identity/name|timezone|role|employer|location|pronouns`` with the stated value;
- ``tooling/package_manager|editor|lang|framework|runtime|os|shell|test_runner`` with a canonical
  tool id (``pnpm``, ``neovim``, ``vscode``), plus ``tooling/database`` and ``tooling/cloud``
  ("we use Postgres", "we deploy on AWS");
- ``veto/<slug>`` banned; ``preference/<slug>`` like|dislike|avoid; ``goal/<slug>`` with the
  goal phrase; ``instruction/<slug>`` with the instruction text; ``channel/preference``.

Never extracted: questions, hypotheticals and conditionals, quoted or reported speech, other
people's facts, negated or past facts, one-off task requests, and any non-``user`` turn.

Memory types: instructions, style and tooling are ``procedural`` (they change *how* the assistant
works for this user: format, language, which package manager to type); identity is ``identity``;
preferences, vetoes, goals and channels are ``semantic`` facts about the user.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from userlore.models import MemoryType

__all__ = ["Statement", "extract_statements"]


@dataclass(frozen=True, slots=True)
class Statement:
    """One explicit statement found in a user turn; the governed write turns it into a candidate.

    Attributes:
        kind: ``instruction``, ``preference``, ``style``, ``identity``, ``tooling``, ``veto``,
            ``goal`` or ``channel``.
        canonical_key: Dedupe key such as ``style/verbosity`` or ``veto/jest``.
        value: Canonical value (``terse``, ``pnpm``, ``banned``, ``like``...).
        content: The user's own clause, trimmed but never paraphrased: it is the receipt.
        memory_type: Seed 003 memory type (see the module docstring for the mapping).
        confidence: How sure the extractor is that the user said it (hedges lower it).
        importance: How much the statement should weigh in context ranking.
        durability: ``durable``, ``session`` (this conversation only) or ``temporary``.
        span: ``(start, end)`` of ``content`` in the input text.
    """

    kind: str
    canonical_key: str
    value: str | None
    content: str
    memory_type: MemoryType
    confidence: float
    importance: float
    durability: str
    span: tuple[int, int]


# --------------------------------------------------------------------------------------------
# Scoring constants
# --------------------------------------------------------------------------------------------

_CONF_EXPLICIT = 0.9
_CONF_STANDING = 0.95
_CONF_PLAIN_DIRECTIVE = 0.85  # an imperative without "always"/"from now on"
_CONF_WEAK = 0.8  # a looser frame ("I'm Sam", "don't use X", "I want short answers")
_CONF_HEDGED = 0.6

_IMPORTANCE = {
    "instruction": 0.85,
    "style": 0.8,
    "veto": 0.85,
    "identity": 0.7,
    "tooling": 0.7,
    "preference": 0.6,
    "goal": 0.6,
    "channel": 0.6,
}
_STANDING_BONUS = 0.05  # instructions, style and vetoes said with "always"/"from now on"

_MEMORY_TYPE = {
    "instruction": MemoryType.PROCEDURAL,
    "style": MemoryType.PROCEDURAL,
    "tooling": MemoryType.PROCEDURAL,
    "identity": MemoryType.IDENTITY,
    "preference": MemoryType.SEMANTIC,
    "veto": MemoryType.SEMANTIC,
    "goal": MemoryType.SEMANTIC,
    "channel": MemoryType.SEMANTIC,
}

_MAX_CLAUSE_CHARS = 400  # longer "clauses" are prose, not statements; also bounds regex work
_MAX_STATEMENTS = 64
_SLUG_CHARS = 40

_I = re.IGNORECASE
_CJK_CLASS = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_CJK = re.compile(f"[{_CJK_CLASS}]")


def _rx(pattern: str, flags: int = _I) -> re.Pattern[str]:
    return re.compile(pattern, flags)


def _words(text: str) -> frozenset[str]:
    """A vocabulary written as one space-separated string (easier to scan than a list)."""
    return frozenset(text.split())


def _alt(words: Iterable[str]) -> str:
    """A regex alternation, longest first so "vs code" wins over "code"."""
    return "|".join(sorted({w for w in words}, key=lambda w: (-len(w), w)))


# --------------------------------------------------------------------------------------------
# Normalization: same-length character mapping, so every index still points into the input
# --------------------------------------------------------------------------------------------

_TRANSLATE: dict[int, int] = {c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F)}  # fullwidth ASCII
_TRANSLATE.update(
    {
        0x2018: ord("'"),
        0x2019: ord("'"),
        0x201C: ord('"'),
        0x201D: ord('"'),
        0x00A0: ord(" "),
        0x3000: ord(" "),
        0x2014: ord("-"),
        0x2013: ord("-"),
    }
)


def _normalize(text: str) -> str:
    return text.translate(_TRANSLATE)


# --------------------------------------------------------------------------------------------
# Vocabularies: small, per facet key
# --------------------------------------------------------------------------------------------

_LANGUAGES_EN: dict[str, str] = {
    name: name
    for name in _words(
        "english chinese cantonese french german spanish japanese korean italian portuguese "
        "russian arabic hindi dutch swedish norwegian danish finnish polish turkish vietnamese "
        "thai indonesian malay hebrew greek czech ukrainian romanian hungarian persian bengali "
        "urdu tamil tagalog swahili catalan"
    )
}
_LANGUAGES_EN.update({"mandarin": "chinese", "farsi": "persian", "filipino": "tagalog"})
_LANGUAGES_ZH: dict[str, str] = {
    "中文": "chinese",
    "汉语": "chinese",
    "普通话": "chinese",
    "简体中文": "chinese",
    "繁体中文": "chinese",
    "华语": "chinese",
    "粤语": "cantonese",
    "广东话": "cantonese",
    "英文": "english",
    "英语": "english",
    "日语": "japanese",
    "日文": "japanese",
    "韩语": "korean",
    "韩文": "korean",
    "法语": "french",
    "法文": "french",
    "德语": "german",
    "德文": "german",
    "西班牙语": "spanish",
    "俄语": "russian",
    "意大利语": "italian",
    "葡萄牙语": "portuguese",
    "阿拉伯语": "arabic",
}
_LANG_EN = _alt(_LANGUAGES_EN)
_LANG_ZH = _alt(_LANGUAGES_ZH)

# (facet key, canonical value, surface forms). Two keys extend the seed 002 list because
# "we use Postgres" / "we deploy on AWS" are common and fit no other tooling key.
_TOOLS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("tooling/package_manager", "npm", ("npm",)),
    ("tooling/package_manager", "pnpm", ("pnpm",)),
    ("tooling/package_manager", "yarn", ("yarn",)),
    ("tooling/package_manager", "pip", ("pip", "pip3")),
    ("tooling/package_manager", "pipenv", ("pipenv",)),
    ("tooling/package_manager", "poetry", ("poetry",)),
    ("tooling/package_manager", "uv", ("uv",)),
    ("tooling/package_manager", "pdm", ("pdm",)),
    ("tooling/package_manager", "conda", ("conda", "miniconda", "anaconda", "mamba")),
    ("tooling/package_manager", "cargo", ("cargo",)),
    ("tooling/package_manager", "gradle", ("gradle",)),
    ("tooling/package_manager", "maven", ("maven", "mvn")),
    ("tooling/package_manager", "homebrew", ("homebrew", "brew")),
    ("tooling/package_manager", "composer", ("composer",)),
    ("tooling/package_manager", "nuget", ("nuget",)),
    ("tooling/package_manager", "bundler", ("bundler",)),
    ("tooling/editor", "vim", ("vim", "vi")),
    ("tooling/editor", "neovim", ("neovim", "nvim", "neo vim")),
    ("tooling/editor", "emacs", ("emacs", "doom emacs", "spacemacs")),
    ("tooling/editor", "vscode", ("vscode", "vs code", "visual studio code")),
    ("tooling/editor", "visual-studio", ("visual studio",)),
    ("tooling/editor", "cursor", ("cursor",)),
    ("tooling/editor", "sublime-text", ("sublime", "sublime text")),
    ("tooling/editor", "intellij", ("intellij", "intellij idea")),
    ("tooling/editor", "pycharm", ("pycharm",)),
    ("tooling/editor", "webstorm", ("webstorm",)),
    ("tooling/editor", "goland", ("goland",)),
    ("tooling/editor", "clion", ("clion",)),
    ("tooling/editor", "rider", ("rider",)),
    ("tooling/editor", "xcode", ("xcode",)),
    ("tooling/editor", "android-studio", ("android studio",)),
    ("tooling/editor", "zed", ("zed",)),
    ("tooling/editor", "helix", ("helix",)),
    ("tooling/editor", "nano", ("nano",)),
    ("tooling/editor", "jupyter", ("jupyter", "jupyterlab", "jupyter notebook")),
    ("tooling/lang", "python", ("python", "python3")),
    ("tooling/lang", "rust", ("rust",)),
    ("tooling/lang", "go", ("go", "golang")),
    ("tooling/lang", "typescript", ("typescript", "ts")),
    ("tooling/lang", "javascript", ("javascript", "js")),
    ("tooling/lang", "java", ("java",)),
    ("tooling/lang", "kotlin", ("kotlin",)),
    ("tooling/lang", "swift", ("swift",)),
    ("tooling/lang", "c", ("c",)),
    ("tooling/lang", "c++", ("c++", "cpp")),
    ("tooling/lang", "c#", ("c#", "csharp")),
    ("tooling/lang", "ruby", ("ruby",)),
    ("tooling/lang", "php", ("php",)),
    ("tooling/lang", "scala", ("scala",)),
    ("tooling/lang", "elixir", ("elixir",)),
    ("tooling/lang", "erlang", ("erlang",)),
    ("tooling/lang", "haskell", ("haskell",)),
    ("tooling/lang", "clojure", ("clojure",)),
    ("tooling/lang", "r", ("r",)),
    ("tooling/lang", "julia", ("julia",)),
    ("tooling/lang", "dart", ("dart",)),
    ("tooling/lang", "lua", ("lua",)),
    ("tooling/lang", "perl", ("perl",)),
    ("tooling/lang", "zig", ("zig",)),
    ("tooling/lang", "ocaml", ("ocaml",)),
    ("tooling/lang", "f#", ("f#",)),
    ("tooling/lang", "matlab", ("matlab",)),
    ("tooling/lang", "fortran", ("fortran",)),
    ("tooling/lang", "solidity", ("solidity",)),
    ("tooling/framework", "react", ("react", "react.js", "reactjs")),
    ("tooling/framework", "react-native", ("react native",)),
    ("tooling/framework", "vue", ("vue", "vue.js", "vuejs")),
    ("tooling/framework", "angular", ("angular",)),
    ("tooling/framework", "svelte", ("svelte",)),
    ("tooling/framework", "sveltekit", ("sveltekit",)),
    ("tooling/framework", "nextjs", ("next.js", "nextjs")),
    ("tooling/framework", "nuxt", ("nuxt", "nuxt.js")),
    ("tooling/framework", "astro", ("astro",)),
    ("tooling/framework", "remix", ("remix",)),
    ("tooling/framework", "django", ("django",)),
    ("tooling/framework", "flask", ("flask",)),
    ("tooling/framework", "fastapi", ("fastapi",)),
    ("tooling/framework", "rails", ("rails", "ruby on rails")),
    ("tooling/framework", "spring", ("spring", "spring boot")),
    ("tooling/framework", "express", ("express", "express.js")),
    ("tooling/framework", "nestjs", ("nestjs",)),
    ("tooling/framework", "laravel", ("laravel",)),
    ("tooling/framework", "phoenix", ("phoenix",)),
    ("tooling/framework", "langchain", ("langchain",)),
    ("tooling/framework", "langgraph", ("langgraph",)),
    ("tooling/framework", "pytorch", ("pytorch", "torch")),
    ("tooling/framework", "tensorflow", ("tensorflow",)),
    ("tooling/framework", "jax", ("jax",)),
    ("tooling/framework", "tailwind", ("tailwind", "tailwindcss")),
    ("tooling/framework", "flutter", ("flutter",)),
    ("tooling/framework", ".net", (".net", "dotnet")),
    ("tooling/framework", "htmx", ("htmx",)),
    ("tooling/framework", "jquery", ("jquery",)),
    ("tooling/framework", "electron", ("electron",)),
    ("tooling/framework", "tauri", ("tauri",)),
    ("tooling/runtime", "node", ("node", "node.js", "nodejs")),
    ("tooling/runtime", "bun", ("bun",)),
    ("tooling/runtime", "deno", ("deno",)),
    ("tooling/runtime", "pypy", ("pypy",)),
    ("tooling/runtime", "graalvm", ("graalvm",)),
    ("tooling/os", "macos", ("macos", "mac os", "osx", "os x", "mac", "macbook")),
    ("tooling/os", "linux", ("linux",)),
    ("tooling/os", "ubuntu", ("ubuntu",)),
    ("tooling/os", "debian", ("debian",)),
    ("tooling/os", "fedora", ("fedora",)),
    ("tooling/os", "arch", ("arch", "arch linux")),
    ("tooling/os", "nixos", ("nixos",)),
    ("tooling/os", "windows", ("windows", "windows 10", "windows 11")),
    ("tooling/os", "wsl", ("wsl", "wsl2")),
    ("tooling/os", "freebsd", ("freebsd",)),
    ("tooling/os", "chromeos", ("chromeos",)),
    ("tooling/shell", "bash", ("bash",)),
    ("tooling/shell", "zsh", ("zsh", "oh my zsh")),
    ("tooling/shell", "fish", ("fish",)),
    ("tooling/shell", "powershell", ("powershell", "pwsh")),
    ("tooling/shell", "nushell", ("nushell",)),
    ("tooling/test_runner", "jest", ("jest",)),
    ("tooling/test_runner", "vitest", ("vitest",)),
    ("tooling/test_runner", "pytest", ("pytest",)),
    ("tooling/test_runner", "mocha", ("mocha",)),
    ("tooling/test_runner", "jasmine", ("jasmine",)),
    ("tooling/test_runner", "junit", ("junit",)),
    ("tooling/test_runner", "rspec", ("rspec",)),
    ("tooling/test_runner", "cypress", ("cypress",)),
    ("tooling/test_runner", "playwright", ("playwright",)),
    ("tooling/test_runner", "unittest", ("unittest",)),
    ("tooling/test_runner", "phpunit", ("phpunit",)),
    ("tooling/database", "postgres", ("postgres", "postgresql", "psql")),
    ("tooling/database", "mysql", ("mysql",)),
    ("tooling/database", "mariadb", ("mariadb",)),
    ("tooling/database", "sqlite", ("sqlite",)),
    ("tooling/database", "mongodb", ("mongodb", "mongo")),
    ("tooling/database", "redis", ("redis",)),
    ("tooling/database", "dynamodb", ("dynamodb",)),
    ("tooling/database", "elasticsearch", ("elasticsearch",)),
    ("tooling/database", "clickhouse", ("clickhouse",)),
    ("tooling/database", "duckdb", ("duckdb",)),
    ("tooling/database", "snowflake", ("snowflake",)),
    ("tooling/database", "bigquery", ("bigquery",)),
    ("tooling/database", "supabase", ("supabase",)),
    ("tooling/cloud", "aws", ("aws", "amazon web services")),
    ("tooling/cloud", "gcp", ("gcp", "google cloud")),
    ("tooling/cloud", "azure", ("azure",)),
    ("tooling/cloud", "vercel", ("vercel",)),
    ("tooling/cloud", "netlify", ("netlify",)),
    ("tooling/cloud", "heroku", ("heroku",)),
    ("tooling/cloud", "cloudflare", ("cloudflare",)),
)
# Surfaces that are also ordinary words: they count only when capitalized or when they are the
# very first word of the object ("I use Go", "i use go", but not "I use it to go").
_AMBIGUOUS_TOOLS = _words(
    "go c r rust swift dart ruby julia arch fish mac spring express rails bun yarn cursor zed "
    "helix nano phoenix remix astro electron flutter jest mocha jasmine poetry composer rider "
    "vi ts js snowflake torch node uv mamba"
)


_SURFACE_SEP = re.compile(r"[\s\-]+")


def _surface_key(surface: str) -> str:
    """Lookup key of a surface form: "VS Code", "vs-code" and "vscode" are one key."""
    return _SURFACE_SEP.sub("", surface.lower())


def _surface_pattern(surface: str) -> str:
    return r"[\s\-]*".join(re.escape(part) for part in _SURFACE_SEP.split(surface))


_TOOL_INDEX: dict[str, tuple[str, str]] = {
    _surface_key(s): (key, value) for key, value, surfaces in _TOOLS for s in surfaces
}
_TOOL_RE = _rx(
    r"(?<![A-Za-z0-9_.+#\-])(?:"
    + _alt(_surface_pattern(s) for _, _, surfaces in _TOOLS for s in surfaces)
    + r")(?![A-Za-z0-9_+#]|\.[A-Za-z0-9]|-[A-Za-z0-9])"
)
_TOOL_CATEGORIES: dict[str, str] = {
    "editor": "tooling/editor",
    "text editor": "tooling/editor",
    "code editor": "tooling/editor",
    "ide": "tooling/editor",
    "shell": "tooling/shell",
    "os": "tooling/os",
    "operating system": "tooling/os",
    "distro": "tooling/os",
    "language": "tooling/lang",
    "programming language": "tooling/lang",
    "package manager": "tooling/package_manager",
    "framework": "tooling/framework",
    "web framework": "tooling/framework",
    "runtime": "tooling/runtime",
    "test runner": "tooling/test_runner",
    "testing framework": "tooling/test_runner",
    "test framework": "tooling/test_runner",
    "database": "tooling/database",
    "db": "tooling/database",
    "cloud": "tooling/cloud",
    "cloud provider": "tooling/cloud",
}
_TOOL_CATEGORIES_ZH: dict[str, str] = {
    "编辑器": "tooling/editor",
    "ide": "tooling/editor",
    "操作系统": "tooling/os",
    "系统": "tooling/os",
    "shell": "tooling/shell",
    "终端": "tooling/shell",
    "包管理器": "tooling/package_manager",
    "包管理工具": "tooling/package_manager",
    "主力语言": "tooling/lang",
    "编程语言": "tooling/lang",
    "主要语言": "tooling/lang",
    "框架": "tooling/framework",
    "数据库": "tooling/database",
    "测试框架": "tooling/test_runner",
    "运行时": "tooling/runtime",
}

# Channels: how the user wants to be reached or which client they talk to the assistant from.
_CHANNELS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("slack", ("slack",)),
    ("email", ("email", "e-mail", "mail", "gmail", "邮件", "邮箱", "电子邮件")),
    ("telegram", ("telegram",)),
    ("whatsapp", ("whatsapp",)),
    ("signal", ("signal",)),
    ("discord", ("discord",)),
    ("teams", ("teams", "microsoft teams", "ms teams")),
    ("sms", ("sms", "text", "texts", "text message", "短信")),
    ("phone", ("phone", "phone call", "电话")),
    ("imessage", ("imessage",)),
    ("wechat", ("wechat", "微信")),
    ("wecom", ("企业微信",)),
    ("dingtalk", ("dingtalk", "钉钉")),
    ("feishu", ("feishu", "lark", "飞书")),
    ("qq", ("qq",)),
    ("desktop-app", ("desktop app", "desktop client", "desktop version", "desktop", "laptop",
                     "computer", "电脑",
                     "桌面端", "桌面版", "客户端", "电脑端")),
    ("mobile-app", ("mobile app", "phone app", "ios app", "android app", "iphone app",
                    "mobile", "my phone", "iphone", "手机", "手机端", "移动端", "手机版")),
    ("web", ("web app", "web version", "website", "browser", "web", "网页版", "网页端",
             "浏览器")),
)  # fmt: skip
_CHANNEL_INDEX: dict[str, str] = {
    _surface_key(s): value for value, surfaces in _CHANNELS for s in surfaces
}
_CHANNEL_RE = _rx(
    r"(?<![A-Za-z0-9_\-])(?:"
    + _alt(_surface_pattern(s) for _, surfaces in _CHANNELS for s in surfaces)
    + r")(?![A-Za-z0-9_\-])"
)
# "phone" as a channel of its own would swallow "my phone" = mobile app; the longer surface
# wins in the alternation, and the client words win in "I use the ... app" frames.

_ROLE_HEADS = _words(
    "engineer developer dev programmer coder architect designer scientist researcher "
    "analyst manager director lead founder co-founder cofounder ceo cto cfo coo cpo cio vp "
    "president consultant contractor freelancer teacher professor lecturer tutor student "
    "postdoc nurse doctor physician surgeon dentist pharmacist therapist psychologist "
    "psychiatrist counselor lawyer attorney paralegal accountant auditor banker trader "
    "economist writer author journalist editor reporter copywriter marketer salesperson "
    "recruiter pm administrator admin sysadmin sre technician mechanic electrician plumber "
    "carpenter chef cook baker barista farmer pilot artist photographer musician actor "
    "filmmaker animator illustrator translator librarian entrepreneur intern officer "
    "specialist coordinator assistant secretary receptionist clerk cashier firefighter "
    "soldier retiree homemaker mathematician statistician physicist chemist biologist "
    "veterinarian vet tester executive owner strategist product-manager devops "
    "programmer mom dad parent"
)
_ROLE_HEADS_ZH = _words(
    "工程师 程序员 开发者 开发 设计师 产品经理 项目经理 经理 老师 教师 教授 讲师 学生 研究生 "
    "博士生 本科生 大学生 高中生 医生 护士 律师 会计 会计师 分析师 研究员 科学家 架构师 作家 "
    "记者 编辑 创业者 创始人 合伙人 销售 运营 主管 总监 顾问 实习生 厨师 司机 警察 公务员 "
    "自由职业者 翻译 测试 产品 数据科学家 咨询师 摄影师 艺术家 宝妈 全职妈妈 退休人员"
)

_ZH_PLACES = _words(
    "北京 上海 广州 深圳 杭州 成都 重庆 天津 南京 武汉 西安 苏州 长沙 郑州 青岛 厦门 大连 "
    "沈阳 哈尔滨 济南 合肥 福州 昆明 宁波 无锡 东莞 佛山 珠海 香港 澳门 台北 台湾 新加坡 东京 "
    "大阪 首尔 纽约 伦敦 巴黎 柏林 旧金山 硅谷 洛杉矶 西雅图 波士顿 多伦多 温哥华 悉尼 墨尔本 "
    "美国 中国 日本 韩国 英国 德国 法国 加拿大 澳大利亚 国外 海外 湾区 老家"
)
_ZH_PLACE_SUFFIX = re.compile(r"(?:市|省|区|县|州|镇|村|岛|湾)$")
_ZH_NOT_PLACE = _words("家 家里 公司 办公室 学校 这里 那里 这边 那边 远程 线上")

# Diets name what is avoided, so "I'm vegetarian" and "I don't eat meat" share one key.
_DIETS_EN: dict[str, str] = {
    "vegetarian": "meat",
    "veggie": "meat",
    "pescatarian": "meat",
    "pescetarian": "meat",
    "vegan": "animal_products",
    "gluten-free": "gluten",
    "gluten free": "gluten",
    "celiac": "gluten",
    "coeliac": "gluten",
    "lactose intolerant": "lactose",
    "lactose-intolerant": "lactose",
    "dairy-free": "dairy",
    "dairy free": "dairy",
    "teetotal": "alcohol",
    "teetotaler": "alcohol",
    "teetotaller": "alcohol",
    "non-drinker": "alcohol",
}

_TZ_ABBREVIATIONS = _words(
    "PST PDT PT MST MDT MT CST CDT CT EST EDT ET AKST AKDT HST AST UTC GMT BST IST CET CEST "
    "EET EEST WET WEST MSK JST KST HKT SGT AEST AEDT ACST AWST NZST NZDT ICT WIB PHT SAST"
)
_TZ_NAMED: dict[str, str] = {
    "pacific": "PST",
    "eastern": "EST",
    "central": "CST",
    "mountain": "MST",
    "alaska": "AKST",
    "hawaii": "HST",
    "atlantic": "AST",
    "greenwich": "GMT",
    "central european": "CET",
    "eastern european": "EET",
    "western european": "WET",
    "british": "BST",
    "india": "IST",
    "indian": "IST",
    "japan": "JST",
    "korea": "KST",
    "china": "UTC+8",
    "beijing": "UTC+8",
    "singapore": "SGT",
}
_TZ_RE = _rx(
    r"(?P<offset>(?:utc|gmt)\s*[+\-\u2212]\s*\d{1,2}(?::?[0-5]\d)?)(?!\d)"
    r"|(?P<iana>(?:Africa|America|Asia|Atlantic|Australia|Europe|Indian|Pacific)"
    r"/[A-Za-z_]+(?:/[A-Za-z_]+)?)"
    r"|(?P<named>" + _alt(_TZ_NAMED) + r")(?:\s+(?:standard|daylight|summer))?\s+time\b"
    r"|(?P<abbr>[A-Za-z]{2,5})\b"
)
_ZH_NUMERALS = {
    "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10,
    "十一": 11, "十二": 12,
}  # fmt: skip
_ZH_TZ_RE = re.compile(
    r"(?P<dir>东|西)(?P<num>十[一二]|[一二三四五六七八九十])区|(?P<zero>零时区)|(?P<bj>北京时间)"
)

# Capitalized words that follow "I'm" but are not names.
_NOT_NAMES = _words(
    "a an the not so very just back here there sure sorry fine good ok okay ready done busy "
    "tired happy glad new also still currently really only always never from with in on at "
    "dr mr mrs ms prof sir american british canadian australian indian chinese japanese korean "
    "german french italian spanish mexican brazilian russian irish scottish welsh dutch "
    "swedish norwegian danish finnish polish turkish greek israeli iranian pakistani "
    "nigerian kenyan african european asian latino latina hispanic vietnamese thai filipino "
    "indonesian malaysian singaporean taiwanese swiss austrian belgian portuguese argentinian "
    "chilean colombian peruvian egyptian ukrainian czech hungarian romanian texan "
    "californian christian catholic protestant jewish muslim buddhist hindu atheist agnostic "
    "vegan vegetarian gay straight lesbian bi trans male female english ai human"
)

# --------------------------------------------------------------------------------------------
# Shared regex fragments
# --------------------------------------------------------------------------------------------

_WORDS_RE = re.compile(r"[a-z']+")


@dataclass(frozen=True, slots=True)
class _Trigger:
    """A clause-level cue regex plus the words that can start a match.

    Big alternations are slow to scan in ``re``; a set lookup on the clause's words first lets
    most English clauses skip them. Chinese clauses always run the regex (no word split).
    """

    pattern: re.Pattern[str]
    words: frozenset[str]


def _cue(trigger: _Trigger, text: str, words: frozenset[str], zh: bool) -> bool:
    if not zh and trigger.words.isdisjoint(words):
        return False
    return bool(trigger.pattern.search(text))


def _is_hypothetical(text: str, words: frozenset[str], zh: bool) -> bool:
    """A conditional or counterfactual; courtesy forms ("if possible") do not count."""
    if not zh and _HYPOTHETICAL.words.isdisjoint(words):
        return False
    return any(m.group("hypo") for m in _HYPOTHETICAL.pattern.finditer(text))


_ADV = (
    r"(?:(?:really|truly|absolutely|totally|definitely|genuinely|honestly|actually|also|just|"
    r"mostly|mainly|primarily|usually|generally|typically|normally|always|still|currently|now|"
    r"kinda|kind\s+of|sort\s+of|personally|very\s+much|much|do|strongly|often|frequently|"
    r"largely|pretty\s+much|recently|already|happily|proudly|officially|basically|certainly|"
    r"seriously|literally|deeply|especially|particularly|exclusively|only|both|all|daily|"
    r"regularly|tend\s+to|prefer\s+to|like\s+to|normally|even|strictly|completely|firmly|"
    r"actively|adamantly|greatly|vastly|entirely|categorically|consistently|deliberately|"
    r"religiously|simply|far|try\s+to)\s+)*"
)
_I_SUBJ = r"i\s+" + _ADV
_I_BE = r"(?:i'?m|i\s+am)\s+" + _ADV
_ADV_ZH = (
    r"(?:一般|平时|平常|主要|通常|都|也|还|现在|目前|经常|常常|一直|基本上?|比较|很|非常|特别|"
    r"超级?|最|真的|挺|蛮|相当|十分|更|还是|可能|大概|也许|好像|应该|其实|确实|本身|从小|向来|"
    r"一向|总是|已经|就|本来|习惯|日常|天天|每天|平日)*"
)
_ME_ZH = r"我(?!们)" + _ADV_ZH

_NEGATOR_EN = _rx(
    r"\b(?:don'?t|do\s+not|never|no|not|without|stop|quit|avoid|skip|omit|drop|cut(?:\s+out)?|"
    r"less|fewer|ditch|lose|hate|dislike|can'?t\s+stand|instead\s+of|rather\s+than|over|minus|"
    r"none)\b"
)
_NEGATOR_ZH = re.compile(
    r"不要|不用|别|不必|禁止|不许|不准|去掉|省略|避免|免|不喜欢|讨厌|而不是|而非|不想|无需|"
    r"没必要|少|(?<![能可要是好会])不(?![能可要是好会])"
)
_POLARITY_BOUNDARY = _rx(r"[,;，；]|\bbut\b|\bjust\b|但|只")

_STANDING_EN_RE = _rx(
    r"\b(?:always|never|from\s+now\s+on|going\s+forward|moving\s+forward|in\s+(?:the\s+)?future|"
    r"from\s+here\s+on(?:\s+out)?|henceforth|hereafter|whenever|every\s+time|each\s+time|"
    r"any\s*time|by\s+default|as\s+a\s+rule|at\s+all\s+times|all\s+the\s+time|"
    r"(?:all|every|each)\s+(?:of\s+)?(?:your\s+)?(?:future\s+)?(?:answers|responses|replies)|"
    r"until\s+i\s+say\s+otherwise|until\s+further\s+notice|from\s+this\s+point(?:\s+on)?|"
    r"remember\s+to|stop|no\s+more|don'?t\s+ever|do\s+not\s+ever|ever\s+again)\b"
)
_STANDING_ZH = re.compile(
    r"以后|今后|往后|之后都|从现在(?:开始|起)|从今(?:天|以后)|每次|每当|总是|始终|一律|永远|默认|"
    r"一直|任何时候|所有(?:的)?(?:回答|回复)|再也不|不要再|别再|记住|记得"
)
_SESSION_RE = _rx(
    r"\b(?:for|in|during|throughout)\s+(?:the\s+rest\s+of\s+)?(?:this|our|the\s+current)\s+"
    r"(?:conversation|chat|session|thread|discussion|exchange)\b|"
    r"\buntil\s+(?:the\s+end\s+of\s+)?(?:this|the|our)\s+(?:conversation|chat|session)\b|"
    r"(?:本次|这次|这个|这轮|本轮|接下来的|当前|在这次)(?:对话|会话|聊天)|接下来"
)
_TEMPORARY_RE = _rx(
    r"\b(?:today|tonight|tomorrow|this\s+(?:week|weekend|month|morning|afternoon|evening)|"
    r"for\s+now|for\s+the\s+(?:next|coming)\s+(?:few\s+|couple\s+(?:of\s+)?)?"
    r"(?:days?|weeks?|hours?|months?)|until\s+(?:monday|tuesday|wednesday|thursday|friday|"
    r"saturday|sunday|tomorrow|next\s+week)|for\s+a\s+(?:while|bit|few\s+days)|temporarily|"
    r"at\s+the\s+moment|right\s+now)\b|今天|今晚|明天|这周|本周|这个月|这几天|暂时|目前先|"
    r"这段时间|最近几天"
)
_ONE_OFF_RE = _rx(
    r"\b(?:for|in|on)\s+(?:this|that|the\s+next|the\s+above|the\s+following|your\s+next)\s+"
    r"(?:one|answer|reply|response|message|question|task|email|post|draft|paragraph|section|"
    r"list|case|function|file|snippet|example|query|request|essay|poem|story|summary|"
    r"translation|code|script|text|document|doc|page|slide|table|part|project|repo|codebase|"
    r"app|pr|commit)\b|"
    r"\bthis\s+(?:time|once)\b|\bjust\s+(?:this\s+)?once\b|\b(?:here|below)\b|"
    r"\b(?:a|an|this|that|the|your)\s+(?:[a-z]+\s+){0,2}?(?:answer|reply|response|explanation|"
    r"summary|version|message|email|draft)\b(?!s)|"
    r"这次(?!对话|会话|聊天)|这一次|这个|这些|那些|这份|这张|这段|这篇|这里|下面|以下|上面|如下|本题|"
    r"这道题|这条|一下"
)
# A style request about a topic is a task ("give me bullets about X"), not a standing style.
_TASK_TOPIC = _rx(r"\b(?:about|regarding|on\s+the\s+topic\s+of)\b|关于")
_DEICTIC_GOAL = _rx(
    r"\b(?:this|that|these|those|it)\b(?!\s+(?:year|month|week|summer|spring|fall|autumn|winter|"
    r"semester|quarter|decade))|这个|那个|这段|这篇|这道"
)
_PAST_OR_NEGATED_RE = _rx(
    r"\b(?:anymore|any\s+more|any\s+longer|no\s+longer|used\s+to|formerly|previously|"
    r"not\s+anymore)\b|以前|曾经|过去|原来|不再|已经不|小时候"
)
_HEDGE_RE = _rx(
    r"\b(?:i\s+think|i\s+guess|i\s+believe|i\s+suppose|i\s+reckon|i\s+feel\s+like|maybe|"
    r"perhaps|probably|possibly|i'?d\s+say|not\s+sure|kind\s+of|sort\s+of|kinda|i\s+might|"
    r"might|i\s+may)\b|我觉得|我感觉|我猜|可能|大概|也许|好像|或许"
)

# Hypotheticals and conditionals. Courtesy forms ("if possible", "I'd appreciate it if you")
# come first in the alternation so finditer consumes them before the bare "if" can match.
_HYPOTHETICAL_RE = _rx(
    r"(?P<courtesy>\bif\s+(?:possible|you\s+can|you\s+could|you\s+don'?t\s+mind|you\s+do\s+not"
    r"\s+mind|that'?s\s+(?:ok|okay|alright|fine)|you\s+please|necessary|needed|at\s+all\s+"
    r"possible|it'?s\s+not\s+too\s+much)\b|\b(?:appreciate\s+it|be\s+(?:great|nice|helpful|"
    r"better|good)|prefer\s+it|like\s+it|love\s+it)\s+if\s+you\b|如果可以|如果可能|如果方便|"
    r"可以的话|方便的话|可能的话|如果你能|如果能)"
    r"|(?P<hypo>\b(?:if|imagine|imagining|suppose|supposing|pretend|hypothetically|"
    r"what\s+if|let'?s\s+say|assuming|in\s+a\s+world\s+where|were\s+i|had\s+i|i\s+wish|"
    r"wish\s+i|would\s+be\s+nice|in\s+my\s+dreams|unless)\b|如果|假如|假设|(?<!主)要是|万一|倘若|"
    r"若是|假使|设想|想象一下|想象|假装|的话)"
)

# Reported speech: a third party's words or beliefs. The user's own "I said" is not reported.
_REPORTED_EN_RE = _rx(
    r"\b(?:he|she|they|someone|somebody|people|everyone|everybody|you|(?:my|his|her|their|our|"
    r"the)\s+[a-z]+(?:\s+[a-z]+)?|(?-i:[A-Z][a-z]+))\s+(?:[a-z]+\s+)?(?:said|says|told|tells|"
    r"asked|asks|thinks|believes|wrote|writes|mentioned|mentions|claims|claimed|insists|"
    r"insisted|wants|wanted|suggested|suggests|recommended|recommends|reckons|keeps\s+saying|"
    r"always\s+says|would\s+say)\b"
)
_REPORTED_ZH = re.compile(
    r"(?:他|她|它|他们|她们|别人|有人|大家|人家|我(?:的)?(?:老板|同事|朋友|领导|老师|经理|家人|"
    r"孩子|儿子|女儿|哥哥|姐姐|弟弟|妹妹|室友|队友|妈妈|爸爸|妈|爸|老婆|老公|妻子|丈夫|太太|先生|"
    r"女朋友|男朋友|对象|上司|客户)|老板|同事|朋友|领导|老师|经理|妈妈|爸爸|客户)"
    r"(?:也|还|总是|一直|曾经|经常|跟我|对我|之前)?(?:说(?!得)|讲|告诉|觉得|认为|以为|提到|表示|建议|"
    r"要求|让我|要我|希望我)|听说"
)
# Standing markers that frame a whole clause when they open it (and are stripped as a lead).
_STANDING_FRAME_RE = _rx(
    r"\b(?:from\s+now\s+on|going\s+forward|moving\s+forward|in\s+(?:the\s+)?future|"
    r"from\s+here\s+on|henceforth|by\s+default|as\s+a\s+rule|whenever|every\s+time|each\s+time)\b|"
    r"以后|今后|从现在(?:开始|起)|接下来"
)
_STANDING_EN = _Trigger(
    _STANDING_EN_RE,
    _words(
        "always never from going moving future here henceforth hereafter whenever every each "
        "any anytime default rule times time all until remember stop no don't dont do ever"
    ),
)
_SESSION = _Trigger(_SESSION_RE, _words("conversation chat session thread discussion exchange"))
_TEMPORARY = _Trigger(
    _TEMPORARY_RE,
    _words(
        "today tonight tomorrow week weekend month morning afternoon evening now next coming "
        "until while bit days temporarily moment"
    ),
)
_ONE_OFF = _Trigger(
    _ONE_OFF_RE,
    _words(
        "one answer reply response message question task email post draft paragraph section list "
        "case function file snippet example query request essay poem story summary translation "
        "code script text document doc page slide table part project repo codebase app pr commit "
        "time once here below explanation version"
    ),
)
_PAST_OR_NEGATED = _Trigger(
    _PAST_OR_NEGATED_RE, _words("anymore any longer no used formerly previously not")
)
_HEDGE = _Trigger(
    _HEDGE_RE,
    _words(
        "think guess believe suppose reckon feel maybe perhaps probably possibly say i'd id sure "
        "kind sort kinda might may"
    ),
)
_HYPOTHETICAL = _Trigger(
    _HYPOTHETICAL_RE,
    _words(
        "if imagine imagining suppose supposing pretend hypothetically what let's lets say "
        "assuming world were had wish would dreams unless"
    ),
)
_REPORTED_EN = _Trigger(
    _REPORTED_EN_RE,
    _words(
        "said says told tells asked asks thinks believes wrote writes mentioned mentions claims "
        "claimed insists insisted wants wanted suggested suggests recommended recommends reckons "
        "saying say"
    ),
)
_STANDING_FRAME = _Trigger(
    _STANDING_FRAME_RE,
    _words("from going moving future henceforth default rule whenever every each"),
)
_CONTRAST_START = _rx(r"^\s*(?:but|however|though|although|whereas|yet|但是|不过|可是|但)")

_QUOTE = re.compile(
    r"\"[^\"\n]{1,300}\"|(?<!\w)'[^'\n]{1,300}'(?!\w)|「[^」\n]{1,300}」|『[^』\n]{1,300}』"
)

# --------------------------------------------------------------------------------------------
# Segmentation
# --------------------------------------------------------------------------------------------

_SENTENCE_END = re.compile(
    r"[!?;。！？；…]+|\n"
    r"|(?<!\bDr)(?<!\bMr)(?<!\bMs)(?<!\bMrs)(?<!\bProf)(?<!\bSt)(?<!\be\.g)(?<!\bi\.e)(?<!\bvs)"
    r"\.(?:\.\.)?(?=\s|$|[\"')\]]|[" + _CJK_CLASS + r"])"
)
_OPENER_EN = (
    r"(?:i|i'm|im|i've|i'd|i'll|my|we|we're|our|you|your|please|pls|don'?t|do\s+not|never|"
    r"always|also|stop|no\s+more|from\s+now\s+on|going\s+forward|btw|by\s+the\s+way|and|but|"
    r"so|oh|actually|honestly|plus|though|because|since|just|remember|note|call\s+me|what|how|"
    r"which|where|why|who|do|does|did|can|could|should|would|will|is|are|am|any|if|unless|"
    r"imagine|suppose|when|whenever|while|although|however|it|it's|that|that's|this|which|she|"
    r"he|they|there|there's|as(?=\s+(?:i|i'm|my)\b))\b"
)
_SUBJECT_OPENER = (
    r"(?:i|i'm|im|i've|i'd|i'll|my|we|we're|our|please|don'?t|never|always|call\s+me|you)\b"
)
_CLAUSE_SPLIT = _rx(
    r",(?=\s*" + _OPENER_EN + r")"
    r"|(?<=[" + _CJK_CLASS + r"]),|,(?=\s*[" + _CJK_CLASS + r"])"
    r"|\s+(?=(?:and|but|so|because|since|although|though|while|whereas|plus)\s+"
    + _SUBJECT_OPENER
    + r")"
    r"|(?<=\S)(?=但是|不过|而且|并且|可是|所以|因为|然后|同时|但(?=我|你|请|以后|不要|别))"
)

# Discourse fillers, hedges and framing phrases that may precede the statement proper.
_LEAD_EN = _rx(
    r"(?:[-*\u2022]\s+|\d{1,2}[.)]\s+|"  # a list item marker, or
    r"(?:and\s+also|and|but|so|also|plus|oh|ok|okay|well|hi|hey|hello|yeah|yep|yes|sure|"
    r"actually|honestly|basically|anyway|anyways|btw|by\s+the\s+way|fyi|just\s+so\s+you\s+know|"
    r"just\s+fyi|for\s+context|for\s+the\s+record|for\s+reference|for\s+your\s+information|"
    r"please\s+note(?:\s+that)?|note(?:\s+that)?|(?:please\s+)?remember(?:\s+that)?(?=[\s,:]+(?:i|my|"
    r"we|our)\b)|keep\s+in\s+mind(?:\s+that)?|bear\s+in\s+mind(?:\s+that)?|as\s+i\s+(?:said|"
    r"mentioned)|like\s+i\s+said|as\s+you\s+know|you\s+know|in\s+general|generally\s+speaking|"
    r"personally|these\s+days|nowadays|at\s+work|at\s+home|at\s+the\s+moment|right\s+now|"
    r"however|because|since|as(?=\s+(?:i|i'm|my)\b)|although|though|thanks|thank\s+you|cool|"
    r"great|nice|alright|"
    r"all\s+right|got\s+it|hmm+|um+|uh+|i\s+think(?:\s+that)?|i\s+guess|i\s+believe(?:\s+that)?|"
    r"i\s+suppose|i\s+reckon|i\s+feel\s+like|maybe|perhaps|probably|i'?d\s+say|"
    r"not\s+sure\s+but|if\s+possible|if\s+you\s+can|if\s+you\s+don'?t\s+mind|when(?:ever)?\s+"
    r"possible|where\s+possible|from\s+now\s+on|going\s+forward|moving\s+forward|"
    r"in\s+(?:the\s+)?future|from\s+here\s+on(?:\s+out)?|henceforth|by\s+default|as\s+a\s+rule|"
    r"for\s+(?:the\s+rest\s+of\s+)?(?:this|our)\s+(?:conversation|chat|session|thread)|"
    r"in\s+this\s+(?:conversation|chat|session|thread)|for\s+now|today|this\s+week|"
    r"(?:whenever|every\s+time|each\s+time|any\s*time|when)\s+(?:i|you)\s+[^,]{1,80},)"
    r"(?:\s*[,:;.!\-]+\s*|\s+|$))+"
)
_LEAD_ZH = re.compile(
    r"(?:(?:另外|还有|顺便(?:说一下|提一下|一提)?|其实|说实话|老实说|对了|嗯+|哦+|啊|好的?|是的|"
    r"而且|并且|但是|不过|可是|所以|因为|同时|然后|但|总之|平时|一般来说|总的来说|工作中|"
    r"在工作上|记住|请记住|你要记住|记一下|今天|今晚|这周|本周|暂时|最近|(?:在)?(?:本次|这次|这个|这轮|"
    r"本轮|接下来的|当前)(?:对话|会话|聊天)(?:中|里面?)?|我觉得|我感觉|我猜|我想说|可能|大概|也许|比起[^，,]"
    r"{1,12}?(?=我)|相比[^，,]{1,12}?(?=我)|在这次对话中|本次对话中|这次对话中|接下来|"
    r"从现在开始|从现在起|以后|今后)[，,:：\s]*)+"
)


@dataclass(frozen=True, slots=True)
class _Clause:
    """One clause, its position and the flags that gate extraction."""

    text: str  # normalized clause text (same length as the input slice)
    start: int  # receipt bounds in the input: the clause, plus a standing lead it inherits
    end: int
    body: str  # text after leads (discourse words, hedges, framing phrases)
    zh: bool
    hedged: bool
    standing: bool  # a standing marker anywhere in the clause, or inherited from a lone lead
    framed: bool  # the clause opens with a standing frame ("from now on, ...", "以后…")
    durability: str
    one_off: bool
    past_or_negated: bool  # "anymore", "used to", "以前": not a current fact
    polite_question: bool  # "can you always ...?" is a request, not a question


def _sentences(norm: str) -> Iterator[tuple[int, int, bool]]:
    """Yield ``(start, end, is_question)`` per sentence of the normalized text."""
    pos = 0
    for m in _SENTENCE_END.finditer(norm):
        if m.start() > pos:
            yield pos, m.start(), "?" in m.group()
        pos = m.end()
    if pos < len(norm):
        yield pos, len(norm), False


def _clause_spans(norm: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    pos = start
    for m in _CLAUSE_SPLIT.finditer(norm, start, end):
        if m.start() > pos:
            yield pos, m.start()
        pos = max(pos, m.end())
    if end > pos:
        yield pos, end


_QUESTION_START_EN = _rx(
    r"^\s*(?:(?:do|does|did|am|is|are|was|were|should|shall|can|could|will|would|may|might|"
    r"must|have|has)\s+(?:i|you|we|my)\b|(?:what|which|who|whom|whose|where|why|how)\b)"
)
_QUESTION_ZH = re.compile(
    r"什么|哪|谁|为什么|怎么|几点|多少|是否|是不是|有没有|对不对|能不能|可不可以|要不要|会不会|"
    r"好不好|[吗呢么]\s*$"
)
_POLITE_REQUEST = _rx(
    r"^\s*(?:please\s+)?(?:can|could|would|will)\s+you\b|能不能|可不可以|能否|可以|麻烦"
)


def _is_question(body: str, zh: bool) -> bool:
    if zh and _QUESTION_ZH.search(body):
        return True
    return bool(_QUESTION_START_EN.match(body))


def _strip_lead(text: str) -> str:
    prev = None
    while prev != text:
        prev = text
        m = _LEAD_EN.match(text)
        if m and m.end() > 0:
            text = text[m.end() :]
        m = _LEAD_ZH.match(text)
        if m and m.end() > 0:
            text = text[m.end() :]
    return text.strip()


_ZH_ME = re.compile(r"我(?!们)")
# Every frame below needs one of these: a first person, a directive verb or a standing marker.
_WORTH_A_LOOK = _rx(
    r"\b(?:i|i'm|im|i've|i'd|my|me|we|we're|our|please|pls|kindly|always|never|don'?t|do\s+not|"
    r"stop|no|avoid|call|address|from\s+now\s+on|going\s+forward|future|whenever|every\s+time|"
    r"by\s+default|be|keep|use|answer|reply|respond|write|skip|get|go|give|show|cut|drop|omit|"
    r"limit|less|more|only|speak|talk|format|start|lead|begin|reach|contact|ping|message|dm|text|"
    r"email|best\s+way|as|remember|make\s+sure|you|can|could|would|will|it)\b|"
    r"[我请以今从不别用回答尽直多少每总始一永默务记麻希你接这本]"
)
# A Chinese clause with a dropped subject continues the previous clause's "我".
_ZH_SUBJECTLESS = re.compile(
    r"(?:也|还|平时|一般|主要|现在|目前)*(?:是|在|住|用|喜欢|不喜欢|讨厌|更喜欢|爱|不吃|不喝|对|想|"
    r"打算|计划|正在|搬到)"
)


def _clauses(norm: str) -> Iterator[_Clause]:
    """Split into clauses and drop the ones that cannot carry an explicit statement."""
    # Quoted speech (two words or more) is someone's words; a quoted single token is a mention.
    quotes = [
        (m.start(), m.end())
        for m in _QUOTE.finditer(norm)
        if len(m.group().split()) > 1 or len(_CJK.findall(m.group())) > 3
    ]
    for s_start, s_end, question in _sentences(norm):
        spans = list(_clause_spans(norm, s_start, s_end))
        hypothetical = reported = standing_carry = first_person_zh = False
        carry_start = s_start
        for index, (c_start, c_end) in enumerate(spans):
            raw = norm[c_start:c_end]
            text = raw.strip(" \t\r,;:，；：、")
            if not text or len(text) > _MAX_CLAUSE_CHARS:
                continue
            c_start += raw.index(text)
            c_end = c_start + len(text)
            zh = bool(_CJK.search(text))
            words = frozenset(_WORDS_RE.findall(text.lower()))
            if _is_hypothetical(text, words, zh):
                hypothetical = True  # the conditional and everything after it in the sentence
            if reported and _CONTRAST_START.match(text):
                reported = False  # "my boss says X, but I prefer Y"
            if _cue(_REPORTED_EN, text, words, False) or (zh and _REPORTED_ZH.search(text)):
                reported = True
            if not _WORTH_A_LOOK.search(text):
                continue  # cheap exit: no first person, no directive cue
            if any(q_start < c_end and c_start < q_end for q_start, q_end in quotes):
                continue  # quoted words are someone's speech, not the user's statement
            body = _strip_lead(text)
            lead = text[: len(text) - len(body)]
            if zh and first_person_zh and _ZH_SUBJECTLESS.match(body):
                body = "我" + body  # "我叫王小明，是一名产品经理": the subject carries over
            first_person_zh = zh and bool(_ZH_ME.match(body))
            standing = _cue(_STANDING_EN, text, words, False) or bool(
                zh and _STANDING_ZH.search(text)
            )
            carried = standing_carry
            if standing and len(body) < 4 and not standing_carry:
                # "From now on, ..." / "以后，..." on its own governs the clauses that follow it.
                standing_carry, carry_start = True, c_start
            polite = False
            if (question and index == len(spans) - 1) or _is_question(body, zh):
                polite = bool(standing and _POLITE_REQUEST.search(text))
                if not polite:
                    continue
            if hypothetical or reported or not body:
                continue
            if _cue(_SESSION, text, words, zh):
                durability = "session"
            elif _cue(_TEMPORARY, text, words, zh):
                durability = "temporary"
            else:
                durability = "durable"
            yield _Clause(
                text=text,
                start=carry_start if carried else c_start,
                end=c_end,
                body=body,
                zh=zh,
                hedged=_cue(_HEDGE, text, words, zh),
                standing=standing or carried,
                framed=carried or _cue(_STANDING_FRAME, lead, words, zh),
                durability=durability,
                one_off=_cue(_ONE_OFF, text, words, zh) and durability != "session",
                past_or_negated=_cue(_PAST_OR_NEGATED, text, words, zh),
                polite_question=polite,
            )


# --------------------------------------------------------------------------------------------
# Value helpers
# --------------------------------------------------------------------------------------------

_SLUG_STOP = frozenset({"a", "an", "the", "some", "to"})
_SPACE_NEAR_CJK = re.compile(rf"(?<=[{_CJK_CLASS}])\s+|\s+(?=[{_CJK_CLASS}])")
_NON_WORD = re.compile(r"[\W_]+")
_ASCII_WORD = re.compile(r"[a-z0-9]+")
_LATIN_START = re.compile(r"[A-Za-z]")
_LETTER = re.compile(r"[^\W\d_]")
_LEADING_ARTICLE = _rx(r"(?:the|a|an|my)\s+")


def _slug(phrase: str) -> str:
    """``preference/<slug>``: lowercase ASCII words joined by ``_``; CJK text is kept as is."""
    phrase = phrase.strip()
    if _CJK.search(phrase):
        compact = _SPACE_NEAR_CJK.sub("", phrase.lower())
        return _NON_WORD.sub("_", compact).strip("_")[:_SLUG_CHARS].strip("_")
    lowered = phrase.lower().replace("c++", "cpp").replace("c#", "csharp").replace("f#", "fsharp")
    ascii_text = unicodedata.normalize("NFKD", lowered).encode("ascii", "ignore").decode()
    words = [w for w in _ASCII_WORD.findall(ascii_text) if w not in _SLUG_STOP]
    slug = ""
    for word in words:
        candidate = f"{slug}_{word}" if slug else word
        if len(candidate) > _SLUG_CHARS:
            break
        slug = candidate
    if not slug and not words:
        slug = _NON_WORD.sub("_", lowered).strip("_")[:_SLUG_CHARS].strip("_")
    return slug or (words[0][:_SLUG_CHARS] if words else "")


_OBJ_END_EN = _rx(
    r"\s*,?\s*\b(?:because|since|but|so\s+that|so|when|whenever|while|though|although|"
    r"as\s+long\s+as|unless|if|except|especially|particularly|which|who|whereas|rather\s+than|"
    r"instead\s+of|more\s+than|than|versus|vs\.?|and\s+(?:i|i'm|my|we|you)|not)\b"
    r"|\s+-\s|\s*[;:()\[\]\"!?]|\s*\.(?:\s|$)"
)
_OBJ_END_PREFER = _rx(r"\s+(?:over|to)\s+(?!\w+ing\b)")
_OBJ_TRAIL_EN = _rx(
    r"(?:\s+(?:a\s+lot|lots|so\s+much|very\s+much|too\s+much|too|as\s+well|also|though|really|"
    r"a\s+bunch|the\s+most|most|these\s+days|lately|nowadays|in\s+general|generally|anyway|"
    r"honestly|actually|now|right\s+now|currently|please|thanks|thank\s+you|ok|okay|btw|lol|"
    r"haha|anymore|in\s+particular|personally|a\s+ton|more|ever|again|at\s+all|either|"
    r"at\s+work|at\s+home|daily|every\s+day|for\s+work|forever|(?:last|this|next)\s+(?:year|"
    r"month|week|summer|winter|spring|fall)|for\s+(?:years|ages|a\s+long\s+time|a\s+while)))+"
    r"[\s.,!]*$"
)
_OBJ_REJECT_EN = _words(
    "it that this these those them him her you your yours what how when where why who which "
    "whatever everything anything nothing something everyone anyone someone one ones so too "
    "there here if not no"
)
# "I hate to say it", "I love the way you..." are idioms about the moment, not preferences.
_OBJ_IDIOM_EN = _rx(
    r"^(?:the\s+way|to\s+(?:say|admit|ask|bother|interrupt|break|tell|be\s+that|do\s+this|"
    r"complain|disappoint|hear|see\s+(?:you|that|it))\b)"
)
_OBJ_END_ZH = re.compile(
    r"因为|但是|不过|可是|所以|而且|并且|而不是|而非|胜过|多过|超过|的时候|[，,;；：:()（）]"
)
_OBJ_TRAIL_ZH = re.compile(r"[了的啦呀哦呢吧啊嘛哈呗么~\s!.。]+$")
_OBJ_REJECT_ZH = re.compile(r"^(?:这|那|它|你|他|她|什么|啥|哪|谁|自己)")


def _clean_object(
    raw: str, *, prefer: bool = False, max_words: int = 12, lenient: bool = False
) -> str | None:
    """Trim an object phrase to the thing itself, or ``None`` when it is not a concrete thing.

    ``lenient`` keeps a phrase led by "anything", "everything" or a demonstrative when it says
    what ("anything involving animal products"); ``max_words`` bounds the phrase.
    """
    if _CJK.search(raw[:2]) or (_CJK.search(raw) and not _LATIN_START.match(raw)):
        obj = _OBJ_END_ZH.split(raw, maxsplit=1)[0]
        obj = _OBJ_TRAIL_ZH.sub("", obj).strip()
        if not obj or len(obj) > 20 or _OBJ_REJECT_ZH.match(obj):
            return None
        return obj
    raw = _OBJ_TRAIL_ZH.sub("", raw) if _CJK.search(raw) else raw
    m = _OBJ_END_EN.search(raw, 1)
    obj = raw[: m.start()] if m else raw
    if prefer:
        m = _OBJ_END_PREFER.search(obj, 1)
        obj = obj[: m.start()] if m else obj
    obj = _OBJ_TRAIL_EN.sub("", obj).strip(" .,!'\"")
    words = obj.split()
    if not words or len(words) > max_words or not _LETTER.search(obj):
        return None
    vague = (
        lenient
        and len(words) >= 3
        and words[0].lower() in ("anything", "everything", "those", "these", "that", "this")
    )
    if (words[0].lower() in _OBJ_REJECT_EN and not vague) or _OBJ_IDIOM_EN.match(obj):
        return None
    return obj


def _tools_in(obj: str, *, first_only: bool = False) -> list[tuple[str, str]]:
    """Known tools named in an object phrase, as ``(facet key, canonical value)``."""
    found: list[tuple[str, str]] = []
    lead = len(obj) - len(obj.lstrip())
    lead += len(m.group()) if (m := _LEADING_ARTICLE.match(obj, lead)) else 0
    for m in _TOOL_RE.finditer(obj):
        surface = m.group()
        key = _surface_key(surface)
        if key in _AMBIGUOUS_TOOLS and not (surface[0].isupper() or m.start() == lead):
            continue
        hit = _TOOL_INDEX.get(key)
        if hit and hit not in found:
            found.append(hit)
        if first_only:
            break
    return found


def _channel_in(text: str) -> str | None:
    m = _CHANNEL_RE.search(text)
    return _CHANNEL_INDEX.get(_surface_key(m.group())) if m else None


_PROPER_CONNECTORS = _words("of and & de la del am upon on")
_ZH_PROPER = re.compile(rf"[{_CJK_CLASS}A-Za-z0-9·]{{1,12}}")
_TOKENS = re.compile(r"[^\s,]+|,")


def _proper_prefix(rest: str, *, allow_comma: bool = False) -> str | None:
    """The leading proper noun of ``rest`` ("Berlin", "Bank of America", "Portland, Oregon")."""
    rest = rest.strip()
    if _CJK.match(rest):
        m = _ZH_PROPER.match(rest)
        value = _OBJ_TRAIL_ZH.sub("", m.group()) if m else ""
        return value or None
    tokens = _TOKENS.findall(rest)
    out: list[str] = []
    for i, tok in enumerate(tokens):
        word = tok.strip(".!?;:'\"()")
        if tok == ",":
            if allow_comma and out and i + 1 < len(tokens) and tokens[i + 1][:1].isupper():
                out[-1] += ","
                continue
            break
        connector = word.lower() in _PROPER_CONNECTORS and bool(out)
        leading_the = i == 0 and word.lower() == "the"
        if connector or leading_the or word[:1].isupper() or (word[:1].isdigit() and out):
            out.append(word)
        else:
            break
        if tok != word:
            break
    while out and out[-1].lower() in _PROPER_CONNECTORS:
        out.pop()
    if out and out[0].lower() == "the" and len(out) == 1:
        return None
    if len(out) > 1 and out[0].lower() == "the":
        out.pop(0)  # "the University of Toronto" -> "University of Toronto"
    value = " ".join(out).rstrip(",")
    return value or None


_NAME_RE = _rx(
    r"(?P<title>(?:dr|mr|mrs|ms|mx|prof)\.?\s+)?"
    r"(?P<name>[^\W\d_][\w'\-]*(?:\s+[^\W\d_][\w'\-]*){0,2})"
)
_NAME_TAIL_OK = _rx(
    r"\s*(?:$|[,.!;:(]|(?:please|instead|from\s+now\s+on|going\s+forward|thanks|and|but|btw|"
    r"for\s+short)\b)"
)
_ZH_NAME_TAIL_OK = re.compile(r"\s*(?:就好|就行|就可以|吧|哦|呀|即可|$)")
_ZH_NAME = re.compile(rf"[{_CJK_CLASS}]{{1,4}}")
_NAME_WORD = re.compile(r"[^\W\d_][\w'\-]*")


def _name_value(rest: str, *, strict: bool, whole: bool = False) -> str | None:
    """A personal name at the start of ``rest``.

    ``strict`` requires a capital letter (after "I'm", "I go by"); ``whole`` requires the name
    to end the clause, so "call me back later" is not a name.
    """
    rest = rest.strip()
    if _CJK.match(rest):
        m = _ZH_NAME.match(rest)
        if not m or len(m.group()) < 2 or m.group()[-1] in "了的吗呢吧啊呀" or m.group() == "外卖":
            return None  # one character is a pronoun or a slip ("叫我我"), not a name
        return m.group() if _ZH_NAME_TAIL_OK.fullmatch(rest[m.end() :]) else None
    m = _NAME_RE.match(rest)
    if not m:
        return None
    words = list(_NAME_WORD.finditer(m.group("name")))
    first = words[0].group()
    if first.lower() in _NOT_NAMES or (
        not m.group("title") and first.lower().endswith(("ing", "ed"))
    ):
        return None
    if strict and not first[0].isupper():
        return None
    end = words[0].end()
    for word in words[1:]:
        if not word.group()[0].isupper() or word.group().lower() in _NOT_NAMES:
            break
        end = word.end()
    if whole and not _NAME_TAIL_OK.match(rest[m.start("name") + end :]):
        return None
    name = m.group("name")[:end]
    name = name.title() if name.islower() else name
    title = m.group("title")
    return f"{title.strip()} {name}" if title else name


def _timezone_value(rest: str, *, loose: bool) -> str | None:
    rest = rest.strip()
    zm = _ZH_TZ_RE.match(rest)
    if zm:
        if zm.group("zero"):
            return "UTC"
        if zm.group("bj"):
            return "UTC+8"
        sign = "+" if zm.group("dir") == "东" else "-"
        return f"UTC{sign}{_ZH_NUMERALS[zm.group('num')]}"
    m = _TZ_RE.match(rest)
    if not m:
        return None
    if m.group("offset"):
        offset = _SPACES.sub("", m.group("offset")).replace("\u2212", "-")
        return "UTC" + offset[3:]
    if m.group("iana"):
        return m.group("iana")
    if m.group("named"):
        return _TZ_NAMED[_SPACES.sub(" ", m.group("named").lower())]
    abbr = m.group("abbr")
    if abbr.isupper() and abbr in _TZ_ABBREVIATIONS and len(abbr) > 2:
        return abbr  # two letters only after "my timezone is": "I'm in CT" is Connecticut
    if loose and abbr.upper() in _TZ_ABBREVIATIONS:
        return abbr.upper()
    return None


_ROLE_RE = _rx(
    r"(?P<role>(?:[a-z][\w\-/]*\s+){0,3}?(?:" + _alt(_ROLE_HEADS) + r"))s?\b(?P<tail>.*)$"
)
_ROLE_TAIL_ORG = _rx(r"^\s*(?:at|for|with)\s+(?P<org>.+)$")
_ROLE_TAIL_PLACE = _rx(r"\b(?:based|living|located)\s+in\s+(?P<place>.+)$|^\s*in\s+(?P<city>.+)$")
_ROLE_ANY_END = _rx(
    r"\s+(?:at|for|with|in|on|and|but|since|because|based|where|who)\b|\s*[,;(]|\s*$"
)
_ROLE_NOT = _words("fan lover bit little lot huge big")


def _role_values(rest: str, *, vocab: bool) -> list[tuple[str, str]]:
    """``identity/role`` (+ employer / location from an "at X" / "based in Y" tail)."""
    rest = rest.strip()
    out: list[tuple[str, str]] = []
    if vocab:
        m = _ROLE_RE.match(rest)
        if not m or any(w.lower() in _ROLE_NOT for w in m.group("role").split()):
            return []
        role, tail = m.group("role"), m.group("tail")
    else:
        end = _ROLE_ANY_END.search(rest, 1)
        role, tail = (rest[: end.start()], rest[end.start() :]) if end else (rest, "")
        if not role or len(role.split()) > 5 or role.split()[0].lower() in _OBJ_REJECT_EN:
            return []
    out.append(("identity/role", role.strip().lower()))
    org = _ROLE_TAIL_ORG.match(tail)
    if org and "student" not in role.lower():
        value = _proper_prefix(org.group("org"))
        if value:
            out.append(("identity/employer", value))
    place = _ROLE_TAIL_PLACE.search(tail)
    if place:
        value = _proper_prefix(place.group("place") or place.group("city"), allow_comma=True)
        if value and not _timezone_value(value, loose=False):
            out.append(("identity/location", value))
    return out


_ZH_ROLE_RE = re.compile(
    r"(?P<role>[" + _CJK_CLASS + r"A-Za-z ]{0,8}?(?:" + _alt(_ROLE_HEADS_ZH) + r"|CEO|CTO))"
    r"(?:[的了。!]*$|[，,])"
)
_ZH_WHERE_RE = re.compile(
    r"(?P<x>[" + _CJK_CLASS + r"A-Za-z0-9&·.\- ]{1,20}?)(?P<verb>工作|上班|任职|实习|生活|定居|"
    r"读书|上学)"
)
_ZH_INDEFINITE = re.compile(r"^(?:一家|一个)")


def _zh_role(rest: str) -> list[tuple[str, str]]:
    m = _ZH_ROLE_RE.match(rest.strip())
    return [("identity/role", m.group("role").strip())] if m else []


def _zh_place_or_org(rest: str) -> list[tuple[str, str]]:
    """ "我在X工作": X is a location when it looks like a place, else the employer."""
    m = _ZH_WHERE_RE.match(rest.strip())
    if not m:
        return []
    x = m.group("x").strip()
    if not x or x in _ZH_NOT_PLACE or _ZH_INDEFINITE.match(x):
        return []  # "我在家工作" (at home), "我在一家公司工作" (some company)
    is_place = (
        x in _ZH_PLACES
        or bool(_ZH_PLACE_SUFFIX.search(x))
        or any(x.startswith(p) for p in _ZH_PLACES)
    )
    if is_place:
        return [("identity/location", x)]
    if m.group("verb") in {"工作", "上班", "任职", "实习"}:
        return [("identity/employer", x)]
    return []


_PRONOUNS_RE = _rx(
    r"(?:she|he|they|xe|ze|ey|it)\s*/\s*(?:her|him|them|hers|his|theirs|xem|xir|zir|hir|em|its)"
    r"(?:\s*/\s*[a-z]+)?|她|他|ta"
)
_SPACES = re.compile(r"\s+")


def _pronouns_value(rest: str) -> str | None:
    m = _PRONOUNS_RE.match(rest.strip())
    return _SPACES.sub("", m.group()).lower() if m else None


# --------------------------------------------------------------------------------------------
# Matchers. Each takes a clause and returns hits; tables drive them.
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Hit:
    key: str
    value: str | None
    confidence: float = _CONF_EXPLICIT


_Extractor = Callable[[str], list[tuple[str, str]]]


def _one(key: str, fn: Callable[[str], str | None]) -> _Extractor:
    def extract(rest: str) -> list[tuple[str, str]]:
        value = fn(rest)
        return [(key, value)] if value else []

    return extract


_BARE_NAME_RE = _rx(
    r"\s*(?P<name>[^\W\d_][\w'\-]*(?:\s+[^\W\d_][\w'\-]*)?)\s*(?P<tail>$|[,(].*$|\s+(?:and|"
    r"from|here|btw|by\s+the\s+way|nice\s+to)\b.*$)"
)
_APPOSITIVE_ROLE = _rx(r"\s*,\s*(?:an?|the)\s+(?P<rest>.+)$")


def _name_then_role(rest: str) -> list[tuple[str, str]]:
    """ "I'm Sam" (followed by nothing, a comma, "and"...), optionally "Sam, a data engineer"."""
    m = _BARE_NAME_RE.match(rest)
    if not m:
        return []
    name = _name_value(m.group("name"), strict=True)
    if not name or " ".join(name.split()) != " ".join(m.group("name").split()):
        return []
    out = [("identity/name", name)]
    appositive = _APPOSITIVE_ROLE.match(m.group("tail"))
    if appositive:
        out.extend(_role_values(appositive.group("rest"), vocab=True))
    return out


# Identity: (frame regex ending where the value starts, value extractor). Order matters: the
# first extractor that yields a value for a key wins within a clause.
_IDENTITY: tuple[tuple[re.Pattern[str], _Extractor], ...] = (
    (_rx(r"^my\s+(?:first\s+|full\s+|real\s+)?name(?:'s|\s+is)\s+"),
     _one("identity/name", lambda r: _name_value(r, strict=False))),
    (_rx(r"^(?:i'?m|i\s+am)\s+(?:called|named)\s+"),
     _one("identity/name", lambda r: _name_value(r, strict=False))),
    (_rx(r"^i\s+go\s+by\s+(?!(?:she|he|they|xe|ze)\s*/)"),
     _one("identity/name", lambda r: _name_value(r, strict=True, whole=True))),
    (_rx(r"^(?:you\s+(?:can|may|should|could)\s+)?(?:please\s+)?(?:just\s+)?(?:call|address)\s+"
         r"me(?:\s+as)?\s+"),
     _one("identity/name", lambda r: _name_value(r, strict=False, whole=True))),
    (_rx(r"^my\s+time\s*zone\s+is\s+"),
     _one("identity/timezone", lambda r: _timezone_value(r, loose=True))),
    (_rx(r"^" + _I_BE + r"(?:in|on|using|based\s+in)\s+(?:the\s+)?"),
     _one("identity/timezone", lambda r: _timezone_value(r, loose=False))),
    (_rx(r"^my\s+(?:local\s+)?time\s+is\s+"),
     _one("identity/timezone", lambda r: _timezone_value(r, loose=False))),
    (_rx(r"^my\s+(?:preferred\s+)?pronouns\s+are\s+"), _one("identity/pronouns", _pronouns_value)),
    (_rx(r"^i\s+(?:use|go\s+by)\s+(?=(?:she|he|they|xe|ze|ey|it)\s*/)"),
     _one("identity/pronouns", _pronouns_value)),
    (_rx(r"^" + _I_SUBJ + r"(?:work|am\s+working|'m\s+working)\s+as\s+(?:an?\s+|the\s+)?"),
     lambda r: _role_values(r, vocab=False)),
    (_rx(r"^my\s+(?:current\s+)?(?:job|role|position|job\s+title|title|occupation|profession|"
         r"day\s+job)\s+is\s+(?:an?\s+|the\s+)?"),
     lambda r: _role_values(r, vocab=False)),
    (_rx(r"^(?:" + _I_BE + r"|i(?:'ve|\s+have)\s+been\s+|as\s+)(?:an?|the)\s+"),
     lambda r: _role_values(r, vocab=True)),
    (_rx(r"^(?:" + _I_SUBJ + r"(?:work|am\s+working|'m\s+working)|i(?:'ve|\s+have)\s+been\s+"
         r"working)\s+(?:remotely\s+|full[\s\-]time\s+|"
         r"part[\s\-]time\s+)?(?:at|for)\s+"),
     _one("identity/employer", _proper_prefix)),
    (_rx(r"^" + _I_BE + r"employed\s+(?:at|by)\s+"), _one("identity/employer", _proper_prefix)),
    (_rx(r"^my\s+(?:company|employer)\s+is\s+"), _one("identity/employer", _proper_prefix)),
    (_rx(r"^(?:" + _I_SUBJ + r"(?:live|reside)|i(?:'ve|\s+have)\s+" + _ADV + r"(?:lived|been\s+"
         r"living)|" + _I_BE + r"(?:living|residing))\s+in\s+(?=\S)"),
     _one("identity/location", lambda r: _proper_prefix(r, allow_comma=True))),
    (_rx(r"^" + _I_BE + r"(?:based|located|living|settled)\s+(?:in|out\s+of)\s+"),
     _one("identity/location", lambda r: _proper_prefix(r, allow_comma=True))),
    (_rx(r"^i(?:'ve|\s+have)?\s+" + _ADV + r"(?:moved|relocated)\s+to\s+"),
     _one("identity/location", lambda r: _proper_prefix(r, allow_comma=True))),
    (_rx(r"^my\s+home\s+is\s+in\s+"),
     _one("identity/location", lambda r: _proper_prefix(r, allow_comma=True))),
    (_rx(r"^(?:i'?m|i\s+am)\s+(?=[^\W\d_])"), _name_then_role),
    # Chinese
    (_rx(r"^我(?:的)?(?:名字|姓名|英文名(?:字)?|中文名(?:字)?)(?:是|叫)\s*"),
     _one("identity/name", lambda r: _name_value(r, strict=False))),
    (_rx(r"^我叫(?!了)\s*"), _one("identity/name", lambda r: _name_value(r, strict=False))),
    (_rx(r"^(?:你|您)?(?:可以|就|以后|请)?(?:叫|称呼)我(?:为)?\s*"),
     _one("identity/name", lambda r: _name_value(r, strict=False))),
    (_rx(r"^我是\s*(?=[A-Z])", 0), _name_then_role),
    (_rx(r"^我(?:的)?时区是\s*"),
     _one("identity/timezone", lambda r: _timezone_value(r, loose=True))),
    (_rx(r"^我(?:这边|这里)?(?:在|是|用|处于)\s*(?=东|西|零时区|北京时间|utc|gmt)"),
     _one("identity/timezone", lambda r: _timezone_value(r, loose=True))),
    (_rx(r"^我(?:的)?(?:人称)?代词是\s*"), _one("identity/pronouns", _pronouns_value)),
    (_rx(r"^" + _ME_ZH + r"是(?:一名|一个|一位|个|名)?\s*"), _zh_role),
    (_rx(r"^我(?:的)?(?:工作|职业|职位)是\s*"), _zh_role),
    (_rx(r"^" + _ME_ZH + r"在\s*"), _zh_place_or_org),
    (_rx(r"^" + _ME_ZH + r"(?:住在|住|生活在|居住在|定居在|定居于|定居|现居|常住|搬到了?|搬去了?|"
         r"移居到?)\s*"),
     _one("identity/location", lambda r: _proper_prefix(r))),
    (_rx(r"^我(?:的)?(?:公司|单位|雇主)是\s*"), _one("identity/employer", _proper_prefix)),
)  # fmt: skip


def _match_identity(c: _Clause) -> list[_Hit]:
    if c.past_or_negated:
        return []
    hits: dict[str, _Hit] = {}
    for frame, extract in _IDENTITY:
        m = frame.match(c.body)
        if not m:
            continue
        for key, value in extract(c.body[m.end() :]):
            if key not in hits:
                conf = _CONF_WEAK if extract is _name_then_role else _CONF_EXPLICIT
                hits[key] = _Hit(key, value, conf)
    return list(hits.values())


# (frame, client): client frames name the device the user talks to the assistant from.
_CHANNEL_FRAMES: tuple[tuple[re.Pattern[str], bool], ...] = (
    (_rx(r"^(?:you\s+can\s+|please\s+|feel\s+free\s+to\s+|best\s+to\s+|always\s+|just\s+)*"
        r"(?:reach|contact|ping|message|dm|text|email|e-mail|call|find|notify|page|hit)\s+me\s+"
        r"(?:up\s+)?(?:on|via|through|over|by|at|in|using)\s+"), False),
    (_rx(r"^(?:the\s+)?best\s+way\s+to\s+(?:reach|contact|get\s+(?:a\s+)?hold\s+of)\s+me\s+is\s+"
        r"(?:via\s+|on\s+|by\s+|through\s+|over\s+)?"), False),
    (_rx(r"^(?:" + _I_SUBJ + r"|" + _I_BE + r")(?:use|using|chat\s+(?:with\s+you\s+)?(?:from|on|"
        r"via|through)|talk\s+to\s+you\s+(?:from|on|via)|access\s+you\s+(?:from|on|via|through)|"
        r"use\s+you\s+(?:from|on|via|through))\s+(?:the\s+|my\s+|your\s+)?(?=(?:desktop|mobile|phone|web|browser|ios|android|"
        r"iphone|ipad|laptop|computer)(?:\s+(?:app|application|client|version))?\b)"), True),
    (_rx(r"^" + _I_BE + r"(?:usually\s+|mostly\s+)?on\s+(?:my\s+)?(?=(?:phone|mobile|desktop|"
        r"laptop|computer)\b)"), True),
    (_rx(r"^" + _I_SUBJ + r"prefer\s+(?:to\s+be\s+contacted\s+|being\s+contacted\s+|contact\s+|"
        r"communication\s+|messages\s+)?(?:via|on|by|through|over)\s+"), False),
    (_rx(r"^(?:有事)?(?:请|可以|就|麻烦|最好)?(?:用|通过|在|走)\s*(?=\S{1,8}?\s*(?:上)?(?:联系|找|"
        r"通知|告诉|发消息给|发给|留言给|私信)我)"), False),
    (_rx(r"^(?:有事)?(?:请|可以|就)?(?:发|打)(?=(?:邮件|短信|电话|微信)"
         r"(?:给|联系|通知)我)"), False),
    (_rx(r"^" + _ME_ZH + r"(?:用|在|使用)\s*(?=(?:手机|电脑|桌面端|桌面版|客户端|网页版|"
        r"网页端|浏览器|移动端|手机端|手机版|电脑端)\s*(?:上)?"
        r"(?:跟你|和你|聊天|用你|找你|使用|$))"), True),
)  # fmt: skip
_CLIENT_OF = {"phone": "mobile-app", "sms": "mobile-app"}


def _match_channel(c: _Clause) -> list[_Hit]:
    for frame, client in _CHANNEL_FRAMES:
        m = frame.match(c.body)
        if m:
            value = _channel_in(c.body[m.end() : m.end() + 40])
            value = _CLIENT_OF.get(value, value) if client and value else value
            if value:
                return [_Hit("channel/preference", value)]
    return []


@dataclass(frozen=True, slots=True)
class _Style:
    """One style concept: affirmed gives ``pos``, negated gives ``neg``.

    ``directive_only`` terms are too generic outside an instruction ("short" in "I like short
    stories"). ``veto`` names the veto slug used when a directive negates a term that has no
    opposite value ("no tables").
    """

    pattern: re.Pattern[str]
    key: str
    pos: str | None
    neg: str | None
    directive_only: bool = False
    veto: str | None = None


_ANSWERS = r"(?:answers?|responses?|replies|reply|explanations?|messages?|outputs?|summaries|text)"
_ANSWERS_ZH = r"(?:回答|回复|答案|解释|说明|输出|风格|表达|内容)"
_STYLES: tuple[_Style, ...] = (
    _Style(_rx(r"\bnested\s+(?:bullets?|bullet\s+points|lists)\b|嵌套(?:列表|要点)"),
           "style/format", None, None, veto="nested_bullets"),
    _Style(_rx(r"\b(?:brief|briefer|concise|terse|succinct|short|shorter|compact|tight|crisp)\s+"
               + _ANSWERS + r"\b"),
           "style/verbosity", "terse", "detailed"),
    _Style(_rx(r"\bbe\s+(?:more\s+|very\s+|extremely\s+|super\s+)?(?:brief|concise|terse|"
               r"succinct|short|laconic)\b|\b(?:keep|kept|keeping)\s+(?:it|things|them|everything|"
               r"(?:your\s+|the\s+)?(?:answers|responses|replies|explanations))\s+(?:short|brief|concise|tight|"
               r"succinct|to\s+the\s+point)\b|\b(?:brevity|briefly|concisely)\b|\bfewer\s+words\b|"
               r"\bless\s+(?:verbose|wordy|text)\b"),
           "style/verbosity", "terse", "detailed", directive_only=True),
    _Style(_rx(r"\b(?:long|longer|lengthy|detailed|thorough|in-depth|comprehensive|verbose|wordy|"
               r"long-winded|rambling|elaborate)\s+" + _ANSWERS + r"\b"),
           "style/verbosity", "detailed", "terse"),
    _Style(_rx(r"\bbe\s+(?:more\s+|very\s+)?(?:detailed|thorough|comprehensive|verbose|wordy|"
               r"long-winded|elaborate)\b|\bin\s+(?:more\s+|great\s+|full\s+)?detail\b|"
               r"\bgo\s+(?:into|in)\s+(?:more\s+)?(?:depth|detail)\b|\b(?:ramble|verbose|wordy|"
               r"long-winded)\b"),
           "style/verbosity", "detailed", "terse", directive_only=True),
    _Style(_rx(r"(?:简短|简洁|简明|精简|简练)(?:一点|一些|些|的)?" + _ANSWERS_ZH + "|"
               + _ANSWERS_ZH + r"(?:要|尽量|请|都)*(?:简短|简洁|简明|精简|简练)"),
           "style/verbosity", "terse", "detailed"),
    _Style(_rx(r"简短|简洁|简明|精简|简练|短一点|短一些|言简意赅|长话短说"),
           "style/verbosity", "terse", "detailed", directive_only=True),
    _Style(_rx(r"(?:详细|具体|深入)(?:一点|一些|些|的)?" + _ANSWERS_ZH + "|" + _ANSWERS_ZH
               + r"(?:要|尽量|请|都)*(?:详细|具体|深入)|(?:冗长|啰嗦)的?" + _ANSWERS_ZH),
           "style/verbosity", "detailed", "terse"),
    _Style(_rx(r"详细|具体一点|具体些|展开(?:讲|说)|啰嗦|冗长|长篇大论|废话"),
           "style/verbosity", "detailed", "terse", directive_only=True),
    _Style(_rx(r"\bbullet(?:ed)?[\s\-]*(?:points?|lists?)\b|\bbullets\b|\bbulleted\b|"
               r"\bin\s+points\b|要点|分点|列表|条目|列点|项目符号"),
           "style/format", "bullets", "prose"),
    _Style(_rx(r"\btables?\b|\btabular\b|表格"), "style/format", "tables", None, veto="tables"),
    _Style(_rx(r"\bprose\b|\bin\s+(?:full\s+|complete\s+)?(?:paragraphs|sentences)\b|"
               r"\bfull\s+sentences\b|成段|段落"),
           "style/format", "prose", "bullets"),
    _Style(_rx(r"\bcode[\s\-]+first\b|\b(?:lead|start|begin|open)\s+with\s+(?:the\s+)?code\b|"
               r"\b(?:show|give)\s+(?:me\s+)?(?:the\s+)?code\s+first\b|\bcode\s+before\s+"
               r"(?:the\s+)?(?:explanation|prose|text)\b|先(?:给|上|贴|写|展示|放)?代码|代码优先"),
           "style/format", "code_first", None),
    _Style(_rx(r"\b(?:answer|respond|reply|write|talk|speak|communicate|chat|converse|answers|"
               r"responses|replies|everything)\s+(?:to\s+me\s+|back\s+)?(?:only\s+|always\s+|"
               r"exclusively\s+|strictly\s+)?in\s+(?P<lang>" + _LANG_EN + r")\b|\b(?P<lang2>"
               + _LANG_EN + r")\s+(?:answers|responses|replies)\b"),
           "style/language", "*", None),
    _Style(_rx(r"\b(?:use|speak)\s+(?P<lang>" + _LANG_EN + r")\b|^in\s+(?P<lang2>" + _LANG_EN
               + r")\b"),
           "style/language", "*", None, directive_only=True),
    _Style(_rx(r"(?:用|使用|说|讲)(?P<lang>" + _LANG_ZH + r")|(?:回答|回复|交流)(?:请|都|尽量|必须|"
               r"一律)*(?:用|使用|是)(?P<lang2>" + _LANG_ZH + r")"),
           "style/language", "*", None, directive_only=True),
    _Style(_rx(r"\b(?:preambles?|intros?|introductions?|pleasantries|small\s+talk|fluff|filler|"
               r"niceties|throat[\s\-]clearing)\b|开场白|客套(?:话)?|寒暄|铺垫|前言|引言"),
           "style/preamble", None, "skip"),
    _Style(_rx(r"\b(?:get|go|cut|jump|skip)\s+(?:straight\s+|right\s+|directly\s+)?to\s+the\s+"
               r"(?:point|chase|answer)\b|\bstraight\s+to\s+the\s+point\b|\banswer\s+(?:directly|"
               r"straight\s+away|right\s+away)\b|\bjust\s+(?:give\s+me\s+)?the\s+answer\b|"
               r"\bdirect\s+answers\b|直接(?:给|说|回答|讲|上|给出)|开门见山|直奔主题|直入主题"),
           "style/preamble", "skip", None),
    _Style(_rx(r"\bemojis?\b|\bemoticons?\b|\bsmileys?\b|表情符号|表情包|表情|颜文字|emoji"),
           "style/emoji", "use", "skip"),
)  # fmt: skip


def _negated(text: str, at: int) -> bool:
    """Is the term at ``at`` under a negator in its own comma-delimited stretch?"""
    window = text[:at]
    bounds = list(_POLARITY_BOUNDARY.finditer(window))
    if bounds:
        window = window[bounds[-1].end() :]
    return bool(_NEGATOR_EN.search(window) or _NEGATOR_ZH.search(window))


def _style_hits(text: str, *, directive: bool, flip: bool, conf: float) -> list[_Hit]:
    """Style facets named in ``text``; ``flip`` inverts polarity (dislike verbs)."""
    hits: dict[str, _Hit] = {}
    for style in _STYLES:
        if style.directive_only and not directive:
            continue
        m = style.pattern.search(text)
        if not m:
            continue
        negative = _negated(text, m.start()) != flip
        if style.pos == "*":
            if negative:
                continue
            lang = m.group("lang") or m.group("lang2")
            value: str | None = _LANGUAGES_EN.get(lang.lower()) or _LANGUAGES_ZH.get(lang)
        else:
            value = style.neg if negative else style.pos
        if value is None:
            if negative and style.veto and directive:
                key = f"veto/{style.veto}"
                hits.setdefault(key, _Hit(key, "banned", conf))
            continue
        hits.setdefault(style.key, _Hit(style.key, value, conf))
    return list(hits.values())


_DIRECTIVE_EN = _rx(
    r"(?:(?:please|pls|plz|kindly|just|also|and|now|so)\s+)*"
    r"(?:(?:i\s+(?:want|need|expect|ask|require)\s+(?:you\s+to|that\s+you)|"
    r"i(?:'?d|\s+would)\s+(?:like|prefer|love)\s+(?:you\s+to|that\s+you|it\s+if\s+you)|"
    r"i(?:'?d|\s+would)\s+(?:appreciate|prefer|like|love)\s+it\s+"
    r"if\s+you(?:\s+(?:could|would|can))?|it\s+would\s+be\s+(?:great|nice|helpful|better)\s+if\s+"
    r"you(?:\s+(?:could|would|can))?|you\s+(?:should|must|need\s+to|have\s+to|can|could|will|'ll|"
    r"ought\s+to|are\s+to|may)|(?:can|could|would|will)\s+you|make\s+sure\s+(?:to|you|that\s+you)|"
    r"remember\s+to|try\s+to|be\s+sure\s+to)\s+)?"
    r"(?:(?:please|pls|kindly|just|always|never|only|also|consistently|ever)\s+)*"
    r"(?P<verb>[a-z']+)"
)
_DIRECTIVE_VERBS = _words(
    "answer reply respond write use be keep give show explain format include add put start "
    "begin end finish lead open stop skip avoid call address refer speak talk communicate "
    "cite mention ask tell list summarize summarise provide send check make remind remember "
    "assume treat default stick limit go get drop cut omit structure organize organise "
    "number sign stay try consider confirm focus prefer suggest recommend offer propose "
    "return output print spell translate reference link quote highlight bold wrap split "
    "break sort label greet say switch don't dont do no never quit double-check write use "
    "respond less more only"
)
_NOT_VERBS = _words(
    "i i'm im i've i'd i'll my me we we're our us you you're your he she they it it's its "
    "this that these those there here the a an what which who where when why how is are "
    "was were am been has have had"
)
# Style directives without a standing marker must use a "meta" verb: "explain X in detail" is
# a task about X, "be detailed" / "answer in detail" is about every answer.
_META_VERBS = _words(
    "be keep answer reply respond use format structure stick default switch talk speak "
    "communicate write stop skip avoid don't dont do no never less more get go cut drop omit "
    "limit prefer lead start begin open give only please kept used wrote gave answered "
    "replied responded stopped skipped avoided spoke"
)
_DIRECTIVE_ZH = re.compile(
    r"^(?:以后|今后|往后|之后|接下来|从现在(?:开始|起)?|从今(?:天|以后)?(?:开始|起)?|每次|总是|始终|"
    r"一律|永远|默认|一直|务必|一定要|记得|记住|请|麻烦(?:你)?|我?(?:希望|想要|想让|要|需要|要求)你|"
    r"你(?=以后|今后|要|应该|得|必须|可以|能|就|请|一定|务必|别|不要|尽量|回答|回复|说话|用)|回答|回复|"
    r"说话|输出|尽量|不要|别(?!人|的)|不用|不必|禁止|不许|不准|千万|用|直接|多|少|你?能不能|你?可不可以|"
    r"你?能否|你?可以|麻烦)"
)
_DIRECTIVE_ZH_ANYWHERE = re.compile(r"请|尽量|务必|不要|别(?!人|的)|禁止|一律")


_ZH_THIRD_PARTY = re.compile(r"[我他她它]|别人")


def _directive(c: _Clause) -> tuple[bool, str]:
    """Is the clause an instruction to the assistant? Also returns its main verb (EN)."""
    if c.zh:
        third_party = _ZH_THIRD_PARTY.match(c.body)
        return bool(
            _DIRECTIVE_ZH.match(c.body)
            or _DIRECTIVE_ZH_ANYWHERE.search(c.body)
            or (c.framed and not third_party)
        ), ""
    m = _DIRECTIVE_EN.match(c.body)
    if not m:
        return False, ""
    verb = m.group("verb").lower()
    prefixed = m.start("verb") > 0
    if verb in _DIRECTIVE_VERBS or (prefixed and verb not in _NOT_VERBS):
        return True, verb
    return False, verb


_PREF_EN: tuple[tuple[re.Pattern[str], str], ...] = (
    (_rx(r"^" + _I_SUBJ + r"(?:hate|dislike|detest|loathe|despise|abhor|can'?t\s+stand|cannot\s+"
         r"stand|can\s+not\s+stand|can'?t\s+bear|cannot\s+bear|don'?t\s+(?:really\s+)?(?:like|"
         r"enjoy|care\s+for|love)|do\s+not\s+(?:really\s+)?(?:like|enjoy|care\s+for|love))\s+"),
     "dislike"),
    (_rx(r"^" + _I_BE + r"(?:not\s+(?:a\s+)?(?:big\s+|huge\s+)?fan\s+of|not\s+into|not\s+keen\s+on|"
         r"not\s+fond\s+of|sick\s+of|tired\s+of|fed\s+up\s+with)\s+"),
     "dislike"),
    (_rx(r"^" + _I_SUBJ + r"(?:avoid|don'?t\s+eat|do\s+not\s+eat|don'?t\s+drink|do\s+not\s+drink|"
         r"never\s+eat|never\s+drink|can'?t\s+eat|cannot\s+eat|can'?t\s+have|cannot\s+have|"
         r"stay\s+away\s+from|steer\s+clear\s+of|(?:have\s+|'ve\s+)?given\s+up|gave\s+up|"
         r"(?:have\s+|'ve\s+)?cut\s+out|quit)\s+(?!(?:my|our|his|her|their)\b)"),
     "avoid"),
    (_rx(r"^" + _I_BE + r"(?:allergic\s+to|intolerant\s+(?:to|of)|sensitive\s+to)\s+"), "avoid"),
    (_rx(r"^i(?:'?d|\s+would)\s+(?:much\s+)?rather\s+(?:not\s+(?:have|eat|drink|use|do|go\s+to)|"
         r"avoid|not)\s+"), "avoid"),
    (_rx(r"^i(?:'?d|\s+would)\s+(?:much\s+)?rather\s+(?:have|eat|drink|use|go\s+with)\s+"), "like"),
    (_rx(r"^i\s+have\s+an?\s+(?:\w+\s+)?(?:allergy|intolerance)\s+to\s+"), "avoid"),
    (_rx(r"^i(?:'ve|\s+have)\s+" + _ADV + r"(?:hated|disliked|never\s+liked|never\s+been\s+a\s+"
         r"fan\s+of)\s+"),
     "dislike"),
    (_rx(r"^i(?:'ve|\s+have)\s+" + _ADV + r"(?:loved|enjoyed|liked|adored|been\s+" + _ADV
         + r"(?:into|loving|enjoying|obsessed\s+with|(?:a\s+)?(?:big\s+|huge\s+)?fan\s+of|"
         r"passionate\s+about))\s+"),
     "like"),
    (_rx(r"^" + _I_SUBJ + r"(?:love|like|enjoy|adore|prefer|fancy|dig|appreciate|treasure|"
         r"cherish)\s+"),
     "like"),
    (_rx(r"^" + _I_BE + r"(?:a\s+)?(?:big\s+|huge\s+|massive\s+|great\s+)?(?:fan\s+of|lover\s+of|"
         r"into|passionate\s+about|crazy\s+about|obsessed\s+with|keen\s+on|fond\s+of|"
         r"partial\s+to)\s+"),
     "like"),
    (_rx(r"^my\s+(?:all[\s\-]time\s+)?(?:favou?rite|fave|preferred)\s+(?:[\w\-]+\s+){1,3}?"
         r"(?:is|are)\s+"),
     "like"),
)  # fmt: skip
_PREF_STYLE_ONLY_EN = _rx(
    r"^(?:i(?:'?d|\s+would)\s+(?:like|prefer|love|appreciate)|" + _I_SUBJ + r"(?:want|need|"
    r"expect|appreciate))\s+"
)
_DIET_EN = _rx(
    r"^(?:" + _I_BE + r"|as\s+)(?:an?\s+|strictly\s+|fully\s+)?(?P<diet>" + _alt(_DIETS_EN) + r")\b"
)
_PREF_ZH: tuple[tuple[re.Pattern[str], str], ...] = (
    (_rx(r"^我(?:最)?喜欢的[^，,是]{1,6}是\s*"), "like"),
    (_rx(r"^" + _ME_ZH + r"(?:不(?:太|怎么|是很|大)?喜欢|不爱|讨厌|厌恶|受不了|忍受不了|"
         r"反感|不感冒|最烦|烦|不习惯)(?:吃|喝|看|听|玩)?\s*"),
     "dislike"),
    (_rx(r"^" + _ME_ZH + r"(?:不吃|不喝|不碰|不能吃|不能喝|吃不了|喝不了|忌口|戒了|戒掉了|"
         r"在戒|不沾)\s*"),
     "avoid"),
    (_rx(r"^" + _ME_ZH + r"(?:更喜欢|最喜欢|喜欢|热爱|喜爱|偏爱|钟爱|偏好|爱|迷上了?|着迷于|"
         r"痴迷于?)(?:吃|喝|看|听|玩)?\s*"),
     "like"),
)  # fmt: skip
# Frames where the object comes before the keyword: "I have a peanut allergy", "我对花生过敏".
_PREF_OBJECT_FIRST: tuple[tuple[re.Pattern[str], str], ...] = (
    (_rx(r"^i\s+have\s+an?\s+(?:(?:severe|mild|bad|serious|slight|real)\s+)?"
         r"(?P<obj>[\w\-]+(?:\s+(?:and\s+|or\s+)?[\w\-]+){0,3})\s+(?:allergy|allergies|"
         r"intolerance)\b"), "avoid"),
    (_rx(r"^" + _ME_ZH + r"对(?P<obj>[^，,]{1,12}?)(?:过敏|不耐受)"), "avoid"),
)  # fmt: skip
# Long-form preferences as people write them when the point matters: "I have a strong aversion
# to X", "I refuse to X", "I prefer not to X", "I only wear X", "I follow a strict X diet",
# "I find X boring", "I'm not interested in X". General verbs and nouns of stance, no topic
# vocabulary; the object may be a longer phrase, cut at its reason ("due to", ", as I...").
_CONSUME_VERBS = (
    r"(?:use|eat|drink|consume|wear|buy|purchase|shop(?:\s+at|\s+for)?|watch|read|"
    r"listen\s+to|play|attend|visit|go\s+(?:to|on|near)|fly(?:\s+with)?|drive|ride|take|book|"
    r"stay\s+(?:at|in)|travel(?:\s+by|\s+on|\s+with|\s+to)?|participate\s+in|engage\s+(?:in|with)|"
    r"support|touch|own|smoke|tolerate|handle|trust|dine(?:\s+at|\s+in)?|consider|rent|"
    r"hire|choose|join|follow|install|cook(?:\s+with)?|work\s+(?:with|for)|live\s+in|do)"
)
_STANCE_ADJ = r"(?:[\w\-]+\s+){0,3}?"
_PREF_LONG_EN: tuple[tuple[re.Pattern[str], str], ...] = (
    (_rx(r"^i\s+(?:have|'ve\s+got|have\s+got|feel)\s+(?:an?\s+|some\s+)?" + _STANCE_ADJ
         + r"(?:fear|phobia|terror|dread|allergy|allergies|intolerance|sensitivity)\s+"
         r"(?:to|for|of|towards?|around)\s+"), "avoid"),
    (_rx(r"^i\s+(?:have|'ve\s+got|have\s+got|feel|hold)\s+(?:an?\s+|some\s+)?" + _STANCE_ADJ
         + r"(?:aversion|dislike|distaste|disdain|disgust|hatred|loathing|contempt|objection|"
         r"opposition|resistance|bias|stance|prejudice)\s+(?:to|for|of|against|towards?)\s+"),
     "dislike"),
    (_rx(r"^i\s+(?:have|'ve\s+got|have\s+got|feel|hold)\s+(?:an?\s+|some\s+)?" + _STANCE_ADJ
         + r"(?:preference|fondness|love|passion|affinity|appreciation|soft\s+spot|weakness|"
         r"enthusiasm|liking|penchant|taste)\s+(?:for|of|towards?)\s+"), "like"),
    (_rx(r"^i\s+have\s+(?:no|little|zero)\s+(?:real\s+)?(?:interest|desire|patience|"
         r"tolerance|use|appetite)\s+(?:in|for)\s+"), "dislike"),
    (_rx(r"^" + _I_SUBJ + r"(?:refuse\s+to|prefer\s+not\s+to|(?:would|'d)\s+(?:much\s+)?"
         r"rather\s+not|try\s+(?:not\s+to|to\s+avoid|to\s+stay\s+away\s+from)|abstain\s+from|"
         r"shun|boycott|avoid|stay\s+away\s+from|steer\s+clear\s+of|(?:won'?t|will\s+not|"
         r"would\s+never|will\s+never|never|don'?t|do\s+not|cannot|can'?t|can\s+not)\s+"
         r"(?:ever\s+|even\s+)?" + _CONSUME_VERBS + r")\s+"), "avoid"),
    (_rx(r"^(?:" + _I_SUBJ + r"|" + _I_BE + r")(?:will\s+|would\s+|can\s+)?(?:only|exclusively|"
         r"solely)\s+" + _ADV + r"(?:" + _CONSUME_VERBS + r"|want|like|enjoy|prefer|"
         r"(?:interested|comfortable)\s+(?:in|with))\s+"), "like"),
    (_rx(r"^" + _I_BE + r"(?:(?:very|extremely|quite|rather|deeply|fundamentally|ethically|"
         r"morally|completely|totally|not\s+at\s+all|really)\s+)*(?:afraid|scared|terrified|"
         r"frightened|fearful|wary)\s+of\s+"), "avoid"),
    (_rx(r"^" + _I_BE + r"(?:(?:very|extremely|quite|rather|deeply|fundamentally|ethically|"
         r"morally|completely|totally|really|strongly|firmly|vehemently)\s+)*(?:not\s+"
         r"(?:interested|comfortable)\s+(?:in|with|around)|uninterested\s+in|"
         r"uncomfortable\s+(?:with|around|in)|opposed\s+to|against|averse\s+to|"
         r"put\s+off\s+by|turned\s+off\s+by|repulsed\s+by|disgusted\s+by|bored\s+(?:by|with))"
         r"\s+"), "dislike"),
    (_rx(r"^" + _I_BE + r"(?:(?:very|really|deeply|truly|always|especially)\s+)*(?:an?\s+)?"
         r"(?:(?:strong|big|huge|passionate|firm|staunch|avid|committed)\s+)?(?:fascinated\s+"
         r"(?:by|with)|devoted\s+to|committed\s+to|dedicated\s+to|drawn\s+to|"
         r"(?:advocate|supporter|proponent|champion)\s+(?:of|for)|believer\s+in)\s+"), "like"),
    (_rx(r"^" + _I_SUBJ + r"(?:prioriti[sz]e|value|favou?r|seek\s+out|gravitate\s+towards?)\s+"),
     "like"),
)  # fmt: skip
_DIET_PHRASE_EN = _rx(
    r"^(?:" + _I_SUBJ + r"|" + _I_BE + r")(?:follow(?:ing)?|adher(?:e|ing)\s+to|stick(?:ing)?\s+"
    r"to|keep(?:ing)?\s+to|maintain(?:ing)?|observ(?:e|ing)|practi[cs](?:e|ing)|on|eat(?:ing)?|"
    r"committed\s+to|dedicated\s+to|prioriti[sz](?:e|ing)|liv(?:e|ing)|lead(?:ing)?)\s+"
    r"(?P<obj>(?:an?\s+|the\s+|my\s+)?(?:[\w\-]+\s+){0,6}?(?:diet|lifestyle|regimen|"
    r"eating\s+plan|meal\s+plan|way\s+of\s+eating))\b"
)
_FIND_EN = _rx(
    r"^" + _I_SUBJ + r"find\s+(?P<obj>.+?)\s+(?:to\s+be\s+)?(?:(?:very|extremely|really|too|"
    r"quite|so|incredibly|highly|rather|pretty|a\s+bit|somewhat|utterly|deeply|unbearably|"
    r"particularly|overly|generally|always)\s+)*(?:(?P<neg>boring|tedious|dull|distracting|"
    r"annoying|irritating|off-?putting|unpleasant|uncomfortable|overwhelming|confusing|"
    r"frustrating|stressful|exhausting|draining|repetitive|slow|overrated|pointless|useless|"
    r"ineffective|cluttered|disgusting|gross|unappealing|vapid|cheesy|tacky|intimidating|scary|"
    r"terrifying|unbearable|insufferable|tiresome|cringe(?:y|worthy)?)|(?P<pos>relaxing|calming|"
    r"soothing|enjoyable|fun|engaging|inspiring|fascinating|rewarding|energizing|comforting|"
    r"satisfying|delightful|appealing|captivating))\b(?P<rest>.*)$"
)
_PREF_OBJ_END = _rx(
    r",?\s+(?:as|since)\s+(?:i|i'm|i've|my|it|it's|they|they're|this|that|these|those|we|"
    r"there)\b|\s+due\s+to\b|\s+for\s+(?:\w+\s+){0,2}reasons\b|,?\s+regardless\s+of\b|"
    r",?\s+even\s+(?:if|though|when|in|for)\b|\s+(?:whenever|wherever|if|when)\s+possible\b|"
    r"\s+as\s+much\s+as\s+(?:i\s+can|possible)\b|,?\s+and\s+(?:i\s+)?"
    + _ADV
    + r"(?:prefer|would|will|won'?t|only|avoid|refuse|never|cannot|can'?t|don'?t|do\s+not|am|"
    r"'m|have|try|tend|love|like|enjoy|find|want|opt|choose|stick|go\s+for|vastly|much|greatly)"
    r"\b|,?\s+(?:so|but|because)\b|,\s+(?:like|such\s+as|including|e\.g\.)\s|[;:]|"
    r"\s+[-\u2014]\s"
)


_PREFER_VERB = _rx(r"^" + _I_SUBJ + r"prefer\s+")
# "As someone who follows a strict diet" says "I follow a strict diet".
_AS_SOMEONE_WHO = _rx(
    r"^as\s+(?:someone|somebody|a\s+person|one|an?\s+[\w\-]+(?:\s+[\w\-]+)?)\s+who\s+"
    r"(?P<adv>(?:\w+ly\s+|also\s+|always\s+|still\s+|tends?\s+to\s+)*)(?P<verb>[a-z]+)\b"
)


def _first_person(body: str) -> str:
    """Rewrite "as someone who prefers X" as "I prefer X" (third person to first)."""
    m = _AS_SOMEONE_WHO.match(body)
    if not m:
        return body
    verb = m.group("verb").lower()
    if verb in ("is", "has", "was"):
        verb = {"is": "am", "has": "have", "was": "was"}[verb]
    elif verb.endswith("ies"):
        verb = verb[:-3] + "y"
    elif verb.endswith(("sses", "shes", "ches", "xes", "oes")):
        verb = verb[:-2]
    elif verb.endswith("s") and not verb.endswith("ss"):
        verb = verb[:-1]
    adv = re.sub(r"\btends\b", "tend", m.group("adv"))
    return f"I {adv}{verb}{body[m.end() :]}"


def _long_object(raw: str, *, prefer: bool = False) -> str | None:
    """The object of a long-form frame: cut at its reason or second clause, up to 20 words."""
    m = _PREF_OBJ_END.search(raw, 1)
    if prefer:
        m = _OBJ_END_PREFER.search(raw, 1) or m
    return _clean_object(raw[: m.start()] if m else raw, max_words=20, lenient=True)


def _long_preference_hits(c: _Clause, body: str) -> list[_Hit] | None:
    """Long-form frames; ``None`` when none applies (so the short frames are tried)."""
    m = _DIET_PHRASE_EN.match(body)
    if m:
        obj = _clean_object(m.group("obj"), max_words=20)
        return [_Hit(f"preference/{_slug(obj)}", "like")] if obj else []
    m = _FIND_EN.match(body)
    if m:
        obj = m.group("obj")
        rest = m.group("rest") or ""
        if obj.lower() in ("it", "them", "that") and re.match(r"\s+to\s+\w", rest):
            obj = rest.strip()[3:]
        found = _long_object(obj)
        polarity = "dislike" if m.group("neg") else "like"
        return [_Hit(f"preference/{_slug(found)}", polarity)] if found else []
    if c.durability == "temporary":
        return None  # "I can't go to the party tomorrow" is a plan, not a preference
    for frame, polarity in _PREF_LONG_EN:
        m = frame.match(body)
        if not m:
            continue
        rest = body[m.end() :]
        styles = _style_hits(rest, directive=False, flip=polarity != "like", conf=_CONF_EXPLICIT)
        if styles:
            return styles
        obj = _long_object(rest)
        if not obj:
            return []
        tools = _tools_in(obj, first_only=True)
        if tools and _TOOL_RE.fullmatch(obj.strip()):
            if polarity == "like":
                return [_Hit(key, value) for key, value in tools]
            return [_Hit(f"preference/{tools[0][1]}", polarity)]
        return [_Hit(f"preference/{_slug(obj)}", polarity)]
    return None


_LIST_SPLIT = _rx(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+|、|和|以及|还有")
_ZH_DIET = _rx(r"^" + _ME_ZH + r"(?:吃素|是素食(?:主义)?者|是吃素的|只吃素|乳糖不耐(?:受)?)")


def _preference_hits(c: _Clause) -> list[_Hit]:
    """``preference/<slug>`` like|dislike|avoid, or a style/tooling facet when the object is one."""
    body = c.body if c.zh else _first_person(c.body)
    m = _DIET_EN.match(body)
    if m:
        return [_Hit(f"preference/{_DIETS_EN[m.group('diet').lower()]}", "avoid")]
    m = _ZH_DIET.match(body)
    if m:
        return [_Hit("preference/lactose" if "乳糖" in m.group() else "preference/meat", "avoid")]
    for frame, polarity in _PREF_OBJECT_FIRST:
        m = frame.match(body)
        if m:
            obj = _clean_object(m.group("obj"))
            return [_Hit(f"preference/{_slug(obj)}", polarity)] if obj else []
    if not c.zh:
        long_hits = _long_preference_hits(c, body)
        if long_hits is not None:
            return long_hits
    m = _PREF_STYLE_ONLY_EN.match(body)
    if m:
        return _style_hits(body[m.end() :], directive=False, flip=False, conf=_CONF_WEAK)
    for frame, polarity in (*_PREF_EN, *_PREF_ZH):
        m = frame.match(body)
        if not m:
            continue
        rest = body[m.end() :]
        styles = _style_hits(rest, directive=False, flip=polarity != "like", conf=_CONF_EXPLICIT)
        if styles:
            return styles
        obj = _clean_object(rest, prefer=True)
        if not obj and (polarity != "like" or _PREFER_VERB.match(body)):
            obj = _long_object(rest, prefer=True)  # "I strongly dislike X that ..., as I ..."
        if not obj:
            return []
        tools = _tools_in(obj, first_only=True)
        if tools and polarity == "like" and _TOOL_RE.fullmatch(obj.strip()):
            return [_Hit(key, value) for key, value in tools]
        return [_Hit(f"preference/{slug}", polarity) for slug in _list_slugs(obj)]
    return []


def _list_slugs(obj: str) -> list[str]:
    """One slug per item of an enumeration ("hiking, biking and swimming"), else one slug.

    Only a comma or "、" marks a list: "mac and cheese" stays one thing.
    """
    parts = _LIST_SPLIT.split(obj) if ("," in obj or "、" in obj) else [obj]
    if len(parts) > 1 and all(0 < len(p.split()) <= 4 for p in parts):
        items = [item for p in parts if (item := _clean_object(p))]
        return [slug for item in items if (slug := _slug(item))]
    slug = _slug(obj)
    return [slug] if slug else []


def _match_preference(c: _Clause) -> list[_Hit]:
    if c.past_or_negated:
        return []
    return _preference_hits(c)


def _match_style(c: _Clause, directive: bool, verb: str) -> list[_Hit]:
    if not directive:
        return []
    if not c.standing and (c.one_off or _TASK_TOPIC.search(c.body)):
        return []
    if not c.standing and not c.zh and verb not in _META_VERBS:
        return []
    conf = _CONF_STANDING if c.standing else _CONF_PLAIN_DIRECTIVE
    return _style_hits(c.body, directive=True, flip=False, conf=conf)


_VETO_EN = _rx(
    r"^(?:(?:please|pls|and|also|just|so)\s+)*"
    r"(?P<neg>never(?:\s+ever)?|don'?t(?:\s+ever)?|do\s+not(?:\s+ever)?|stop|quit|no\s+more|avoid|"
    r"i\s+(?:never|don'?t|do\s+not)\s+want\s+(?:you\s+to|to\s+see)|you\s+(?:should|must|may|can)"
    r"(?:\s+not|\s+never|n'?t)|you\s+(?:shouldn'?t|mustn'?t|can'?t))"
    r"\s+(?:(?:ever|again|please|any\s+more)\s+)?"
    r"(?P<verb>(?:suggest|recommend|mention|push|pitch|offer|insert)(?:s|ing|ed)?|"
    r"propos(?:e|es|ed|ing)|includ(?:e|es|ed|ing)|add(?:s|ed|ing)?|us(?:e|es|ed|ing)|"
    r"put(?:s|ting)?|bring(?:ing)?\s+up|talk(?:ing)?\s+about|(?:show|giv|send)(?:e|ing)?\s+me)?"
    r"\s*(?:me\s+|to\s+me\s+)?(?P<obj>.+)$"
)
_VETO_ZH = re.compile(
    r"^(?:请|以后|今后|从现在开始|从现在起|永远|再也|千万|一定|也|都|就)*"
    r"(?:不要|别|不准|不许|禁止|千万别|千万不要|请勿|勿|停止|不用再|不要再|别再|再也不要|永远不要)"
    r"(?:再|给我|跟我|向我|为我|对我|帮我)*"
    r"(?P<verb>推荐|建议|提到|提起|提|用|使用|写|加|添加|介绍|安利|说)(?:了|过)?\s*(?P<obj>.+)$"
)
_VETO_OBJ_REJECT = _rx(
    r"^(?:my|our|their|his|her|this|that|these|those|it|them|the\s+above|yourself|me|you|"
    r"anything|everything|something|any)\b"
)
_VETO_OBJ_TRAIL = _rx(
    r"(?:\s+(?:again|anymore|any\s+more|ever|ever\s+again|to\s+me|please|at\s+all|for\s+anything|"
    r"in\s+the\s+future|in\s+(?:your\s+)?(?:answers|responses|replies|code|suggestions|"
    r"examples)))+$"
)


def _match_veto(c: _Clause, directive: bool) -> list[_Hit]:
    if not directive or c.one_off:
        return []
    m = (_VETO_ZH if c.zh else _VETO_EN).match(c.body)
    if not m:
        return []
    neg = m.groupdict().get("neg") or ""
    verb = (m.group("verb") or "").lower()
    if not verb and neg.lower() not in {"no more", "avoid"} and not neg.lower().startswith("i "):
        return []
    raw = _VETO_OBJ_TRAIL.sub("", m.group("obj").strip())
    obj = _clean_object(raw)
    if not obj or (not c.zh and (_VETO_OBJ_REJECT.match(obj) or len(obj.split()) > 5)):
        return []
    tool = _TOOL_RE.fullmatch(obj.strip())
    slug = _TOOL_INDEX[_surface_key(tool.group())][1] if tool else obj
    slug = _slug(slug)
    if not slug:
        return []
    plain_use = verb.startswith("us") and not c.standing and not neg.lower().startswith("never")
    return [_Hit(f"veto/{slug}", "banned", _CONF_WEAK if plain_use else _CONF_STANDING)]


_TOOLING_FRAMES: tuple[re.Pattern[str], ...] = (
    _rx(r"^(?:" + _I_SUBJ + r"|i(?:'ve|\s+have)\s+" + _ADV + r")(?:use|been\s+using|work\s+with|"
        r"develop\s+(?:with|on)|build\s+(?:with|on)|rely\s+on|(?:switched|moved|migrated)\s+"
        r"(?:over\s+)?(?:from\s+[\w.+#\- ]{1,30}?\s+)?to|run|stick\s+(?:with|to)|code\s+with|"
        r"program\s+with)\s+"),
    _rx(r"^" + _I_BE + r"(?:on|using|running)\s+(?:an?\s+)?"),
    _rx(r"^" + _I_SUBJ + r"(?:code|program|develop|write\s+code|work|build\s+(?:things|stuff|apps|"
        r"software)?)\s+(?:mostly\s+|mainly\s+|primarily\s+|exclusively\s+)?(?:in|with|on)\s+"),
    _rx(r"^" + _I_SUBJ + r"write\s+(?:mostly\s+|mainly\s+)?"),
    _rx(r"^(?:we\s+" + _ADV + r"(?:use|run|build\s+(?:with|on)|work\s+with|deploy\s+(?:on|to)|"
        r"standardized\s+on|switched\s+to|rely\s+on|host\s+on)|we(?:'re|\s+are)\s+" + _ADV
        + r"(?:using|running|on|building\s+(?:with|on)|deploying\s+(?:on|to)))\s+"),
    _rx(r"^our\s+(?:[\w\-]+\s+){0,2}?(?:stack|codebase|backend|frontend|app|project|team|company|"
        r"infra|infrastructure|services?|product|repo|monorepo)\s+(?:is\s+(?:built\s+(?:on|with)|"
        r"written\s+in|on)|uses|runs\s+on|is)\s+"),
    _rx(r"^" + _ME_ZH + r"(?:用|使用|采用|在用|改用|换成了?|换到了?|转到了?|用的是|"
        r"使用的是|写)\s*"),
    _rx(r"^我们(?:团队|公司|组|这边|项目)?" + _ADV_ZH + r"(?:用|使用|采用|在用|用的是)\s*"),
)  # fmt: skip
_TOOL_CATEGORY_EN = _rx(
    r"^my\s+(?:(?:favou?rite|preferred|main|primary|default|go-to|daily|usual)\s+)?"
    r"(?P<cat>" + _alt(_TOOL_CATEGORIES) + r")\s+(?:of\s+choice\s+)?is\s+"
)
_TOOL_CATEGORY_ZH = _rx(
    r"^我(?:们)?(?:的)?(?:主力|常用|默认)?(?P<cat>"
    + _alt(_TOOL_CATEGORIES_ZH)
    + r")(?:是|用的是)\s*"
)
_TOOL_IMPERATIVE = _rx(
    r"^(?:(?:please|always|only|just|also)\s+)*(?:use|stick\s+(?:with|to)|prefer|default\s+to|"
    r"go\s+with)\s+|^(?:以后|今后|请|都|一律|默认|统一|总是|始终)*(?:用|使用)\s*"
)
_TOOL_OBJ_CUT = _rx(
    r"\b(?:instead\s+of|rather\s+than|not|over|than|but|because|since|except|unlike|versus)\b|"
    r"而不是|不是|代替|替代|因为|但是"
)


def _tool_object(rest: str) -> str:
    cut = _TOOL_OBJ_CUT.search(rest)
    return rest[: cut.start()] if cut else rest


def _match_tooling(c: _Clause, directive: bool) -> list[_Hit]:
    if c.past_or_negated:
        return []
    body = c.body
    for frame in (_TOOL_CATEGORY_EN, _TOOL_CATEGORY_ZH):
        m = frame.match(body)
        if m:
            cat = m.group("cat").lower()
            key = _TOOL_CATEGORIES.get(cat) or _TOOL_CATEGORIES_ZH.get(cat, "")
            obj = _clean_object(_tool_object(body[m.end() :]))
            if not key or not obj or obj.lower() in _LANGUAGES_EN or obj in _LANGUAGES_ZH:
                return []
            tools = _tools_in(obj, first_only=True)
            value = tools[0][1] if tools else _slug(" ".join(obj.split()[:3]))
            return [_Hit(key, value)] if value else []
    frames = _TOOLING_FRAMES
    if directive and c.standing:
        frames = (*frames, _TOOL_IMPERATIVE)
    for frame in frames:
        m = frame.match(body)
        if m:
            tools = _tools_in(_tool_object(body[m.end() :]))
            if tools:
                return [_Hit(key, value) for key, value in tools]
    return []


_GOAL_VERBS = (
    r"(?:learn|master|become|get\s+better\s+at|improve|lose|gain|run|finish|complete|launch|ship|"
    r"save(?:\s+up)?|pay\s+off|pass|get\s+into|get\s+fit|get\s+in\s+shape|get\s+promoted|retire|"
    r"move\s+to|publish|speak|grow|reach|achieve|switch\s+careers|transition\s+(?:into|to)|"
    r"start\s+(?:a|my\s+own)|build\s+(?:a|my\s+own)|compete|qualify|travel|visit|quit|read|"
    r"write\s+(?:a\s+book|my\s+(?:book|thesis|novel))|earn|buy\s+a\s+(?:house|home)|climb|"
    r"land\s+a|find\s+a\s+(?:new\s+)?job|study|graduate|get\s+(?:a|my)\s+(?:degree|phd|masters?|"
    r"license|certification))\b"
)
_GOALS_EN: tuple[re.Pattern[str], ...] = (
    _rx(r"^my\s+(?:(?:main|big|biggest|primary|long[\s\-]term|short[\s\-]term|current|personal|"
        r"ultimate|new\s+year'?s?|\d{4}|career|fitness|only)\s+)*(?:goal|aim|objective|ambition|"
        r"dream|resolution|target|mission)s?(?:\s+(?:for|this|in)\s+(?:the\s+|this\s+|next\s+)?"
        r"(?:year|month|week|quarter|summer|semester|\d{4}))?\s+(?:is|are|'s)\s+(?:to\s+)?"),
    _rx(r"^" + _I_BE + r"(?:trying|working|aiming|hoping|planning|striving|determined|looking)\s+"
        r"to\s+"),
    _rx(r"^" + _I_BE + r"(?=(?:(?:training|preparing|studying|saving(?:\s+up)?|applying|"
        r"competing)\s+(?:for|to)|working\s+towards?|learning)\s+\S)"),
    _rx(r"^(?:" + _I_SUBJ + r"(?:want|hope|plan|aim|intend|wish)|i(?:'?d|\s+would)\s+(?:really\s+)?"
        r"(?:like|love))\s+to\s+(?=" + _GOAL_VERBS + r")"),
    _rx(r"^i(?:'ve|\s+have)?\s+(?:set\s+)?(?:myself\s+)?(?:a\s+)?goal\s+(?:of|to)\s+"),
    _rx(r"^我(?:的)?[^，,是]{0,6}?(?:目标|梦想|愿望|心愿|计划|理想)(?:之一)?(?:是|就是)\s*"),
    _rx(r"^" + _ME_ZH + r"(?:想|想要|希望|打算|计划|准备|决定|立志|争取|要)"
        r"(?:在[^，,]{1,8}?|今年内?|明年|年底(?:之?前)?|这个月|下个月|尽快|早日|以后|将来|未来|"
        r"这学期|下学期)?(?:能|能够)?(?=(?:学|学习|学会|掌握|精通|成为|当上?|减肥|减掉|减重|瘦|"
        r"增肌|健身|跑|跑完|完成|考|考上|考过|考取|拿到|通过|提高|提升|攻读|申请|转行|转型|"
        r"换工作|找到|创业|存钱|攒钱|存够|买房|买车|搬到|搬去|出国|留学|戒|养成|坚持|读完|写完|发表|出版|参加)\S)"),
    _rx(r"^" + _ME_ZH + r"(?:正在|在|最近在)(?=(?:学|学习|准备|备考|备战|练|训练|攻读|减肥|健身|"
        r"努力)\S)"),
    _rx(r"^" + _ME_ZH + r"努力(?=\S)"),
)  # fmt: skip
_GOAL_END = _rx(r"\s*,?\s*\b(?:because|since|but|so\s+that|although|though)\b|\s*[;:(]|[，,;；]")
_GOAL_SLUG_TRIM = _rx(
    r"\s+(?:(?:this|next)\s+(?:year|month|week|summer|spring|fall|autumn|winter|semester)|"
    r"by\s+\w+(?:\s+\d{4})?|someday|eventually|one\s+day|soon|in\s+\d+\s+(?:years?|months?|"
    r"weeks?)|before\s+\w+)$|(?:今年|明年|年底|之前|以前)$"
)


def _match_goal(c: _Clause) -> list[_Hit]:
    if c.past_or_negated:
        return []
    for frame in _GOALS_EN:
        m = frame.match(c.body)
        if not m:
            continue
        rest = c.body[m.end() :]
        end = _GOAL_END.search(rest, 1)
        goal = (rest[: end.start()] if end else rest).strip(" .!。！")
        goal = _OBJ_TRAIL_ZH.sub("", goal) if c.zh else goal
        words = goal.split()
        if not goal or len(words) > 14 or (words and words[0].lower() in _OBJ_REJECT_EN):
            return []
        slug = _slug(_GOAL_SLUG_TRIM.sub("", goal))
        return [_Hit(f"goal/{slug}", goal)] if slug else []
    return []


# Politeness and framing around an instruction, dropped from its slug and value.
_INSTR_STRIP_EN = _rx(
    r"^(?:(?:please|pls|kindly|just|also|always|and|so|don'?t\s+forget(?:\s+to|\s+that)?:?|"
    r"you\s+(?:should|must|need\s+to|have\s+to|will|can|could)|i\s+(?:want|need)\s+you\s+to|"
    r"i(?:'?d|\s+would)\s+like\s+you\s+to|make\s+sure\s+(?:to|you|that\s+you)|remember\s+to|"
    r"be\s+sure\s+to|(?:can|could|would|will)\s+you)\s+)*"
)
_INSTR_STRIP_ZH = re.compile(
    r"^(?:以后|今后|往后|之后|接下来|从现在(?:开始|起)?|从今(?:天|以后)?(?:开始|起)?|请|麻烦你?|"
    r"我?(?:希望|想要|想让|要|需要|要求)你|你|都|一律|总是|始终|永远|默认|一直|务必|一定要|记得|记住|"
    r"要|每次)*"
)
_DO_NOT = _rx(r"^do\s+not\b")
_INSTR_TRAIL = _rx(r",?\s*(?:from\s+now\s+on|going\s+forward|in\s+(?:the\s+)?future|please)$")
_INSTR_IDIOM = _rx(
    r"^(?:never\s+mind|don'?t\s+worry|no\s+worries|stop\s+(?:it|that|there)|never\s+again|"
    r"don'?t\s+forget|always\s+happy|没关系|算了|别担心|不用谢|不要紧)\b"
)


def _match_instruction(c: _Clause, directive: bool) -> list[_Hit]:
    """A standing instruction that no facet recognized: ``instruction/<slug>``."""
    if not directive or not c.standing or (c.one_off and c.durability != "session"):
        return []
    framing = (_INSTR_STRIP_ZH if c.zh else _INSTR_STRIP_EN).match(c.body)
    text = c.body[framing.end() if framing else 0 :].strip(" .!。！")
    text = _DO_NOT.sub("don't", text)
    text = _INSTR_TRAIL.sub("", text)
    words = text.split()
    if len(text) < 2 or len(words) > 20 or (not c.zh and len(words) < 2):
        return []
    if _INSTR_IDIOM.match(text):
        return []
    if not c.zh and words[0].lower() in _NOT_VERBS:
        return []
    slug = _slug(text.replace("'", ""))
    conf = _CONF_PLAIN_DIRECTIVE if c.polite_question else _CONF_STANDING
    return [_Hit(f"instruction/{slug}", text, conf)] if slug else []


# --------------------------------------------------------------------------------------------
# Assembly
# --------------------------------------------------------------------------------------------


def _clause_hits(c: _Clause) -> list[_Hit]:
    """The facet matchers in priority order; the generic instruction is the fallback."""
    directive, verb = _directive(c)
    hits = _match_identity(c) + _match_channel(c)
    hits += _match_preference(c) if not hits else []
    style = _match_style(c, directive, verb)
    hits += style
    if not style:
        hits += _match_veto(c, directive)
    if not any(h.key.startswith("channel/") for h in hits):
        hits += [h for h in _match_tooling(c, directive) if h.key not in {x.key for x in hits}]
    if not hits:
        hits = _match_goal(c)
    if not hits:
        hits = _match_instruction(c, directive)
    return hits


# Trimmed off the receipt: a leading conjunction or list marker is not part of the statement.
_CONTENT_LEAD = _rx(
    r"(?:(?:and|but|so|also|plus|但是|不过|而且|并且|可是|所以)\b\s*|[-*\u2022]\s+|\d{1,2}[.)]\s+)+"
)


def _statement(c: _Clause, hit: _Hit, original: str) -> Statement:
    kind = hit.key.split("/", 1)[0]
    confidence = min(hit.confidence, _CONF_HEDGED) if c.hedged else hit.confidence
    importance = _IMPORTANCE[kind]
    if c.standing and kind in {"instruction", "style", "veto"}:
        importance += _STANDING_BONUS
    durability = c.durability
    if kind == "goal" and durability == "durable" and _DEICTIC_GOAL.search(hit.value or ""):
        durability = "session"  # "I'm trying to fix this bug" is about the task at hand
    start, end = c.start, c.end
    content = original[start:end]
    lead = _CONTENT_LEAD.match(content)
    if lead and lead.end() < len(content):
        start += lead.end()
        content = original[start:end]
    return Statement(
        kind=kind,
        canonical_key=hit.key,
        value=hit.value,
        content=content,
        memory_type=_MEMORY_TYPE[kind],
        confidence=round(confidence, 2),
        importance=round(importance, 2),
        durability=durability,
        span=(start, end),
    )


def _unquote_whole(norm: str) -> str:
    """A turn that is one quoted statement ("\"I avoid X.\"") is the user's, not a quotation."""
    stripped = norm.strip()
    if len(stripped) > 2 and stripped[0] == stripped[-1] == '"' and stripped.count('"') == 2:
        start = norm.index('"')
        end = norm.rindex('"')
        return norm[:start] + " " + norm[start + 1 : end] + " " + norm[end + 1 :]
    return norm


# One value per key and turn for facets that hold one value (a user has one name, one
# verbosity); tooling, preferences and vetoes may legitimately name several things.
_SINGLE_VALUED = ("identity/", "style/", "channel/")


def extract_statements(text: str, *, role: str = "user") -> list[Statement]:
    """Extract the explicit statements of one conversation turn.

    Only the user's own turns are read (``role == "user"``): the assistant paraphrasing the
    user is not evidence. The result is deterministic, ordered by position, and holds at most
    one statement per ``(canonical_key, value)``.

    Args:
        text: The raw turn text.
        role: Speaker role of the turn; anything but ``"user"`` yields ``[]``.

    Returns:
        Statements whose ``span`` indexes ``content`` exactly in ``text``.
    """
    if role != "user" or not text or not text.strip():
        return []
    norm = _unquote_whole(_normalize(text))
    out: list[Statement] = []
    seen: set[tuple[str, str | None]] = set()
    for clause in _clauses(norm):
        for hit in _clause_hits(clause):
            single = hit.key.startswith(_SINGLE_VALUED)
            if (hit.key, hit.value) in seen or (single and (hit.key, None) in seen):
                continue
            seen.add((hit.key, hit.value))
            if single:
                seen.add((hit.key, None))
            out.append(_statement(clause, hit, text))
            if len(out) >= _MAX_STATEMENTS:
                return out
    return out

"""Tooling and channel vocabularies: facet key, canonical value and surface forms."""

from __future__ import annotations

import re

from userlore.extract.lexical import _alt, _rx, _words

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

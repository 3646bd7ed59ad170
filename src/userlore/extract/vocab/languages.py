"""Languages a user can ask answers in (English and Chinese surface forms)."""

from __future__ import annotations

from userlore.extract.lexical import _alt, _words

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

"""A hex token after a phrase that names a vendor's token or secret, in any word order (issue 29).

``keys`` takes a hex key right after a key or token cue, with at most three words between;
people name the vendor and the environment in between ("token do PagSeguro de produção:
<hex>", "Token für Klarna (Produktion): <hex>", "mi token de Conekta en producción es <hex>",
"支付宝生产环境的token是 <hex>"). Here a hex run of 16 or more (letters and digits) within
the same clause after a token word is the token, unless a digest or commit word stands between.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from userlore.policy.detectors.common import _UUID, _Hit, _is_placeholder
from userlore.policy.findings import _SECRET
from userlore.policy.literal_gate import GatedPattern

__all__ = ["token_phrases"]

# A vendor's secret by any name (blind12): "AppSecret", "client secret", "signing secret",
# "チャネルシークレット", "密钥": detect-secrets' keyword plugin reads "secret" with any affix too.
# Asked only where one of its words stands (the literals are read from the pattern).
_TOKEN_WORD = GatedPattern(
    re.compile(
        r"(?<![a-z])(?:tokens?|jeton|トークン|令牌)(?![a-z])|secret|secreto|segredo|シークレット|密钥|秘钥|密鑰"
    )
)
_HEX = re.compile(
    r"(?<![A-Za-z0-9_\-])(?=[0-9a-fA-F]*[a-fA-F])(?=[0-9a-fA-F]*\d)[0-9a-fA-F]{16,}(?![A-Za-z0-9_\-])"
)
# What may not stand between: a sentence end, or a word that makes the run a digest or an id.
_NOT_A_TOKEN = re.compile(
    r"(?i)[.!?\n。！？]\s|commit|hash|sha|md5|digest|checksum|request|trace|id\b|uuid|ハッシュ|哈希"
)
_REACH: Final = 60


def token_phrases(t: str, lowered: str) -> Iterator[_Hit]:
    """Hex tokens within the clause after a token word (see the module docstring)."""
    for w in _TOKEN_WORD.finditer(lowered):
        v = _HEX.search(t, w.end(), min(len(t), w.end() + _REACH))
        if v is None or _NOT_A_TOKEN.search(t, w.end(), v.start()):
            continue
        value = v.group(0)
        if _is_placeholder(value) or _UUID.fullmatch(value):
            continue
        yield (_SECRET, "high_entropy_secret", v.start(), v.end(), None)

"""What a resumed state takes back, by class: the data behind reversals in other words.

"I eat meat again" ends "I'm vegetarian" though the two share no word: the record holds
``preference/meat = avoid``, and eating meat, fish or chicken is its opposite. A class lists
the words (English) and cores (Chinese) that name the resumed state, and the keys whose
avoidance that state ends. A resumed object is read against these classes *and* against the
record's own key and value ("I'm back on coffee" ends ``preference/coffee = avoid`` with no
class at all), so the lists hold only what the record's words cannot say: the diet words a
"vegetarian" record never names, and a bare "drinking" that means alcohol.
"""

from __future__ import annotations

from dataclasses import dataclass

from userlore.extract.lexical import _words


@dataclass(frozen=True, slots=True)
class Opposition:
    """One class of resumed states and the avoidances they end.

    Attributes:
        name: The class, named in traces (``diet_meat``); never user text.
        en: English content words naming the resumed state ("meat", "carnivore").
        zh: Chinese cores naming it ("肉", "荤"); matched as the whole core or its last part
            ("牛肉" → "肉").
        ends: Canonical keys whose avoidance (``avoid``, ``banned``) the resumed state ends.
        bare: English verbs that alone name the state ("I've started drinking again" =
            alcohol); they count only when they are the whole object.
    """

    name: str
    en: frozenset[str]
    zh: tuple[str, ...]
    ends: tuple[str, ...]
    bare: frozenset[str] = frozenset()


OPPOSITIONS: tuple[Opposition, ...] = (
    Opposition(
        "diet_meat",
        _words(
            """meat meats chicken pork beef lamb mutton veal turkey duck steak steaks bacon ham
            sausage sausages burgers burger carnivore carnivores omnivore omnivores meat-eater
            meat-eaters"""
        ),
        ("肉", "荤", "肉食", "肉食者", "杂食", "杂食者"),
        ("preference/meat", "preference/animal_products", "preference/肉"),
    ),
    # Fish ends a fish avoidance as well as "vegetarian"; chicken does not end "no fish".
    # (``preference/meat`` holds "vegetarian" and "pescatarian" alike: eating fish ends both.)
    Opposition(
        "diet_fish",
        _words(
            """fish seafood shellfish shrimp prawns salmon tuna cod sardines oysters mussels
            sushi"""
        ),
        ("鱼", "海鲜", "虾"),
        (
            "preference/meat",
            "preference/animal_products",
            "preference/肉",
            "preference/fish",
            "preference/seafood",
            "preference/鱼",
            "preference/海鲜",
        ),
    ),
    Opposition(
        "diet_animal_products",
        _words("egg eggs cheese dairy milk butter yogurt yoghurt cream honey"),
        ("蛋", "奶", "奶酪", "乳制品", "蜂蜜"),
        ("preference/animal_products", "preference/dairy", "preference/奶"),
    ),
    Opposition(
        "sugar",
        _words("sugar sweets candy candies dessert desserts cake cakes"),
        ("糖", "甜食", "甜点", "蛋糕"),
        ("preference/sugar", "preference/sweets", "preference/糖", "preference/甜食"),
    ),
    Opposition(
        "smoking",
        _words("smoking smoke smokes cigarette cigarettes cigs cigar cigars tobacco vaping vape"),
        ("烟",),
        ("preference/smoking", "preference/cigarettes", "preference/vaping", "preference/烟"),
    ),
    Opposition(
        "caffeine",
        _words(
            """coffee coffees caffeine espresso espressos latte lattes cappuccino cappuccinos
            americano americanos"""
        ),
        ("咖啡", "拿铁"),
        ("preference/caffeine", "preference/coffee", "preference/咖啡"),
    ),
    Opposition(
        "alcohol",
        _words("alcohol booze wine beer beers whisky whiskey vodka"),
        ("酒",),
        ("preference/alcohol", "preference/drinking", "preference/酒"),
        bare=_words("drink drinking"),
    ),
)

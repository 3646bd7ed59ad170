"""Training examples for the learned second opinion (issue 29 item 4b), generated from templates.

Seven covered languages (en, zh, es, de, fr, ja, pt); classes ``secret`` (a credential with its
value), ``regulated`` (a card, IBAN or national id with its value), ``money`` (the user's own
money), ``special`` (a first-person special-category statement) and ``benign`` (near-misses:
someone else's or a topic's health, prices, times, counts, flight and order numbers, talk about
passwords without one). Every value is drawn from a seeded RNG, so the file is reproducible:

    python benchmarks/clf_data.py --round-1 > tests/data/clf_train.jsonl
    python benchmarks/clf_data.py > tests/data/clf_train_r2.jsonl

(round 1: the first training set; round 2 adds the classes the first evaluation set showed
missing, see ``ROUND_2``).

Only the seven covered languages are written here: the languages the classifier is evaluated on
as held out (``tests/data/clf_eval.jsonl``) never appear in training.
"""

from __future__ import annotations

import json
import random
import string
import sys
from collections.abc import Callable

SEED = 29
FILLS = 4
"""Examples drawn per template (each with fresh values)."""


def _luhn_card(rng: random.Random) -> str:
    digits = [4] + [rng.randrange(10) for _ in range(14)]
    total = 0
    for i, d in enumerate(reversed(digits)):
        v = d * 2 if i % 2 == 0 else d
        total += v - 9 if v > 9 else v
    digits.append((10 - total % 10) % 10)
    s = "".join(map(str, digits))
    sep = rng.choice([" ", "-", ""])
    return sep.join(s[i : i + 4] for i in range(0, 16, 4))


def _iban(rng: random.Random) -> str:
    country = rng.choice(["DE", "FR", "ES", "PT"])
    lengths = {"DE": 18, "FR": 23, "ES": 20, "PT": 21}
    bban = "".join(str(rng.randrange(10)) for _ in range(lengths[country]))
    numeric = "".join(str(int(c, 36)) for c in bban + country + "00")
    check = 98 - int(numeric) % 97
    raw = f"{country}{check:02d}{bban}"
    return " ".join(raw[i : i + 4] for i in range(0, len(raw), 4))


def _password(rng: random.Random) -> str:
    word = rng.choice(
        ["Sunset", "tiger", "Blue", "Maple", "kiwi", "Falcon", "rosa", "Nube", "Sonne"]
    )
    tail = "".join(rng.choice(string.digits) for _ in range(rng.randint(2, 4)))
    sym = rng.choice(["!", "#", "_", "$", "", "*"])
    return rng.choice([f"{word}{tail}{sym}", f"{word}{sym}{tail}", f"{tail}{word}{sym}"])


def _token(rng: random.Random) -> str:
    alphabet = string.ascii_letters + string.digits
    body = "".join(rng.choice(alphabet) for _ in range(rng.randint(20, 32)))
    return rng.choice(["sk-", "ghp_", "xoxb-", "AKIA", "", "tok_"]) + body


def _pin(rng: random.Random) -> str:
    n = rng.choice([4, 4, 6])
    pin = "".join(str(rng.randrange(10)) for _ in range(n))
    return rng.choice([pin, " ".join(pin)])


def _ssn(rng: random.Random) -> str:
    return f"{rng.randint(100, 665)}-{rng.randint(10, 99)}-{rng.randint(1000, 9999)}"


def _passport(rng: random.Random) -> str:
    return rng.choice(string.ascii_uppercase) + "".join(str(rng.randrange(10)) for _ in range(8))


def _natid(rng: random.Random) -> str:
    return "".join(str(rng.randrange(10)) for _ in range(rng.choice([9, 11, 12])))


def _amount(rng: random.Random) -> str:
    return f"{rng.randint(1, 99)},{rng.randint(0, 999):03d}"


def _amount_eu(rng: random.Random) -> str:
    return f"{rng.randint(1, 99)}.{rng.randint(0, 999):03d}"


def _small(rng: random.Random) -> str:
    return str(rng.randint(2, 12))


def _time(rng: random.Random) -> str:
    return f"{rng.randint(6, 21)}:{rng.choice(['00', '15', '30', '45'])}"


def _price(rng: random.Random) -> str:
    return str(rng.randint(3, 80))


def _flight(rng: random.Random) -> str:
    return rng.choice(["BA", "LH", "AF", "IB", "TP", "NH", "CA"]) + f" {rng.randint(100, 9999)}"


def _order(rng: random.Random) -> str:
    return f"#{rng.randint(10000, 999999)}"


def _year(rng: random.Random) -> str:
    return str(rng.randint(1995, 2025))


def _wan(rng: random.Random) -> str:
    return str(rng.randint(3, 90))


SLOTS: dict[str, Callable[[random.Random], str]] = {
    "card": _luhn_card,
    "iban": _iban,
    "pw": _password,
    "token": _token,
    "pin": _pin,
    "ssn": _ssn,
    "passport": _passport,
    "natid": _natid,
    "amount": _amount,
    "amount_eu": _amount_eu,
    "small": _small,
    "time": _time,
    "price": _price,
    "flight": _flight,
    "order": _order,
    "year": _year,
    "wan": _wan,
}

TEMPLATES: dict[str, dict[str, list[str]]] = {
    "en": {
        "secret": [
            "my email password is {pw}",
            "the wifi password: {pw}",
            "PIN for my debit card is {pin}",
            "door code at home is {pin}, don't forget",
            "here's my API key {token}",
            "use this token for the deploy: {token}",
            "my login for the bank app is {pw}",
            "backup code {pin} for my google account",
        ],
        "regulated": [
            "my card number is {card}",
            "can you store my credit card {card} for later",
            "my IBAN is {iban}",
            "SSN {ssn}, that's mine",
            "my passport number is {passport}",
            "my national ID is {natid}",
            "send the refund to {iban}, that's my account",
        ],
        "money": [
            "my salary is ${amount} a year",
            "I have ${amount} in savings",
            "I still owe {amount} on my student loan",
            "my checking balance is down to ${amount}",
            "I earn about {amount} dollars per month",
            "my mortgage is ${amount} left",
        ],
        "special": [
            "I have type 2 diabetes",
            "I was diagnosed with depression last year",
            "I'm gay and my family doesn't know",
            "I'm a practising Muslim so no pork please",
            "I take lithium for my bipolar disorder",
            "I'm HIV positive",
            "I'm a member of the teachers' union",
            "I vote for the Greens every time",
            "I spent two years in prison",
            "I'm pregnant, due in March",
            "I have epilepsy, so no flashing lights",
            "I'm Jewish and keep kosher",
        ],
        "benign": [
            "I need to reset my password tomorrow",
            "the meeting is at {time}, room {small}",
            "my friend has diabetes and loves baking",
            "I read an article about depression in teenagers",
            "flight {flight} leaves at {time}",
            "the book costs ${price}",
            "order {order} shipped yesterday",
            "we need {small} tickets for Saturday",
            "the password field should show a strength meter",
            "I moved here in {year}",
            "my doctor's office opens at {time}",
            "the average salary in the city is rising",
            "enter your PIN at the terminal, the cashier said",
            "call me at {time} about the recipe",
        ],
    },
    "zh": {
        "secret": [
            "我的邮箱密码是{pw}",
            "家里wifi密码：{pw}",
            "银行卡密码是{pin}",
            "门禁密码{pin}，别忘了",
            "这是我的API密钥 {token}",
            "部署用这个令牌：{token}",
            "支付宝支付密码是{pin}",
        ],
        "regulated": [
            "我的银行卡号是{card}",
            "我的身份证号码是{natid}",
            "我的护照号码是{passport}",
            "退款请打到{iban}，这是我的账户",
            "信用卡号{card}帮我记一下",
        ],
        "money": [
            "我的年薪是{wan}万",
            "我存款有{wan}万元",
            "我还欠房贷{wan}万",
            "我每个月工资{amount}元",
            "我的信用卡欠款{amount}元",
        ],
        "special": [
            "我有二型糖尿病",
            "我去年被诊断出抑郁症",
            "我是同性恋",
            "我是穆斯林，不吃猪肉",
            "我在吃治疗双相的药",
            "我是工会会员",
            "我以前坐过牢",
            "我怀孕了，预产期在三月",
            "我有哮喘",
            "我信佛",
        ],
        "benign": [
            "我明天要重置密码",
            "会议在{time}，{small}号会议室",
            "我朋友有糖尿病",
            "我在看一篇关于抑郁症的文章",
            "航班{flight}在{time}起飞",
            "这本书{price}元",
            "订单{order}昨天发货了",
            "我们需要{small}张票",
            "我{year}年搬到这里",
            "城市的平均工资在上涨",
            "医院{time}开门",
        ],
    },
    "es": {
        "secret": [
            "mi contraseña del correo es {pw}",
            "la clave del wifi: {pw}",
            "el PIN de mi tarjeta es {pin}",
            "el código de la puerta es {pin}",
            "aquí va mi API key {token}",
            "usa este token para el despliegue: {token}",
            "mi clave del banco es {pw}",
        ],
        "regulated": [
            "mi número de tarjeta es {card}",
            "mi IBAN es {iban}",
            "mi DNI es {natid}",
            "mi número de pasaporte es {passport}",
            "guárdame la tarjeta {card} para luego",
        ],
        "money": [
            "mi sueldo es de {amount_eu} € al año",
            "tengo {amount_eu} € ahorrados",
            "todavía debo {amount_eu} euros de la hipoteca",
            "mi saldo en la cuenta es {amount_eu} €",
            "gano unos {amount_eu} euros al mes",
        ],
        "special": [
            "tengo diabetes tipo 2",
            "me diagnosticaron depresión el año pasado",
            "soy gay y mi familia no lo sabe",
            "soy musulmán, nada de cerdo",
            "tomo litio para el trastorno bipolar",
            "estoy afiliado al sindicato",
            "estuve dos años en la cárcel",
            "estoy embarazada, salgo de cuentas en marzo",
            "tengo epilepsia",
            "soy judía",
        ],
        "benign": [
            "mañana tengo que cambiar la contraseña",
            "la reunión es a las {time} en la sala {small}",
            "mi amigo tiene diabetes",
            "leí un artículo sobre la depresión",
            "el vuelo {flight} sale a las {time}",
            "el libro cuesta {price} €",
            "el pedido {order} salió ayer",
            "necesitamos {small} entradas",
            "me mudé aquí en {year}",
            "el sueldo medio de la ciudad sube",
            "la farmacia abre a las {time}",
        ],
    },
    "de": {
        "secret": [
            "mein E-Mail-Passwort ist {pw}",
            "das WLAN-Passwort: {pw}",
            "die PIN meiner Karte ist {pin}",
            "der Türcode ist {pin}",
            "hier mein API-Schlüssel {token}",
            "nimm dieses Token für das Deployment: {token}",
            "meine Geheimzahl ist {pin}",
        ],
        "regulated": [
            "meine Kartennummer ist {card}",
            "meine IBAN lautet {iban}",
            "meine Steuer-ID ist {natid}",
            "meine Reisepassnummer ist {passport}",
            "speicher bitte die Kreditkarte {card}",
        ],
        "money": [
            "mein Gehalt ist {amount_eu} € im Jahr",
            "ich habe {amount_eu} € gespart",
            "ich schulde noch {amount_eu} Euro für den Kredit",
            "mein Kontostand ist {amount_eu} €",
            "ich verdiene etwa {amount_eu} Euro im Monat",
        ],
        "special": [
            "ich habe Diabetes Typ 2",
            "bei mir wurde letztes Jahr eine Depression diagnostiziert",
            "ich bin schwul",
            "ich bin Muslim, also kein Schweinefleisch",
            "ich nehme Lithium wegen meiner bipolaren Störung",
            "ich bin Gewerkschaftsmitglied",
            "ich war zwei Jahre im Gefängnis",
            "ich bin schwanger, Termin im März",
            "ich habe Epilepsie",
            "ich bin Jüdin",
        ],
        "benign": [
            "ich muss morgen mein Passwort zurücksetzen",
            "das Meeting ist um {time} in Raum {small}",
            "mein Freund hat Diabetes",
            "ich lese einen Artikel über Depressionen",
            "Flug {flight} startet um {time}",
            "das Buch kostet {price} €",
            "Bestellung {order} wurde gestern verschickt",
            "wir brauchen {small} Tickets",
            "ich bin {year} hierher gezogen",
            "das Durchschnittsgehalt in der Stadt steigt",
            "die Apotheke öffnet um {time}",
        ],
    },
    "fr": {
        "secret": [
            "mon mot de passe mail est {pw}",
            "le mot de passe du wifi : {pw}",
            "le code PIN de ma carte est {pin}",
            "le digicode est {pin}",
            "voici ma clé API {token}",
            "utilise ce jeton pour le déploiement : {token}",
            "mon code secret est {pin}",
        ],
        "regulated": [
            "mon numéro de carte est {card}",
            "mon IBAN est {iban}",
            "mon numéro de sécu est {natid}",
            "mon numéro de passeport est {passport}",
            "garde ma carte bancaire {card} pour plus tard",
        ],
        "money": [
            "mon salaire est de {amount_eu} € par an",
            "j'ai {amount_eu} € d'épargne",
            "je dois encore {amount_eu} euros sur mon prêt",
            "mon solde est de {amount_eu} €",
            "je gagne environ {amount_eu} euros par mois",
        ],
        "special": [
            "j'ai un diabète de type 2",
            "on m'a diagnostiqué une dépression l'an dernier",
            "je suis gay",
            "je suis musulman, pas de porc",
            "je prends du lithium pour mon trouble bipolaire",
            "je suis syndiqué",
            "j'ai fait deux ans de prison",
            "je suis enceinte, terme en mars",
            "je suis épileptique",
            "je suis juive",
        ],
        "benign": [
            "je dois réinitialiser mon mot de passe demain",
            "la réunion est à {time} en salle {small}",
            "mon ami a du diabète",
            "je lis un article sur la dépression",
            "le vol {flight} part à {time}",
            "le livre coûte {price} €",
            "la commande {order} est partie hier",
            "il nous faut {small} billets",
            "j'ai emménagé ici en {year}",
            "le salaire moyen de la ville augmente",
            "la pharmacie ouvre à {time}",
        ],
    },
    "ja": {
        "secret": [
            "メールのパスワードは{pw}です",
            "Wi-Fiのパスワード：{pw}",
            "カードの暗証番号は{pin}",
            "玄関の暗証番号は{pin}です",
            "APIキーはこれ {token}",
            "デプロイにはこのトークンを使って：{token}",
        ],
        "regulated": [
            "私のカード番号は{card}です",
            "マイナンバーは{natid}です",
            "パスポート番号は{passport}",
            "振込先は{iban}、私の口座です",
            "クレジットカード{card}を登録して",
        ],
        "money": [
            "私の年収は{wan}万円です",
            "貯金が{wan}万円あります",
            "住宅ローンがまだ{wan}万円残っている",
            "口座の残高は{amount}円",
            "月給は{wan}万円くらい",
        ],
        "special": [
            "私は2型糖尿病です",
            "去年うつ病と診断されました",
            "私はゲイです",
            "私はムスリムなので豚肉は食べません",
            "双極性障害でリチウムを飲んでいます",
            "労働組合に入っています",
            "刑務所に二年いました",
            "妊娠していて、予定日は三月です",
            "てんかんがあります",
        ],
        "benign": [
            "明日パスワードをリセットしないと",
            "会議は{time}から{small}番会議室です",
            "友達が糖尿病です",
            "うつ病についての記事を読んでいる",
            "{flight}便は{time}に出発します",
            "その本は{price}ドルです",
            "注文{order}は昨日発送されました",
            "チケットが{small}枚必要です",
            "{year}年にここに引っ越しました",
            "薬局は{time}に開きます",
        ],
    },
    "pt": {
        "secret": [
            "minha senha do email é {pw}",
            "a senha do wifi: {pw}",
            "o PIN do meu cartão é {pin}",
            "o código do portão é {pin}",
            "aqui está minha chave de API {token}",
            "use este token no deploy: {token}",
            "minha senha do banco é {pw}",
        ],
        "regulated": [
            "o número do meu cartão é {card}",
            "meu IBAN é {iban}",
            "meu CPF é {natid}",
            "o número do meu passaporte é {passport}",
            "guarda o meu cartão de crédito {card}",
        ],
        "money": [
            "meu salário é R$ {amount_eu} por mês",
            "tenho R$ {amount_eu} na poupança",
            "ainda devo {amount_eu} reais do financiamento",
            "meu saldo está em R$ {amount_eu}",
            "ganho uns {amount_eu} euros por mês",
        ],
        "special": [
            "tenho diabetes tipo 2",
            "fui diagnosticado com depressão ano passado",
            "sou gay",
            "sou muçulmano, nada de porco",
            "tomo lítio para o transtorno bipolar",
            "sou sindicalizado",
            "passei dois anos na prisão",
            "estou grávida, a data prevista é em março",
            "tenho epilepsia",
            "sou judia",
        ],
        "benign": [
            "preciso redefinir a senha amanhã",
            "a reunião é às {time} na sala {small}",
            "meu amigo tem diabetes",
            "estou lendo um artigo sobre depressão",
            "o voo {flight} sai às {time}",
            "o livro custa R$ {price}",
            "o pedido {order} saiu ontem",
            "precisamos de {small} ingressos",
            "mudei para cá em {year}",
            "o salário médio da cidade está subindo",
            "a farmácia abre às {time}",
        ],
    },
}


ROUND_2: dict[str, dict[str, list[str]]] = {
    "en": {
        "secret": [
            "the bike lock combination is {pin}",
            "the safe in the closet opens with {pin}",
            "work laptop: user dlee, pass {pw}",
        ],
        "special": [
            "started dialysis last month, three mornings a week",
            "after my stroke I walk with a cane",
            "being trans, I dread filling in forms",
        ],
        "benign": [
            "my dad always forgets his password",
            "my coworker wrote her PIN on a sticky note, terrible idea",
            "how do I change the wifi password on this router?",
            "terminal {small}, gate C{price}, seat {small}F",
            "spent {price} dollars on pizza last night",
            "my neighbour's son has autism and loves trains",
        ],
    },
    "zh": {
        "secret": ["自行车锁的密码是{pin}", "保险箱开锁数字是{pin}", "公司电脑账号wang，口令{pw}"],
        "special": ["上个月开始做透析", "中风以后我走路要拄拐", "我是跨性别者"],
        "benign": [
            "我爸老是忘记自己的密码",
            "同事把银行卡密码写在便利贴上，太危险了",
            "路由器的wifi密码怎么改？",
            "{small}号航站楼，C{price}登机口，座位{small}F",
            "昨晚吃披萨花了{price}块",
            "邻居家孩子有自闭症，很喜欢火车",
        ],
    },
    "es": {
        "secret": [
            "la combinación del candado de la bici es {pin}",
            "la caja fuerte se abre con {pin}",
            "portátil del trabajo: usuario dlee, clave {pw}",
        ],
        "special": [
            "empecé la diálisis el mes pasado",
            "desde el ictus camino con bastón",
            "como persona trans, odio los formularios",
        ],
        "benign": [
            "mi padre siempre olvida su contraseña",
            "mi compañera apuntó el PIN en un pósit, qué peligro",
            "¿cómo cambio la contraseña del wifi del router?",
            "terminal {small}, puerta C{price}, asiento {small}F",
            "anoche gasté {price} euros en pizza",
            "el hijo del vecino tiene autismo y le encantan los trenes",
        ],
    },
    "de": {
        "secret": [
            "die Zahlenkombination vom Fahrradschloss ist {pin}",
            "der Safe im Schrank geht mit {pin} auf",
            "Dienstlaptop: Benutzer dlee, Kennwort {pw}",
        ],
        "special": [
            "seit letztem Monat bin ich an der Dialyse",
            "nach meinem Schlaganfall gehe ich am Stock",
            "als trans Person hasse ich Formulare",
        ],
        "benign": [
            "mein Vater vergisst ständig sein Passwort",
            "meine Kollegin hat ihre PIN auf einen Zettel geschrieben, gefährlich",
            "wie ändere ich das WLAN-Passwort am Router?",
            "Terminal {small}, Gate C{price}, Sitz {small}F",
            "gestern Abend {price} Euro für Pizza ausgegeben",
            "der Sohn vom Nachbarn ist Autist und liebt Züge",
        ],
    },
    "fr": {
        "secret": [
            "la combinaison de l'antivol du vélo est {pin}",
            "le coffre-fort s'ouvre avec {pin}",
            "PC du boulot : utilisateur dlee, mdp {pw}",
        ],
        "special": [
            "j'ai commencé la dialyse le mois dernier",
            "depuis mon AVC je marche avec une canne",
            "en tant que personne trans, je déteste les formulaires",
        ],
        "benign": [
            "mon père oublie tout le temps son mot de passe",
            "ma collègue a noté son code PIN sur un post-it, quelle idée",
            "comment changer le mot de passe wifi de la box ?",
            "terminal {small}, porte C{price}, siège {small}F",
            "hier soir j'ai dépensé {price} euros en pizza",
            "le fils du voisin est autiste et adore les trains",
        ],
    },
    "ja": {
        "secret": [
            "自転車のダイヤルロックは{pin}",
            "金庫は{pin}で開きます",
            "会社のPC、ユーザーはsato、パスは{pw}",
        ],
        "special": [
            "先月から人工透析を始めました",
            "脳卒中のあと杖をついて歩いています",
            "トランスジェンダーです",
        ],
        "benign": [
            "父はいつもパスワードを忘れる",
            "同僚が暗証番号を付箋に書いていて危ない",
            "ルーターのWi-Fiパスワードはどう変えるの？",
            "第{small}ターミナル、C{price}ゲート、座席{small}F",
            "昨日の夜ピザに{price}ドル使った",
            "隣の家の子は自閉症で電車が大好き",
        ],
    },
    "pt": {
        "secret": [
            "o segredo do cadeado da bike é {pin}",
            "o cofre abre com {pin}",
            "notebook do trabalho: usuário dlee, senha {pw}",
        ],
        "special": [
            "comecei a diálise no mês passado",
            "depois do AVC ando de bengala",
            "como pessoa trans, odeio formulários",
        ],
        "benign": [
            "meu pai sempre esquece a senha dele",
            "minha colega anotou o PIN num post-it, perigoso",
            "como eu mudo a senha do wifi no roteador?",
            "terminal {small}, portão C{price}, assento {small}F",
            "gastei {price} reais em pizza ontem",
            "o filho do vizinho é autista e adora trens",
        ],
    },
}
"""Added after the first evaluation set (``tests/data/clf_eval.jsonl``) showed classes the
first round lacked: talk about someone else's password with no value, travel codes and small
spending (benign), combination locks and safes, treatments and identities said without a
diagnosis word (sensitive). Generated after round 1 with the same RNG, so round 1 is unchanged;
judged on ``tests/data/clf_eval2.jsonl``, written after this round was trained."""


PREFIXES: dict[str, list[str]] = {
    "en": ["", "", "btw ", "just so you know, ", "fyi: ", "ok so "],
    "zh": ["", "", "顺便说一下，", "跟你说，", "对了，"],
    "es": ["", "", "por cierto, ", "para que lo sepas, ", "oye, "],
    "de": ["", "", "übrigens, ", "nur damit du es weißt: ", "also, "],
    "fr": ["", "", "au fait, ", "pour info, ", "bon, "],
    "ja": ["", "", "ちなみに、", "念のため、", "えっと、"],
    "pt": ["", "", "aliás, ", "só pra você saber, ", "então, "],
}
"""Openers drawn for each example, so a template without slots still varies."""


def generate(
    seed: int = SEED, fills: int = FILLS, *, with_round_2: bool = True
) -> list[dict[str, object]]:
    """Every template filled ``fills`` times (deduplicated), in a fixed order."""
    rng = random.Random(seed)
    seen: set[str] = set()
    out: list[dict[str, object]] = []
    rounds = [(lang, cls, "", ts) for lang, c in TEMPLATES.items() for cls, ts in c.items()]
    if with_round_2:
        rounds += [(lang, cls, "r2-", ts) for lang, c in ROUND_2.items() for cls, ts in c.items()]
    for lang, cls, tag, templates in rounds:
        for t, template in enumerate(templates):
            for _ in range(fills):
                text = rng.choice(PREFIXES[lang]) + template.format(
                    **{k: f(rng) for k, f in SLOTS.items()}
                )
                if text in seen:
                    continue
                seen.add(text)
                label = int(cls != "benign")
                row = {
                    "lang": lang,
                    "class": cls,
                    "label": label,
                    "template": f"{tag}{lang}-{cls}-{t}",
                }
                out.append({**row, "text": text})
    return out


def main() -> None:
    round_1 = "--round-1" in sys.argv[1:]
    for row in generate(with_round_2=not round_1):
        sys.stdout.write(json.dumps(row, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()

"""Identity vocabularies: role heads, places, diets, time zones and words that are not names."""

from __future__ import annotations

import re

from userlore.extract.lexical import _alt, _rx, _words

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

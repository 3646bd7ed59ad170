"""Special-category vocabularies (health, religion, orientation...): a lexicon, as data."""

from __future__ import annotations

import re
from typing import Final

from userlore.policy.findings import _words

# --------------------------------------------------------------------------------------------
# Special categories: a lexicon, and a check that the statement is about the user
# --------------------------------------------------------------------------------------------

# kind: "cond" (condition, medication, practice: a self subject within a few words),
# "ident" (identity word: needs a copula frame such as "I'm a ..."), "poss" (needs "my").
_EN_LEXICON_SRC: Final = {
    ("health", "cond"): """
        diabetes|diabetic|prediabetes|prediabetic|insulin|metformin|ozempic|wegovy|mounjaro
        |semaglutide|hypertension|high blood pressure|high cholesterol|asthma|asthmatic|inhaler
        |epilepsy|epileptic|seizures|seizure disorder|migraine|migraines|cancer|leukemia|lymphoma
        |melanoma|tumor|tumour|chemo|chemotherapy|radiation therapy|radiotherapy|dialysis
        |hemodialysis|haemodialysis|hiv
        |hiv positive|hepatitis|tuberculosis|lupus|multiple sclerosis|crohn's|crohns|colitis|ibs
        |celiac|coeliac|arthritis|rheumatoid|fibromyalgia|chronic fatigue|endometriosis|pcos
        |infertility|infertile|ivf|pregnant|pregnancy|miscarriage|trimester|postpartum|menopause
        |adhd|autism|autistic|asperger's|aspergers|dyslexia|dyslexic|depression|depressed
        |anxiety|anxiety disorder|panic attacks|panic disorder|ptsd|ocd|bipolar|schizophrenia
        |schizophrenic|eating disorder|anorexia|anorexic|bulimia|bulimic|insomnia|sleep apnea
        |suicidal|self-harm|self harm|antidepressants|antidepressant|ssri|ssris|sertraline
        |zoloft|prozac|fluoxetine|lexapro|escitalopram|wellbutrin|bupropion|xanax|alprazolam
        |adderall|ritalin|vyvanse|lithium|seroquel|quetiapine|abilify|lamotrigine|lamictal
        |birth control|prep|methadone|suboxone|naltrexone|hormone therapy|hrt|blood thinners
        |warfarin|eliquis|levothyroxine|hypothyroidism|hyperthyroidism|hashimoto's|heart disease
        |heart condition|heart attack|stroke|arrhythmia|afib|pacemaker|kidney disease
        |kidney failure|liver disease|cirrhosis|sickle cell|cystic fibrosis|parkinson's
        |parkinsons|alzheimer's|alzheimers|dementia|long covid|covid|chronic pain|chronic illness
        |gout|psoriasis|eczema|hearing loss|deaf|hard of hearing|hearing aid|hearing aids
        |visually impaired|partially sighted|low vision|sight loss|legally blind|blind|colorblind
        |color blind|colour blind|cochlear implant|prosthetic|prosthesis|wheelchair|paralyzed
        |paraplegic|quadriplegic|amputee|disability|disabled|therapy|therapist|psychiatrist|psychologist|oncologist|endocrinologist
        |cardiologist|rehab|addiction|alcoholic|alcoholism|sober
        |recovering addict|opioids|diagnosed|diagnosis|allergic|allergy|allergies|anaphylaxis
        |anaphylactic|epipen|intolerant|intolerance|lactose intolerant|medication|medications
        |meds|prescription|surgery|blood type|blood sugar|a1c|viral load|concussion
        |cerebral palsy|down syndrome|tourette's|tourettes|glaucoma
        |cataracts|sciatica|herniated disc|scoliosis|anemia|anemic|hemophilia|stutter|stammer
        |tinnitus|vertigo|herpes|chlamydia|gonorrhea|syphilis|hpv|incontinence
        |erectile dysfunction|hormones|expecting a baby|expecting twins|expecting our first
        |expecting my first|weight loss drug|pneumonia|bronchitis|copd
    """,
    (
        "health",
        "poss",
    ): "blood pressure|cholesterol|bmi",
    ("genetic", "cond"): "brca|brca1|brca2|genetic mutation|apoe4",
    ("genetic", "poss"): "dna|genome|23andme|genetic test|genetic testing|genome sequencing",
    ("religion", "ident"): """
        muslim|christian|catholic|protestant|jewish|jew|hindu|buddhist|sikh|mormon|evangelical
        |baptist|methodist|lutheran|anglican|presbyterian|pentecostal|jehovah's witness|quaker
        |atheist|agnostic|pagan|wiccan|taoist|jain|bahai|bahá'í|sunni|shia|shiite|rastafarian
        |zoroastrian|unitarian|adventist|born-again christian|orthodox christian|churchgoer
        |religious|lds|latter-day saint|latter day saint|shinto|shintoist|daoist|animist|druze
        |yazidi|alevi|coptic|copt|greek orthodox|russian orthodox|seventh-day adventist
        |shomer shabbos|shomer shabbat|shomer shabbes
    """,
    ("religion", "cond"): """
        islam|christianity|judaism|hinduism|buddhism|sikhism|catholicism|ramadan
        |for lent|during lent|lenten|observing lent
        |yom kippur|shabbat|shabbos|shabbes|sabbath|hanukkah|chanukah|kosher|halal|hijab|niqab
        |turban|yarmulke|kippah|bible study|passover|seder|passover seder|diwali|puja
        |prayer group|pray|prayers|mass|church|mosque|synagogue|gurdwara|parish|congregation
        |pastor|imam|rabbi|priest|faith|god|allah|jesus|baptized|baptised|bar mitzvah
        |bat mitzvah|confirmation class
    """,
    ("sexual_orientation", "ident"): """
        gay|lesbian|bisexual|bi|queer|pansexual|asexual|homosexual|heterosexual|transgender
        |trans|nonbinary|non-binary|non binary|genderqueer|genderfluid|intersex|lgbt|lgbtq
        |trans woman|trans man|closeted
    """,
    ("ethnicity", "ident"): """
        hispanic|latino|latina|latinx|african american|african-american|black|asian american
        |caucasian|native american|indigenous|aboriginal|first nations|pacific islander|arab
        |middle eastern|roma|romani|uyghur|uighur|tibetan|kurdish|mixed race|mixed-race|biracial
        |multiracial|white|asian|hmong|māori|maori|han chinese
    """,
    ("ethnicity", "cond"): "descent|ethnicity|ethnic background",
    ("political_opinion", "ident"): """
        democrat|republican|tory|socialist|communist|libertarian|leftist|left-wing|right-wing
        |maga|trump supporter|biden supporter|social democrat|anarchist|marxist|pro-life
        |pro-choice|labour voter|tory voter|conservative|liberal|progressive|green party member
        |party member|ccp member|communist party member|feminist|nationalist|zionist
        |anti-zionist|monarchist|republican voter|democrat voter
    """,
    ("trade_union", "ident"): "union member|shop steward|union rep|trade unionist",
    ("biometric", "poss"): """
        fingerprint|fingerprints|faceprint|face scan|facial scan|facial geometry
        |facial recognition data|voiceprint|voice print|iris scan|retina scan|retinal scan
        |palm print|biometric data|biometrics|face template
    """,
}


def _build_lexicon() -> dict[str, list[tuple[tuple[str, ...], str, str]]]:
    lex: dict[str, list[tuple[tuple[str, ...], str, str]]] = {}
    for (category, kind), src in _EN_LEXICON_SRC.items():
        for term in src.split("|"):
            words = tuple(_EN_WORD.findall(term.strip().lower()))
            if words:
                lex.setdefault(words[0], []).append((words, category, kind))
    for entries in lex.values():
        entries.sort(key=lambda e: -len(e[0]))
    return lex


_EN_WORD = re.compile(r"[A-Za-z0-9À-ÖØ-öø-ɏ]+(?:'[A-Za-z0-9À-ÖØ-öø-ɏ]+)?")
_EN_LEXICON: Final = _build_lexicon()
_EN_FIRST: Final = frozenset(_EN_LEXICON)
_EN_FIRST_PLURAL: Final = frozenset(
    f"{w}s" for w, entries in _EN_LEXICON.items() if any(e[2] == "ident" for e in entries)
)

_SELF: Final = frozenset(
    {"i", "i'm", "im", "i've", "ive", "i'd", "i'll", "me", "my", "mine", "myself", "user",
     "user's"}
)  # fmt: skip
_BLOCK_BETWEEN: Final = _words(
    """
    friend friends mom mum mother dad father parents parent brother sister sibling siblings
    son daughter kid kids child children baby wife husband spouse partner boyfriend
    girlfriend fiancé fiance fiancee grandma grandmother grandpa grandfather grandparents
    nan nana nanna gran granny grandad granddad
    aunt uncle cousin niece nephew family relative relatives dog dogs cat cats pet pets
    puppy kitten horse patient patients client clients customer customers colleague
    colleagues coworker coworkers co boss manager employee employees neighbor neighbour
    neighbors neighbours roommate teacher student students classmate classmates team
    teammate mate mates buddy buddies bestie pal pals housemate housemates flatmate
    people person someone somebody everyone anyone he she they him her them his hers
    their theirs who whose whom character protagonist hero author celebrity users population
    community members about regarding research researching researcher study studies studying
    article articles essay paper papers book books podcast documentary course class lecture
    lectures topic history news report reports story stories novel movie film show writing
    write wrote reading read learn learning teaching teach taught explain explaining
    explained define definition what how why whether cure curing prevent preventing
    prevention treat treating treats working work works job company startup app apps website
    project projects code coding database dataset volunteer volunteering donate donated
    donating fundraiser charity organizing organize interested curious wondering wonder know
    knows heard hear saw watched watching seen translate translating translation summarize
    summary quiz exam homework assignment thesis dissertation blog post tweet joke jokes
    meme game playing play role pretend hypothetical hypothetically imagine suppose
    fictional fiction draft drafting campaign policy policies law laws debate debating
    discuss discussing discussion question questions quote sell selling sold market
    marketing design designing build building developing develop grant analyze analyzing
    analysing survey interview interviewing covering cover reviewing review editing
    patient's
    """
)
_BLOCK_AFTER: Final = _words(
    """
    research researcher researchers study studies awareness app apps clinic clinics ward
    unit center centre foundation charity society association fundraiser walk run month week
    day conference summit industry market epidemic rates rate statistics prevalence patients
    patient community communities population people friends friend neighbor neighbors
    neighbours colleague colleagues coworker coworkers family families students student
    customers clients voters groups group culture cultures history literature art
    architecture music food foods cuisine restaurant restaurants recipe recipes dishes
    cookbook holidays holiday festival wedding weddings scholar scholars theology philosophy
    specialist specialists doctor doctors nurse nurses educator educators advocate advocates
    expert experts scientist scientists professor teacher guidelines guide book books
    article articles paper papers essay documentary podcast course class module dataset
    model policy cells cat dog pet character characters protagonist jokes memes friendly
    diet stocks stock company companies startup cure
    cures kid kids son daughter mom dad wife husband partner boyfriend girlfriend brother
    sister mother father parents children child baby member members couple couples bar bars
    club clubs movie movies film films show shows song songs novel novels label
    labels vote votes candidate candidates media press news channel
    station rules restrictions lockdown vaccine vaccines test tests testing pandemic
    investor investors estimate estimates approach driver drivers eater spender arts rock
    reader sensor scanner unlock login insurance dior bale
    """
)
_PROVIDER_TERMS: Final = frozenset(
    {"therapist", "psychiatrist", "psychologist", "oncologist", "endocrinologist", "cardiologist",
     "counselor", "counsellor", "pastor", "imam", "rabbi", "priest", "surgery", "therapy"}
)  # fmt: skip
_NEEDS_ARTICLE: Final = frozenset(
    {"conservative", "liberal", "progressive", "feminist", "nationalist", "white", "religious"}
)  # fmt: skip
_IDENT_MODIFIERS: Final = _words(
    """
    a an the also actually really very quite pretty proudly openly fully proud practicing
    practising devout observant lifelong life-long registered card-carrying staunch
    committed religious strict lapsed non-practicing non-practising born-again cultural
    culturally secular orthodox reform reformed conservative liberal devoted faithful gay
    queer young old married single closeted out black white female male trans cis christian
    sunni shia shiite roman evangelical politically fiscally socially member of not both
    half bisexual lesbian woman man hardcore diehard die-hard loyal long-time longtime
    raised born brought up still now as
    self-identified identifying strong ex former non life long born again card carrying self
    identified die hard time labour labor democratic green communist socialist tory gop ccp
    cpc snp ukip afd cdu spd fdp party
    """
)
_COPULA_PREFIX = re.compile(
    r"(?i)(?:\b(?:i\s*'?\s*m|i\s+am|i\s+was|i've\s+been|i\s+have\s+been|i\s+became|i\s+identify"
    r"\s+as|i\s+came\s+out\s+as|i\s+grew\s+up|i\s+was\s+raised|i\s+was\s+born|identif(?:y|ies)"
    r"\s+as|came\s+out\s+as|user\s+is|the\s+user\s+is|i'm\s+not|am\s+i)|(?:^|[.,;:!?]\s*|\band\s+)"
    r"as\s+an?|(?:^|[.;:!?\n]\s*)(?:is|was|identifies\s+as))\s+(?P<mods>(?:[\w']+(?:\s+|-)){0,5})$"
)
_PRACTICE_VERBS = re.compile(
    r"(?i)\b(?:i|i'm|im|user|we|we're|we've)\s+(?:\w+\s+){0,2}?(?:go\s+to|goes\s+to|going\s+to|attend|attending"
    r"|pray|praying|worship|worshipping|belong\s+to|converted\s+to|convert\s+to|reverted\s+to"
    r"|practice|practise|practicing|practising|follow|observe|observing|keep|keeping|eat|only\s+eat"
    r"|wear|wearing|fast|fasting|celebrate|light|lighting|host|hold|do|believe\s+in|raised|baptized|baptised|was\s+baptized"
    r"|had\s+my|member\s+of|devoted\s+to|found)\s+(?:[\w'\-]+\s+){0,3}$"
)
_RELIGION_VERB_TERMS: Final = frozenset({"pray", "prayers", "baptized", "baptised"})
# Group self-statements ("we are proud Catholics", "our family is Muslim", "my wife and I are
# Jewish") disclose the user's own identity too. They count for the identity categories and for
# religious practice, not for health ("we treat diabetes", "we had an asthma case"), and only when
# the identity word ends the phrase ("we're a Catholic school" is about an institution).
_GROUP_COPULA = re.compile(
    r"(?i)\b(?:we\s*'\s*re|we\s+are|we\s+were|we(?:\s+have|\s*'\s*ve)\s+(?:always\s+)?been"
    r"|we\s+became|(?:both|all)\s+of\s+us\s+are|(?:our|my)\s+(?:whole\s+|entire\s+)?"
    r"(?:family|household)\s+(?:is|are|was|were|has\s+always\s+been)|(?:my\s+)?(?:family"
    r"|wife|husband|partner|spouse|parents)\s+and\s+i\s+are)"
    r"\s+(?P<mods>(?:[\w']+(?:\s+|-)){0,5})$"
)
_GROUP_CATEGORIES: Final = frozenset(
    {"religion", "ethnicity", "political_opinion", "sexual_orientation", "trade_union"}
)
_GROUP_SELF: Final = frozenset({"we", "we're", "we've"})
_GROUP_MODS: Final = frozenset({"all", "both"})
_GROUP_NEXT_OK: Final = _words(
    "and too now here by since so but ourselves both all family household"
)
_RELIGION_MY_TERMS: Final = frozenset(
    {"church", "mosque", "synagogue", "gurdwara", "parish", "congregation", "pastor", "imam",
     "rabbi", "priest", "my faith", "bar mitzvah", "bat mitzvah", "hijab", "faith"}
)  # fmt: skip
_RELIGION_FOOD: Final = frozenset({"food", "foods", "meat", "meals", "diet", "restaurants"})
_NEEDS_TAKE: Final = frozenset({"prep", "lithium", "hormones"})
_TAKE_WORDS: Final = frozenset(
    {"on", "taking", "take", "takes", "took", "started", "prescribed", "using", "stopped"}
)
_NEEDS_COPULA: Final = frozenset(
    {"disabled", "depressed", "sober", "deaf", "paralyzed", "blind", "colorblind"}
)
# "I'm blind" and "I'm legally blind" are disclosures; "I'm doing a blind taste test", "a
# double-blind study" and "I'm blind to its appeal" are not: only these words may stand between.
_BLIND_BETWEEN: Final = _words(
    "am was been have has become became going gone legally completely totally partially nearly"
    " almost functionally mostly now also"
)
_BLIND_NEXT_BAD: Final = _words("to spot taste review reviewer date side eye study trial test")
_COPULA_WORDS: Final = frozenset({"am", "was", "been", "is", "be", "being", "became", "become"})
_CLAUSE_BREAK = re.compile(r"[.!?;\n。！？；]")
_QUOTED_EXAMPLE = re.compile(
    r"(?i)\b(?:translate|translation\s+of|say|saying|write|spell|pronounce|means?|phrase"
    r"|sentence|quote|how\s+do\s+you\s+say|in\s+\w+\s+is)\b[^\n]{0,20}?[\"'“‘«]\s*$"
)

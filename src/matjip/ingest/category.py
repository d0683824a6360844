"""Map a crawled category path to a small, user-meaningful cuisine (docs/design.md, step 1).

Crawled categories are Kakao/Naver paths such as ``"한식>육류,고기>족발,보쌈"``, bare leaves such
as ``"육류"`` or even brand names such as ``"명륜진사갈비"``. Search needs one coarse cuisine
per restaurant (for filters like "중식 말고") and keeps the rest of the path as ``sub_category``.

The taxonomy (:data:`CUISINES`) is the cuisine list of :mod:`matjip.vocab`; its data file
``data/vocabulary.toml`` says what each cuisine covers (한식: meat grills, stews, soups, noodles,
seafood and 회, …; 기타: unknown, generic "음식점"/"기타"/food courts with nothing more specific).

Decisions: pizza stays under 양식 (as Kakao files it); ``"베이커리,카페"`` is a café unless the
title says bakery; ``간식`` is split by its second level (bakery, dessert, 치킨 for 닭강정,
패스트푸드 for 토스트). The first path level decides, except for the generic levels
(``음식점``, ``간식``, ``퓨전요리``, ``기타``) which defer to the next level. A level with no
table entry falls back to keyword rules (``갈비`` → 한식, ``피자`` → 양식, ``커피`` → 카페·디저트,
…), then to a short brand table. The title only refines generic or ambiguous categories
(``기타``, ``음식점``, ``면류``, ``퓨전요리``, ``간식``, ``베이커리,카페``, empty); it never
overrides a clear category.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from matjip.vocab import check_names, vocab

CUISINES: Final[tuple[str, ...]] = vocab().cuisines
UNKNOWN: Final = vocab().unknown_cuisine

# the cuisines the tables below map to, by name (checked against the vocabulary at import)
_KO, _CN, _JP, _WE, _AS = "한식", "중식", "일식", "양식", "아시아"
_SN, _CH, _FF, _CA, _BA, _BAR, _BU = "분식", "치킨", "패스트푸드", "카페·디저트", "베이커리", "술집", "뷔페"
check_names((_KO, _CN, _JP, _WE, _AS, _SN, _CH, _FF, _CA, _BA, _BAR, _BU), CUISINES, "ingest.category")


@dataclass(frozen=True)
class CategoryInfo:
    original: str  # the category string as crawled
    cuisine: str  # one of CUISINES
    sub_category: str | None  # the rest of the path, e.g. "육류,고기>족발,보쌈"


def _table(groups: dict[str, str]) -> dict[str, str]:
    """``{cuisine: "space separated names"}`` -> ``{name: cuisine}``."""
    return {name: cuisine for cuisine, names in groups.items() for name in names.split()}


# Category levels (Kakao and Naver node names), compared with spaces removed.
_LEVELS: Final[dict[str, str]] = _table(
    {
        _KO: "한식 육류,고기 육류 고기 육류,고기요리 돼지고기구이 소고기구이 해물,생선 해물,생선요리 해산물"
        " 회 생선회 순대 순대,순댓국 국밥 냉면 국수 칼국수 칼국수,만두 찌개,전골 찌개,국밥 감자탕 해장국"
        " 아구 장어 두부전문점 죽 오리 추어 조개 매운탕,해물탕 게,대게 한정식 복어 설렁탕 곰탕 쌈밥"
        " 사철탕,영양탕 굴,전복 수제비 주먹밥 삼계탕 기사식당 구내식당 갈비 족발,보쌈 곱창,막창 삼겹살"
        " 불고기,두루치기 닭요리 닭갈비 전,빈대떡 샤브샤브 도시락 도시락,컵밥 퓨전한식 백반,가정식"
        " 한식당 향토음식 보리밥 낙지 쭈꾸미 주꾸미 아귀찜,해물찜 떡갈비 육회 한우 정육식당 게장"
        # Naver leaf categories (issue 12)
        " 오리요리 복어요리 불닭"
        # noodles of any origin: Korean unless the title says otherwise (see _REFINABLE)
        " 면류",
        _CN: "중식 중화요리 중국요리 중식당 양꼬치 퓨전중식 마라탕 딤섬",
        _JP: "일식 일식집 일식당 초밥,롤 돈까스,우동 돈가스 참치회 일본식라면 라멘 퓨전일식 철판요리"
        " 우동,소바 오니기리 덮밥 카레 일본식카레 회전초밥 오마카세",
        _WE: "양식 이탈리안 이탈리아음식 피자 햄버거 스테이크,립 멕시칸,브라질 멕시코,남미음식 프랑스음식"
        " 스페인음식 패밀리레스토랑 샐러드 양식당 브런치 그리스음식 독일음식 바베큐",
        _AS: "아시아음식 동남아음식 베트남음식 태국음식 인도음식 튀르키예음식 터키음식 인도네시아음식"
        " 필리핀음식 아시아 쌀국수 중동음식 네팔음식",
        _SN: "분식 떡볶이 김밥 라면 만두 종합분식 분식점 어묵",
        _CH: "치킨 치킨,닭강정 닭강정 통닭 후라이드",
        _FF: "패스트푸드 샌드위치 토스트 샌드위치,샐러드 핫도그 버거",
        _CA: "카페 커피전문점 디저트카페 테마카페 애견카페 고양이카페 보드카페 만화카페 사주카페 떡카페 다방"
        " 카페,디저트 베이커리,카페 브런치카페 아이스크림 떡,한과 초콜릿 빙수 디저트 북카페 키즈카페"
        " 전통찻집 차 와플 과일,주스전문점 스무디",
        _BA: "제과,베이커리 베이커리 도넛 제과점 빵집",
        _BAR: "술집 호프,요리주점 요리주점 일본식주점 이자카야 실내포장마차 포장마차 오뎅바 와인바 칵테일바"
        " 맥주,호프 바(BAR) 전통,민속주점 민속주점 단란주점 라이브카페 오뎅,꼬치",
        _BU: "뷔페 고기뷔페 해산물뷔페 한식뷔페 샐러드뷔페 초밥뷔페",
    }
)

# Generic levels: the next path level decides when it can; otherwise this default (None = 기타).
_DEFER: Final[dict[str, str | None]] = {
    "음식점": None,
    "기타": None,
    "푸드코트": None,
    "간식": _CA,
    "퓨전요리": _WE,
}

# Single-level categories the title may refine, with the cuisines it may move them to (None = any).
_REFINABLE: Final[dict[str, frozenset[str] | None]] = {
    "음식점": None,
    "기타": None,
    "푸드코트": None,
    "간식": frozenset({_BA, _SN, _CH, _FF}),
    "퓨전요리": frozenset({_KO, _CN, _JP, _AS, _SN}),
    "면류": frozenset({_JP, _CN, _AS, _SN}),
    "베이커리,카페": frozenset({_BA}),
}

# A single level that just names the cuisine adds nothing as a sub-category.
_NO_SUB: Final[frozenset[str]] = frozenset(
    _table(
        {
            "": "음식점 기타 한식 중식 중화요리 일식 양식 분식 술집 치킨 패스트푸드 뷔페 카페 간식 아시아음식 카페,디저트"
        }
    )
)

# Keyword rules on a level (or the title), first match wins. Order matters: bars and buffets
# before dishes, fried chicken before 한식 (닭), Asian origin words before 국수.
_KEYWORD_RULES: Final[tuple[tuple[re.Pattern[str], str], ...]] = tuple(
    (re.compile(p, re.IGNORECASE), c)
    for p, c in (
        (r"뷔페|buffet", _BU),
        (
            r"주점|포차|포장마차|호프|맥주|비어|와인|칵테일|이자카야|선술집|양조장|막걸리|(?:오뎅|위스키|라운지)바"
            r"|\bpub\b|\bbar\b",
            _BAR,
        ),
        (r"치킨|통닭|강정|chicken", _CH),
        (r"떡볶이|김밥|분식|떡꼬치|라볶이", _SN),
        (r"버거|샌드위치|토스트|핫도그|burger|sandwich|subway", _FF),
        (
            r"쌀국수|베트남|태국|타이\b|인도|인디아|탄두리|네팔|커리|팟타이|분짜|월남쌈|케밥|튀르키예|터키|\bpho\b",
            _AS,
        ),
        (r"중화|중식|중국|반점|짜장|짬뽕|마라|양꼬치|훠궈|딤섬|탕수육|차이나|홍콩|china", _CN),
        (
            r"일식|스시|초밥|사시미|오마카세|라멘|멘야|이찌멘|츠케|하카타|돈코츠|우동|소바|돈까스|돈가스|돈카츠|가츠|카츠|텐동|규동|덮밥|야끼|카레"
            r"|sushi|ramen",
            _JP,
        ),
        (r"카페|커피|디저트|아이스크림|빙수|젤라또|마카롱|케이크|케익|탕후루|다방|찻집|cafe|coffee", _CA),
        (r"베이커리|제과|과자점|빵|베이글|브레드|도넛|도너츠|꽈배기|bakery|bread", _BA),
        (
            r"양식|이탈리|프렌치|프랑스|스페인|멕시|피자|파스타|스테이크|브런치|비스트로|리조또|pizza|pasta|steak",
            _WE,
        ),
        (
            r"한식|국밥|찌개|전골|갈비|삼겹|고기|족발|보쌈|곱창|막창|냉면|국수|칼국수|비빔밥|백반|한정식|순대|해장"
            r"|설렁탕|곰탕|감자탕|삼계탕|탕$|닭갈비|찜닭|낙지|쭈꾸미|주꾸미|횟집|수산|대게|아구|아귀|장어|추어"
            r"|조개|생선|게장|두부|불고기|두루치기|정육식당|정육점|한우|갈매기|본죽|죽이야기|샤브|수제비|쌈밥|기사식당|한식당",
            _KO,
        ),
    )
)

# Chain brands that appear as bare categories and carry no keyword (Kakao files them under
# these cuisines in its own paths).
_BRANDS: Final[dict[str, str]] = _table(
    {
        _KO: "명륜진사갈비 송추가마골 원조부안집 돈수백 연안식당 본죽 이차돌 새마을식당 육대장",
        _CN: "라화쿵부 홍콩반점0410",
        _JP: "긴자료코 기소야 스시오 아비꼬 코코이찌방야 미소야 사보텐 백소정",
        _WE: "매드포갈릭 아웃백스테이크하우스 빕스 애슐리",
        _AS: "미분당 에머이 포메인 호아빈 생어거스틴",
        _SN: "바르다김선생 고봉민김밥인 김가네 스쿨푸드 청년다방 죠스떡볶이",
        _CH: "지코바 계림원 BBQ BHC 교촌 페리카나 굽네치킨 네네치킨",
        _FF: "롯데리아 맘스터치 맥도날드 버거킹 KFC 써브웨이 에그드랍 이삭토스트 쉐이크쉑",
        _CA: "할리스 파스쿠찌 바나프레소 설빙 배스킨라빈스 스타벅스 투썸플레이스 빽다방 커피빈 이디야"
        " 메가커피 컴포즈커피 엔제리너스 폴바셋",
        _BA: "파리바게뜨 뚜레쥬르 파리크라상 던킨 크리스피크림도넛 성심당",
    }
)

_SEP = re.compile(r"\s*>\s*")
_SPACES = re.compile(r"\s+")


def _key(level: str) -> str:
    return _SPACES.sub("", level)


def _by_keyword(text: str, allowed: frozenset[str] | None = None) -> str | None:
    for pattern, cuisine in _KEYWORD_RULES:
        if (allowed is None or cuisine in allowed) and pattern.search(text):
            return cuisine
    return None


def _level_cuisine(level: str) -> str | None:
    """The cuisine a single level names, or None when it names none (generic or unknown)."""
    key = _key(level)
    if key in _DEFER:
        return None
    if key in _LEVELS:
        return _LEVELS[key]
    return _BRANDS.get(key) or _by_keyword(key)


def classify_category(category: str, title: str = "") -> CategoryInfo:
    """Classify a crawled ``category`` (``title`` only refines generic categories).

    >>> classify_category("한식>육류,고기>족발,보쌈")
    CategoryInfo(original='한식>육류,고기>족발,보쌈', cuisine='한식', sub_category='육류,고기>족발,보쌈')
    """
    original = category
    levels = [lv for lv in _SEP.split(category.strip()) if lv]
    # Naver prefixes food places with "음식점"; drop that level when more follow.
    while len(levels) > 1 and _key(levels[0]) == "음식점":
        levels = levels[1:]

    cuisine: str | None = None
    for level in levels:
        cuisine = _level_cuisine(level)
        if cuisine is not None:
            break
    if cuisine is None and levels:
        cuisine = _DEFER.get(_key(levels[0]))

    # The title refines only generic or ambiguous categories, within the cuisines allowed.
    head = _key(levels[0]) if len(levels) == 1 else None
    if title.strip() and (cuisine is None or not levels or head in _REFINABLE):
        allowed = None if cuisine is None or head is None else _REFINABLE[head]
        cuisine = _by_keyword(title, allowed) or cuisine

    if len(levels) > 1:
        sub: str | None = ">".join(levels[1:])
    elif len(levels) == 1 and _key(levels[0]) not in _NO_SUB:
        sub = levels[0]
    else:
        sub = None
    return CategoryInfo(original=original, cuisine=cuisine or UNKNOWN, sub_category=sub)

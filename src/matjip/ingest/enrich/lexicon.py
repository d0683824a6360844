"""Curated Korean lexicons for offline enrichment (seed 000 §5.2).

Every table maps a *canonical value* (what ends up in ``Restaurant.convenience`` and friends,
and what query understanding should normalise to) to the *surface variants* that signal it in
free text. Surface variants are matched against the raw text:

* a space inside a variant means "optional particle, then optional whitespace", so
  ``"주차 가능"`` also matches ``주차가 가능``, ``주차도 가능`` and ``주차가능``;
* a match must start where a Kiwi morpheme starts and end on a morpheme boundary, so ``뷰``
  never fires inside ``리뷰`` and ``룸`` never inside ``머쉬룸``;
* variants of predicates are given as stems/prefixes of the surface (``조용``, ``고급스러``)
  because the text is matched as written, not lemmatised.

Canonical order in each table is the order values appear in a document (stable output).
Negation is handled by :mod:`matjip.ingest.enrich.offline`, not here; this module only lists
words (including the explicitly negative surfaces such as ``노키즈존``).
"""

from __future__ import annotations

from typing import Final

from matjip.documents import EnrichField

Target = tuple[EnrichField, str]

CONVENIENCE: Final[dict[str, tuple[str, ...]]] = {
    "주차": (
        "주차",
        "주차장",
        "주차 가능",
        "주차 공간",
        "주차 자리",
        "주차 지원",
        "주차 편",
        "주차돼",
        "주차되",
        "주차 돼",
        "주차 되",
        "무료 주차",
        "전용 주차장",
        "발렛파킹",
        "발레파킹",
        "파킹",
        "차 가져가도",
        "차 끌고",
        "차 댈",
        "차 대고",
        "차 대기 편",
    ),
    "발렛": ("발렛", "발렛파킹", "발레파킹", "발레 파킹", "발렛 파킹", "대리주차", "대리 주차"),
    "배달": ("배달", "배달 가능", "배민", "배달의민족", "요기요", "쿠팡이츠", "딜리버리"),
    "포장": (
        "포장",
        "포장 가능",
        "포장해",
        "포장 주문",
        "테이크아웃",
        "테이크 아웃",
        "takeout",
        "take out",
        "투고",
    ),
    "예약": ("예약", "예약 가능", "예약제", "예약 필수", "캐치테이블", "네이버 예약"),
    "룸": (
        "룸",
        "개별룸",
        "개별 룸",
        "프라이빗룸",
        "프라이빗 룸",
        "단독룸",
        "단독 룸",
        "룸식",
        "방 있",
        "방이 따로",
        "별실",
        "개인실",
        "독립된 공간",
        "룸 있",
    ),
    "콜키지": ("콜키지", "콜키지 프리", "콜키지프리", "와인 반입", "주류 반입", "술 반입"),
    "반려동물": (
        "반려동물",
        "반려견",
        "애견",
        "애견동반",
        "애견 동반",
        "강아지 동반",
        "강아지랑",
        "강아지와",
        "펫프렌들리",
        "펫 프렌들리",
        "펫 동반",
        "펫존",
        "댕댕이",
    ),
    "와이파이": ("와이파이", "wifi", "wi-fi", "와파"),
    "24시": ("24시", "24시간", "24시간 영업", "24시간 운영", "밤새 영업"),
    "구워줌": (
        "구워주",
        "구워 주",
        "구워줘",
        "구워 줘",
        "구워드",
        "구워 드",
        "직접 구워",
        "직원분이 구워",
        "사장님이 구워",
        "다 구워",
        "알아서 구워",
    ),
    "단체석": ("단체석", "단체 예약", "단체룸", "단체 룸", "단체 손님", "단체 좌석", "대형 테이블", "긴 테이블"),
    "놀이방": ("놀이방", "키즈룸", "키즈 룸", "키즈존", "키즈 존", "키즈카페", "키즈 카페", "놀이 공간", "놀이시설"),
    "유아의자": ("유아의자", "유아 의자", "아기의자", "아기 의자", "아기 식탁의자", "유아용 의자"),
}

ATMOSPHERE: Final[dict[str, tuple[str, ...]]] = {
    "분위기 좋은": (
        "분위기 좋",
        "분위기 있",
        "분위기 최고",
        "분위기 맛집",
        "분위기 깡패",
        "분위기 굿",
        "분위기 짱",
        "분위기 너무 좋",
        "분위기 넘 좋",
        "분위기 좋아",
    ),
    "조용한": ("조용", "한적", "차분한", "차분하"),
    "아늑한": ("아늑", "포근"),
    "편안한": ("편안", "편한 분위기"),
    "로맨틱한": ("로맨틱", "낭만"),
    "이국적인": ("이국적", "현지 느낌", "현지 분위기", "외국 온 것 같", "외국에 온 것 같", "해외여행 온", "유럽 감성", "일본 감성"),
    "시끌벅적한": ("시끌벅적", "시끌시끌", "북적", "왁자지껄", "시끄럽", "시끄러", "활기차", "활기찬"),
    "깔끔한": ("깔끔", "깨끗", "청결", "정돈"),
    "쾌적한": ("쾌적",),
    "넓은": ("넓", "넓은 공간", "매장이 넓", "공간이 넓", "좌석이 많", "자리가 넉넉"),
    "모던한": ("모던", "세련", "심플한 인테리어"),
    "고급스러운": ("고급스러", "고급스럽", "고급진", "고급지", "럭셔리", "격식"),
    "정갈한": ("정갈",),
    "노포": ("노포", "오래된 가게", "옛날 감성", "옛날 분위기", "오래된 노포"),
    "한옥": ("한옥",),
    "뷰 좋은": (
        "뷰 좋",
        "뷰 맛집",
        "뷰 최고",
        "뷰가 예쁘",
        "전망 좋",
        "전망이 좋",
        "경치 좋",
        "경치가 좋",
        "창밖 경치",
        "한강뷰",
        "오션뷰",
        "시티뷰",
        "야경",
        "루프탑",
    ),
    "감성적인": ("감성", "감성적", "인스타 감성", "사진 맛집", "사진이 잘 나", "인테리어가 예쁘", "인테리어 예쁘", "예쁜 인테리어"),
    "아기자기한": ("아기자기",),
    "캐주얼한": ("캐주얼",),
    "힙한": ("힙한", "힙하", "힙해", "트렌디"),
}

OCCASION: Final[dict[str, tuple[str, ...]]] = {
    "데이트": ("데이트", "데이트 코스", "연인", "여자친구", "남자친구", "여친", "남친", "커플", "소개팅"),
    "회식": ("회식", "팀 회식", "부서 회식", "회사 동료", "직장 동료", "동료들이랑", "동료들과"),
    "단체": ("단체", "단체로", "단체 손님", "단체 예약", "단체석", "여럿이", "여러 명이"),
    "혼밥": ("혼밥", "혼자", "혼자서", "1인 식사", "혼술", "1인석", "바 좌석", "바테이블"),
    "가족": ("가족", "가족 외식", "가족 모임", "부모님", "어머니", "아버지", "엄마랑", "아빠랑", "온 가족", "식구"),
    "모임": ("모임", "가족 모임", "친구 모임", "계모임", "동창회", "동창 모임", "송년회", "연말 모임", "친구들이랑", "친구들과"),
    "술자리": (
        "술자리",
        "술 한잔",
        "술한잔",
        "한잔하기",
        "한잔 하기",
        "소주 한잔",
        "맥주 한잔",
        "막걸리 한잔",
        "2차",
        "술안주",
        "안주 맛집",
        "반주",
    ),
    "접대": ("접대", "비즈니스 미팅", "거래처", "귀한 손님"),
    "상견례": ("상견례",),
    "기념일": ("기념일", "생일", "생파", "프로포즈", "결혼기념일", "100일", "기념하"),
    "아이와": (
        "아이와",
        "아이랑",
        "아이들과",
        "아이들이랑",
        "애들이랑",
        "애들과",
        "아기랑",
        "아기와",
        "아이 데리고",
        "아기 데리고",
        "유모차",
        "어린이",
        "키즈 메뉴",
        "키즈메뉴",
    ),
    "점심": ("점심", "점심시간", "점심식사", "점심 식사", "런치", "직장인 점심", "점심 특선", "점심특선"),
    "저녁": ("저녁식사", "저녁 식사"),
    "해장": ("해장", "해장하기", "속풀이", "숙취"),
    "외식": ("외식",),
}

FEATURES: Final[dict[str, tuple[str, ...]]] = {
    "맛있는": ("맛있", "맛나", "존맛", "꿀맛", "맛도리", "jmt", "맛 좋"),
    "가성비": ("가성비", "가격 대비", "가격대비", "저렴", "착한 가격", "가격이 착", "가격도 착", "혜자", "싸고 맛", "합리적인 가격"),
    "친절한": ("친절", "친철", "상냥", "서비스 좋", "응대가 좋", "서비스가 좋"),
    "신선한": ("신선", "싱싱", "산지직송", "당일 손질"),
    "양 많은": ("양 많", "양이 많", "양도 많", "양이 푸짐", "푸짐", "양 푸짐", "양이 넉넉", "배 터지", "배터지", "양 넉넉"),
    "웨이팅": (
        "웨이팅",
        "대기 시간",
        "대기가 길",
        "대기 줄",
        "대기해야",
        "대기하",
        "대기 번호",
        "줄 서",
        "줄을 서",
        "줄서",
        "오픈런",
        "테이블링",
        "기다려야",
    ),
    "심야영업": ("늦게까지", "새벽까지", "늦은 시간까지", "늦은 시간에도", "심야", "밤늦게", "밤 늦게"),
    "방송출연": (
        "방송 출연",
        "방송에 나온",
        "방송에도 나온",
        "방송에 나왔",
        "방송 탄",
        "tv 출연",
        "tv에 나온",
        "티비에 나온",
        "티비 출연",
        "맛집 프로그램",
    ),
    "생활의 달인": ("생활의 달인", "생활의달인"),
    "수요미식회": ("수요미식회",),
    "백종원의 3대천왕": ("3대천왕", "3대 천왕"),
    "맛있는 녀석들": ("맛있는 녀석들", "맛있는녀석들", "맛녀석"),
    "줄서는식당": ("줄서는식당", "줄 서는 식당"),
    "성시경의 먹을텐데": ("먹을텐데", "성시경"),
    "미쉐린": ("미쉐린", "미슐랭", "빕구르망", "블루리본"),
    "무한리필": ("무한리필", "무한 리필", "리필 무료", "셀프바"),
    "신메뉴": ("신메뉴", "새로운 메뉴", "새 메뉴"),
    "리뉴얼": ("리뉴얼", "리모델링"),
    "재방문": ("재방문", "또 올게", "또 올께", "또 방문", "또 가고 싶", "단골"),
    "테라스": ("테라스", "야외석", "야외 좌석", "야외 테이블"),
    "현지인 맛집": ("현지인 맛집", "동네 맛집", "로컬 맛집"),
}

LEXICONS: Final[dict[EnrichField, dict[str, tuple[str, ...]]]] = {
    "convenience": CONVENIENCE,
    "atmosphere": ATMOSPHERE,
    "occasion": OCCASION,
    "features": FEATURES,
}

# Surfaces that count as a vote AGAINST a value (they are negative by themselves).
NEGATIVE_VARIANTS: Final[dict[Target, tuple[str, ...]]] = {
    ("convenience", "주차"): (
        "주차난",
        "주차 전쟁",
        "주차 지옥",
        "주차 헬",
        "주차 공간 부족",
        "공영주차장",
        "근처 주차장",
        "주차 공간이 협소",
    ),
    ("convenience", "놀이방"): ("노키즈존", "노키즈", "노 키즈존", "노 키즈"),
    ("occasion", "아이와"): ("노키즈존", "노키즈", "노 키즈존", "노 키즈", "아이 동반 불가", "어린이 출입 불가"),
    ("convenience", "반려동물"): ("노펫존", "노펫", "노 펫존", "애견 출입 불가", "반려동물 동반 불가", "반려동물 출입 금지"),
    ("convenience", "예약"): ("예약 불가", "예약 안 받", "노예약"),
    ("features", "맛있는"): ("맛없", "맛이 없", "노맛", "맛 없"),
    ("features", "친절한"): ("불친절", "싸가지", "불쾌"),
    ("features", "가성비"): ("가성비 별로", "가성비 최악", "비싸", "비쌈"),
    ("atmosphere", "깔끔한"): ("지저분", "더럽", "더러"),
    ("atmosphere", "조용한"): ("시끄럽", "시끄러"),
}

# Surfaces that cancel any positive match lying inside them (homographs, not negations).
EXCLUSIONS: Final[tuple[str, ...]] = (
    "포장마차",
    "실내포장",
    "머쉬룸",
    "쇼룸",
    "카펫",
    "방문",
    "방송",
    "리뷰",
    "단체 사진",
    "혼자 먹기엔 양이",
    "가족 같은",
    "가족같은",
    "예약 없이",
    "감성돔",
)

# A value that implies others (only positive votes propagate).
IMPLIES: Final[dict[Target, tuple[Target, ...]]] = {
    ("convenience", "발렛"): (("convenience", "주차"),),
    ("convenience", "단체석"): (("occasion", "단체"),),
    ("convenience", "놀이방"): (("occasion", "아이와"),),
    ("convenience", "유아의자"): (("occasion", "아이와"),),
    ("features", "생활의 달인"): (("features", "방송출연"),),
    ("features", "수요미식회"): (("features", "방송출연"),),
    ("features", "백종원의 3대천왕"): (("features", "방송출연"),),
    ("features", "맛있는 녀석들"): (("features", "방송출연"),),
    ("features", "줄서는식당"): (("features", "방송출연"),),
    ("features", "성시경의 먹을텐데"): (("features", "방송출연"),),
    ("convenience", "24시"): (("features", "심야영업"),),
}

# reviewKeywords (Kakao visitor tags: "what was good here", one vote per visitor) → value.
# Minimum counts: a single vote for a *subjective* strength (맛, 친절, 가성비, 분위기) is noise,
# so those need 2 votes; 주차 is a factual facility nobody praises when it does not exist, so
# one vote suffices. Additionally a subjective tag must hold ≥ 5% of all tag votes when the
# restaurant has ≥ 40 votes (a lone 2 among 300 votes says little).
REVIEW_KEYWORD_TAGS: Final[dict[str, tuple[EnrichField, str, int]]] = {
    "주차": ("convenience", "주차", 1),
    "분위기": ("atmosphere", "분위기 좋은", 2),
    "가성비": ("features", "가성비", 2),
    "친절": ("features", "친절한", 2),
    "맛": ("features", "맛있는", 2),
}
TAG_SHARE_MIN: Final[float] = 0.05
TAG_SHARE_FROM_TOTAL: Final[int] = 40

# Category rules (conservative; always recorded with evidence source "category").
# Each: (category path segments, matched exactly after splitting on ">") → targets.
CATEGORY_RULES: Final[tuple[tuple[tuple[str, ...], tuple[Target, ...]], ...]] = (
    (
        ("술집", "호프,요리주점", "일본식주점", "이자카야", "실내포장마차", "포장마차", "와인바", "칵테일바", "오뎅바", "전통,민속주점", "바(BAR)", "맥주,호프"),
        (("occasion", "술자리"),),
    ),
    (
        ("육류,고기", "육류", "고기", "삼겹살", "갈비", "곱창,막창", "양꼬치", "고기뷔페"),
        (("occasion", "회식"), ("occasion", "단체")),
    ),
    (("분식", "국밥", "찌개,국밥", "도시락", "패스트푸드", "기사식당"), (("occasion", "혼밥"),)),
    (("애견카페",), (("convenience", "반려동물"),)),
    (("해장국",), (("occasion", "해장"),)),
)
# For "육류,고기"-like rules only the *leaf* segment counts (한식>육류,고기>족발,보쌈 is not a
# grill house); the others match any segment.
CATEGORY_LEAF_ONLY: Final[frozenset[str]] = frozenset({"육류,고기", "육류", "고기"})

# Menu-name rules: (regex, target). Menu names are short, so plain regex search is enough.
MENU_RULES: Final[tuple[tuple[str, Target], ...]] = (
    (r"콜키지", ("convenience", "콜키지")),
    (r"(?<!실내)포장(?!마차)", ("convenience", "포장")),
    (r"테이크\s?아웃", ("convenience", "포장")),
    (r"점심|(?<!크)런치", ("occasion", "점심")),
    (r"혼밥", ("occasion", "혼밥")),
    (r"키즈|어린이", ("occasion", "아이와")),
    (r"해장", ("occasion", "해장")),
    (r"단체", ("occasion", "단체")),
)

# --- food -------------------------------------------------------------------------------------
# Dish names recognised in reviews even when the menu does not list them.
FOOD_DISHES: Final[frozenset[str]] = frozenset(
    """
    김치찌개 된장찌개 부대찌개 순두부찌개 동태찌개 고추장찌개 청국장 비지찌개 짜글이 김치찜 갈비찜 찜닭
    삼겹살 오겹살 대패삼겹살 목살 항정살 가브리살 갈매기살 돼지갈비 소갈비 la갈비 양념갈비 생갈비 갈비살
    차돌박이 차돌 우삼겹 등심 안심 채끝 살치살 토시살 안창살 부채살 한우 한돈 육회 육사시미 소고기 돼지고기
    불고기 제육볶음 제육 두루치기 닭갈비 닭볶음탕 닭도리탕 닭한마리 백숙 삼계탕 닭발 닭강정 치킨 후라이드
    양념치킨 간장치킨 통닭 족발 보쌈 곱창 막창 대창 곱창전골 순대 순댓국 순대국 국밥 돼지국밥 소머리국밥
    설렁탕 곰탕 갈비탕 도가니탕 해장국 뼈해장국 감자탕 콩나물국밥 내장탕 육개장 추어탕 매운탕 해물탕 알탕
    동태탕 대구탕 지리 연포탕 오리탕 오리백숙 오리주물럭 오리로스 훈제오리 냉면 물냉면 비빔냉면 밀면 막국수
    칼국수 바지락칼국수 수제비 잔치국수 비빔국수 콩국수 쌀국수 우동 소바 라멘 라면 짜장면 짬뽕 간짜장
    볶음밥 짜장밥 짬뽕밥 탕수육 깐풍기 유린기 깐쇼새우 멘보샤 마파두부 양장피 팔보채 마라탕 마라샹궈 훠궈
    양꼬치 꿔바로우 딤섬 샤오롱바오 만두 군만두 물만두 찐만두 만둣국 떡국 비빔밥 돌솥비빔밥 쌈밥 보리밥
    덮밥 회덮밥 규동 가츠동 텐동 오야코동 카레 돈까스 돈카츠 치즈돈까스 생선까스 초밥 스시 사시미 오마카세
    회 물회 모듬회 광어 우럭 연어 참치 방어 장어 장어구이 민물장어 아구찜 해물찜 꽃게탕 간장게장 양념게장
    게장 대게 킹크랩 랍스터 조개구이 조개찜 꼬막 꼬막비빔밥 굴 굴전 생굴 과메기 홍어 홍어삼합 삼합 전복
    전복죽 낙지 낙지볶음 산낙지 연포 쭈꾸미 주꾸미 오징어볶음 오징어 문어 숙회 새우 새우튀김 튀김 생선구이
    고등어구이 갈치구이 갈치조림 고등어조림 조기구이 삼치구이 임연수구이 가자미구이 생선조림 코다리 코다리찜
    떡볶이 라볶이 로제떡볶이 김밥 꼬마김밥 충무김밥 어묵 오뎅 순대볶음 떡꼬치 핫도그 토스트 샌드위치
    햄버거 버거 수제버거 피자 파스타 스파게티 까르보나라 알리오올리오 봉골레 라자냐 리조또 뇨끼 스테이크
    샐러드 브런치 팬케이크 프렌치토스트 에그베네딕트 와플 크로플 빙수 케이크 치즈케이크 티라미수 마카롱
    크로와상 베이글 스콘 소금빵 식빵 빵 도넛 휘낭시에 마들렌 타르트 쿠키 젤라또 아이스크림 커피 아메리카노
    라떼 카페라떼 바닐라라떼 에스프레소 밀크티 에이드 스무디 쌀국수 분짜 팟타이 월남쌈 반미 똠얌꿍 커리
    난 탄두리 케밥 타코 부리또 나초 퀘사디아 파전 해물파전 김치전 부침개 빈대떡 녹두전 모듬전 동그랑땡
    육전 감자전 부추전 호박전 동태전 깻잎전 고추전 계란말이 계란찜 잡채 떡갈비 너비아니 수육 편육 두부
    두부김치 순두부 도토리묵 묵사발 닭꼬치 꼬치 야키토리 하이볼 막걸리 소주 맥주 생맥주 와인 사케 칵테일
    전통주 누룽지 누룽지탕 죽 호박죽 팥죽 팥빙수 떡 약과 식혜 수정과 한정식 정식 백반 곤드레밥 솥밥
    연어덮밥 장어덮밥 우니 성게 관자 가리비 키조개 멍게 해삼 개불 전어 방어회 광어회 우럭회 도미
    샤브샤브 스키야키 밀푀유나베 나베 전골 곱도리탕 닭곰탕 닭죽 양갈비 양고기 램 허르헉 쌀국수 포
    """.split()
)

# The last noun of a compound dish name ("고등어+구이", "김치+전").
FOOD_HEADS: Final[frozenset[str]] = frozenset(
    """
    구이 조림 찜 탕 찌개 전골 볶음 전 국 국수 면 밥 덮밥 비빔밥 볶음밥 튀김 무침 회 죽 김밥 만두 파스타
    피자 버거 샐러드 케이크 라떼 토스트 스테이크 카레 커리 냉면 칼국수 꼬치 롤 초밥 우동 라멘 돈까스
    정식 국밥 수육 말이 까스 샌드위치 떡볶이 쌈 샤브샤브 전병 빙수 에이드 스무디 빵 타르트 리조또 솥밥
    """.split()
)

# Nouns that may precede a head to form a dish ("고등어" + "구이").
FOOD_MODIFIERS: Final[frozenset[str]] = frozenset(
    """
    돼지 소 닭 오리 양 고등어 갈치 조기 삼치 가자미 임연수 연어 참치 장어 새우 오징어 낙지 문어 쭈꾸미
    주꾸미 꼬막 굴 전복 조개 홍합 바지락 게 꽃게 대게 랍스터 명란 우니 관자 김치 된장 고추장 간장 양념
    해물 야채 채소 버섯 감자 고구마 호박 부추 파 깻잎 두부 계란 달걀 치즈 크림 토마토 로제 바질 가지
    시금치 콩나물 숙주 차돌 목살 삼겹 갈비 등심 안심 한우 한돈 곱창 막창 순대 떡 어묵 생선 고기 불고기
    제육 닭갈비 카레 마늘 생강 매운 멸치 들깨 콩 팥 녹두 메밀 쌀 보리 흑미 곤드레 버터 트러플 아보카도
    베이컨 햄 소시지 스팸 참치마요 돈육 우육 양지 사태 차슈 교자 해산물 모듬 모둠
    """.split()
)

# Too generic to be a review_food value on their own.
FOOD_STOPWORDS: Final[frozenset[str]] = frozenset(
    """
    음식 요리 메뉴 밥 고기 국물 반찬 안주 술 음료 식사 맛 양 소스 간 사이드 메인 디저트 세트 정식 코스
    """.split()
)


def canonical_values(field: EnrichField) -> tuple[str, ...]:
    """Canonical values of one field, in output order (empty for ``review_food``)."""
    return tuple(LEXICONS.get(field, {}))


def lexicon_sizes() -> dict[str, int]:
    """Number of canonical values and surface variants per table (for reports and tests)."""
    sizes: dict[str, int] = {}
    for field, table in LEXICONS.items():
        sizes[f"{field}.values"] = len(table)
        sizes[f"{field}.variants"] = sum(len(v) for v in table.values())
    sizes["negative_variants"] = sum(len(v) for v in NEGATIVE_VARIANTS.values())
    sizes["food_dishes"] = len(FOOD_DISHES)
    sizes["food_heads"] = len(FOOD_HEADS)
    sizes["food_modifiers"] = len(FOOD_MODIFIERS)
    return sizes

"""Fixture factories for the index tests: a fake embedder, a synthetic corpus around Seoul,
and a sample of the real demo records run through the product's own preprocessing."""

from __future__ import annotations

import math
import random
import zlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from matjip.documents import DayHours, MenuItem, Restaurant, TimeRange, WeeklySchedule

GUS = ["강남구", "마포구", "종로구", "송파구", "용산구", "서초구", "성동구", "중구"]
ROADS = ["테헤란로", "양화로", "종로", "올림픽로", "이태원로", "강남대로", "왕십리로", "을지로"]
CUISINES = {
    "한식": ["육류,고기>삼겹살", "국밥", "냉면", "찌개,전골"],
    "일식": ["초밥,롤", "돈까스,우동", "라멘"],
    "중식": ["중국요리", "양꼬치"],
    "양식": ["이탈리안", "피자", "스테이크"],
    "분식": ["떡볶이", "김밥"],
    "카페·디저트": [],
}
MENUS = {
    "한식": ["삼겹살", "된장찌개", "김치찌개", "돼지국밥", "물냉면", "비빔밥", "갈비탕"],
    "일식": ["돈코츠라멘", "미소라멘", "연어초밥", "모듬초밥", "로스카츠", "냉우동"],
    "중식": ["짜장면", "짬뽕", "탕수육", "양꼬치", "마라탕"],
    "양식": ["봉골레 파스타", "마르게리타 피자", "채끝 스테이크", "리조또", "크림파스타"],
    "분식": ["떡볶이", "참치김밥", "라볶이", "순대", "튀김"],
    "카페·디저트": ["아메리카노", "카페라떼", "치즈케이크", "크로플"],
}
CONVENIENCE = ["주차", "포장", "예약", "배달", "룸", "와이파이", "24시", "콜키지"]
ATMOSPHERE = ["조용한", "로맨틱한", "시끌벅적한", "아늑한", "넓은 공간", "이국적인"]
OCCASION = ["데이트", "회식", "혼밥", "가족", "단체", "술자리"]
NAMES = ["맛나", "행복", "원조", "명가", "고향", "바다", "하늘", "골목", "정원", "온기"]
SEOUL = (37.5665, 126.9780)


class FakeEmbedder:
    """Deterministic hashed character-bigram embedder (dim 32) satisfying the Embedder protocol."""

    def __init__(self, name: str = "fake", dim: int = 32) -> None:
        self.name = name
        self.dim = dim
        self.fitted = 0

    def fit(self, texts: Sequence[str]) -> None:
        self.fitted = len(texts)

    def _one(self, text: str) -> np.ndarray:
        v = np.zeros(self.dim, dtype=np.float32)
        s = "".join(text.split())
        for i in range(len(s) - 1):
            h = zlib.crc32(s[i : i + 2].encode())
            v[h % self.dim] += 1.0 if (h >> 31) & 1 else -1.0
        n = float(np.linalg.norm(v))
        return v / n if n > 0 else v

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        return np.stack([self._one(t) for t in texts]) if texts else np.zeros((0, self.dim), np.float32)

    def embed_query(self, text: str) -> np.ndarray:
        return self._one(text)

    def save(self, directory: Path) -> None:
        (directory / "fake.txt").write_text(str(self.fitted))

    def load(self, directory: Path) -> None:
        p = directory / "fake.txt"
        self.fitted = int(p.read_text()) if p.exists() else 0


def _hours(rng: random.Random) -> WeeklySchedule | None:
    kind = rng.random()
    if kind < 0.2:
        return None
    if kind < 0.3:
        return WeeklySchedule(raw="매일 영업 (전화 문의)", parsed=False)
    start = rng.choice([0, 600, 660, 690, 1020])
    end = start + rng.choice([360, 540, 660, 840, 1440]) if start else 1440
    breaks = [TimeRange(start=900, end=1020)] if rng.random() < 0.3 and start < 900 < end else []
    closed = rng.sample(range(7), rng.choice([0, 0, 1]))
    days = {
        wd: DayHours(open=[TimeRange(start=start, end=min(end, 2880))], breaks=breaks)
        for wd in range(7)
        if wd not in closed
    }
    return WeeklySchedule(raw="synthetic", parsed=True, days=days, closed=closed)


def synthetic_restaurant(i: int, rng: random.Random) -> Restaurant:
    cuisine = rng.choice(list(CUISINES))
    subs = CUISINES[cuisine]
    sub = rng.choice(subs) if subs and rng.random() < 0.8 else None
    # points within ~12 km of city hall; a few without coordinates
    if rng.random() < 0.05:
        lat = lon = None
    else:
        r = 12_000 * math.sqrt(rng.random())
        a = rng.random() * 2 * math.pi
        lat = SEOUL[0] + (r * math.cos(a)) / 111_195
        lon = SEOUL[1] + (r * math.sin(a)) / (111_195 * math.cos(math.radians(SEOUL[0])))
    menus = [
        MenuItem(name=m, price=rng.choice([None, rng.randrange(3000, 60000, 500)]))
        for m in rng.sample(MENUS[cuisine], rng.randint(0, min(4, len(MENUS[cuisine]))))
    ]
    gu = rng.choice(GUS)
    road = f"서울 {gu} {rng.choice(ROADS)} {rng.randint(1, 300)}"
    jibun = f"서울특별시 {gu} {rng.choice(['역삼동', '서교동', '관철동', '잠실동'])} {rng.randint(1, 900)}"
    return Restaurant(
        place_id=f"s{i}",
        title=f"{rng.choice(NAMES)}{rng.choice(['', ' '])}{rng.choice(MENUS[cuisine]).split()[0]}"
        + rng.choice(["", " 본점", f" {gu[:-1]}점"]),
        category=cuisine + (f">{sub}" if sub else ""),
        cuisine=cuisine,
        sub_category=sub,
        address=jibun if rng.random() < 0.5 else "",
        roadAddress=road if rng.random() < 0.9 else "",
        lat=lat,
        lon=lon,
        menus=menus,
        rating=rng.choice([None, round(rng.uniform(3.0, 5.0), 1)]),
        review_count=rng.choice([None, rng.randint(0, 2000)]),
        review_keywords={"맛": rng.randint(0, 50)} if rng.random() < 0.5 else {},
        hours=_hours(rng),
        review_food=rng.sample(MENUS[cuisine], min(2, len(MENUS[cuisine]))) if rng.random() < 0.4 else [],
        convenience=rng.sample(CONVENIENCE, rng.randint(0, 3)),
        atmosphere=rng.sample(ATMOSPHERE, rng.randint(0, 2)),
        occasion=rng.sample(OCCASION, rng.randint(0, 2)),
    )


def hand_written() -> list[Restaurant]:
    """A few documents the tests talk about by name."""
    mapo = (37.5566, 126.9236)
    return [
        Restaurant(
            place_id="h-jin-mapo",
            title="진대감 마포점",
            category="한식>육류,고기>갈비",
            cuisine="한식",
            sub_category="육류,고기>갈비",
            roadAddress="서울 마포구 양화로 100",
            lat=mapo[0],
            lon=mapo[1],
            menus=[MenuItem(name="돼지갈비", price=16000), MenuItem(name="된장찌개", price=8000)],
            convenience=["주차", "예약"],
            occasion=["회식", "가족"],
            rating=4.5,
            review_count=320,
        ),
        Restaurant(
            place_id="h-jin-gangnam",
            title="진대감강남점",
            category="한식>육류,고기>갈비",
            cuisine="한식",
            roadAddress="서울 강남구 테헤란로 10",
            lat=37.4990,
            lon=127.0300,
            menus=[MenuItem(name="소갈비", price=32000)],
        ),
        Restaurant(
            place_id="h-jin-galbi",
            title="진대감갈비",
            cuisine="한식",
            roadAddress="서울 종로구 종로 5",
            lat=37.5700,
            lon=126.9900,
        ),
        Restaurant(
            place_id="h-ramen",
            title="멘야 하카타",
            category="일식>라멘",
            cuisine="일식",
            sub_category="라멘",
            roadAddress="서울 마포구 와우산로 20",
            lat=37.5500,
            lon=126.9250,
            menus=[MenuItem(name="돈코츠라멘", price=11000), MenuItem(name="교자", price=6000)],
            atmosphere=["아늑한"],
            occasion=["혼밥"],
            convenience=["포장"],
        ),
        Restaurant(
            place_id="h-pasta",
            title="라 스텔라",
            category="양식>이탈리안",
            cuisine="양식",
            sub_category="이탈리안",
            roadAddress="서울 용산구 이태원로 200",
            lat=37.5345,
            lon=126.9940,
            menus=[
                MenuItem(name="트러플 크림파스타", price=24000),
                MenuItem(name="티본 스테이크", price=89000),
            ],
            atmosphere=["로맨틱한", "조용한"],
            occasion=["데이트", "기념일"],
            features=["창가뷰"],
            convenience=["예약", "주차", "콜키지"],
            rating=4.8,
            review_count=900,
        ),
    ]


def make_corpus(n: int = 200, seed: int = 7) -> list[Restaurant]:
    rng = random.Random(seed)
    return [synthetic_restaurant(i, rng) for i in range(n)] + hand_written()


def demo_sample(every: int = 25, limit: int | None = None) -> list[Restaurant]:
    """Every ``every``-th demo record through the lead's preprocessing and offline enrichment."""
    from matjip.ingest.crawl import read_records
    from matjip.ingest.enrich import get_enricher
    from matjip.ingest.preprocess import to_restaurants
    from matjip.settings import DEMO_DATA

    crawl = []
    for i, item in enumerate(read_records(DEMO_DATA)):
        if i % every == 0 and isinstance(item, tuple):
            crawl.append(item[1])
            if limit is not None and len(crawl) >= limit:
                break
    return to_restaurants(crawl, get_enricher("offline"))

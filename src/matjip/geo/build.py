"""Builders: the places of the gazetteer from its sources (:mod:`matjip.geo.sources`).

Each builder turns rows of one kind into :class:`Draft` places (mutable, with the outline they
carry); :func:`build_places` runs them in a fixed order and freezes the drafts into
:class:`~matjip.geo.places.Place` objects with unique keys and display names.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from matjip.geo.distance import haversine_m
from matjip.geo.landmarks import LandmarkRow
from matjip.geo.names import (
    CAPITAL_SIDO,
    RENAMED_SIGUNGU,
    SIDO_ALIASES,
    SIDO_FULL,
    SIDO_SHORT,
    clean_aliases,
    collective_dong,
    market_aliases,
    normalize,
    parse_address_region,
    spaced_sigungu,
    split_city_gu,
    station_stem,
    strip_parens,
)
from matjip.geo.places import (
    RADIUS_DONG_M,
    RADIUS_EUP_M,
    RADIUS_GU_M,
    RADIUS_HOT_PLACE_M,
    RADIUS_MYEON_M,
    RADIUS_SI_GUN_M,
    RADIUS_SIDO_M,
    RADIUS_STATION_M,
    RADIUS_TOURIST_ZONE_M,
    Place,
    PlaceType,
)
from matjip.geo.shapes import Shape
from matjip.geo.sources import Regions, Sources
from matjip.words import word_map

MERGE_STATIONS_WITHIN_M = 1000.0

# The spellings of the sources (KRIC, places_capital.csv) → our line name (data/words/gazetteer.toml).
_LINE_NAMES: Final[dict[str, str]] = {
    spelling: ours
    for ours, spellings in word_map("gazetteer", "subway_lines").items()
    for spelling in spellings
}


@dataclass
class Draft:
    """A place under construction (mutable), turned into a :class:`Place` at the end."""

    key: str
    name: str
    type: PlaceType
    lat: float
    lon: float
    aliases: list[str]
    code: str
    source: str
    lines: list[str] | None = None
    sido: str | None = None
    sigungu: str | None = None
    dong: str | None = None
    category: str | None = None
    radius: int = RADIUS_DONG_M
    shape: Shape | None = None


def _station_lines(extra: str) -> list[str]:
    raw = extra.removeprefix("lines=").split("|") if extra.startswith("lines=") else []
    out: list[str] = []
    for line in raw:
        line = _LINE_NAMES.get(line.strip(), line.strip())
        if line and line not in out:
            out.append(line)
    return out


def _build_stations(
    rows: list[dict[str, str]], kric: dict[str, list[dict[str, str]]], regions: Regions
) -> list[Draft]:
    return _merge_same_name([_station(row, kric, regions) for row in rows])


def _station_region(
    row: dict[str, str],
    codes: list[str],
    aliases: list[str],
    kric: dict[str, list[dict[str, str]]],
    regions: Regions,
) -> tuple[str | None, str | None]:
    """Sido and si/gun/gu of a station: from the road address of its KRIC row, else its outline."""
    lat, lon = float(row["lat"]), float(row["lon"])
    stem = station_stem(row["name"])
    # KRIC station numbers repeat across operators (0222 is 강남 in Seoul and 이곡 in Daegu):
    # match the number and the name, and stay close.
    matches = [
        k
        for c in codes
        for k in kric.get(c, [])
        if (station_stem(k["역사명"]) == stem or k["역사명"] in aliases)
        and haversine_m(lat, lon, float(k["역위도"] or 0), float(k["역경도"] or 0)) < 3000
    ]
    for k in matches:
        sido, sigungu = parse_address_region(k["역사도로명주소"])
        sigungu = regions.current_sigungu(sido, sigungu)
        if sigungu:
            return sido, sigungu
    return regions.sigungu_at(lat, lon)  # no address, or a typo in it ("춘춘시", "시승시")


def _station(row: dict[str, str], kric: dict[str, list[dict[str, str]]], regions: Regions) -> Draft:
    lat, lon = float(row["lat"]), float(row["lon"])
    codes = list(dict.fromkeys(c for c in row["code"].split("|") if c))
    aliases = clean_aliases([row["name"], *row["aliases"].split("|")])
    sido, sigungu = _station_region(row, codes, aliases, kric, regions)
    legal = regions.legal_dong_at(lat, lon) if sido == "서울" else None
    return Draft(
        key=f"subway_station:{'|'.join(codes)}",
        name=row["name"],
        type=PlaceType.SUBWAY_STATION,
        lat=lat,
        lon=lon,
        aliases=aliases,
        code="|".join(codes),
        source=row["source"],
        lines=_station_lines(row["extra"]),
        sido=sido,
        sigungu=sigungu,
        dong=legal[2] if legal else None,
        radius=RADIUS_STATION_M,
    )


def _merge_same_name(drafts: list[Draft]) -> list[Draft]:
    """Same name, less than 1 km apart: one station with several lines (서울역)."""
    by_name: dict[str, list[Draft]] = defaultdict(list)
    for d in drafts:
        by_name[d.name].append(d)
    merged: list[Draft] = []
    for group in by_name.values():
        clusters: list[list[Draft]] = []
        for d in group:
            for cluster in clusters:
                if haversine_m(d.lat, d.lon, cluster[0].lat, cluster[0].lon) < MERGE_STATIONS_WITHIN_M:
                    cluster.append(d)
                    break
            else:
                clusters.append([d])
        merged += [_merge_cluster(cluster) for cluster in clusters]
    return merged


def _merge_cluster(cluster: list[Draft]) -> Draft:
    head = cluster[0]
    if len(cluster) > 1:
        head.lat = sum(d.lat for d in cluster) / len(cluster)
        head.lon = sum(d.lon for d in cluster) / len(cluster)
        for d in cluster[1:]:
            head.lines = list(dict.fromkeys([*(head.lines or []), *(d.lines or [])]))
            head.aliases = list(dict.fromkeys([*head.aliases, *d.aliases]))
            head.code = f"{head.code}|{d.code}"
        head.key = f"subway_station:{head.code}"
    return head


def _build_hot_places(rows: list[dict[str, str]], stations: list[Draft], regions: Regions) -> list[Draft]:
    by_name: dict[str, list[Draft]] = defaultdict(list)
    for s in stations:
        by_name[s.name].append(s)
    out: list[Draft] = []
    for row in rows:
        aliases = clean_aliases([row["name"], *row["aliases"].split("|")])
        plain = strip_parens(row["name"])
        aliases += market_aliases(plain)
        same = by_name.get(plain, [])
        if len(same) == 1:  # a hot place that is just a station: the station's point is exact
            station = same[0]
            station.aliases = list(dict.fromkeys([*station.aliases, *(a for a in aliases if a != plain)]))
            continue
        # Aliases naming a station ("이대역" of 신촌·이대역) belong to the station.
        aliases = [a for a in aliases if a == row["name"] or a not in by_name]
        lat, lon = float(row["lat"]), float(row["lon"])
        sido, sigungu = regions.sigungu_at(lat, lon)
        legal = regions.legal_dong_at(lat, lon) if sido == "서울" else None
        category = row["extra"] or None
        out.append(
            Draft(
                key=f"hot_place:{row['code']}",
                name=row["name"],
                type=PlaceType.HOT_PLACE,
                lat=lat,
                lon=lon,
                aliases=aliases,
                code=row["code"],
                source=row["source"],
                sido=sido,
                sigungu=sigungu,
                dong=legal[2] if legal else None,
                category=category,
                radius=RADIUS_TOURIST_ZONE_M if category == "관광특구" else RADIUS_HOT_PLACE_M,
            )
        )
    return out


def _build_landmarks(rows: Sequence[LandmarkRow], regions: Regions) -> list[Draft]:
    """The point places of ``landmarks.tsv`` (alias rows are applied by :class:`Gazetteer`)."""
    out: list[Draft] = []
    for row in rows:
        if row.kind.is_alias:
            continue
        if row.region:  # where the (coarse) outlines would be wrong
            sido, sigungu = parse_address_region(row.region)
            sigungu = regions.current_sigungu(sido, sigungu)
            if sigungu is None:
                raise ValueError(f"landmarks.tsv:{row.line}: unknown region {row.region!r}")
        else:
            sido, sigungu = regions.sigungu_at(row.lat, row.lon)
        legal = regions.legal_dong_at(row.lat, row.lon) if sido == "서울" else None
        out.append(
            Draft(
                key=f"landmark:{normalize(row.name)}",
                name=row.name,
                type=PlaceType.LANDMARK,
                lat=row.lat,
                lon=row.lon,
                aliases=[row.name, *row.aliases, *market_aliases(row.name)],
                code="",
                source="landmarks.tsv (curated; checked against restaurant addresses and stations)",
                sido=sido,
                sigungu=sigungu,
                dong=legal[2] if legal else None,
                category=row.category,
                radius=row.default_radius_m,
            )
        )
    return out


def _build_admin_dongs(rows: list[dict[str, str]], centroids: dict[str, dict[str, str]]) -> list[Draft]:
    out: list[Draft] = []
    for row in rows:
        c = centroids.get(row["code"])
        sido: str | None
        sigungu: str | None
        if c is not None:
            sido = SIDO_SHORT.get(c["sidonm"], c["sidonm"])
            sigungu = spaced_sigungu(c["sggnm"])
        else:
            parts = row["extra"].split(maxsplit=1)
            sido = SIDO_SHORT.get(parts[0]) if parts else None
            sigungu = spaced_sigungu(parts[1]) if len(parts) > 1 else None
        name = row["name"]
        if c is not None and c["adm_nm"].split()[-1] != name:
            name = c["adm_nm"].split()[-1]  # the list says 중산동 twice; they are 중산1동 and 중산2동
        aliases = clean_aliases([name, *row["aliases"].split("|")])
        collective = collective_dong(name)
        bases = [name] + ([collective] if collective else [])
        if sigungu:
            for base in bases:
                for prefix in {sigungu, sigungu.split()[-1]}:
                    aliases.append(f"{prefix} {base}")
        radius = (
            RADIUS_DONG_M if name.endswith("동") else RADIUS_EUP_M if name.endswith("읍") else RADIUS_MYEON_M
        )
        out.append(
            Draft(
                key=f"admin_dong:{row['code']}",
                name=name,
                type=PlaceType.ADMIN_DONG,
                lat=float(row["lat"]),
                lon=float(row["lon"]),
                aliases=list(dict.fromkeys(aliases)),
                code=row["code"],
                source=row["source"],
                sido=sido,
                sigungu=sigungu,
                dong=name,
                radius=radius,
            )
        )
    return out


def _build_legal_dongs(regions: Regions) -> list[Draft]:
    source = "southkorea/seoul-maps (juso.go.kr 2015, Apache-2.0)"
    groups: dict[tuple[str, str], list[tuple[str, str, Shape]]] = defaultdict(list)
    numbered = re.compile(r"^(.+?)\d+가$")
    stems = {(gu, m.group(1)) for _, gu, name, _ in regions.legal if (m := numbered.match(name))}
    singles: list[tuple[str, str, str, Shape]] = []
    for code, gu, name, shape in regions.legal:
        m = numbered.match(name)
        if m is not None:
            stem = m.group(1)
            group_name = stem if stem.endswith(("동", "로")) else f"{stem}동"
            groups[(gu, group_name)].append((code, name, shape))
        elif (gu, name) in stems:
            groups[(gu, name)].append((code, name, shape))  # 당산동 with 당산동1가..6가
        else:
            singles.append((code, gu, name, shape))

    def draft(key: str, name: str, gu: str, code: str, shape: Shape, aliases: list[str]) -> Draft:
        _, lat, lon = shape.area_centroid()
        return Draft(
            key=key,
            name=name,
            type=PlaceType.LEGAL_DONG,
            lat=lat,
            lon=lon,
            aliases=list(dict.fromkeys([name, *aliases, f"{gu} {name}"])),
            code=code,
            source=source,
            sido="서울",
            sigungu=gu,
            dong=name,
            radius=RADIUS_DONG_M,
            shape=shape,
        )

    out = [draft(f"legal_dong:{code}", name, gu, code, shape, []) for code, gu, name, shape in singles]
    for (gu, group_name), parts in groups.items():
        if len(parts) == 1:
            code, name, shape = parts[0]
            extra = [group_name] if name != group_name else []
            out.append(draft(f"legal_dong:{code}", name, gu, code, shape, extra))
            continue
        codes = sorted(c for c, _, _ in parts)
        union = Shape.union(s for _, _, s in parts)
        out.append(
            draft(f"legal_dong:{codes[0][:5]}:{group_name}", group_name, gu, "|".join(codes), union, [])
        )
        for code, name, shape in parts:  # the parts stay addressable by their own names
            if name != group_name:
                short = re.sub(r"^(.+)동(\d+가)$", r"\1\2", name)  # 성수동1가 -> 성수1가
                out.append(
                    draft(f"legal_dong:{code}", name, gu, code, shape, [short] if short != name else [])
                )
    return out


def _build_sigungu(rows: list[dict[str, str]], regions: Regions) -> list[Draft]:
    out = [_sigungu(row, regions) for row in rows]
    return out + _whole_cities(out, regions)


def _sigungu(row: dict[str, str], regions: Regions) -> Draft:
    sido = SIDO_SHORT.get(row["extra"], row["extra"])
    raw = RENAMED_SIGUNGU.get((sido, row["name"]), row["name"])
    name = spaced_sigungu(raw)
    aliases = [name, raw]
    if raw != row["name"]:
        aliases.append(row["name"])  # the old name (인천 남구)
    parts = split_city_gu(raw)
    if parts:
        city, gu = parts
        aliases += [gu, f"{city.removesuffix('시')} {gu}"]
    else:
        aliases += [a for a in row["aliases"].split("|") if a]
    aliases += [f"{s} {name}" for s in SIDO_ALIASES.get(sido, ())]  # "서울 강남구"
    # Outlines only for Seoul: the capital-area si/gun/gu outlines in the package (KOSTAT 2013)
    # are generalised (성남시: 36 vertices; 위례 falls outside it) - too coarse for membership.
    shape = regions.seoul_gu.get(name) if sido == "서울" else None
    lat, lon = float(row["lat"]), float(row["lon"])
    return Draft(
        key=f"sigungu:{row['code']}",
        name=name,
        type=PlaceType.SIGUNGU,
        lat=lat,
        lon=lon,
        aliases=clean_aliases(aliases),
        code=row["code"],
        source=row["source"],
        sido=sido,
        sigungu=name,
        radius=RADIUS_GU_M if name.endswith("구") else RADIUS_SI_GUN_M,
        shape=shape,
    )


def _whole_cities(sigungu: list[Draft], regions: Regions) -> list[Draft]:
    """Cities split into gu (수원시 = 장안구 + 권선구 + 팔달구 + 영통구) also exist as a whole."""
    cities: dict[tuple[str, str], list[Draft]] = defaultdict(list)
    for d in sigungu:
        parts = split_city_gu(d.name)
        if parts and d.sido:
            cities[(d.sido, parts[0])].append(d)
    out: list[Draft] = []
    for (sido, city), gus in cities.items():
        coarse = [s for sd, nm, s in regions.sigungu.values() if sd == sido and nm.startswith(f"{city} ")]
        if coarse:  # good enough for a centre
            _, lat, lon = Shape.union(coarse).area_centroid()
        else:
            lat = sum(g.lat for g in gus) / len(gus)
            lon = sum(g.lon for g in gus) / len(gus)
        out.append(
            Draft(
                key=f"sigungu:{sido}:{city}",
                name=city,
                type=PlaceType.SIGUNGU,
                lat=lat,
                lon=lon,
                aliases=[
                    city,
                    city.removesuffix("시"),
                    *(f"{s} {city}" for s in SIDO_ALIASES.get(sido, ())),
                ],
                code="|".join(g.code for g in gus),
                source="union of its gu",
                sido=sido,
                sigungu=city,
                radius=RADIUS_SI_GUN_M,
            )
        )
    return out


def _build_sido(regions: Regions, dongs: list[dict[str, str]]) -> list[Draft]:
    out: list[Draft] = []
    for short, full in SIDO_FULL.items():
        if short == "서울":
            shapes = list(regions.seoul_gu.values())
        else:
            shapes = [s for sd, _, s in regions.sigungu.values() if sd == short]
        union = Shape.union(shapes)
        if short in CAPITAL_SIDO:
            _, lat, lon = union.area_centroid()
        else:  # the mean of its admin dongs leans to where people live (부산: 부산진구, not the sea)
            mine = [d for d in dongs if SIDO_SHORT.get(d["extra"].split()[0]) == short]
            if not mine:
                continue
            lat = sum(float(d["lat"]) for d in mine) / len(mine)
            lon = sum(float(d["lon"]) for d in mine) / len(mine)
        # Only Seoul's outline is detailed enough for membership tests (see _build_sigungu).
        out.append(
            Draft(
                key=f"sido:{short}",
                name=full,
                type=PlaceType.SIDO,
                lat=lat,
                lon=lon,
                aliases=list(SIDO_ALIASES[short]),
                code=short,
                source="union of its si/gun/gu outlines",
                sido=short,
                radius=RADIUS_SIDO_M,
                shape=union if short == "서울" else None,
            )
        )
    return out


def _build_national_hot_places(rows: list[dict[str, str]], regions: Regions) -> list[Draft]:
    """The hot places of ``hot_places_kr.tsv`` (big cities outside the capital area)."""
    out: list[Draft] = []
    for row in rows:
        sido, sigungu = parse_address_region(row["region"])
        if not sido or not sigungu:
            raise ValueError(f"hot_places_kr.tsv: {row['name']}: unknown region {row['region']!r}")
        category = row["category"] or None
        radius = int(row["radius_m"]) if row["radius_m"] else RADIUS_HOT_PLACE_M
        out.append(
            Draft(
                key=f"hot_place:kr:{normalize(row['name'])}",
                name=row["name"],
                type=PlaceType.HOT_PLACE,
                lat=float(row["lat"]),
                lon=float(row["lon"]),
                aliases=clean_aliases([row["name"], *row["aliases"].split(",")]),
                code="",
                source="hot_places_kr.tsv (curated from KRIC stations and admin-dong centroids)",
                sido=sido,
                sigungu=spaced_sigungu(sigungu),
                category=category,
                radius=radius,
            )
        )
    return out


def _display_name(d: Draft) -> str:
    region = " ".join(x for x in (d.sido, d.sigungu) if x)
    if d.type is PlaceType.SUBWAY_STATION:
        inner = [x for x in ("·".join(d.lines or []), region) if x]
    elif d.type in (PlaceType.HOT_PLACE, PlaceType.LANDMARK):
        inner = [x for x in (d.category or "", region) if x]
    elif d.type is PlaceType.LEGAL_DONG:
        inner = ["법정동", region]
    elif d.type is PlaceType.ADMIN_DONG:
        inner = ["행정동" if d.name.endswith("동") else "읍·면", region]
    elif d.type is PlaceType.SIGUNGU:
        inner = [d.sido or ""]
    else:
        return d.name
    inner = [x for x in inner if x]
    return f"{d.name} ({', '.join(inner)})" if inner else d.name


def build_places(src: Sources) -> tuple[list[Place], dict[str, Shape]]:
    """Every place of the sources, in a fixed order, and the outlines by place key."""
    regions = src.regions
    stations = _build_stations([*src.capital["subway_station"], *src.national_stations], src.kric, regions)
    hot = _build_hot_places(src.capital["hot_place"], stations, regions)
    drafts = [
        *stations,
        *hot,
        *_build_national_hot_places(src.national_hot_places, regions),
        *_build_landmarks(src.landmarks, regions),
        *_build_legal_dongs(regions),
        *_build_admin_dongs([*src.capital["admin_dong"], *src.national_dongs], src.centroids),
        *_build_sigungu([*src.capital["sigungu"], *src.national_sigungu], regions),
        *_build_sido(regions, src.national_dongs),
    ]
    return _freeze(drafts)


def _freeze(drafts: list[Draft]) -> tuple[list[Place], dict[str, Shape]]:
    """The drafts as places with unique keys, and their outlines by key."""
    places: list[Place] = []
    shapes: dict[str, Shape] = {}
    seen: dict[str, int] = {}
    for d in drafts:
        # KRIC numbers repeat across operators (0214 in Busan and Daegu): later keys get a suffix
        seen[d.key] = n = seen.get(d.key, 0) + 1
        if n > 1:
            d.key = f"{d.key}:{n}"
        places.append(
            Place(
                key=d.key,
                name=d.name,
                type=d.type,
                lat=round(d.lat, 6),
                lon=round(d.lon, 6),
                aliases=[a for a in dict.fromkeys(d.aliases) if a != d.name],
                lines=d.lines or [],
                sido=d.sido,
                sigungu=d.sigungu,
                dong=d.dong,
                code=d.code,
                default_radius_m=d.radius,
                display_name=_display_name(d),
                category=d.category,
                source=d.source,
            )
        )
        if d.shape is not None:
            shapes[d.key] = d.shape
    return places, shapes

"""The package data the gazetteer is built from, read into rows and outlines.

Sources (package data, see ``data/SOURCES.md``): ``places_capital.csv`` (capital-area subway stations,
admin dongs, si/gun/gu, Seoul hot places), ``subway_stations_kric.csv`` (every station of the country:
road addresses, and the stations of the other cities and those the capital list misses),
``admin_dong_centroids_2022.csv`` (sido/sigungu of the capital's admin dongs), ``admin_dongs_kr.csv``
(the admin dongs outside the capital area, and from them their si/gun/gu and sido),
``hot_places_kr.tsv`` (hot places of 부산, 대구, 광주, 대전 …), ``landmarks.tsv`` (landmarks, malls,
markets, parks, streets, food alleys and colloquial names; format in :mod:`matjip.geo.landmarks`),
``seoul_gu.geojson``, ``seoul_legal_dong.geojson`` and ``korea_sigungu.geojson`` (outlines).

:func:`read_sources` reads them all into :class:`Sources`; the rows of the national lists are put
into the format of ``places_capital.csv`` so that one builder (:mod:`matjip.geo.build`) serves both.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections import defaultdict
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Final

import numpy as np

from matjip.geo.distance import haversine_m
from matjip.geo.landmarks import LandmarkRow, read_landmarks
from matjip.geo.names import (
    CAPITAL_SIDO,
    RENAMED_SIGUNGU,
    SIDO_SHORT,
    collective_dong,
    parse_address_region,
    spaced_sigungu,
    split_city_gu,
    station_stem,
    strip_parens,
)
from matjip.geo.shapes import Shape
from matjip.words import word_map

Row = dict[str, str]

# KOSTAT (2013) sido code prefixes, for outlines from korea_sigungu.geojson (data/words/sido.toml).
_KOSTAT_SIDO: Final[dict[str, str]] = {
    code: short for short, codes in word_map("sido", "kostat_codes").items() for code in codes
}


def data_root() -> Path:
    traversable = resources.files("matjip").joinpath("data")
    return Path(str(traversable))


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8-sig", newline="") as fh:
        return list(csv.DictReader(io.StringIO(fh.read())))


def read_geojson(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as fh:
        features: list[dict[str, Any]] = json.load(fh)["features"]
    return features


def read_tsv(path: Path) -> list[dict[str, str]]:
    """A tab-separated file with a header row; lines starting with "#" are comments."""
    with path.open(encoding="utf-8") as fh:
        lines = [line for line in fh.read().splitlines() if line.strip() and not line.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t"))


class Regions:
    """Reverse geocoding by outlines: Seoul gu and legal dongs (detailed); capital-area si/gun/gu
    (KOSTAT 2013, generalised: only a fallback for points without an address)."""

    def __init__(self, root: Path) -> None:
        self.gu_by_code: dict[str, str] = {}
        self.seoul_gu: dict[str, Shape] = {}
        for f in read_geojson(root / "geo" / "seoul_gu.geojson"):
            props = f["properties"]
            self.gu_by_code[props["SIG_CD"]] = props["SIG_KOR_NM"]
            self.seoul_gu[props["SIG_KOR_NM"]] = Shape.from_geojson(f["geometry"])
        self.legal: list[tuple[str, str, str, Shape]] = []  # code, gu, name, shape
        for f in read_geojson(root / "geo" / "seoul_legal_dong.geojson"):
            props = f["properties"]
            code = props["EMD_CD"]
            self.legal.append(
                (
                    code,
                    self.gu_by_code.get(code[:5], ""),
                    props["EMD_KOR_NM"],
                    Shape.from_geojson(f["geometry"]),
                )
            )
        self._legal_bbox = np.array([s.bbox for _, _, _, s in self.legal], dtype=np.float64).reshape(-1, 4)
        # code -> (sido, current sigungu name, shape)
        self.sigungu: dict[str, tuple[str, str, Shape]] = {}
        for f in read_geojson(root / "geo" / "korea_sigungu.geojson"):
            props = f["properties"]
            code = props["code"]
            sido = _KOSTAT_SIDO.get(code[:2], "")
            name = RENAMED_SIGUNGU.get((sido, props["name"]), props["name"])
            if name.startswith("부천시"):  # 원미구/소사구/오정구 were abolished in 2016
                name = "부천시"
            self.sigungu[code] = (sido, spaced_sigungu(name), Shape.from_geojson(f["geometry"]))
        self.known_sigungu = {(sd, nm) for sd, nm, _ in self.sigungu.values()} | {
            ("서울", g) for g in self.seoul_gu
        }

    def current_sigungu(self, sido: str | None, sigungu: str | None) -> str | None:
        """A sigungu name from an address in today's form, or ``None`` if it is unknown."""
        if not sido or not sigungu:
            return None
        sigungu = RENAMED_SIGUNGU.get((sido, sigungu), sigungu)
        if sigungu.startswith("부천시"):
            sigungu = "부천시"
        return sigungu if (sido, sigungu) in self.known_sigungu else None

    def sigungu_at(self, lat: float, lon: float) -> tuple[str | None, str | None]:
        for gu, shape in self.seoul_gu.items():
            if shape.contains(lat, lon):
                return "서울", gu
        for sido, name, shape in self.sigungu.values():
            if shape.contains(lat, lon):
                return sido, name
        return None, None

    def legal_dong_at(self, lat: float, lon: float) -> tuple[str, str, str] | None:
        b = self._legal_bbox
        for i in np.flatnonzero((b[:, 0] <= lon) & (lon <= b[:, 2]) & (b[:, 1] <= lat) & (lat <= b[:, 3])):
            code, gu, name, shape = self.legal[int(i)]
            if shape.contains(lat, lon):
                return code, gu, name
        return None


def national_rows(
    national: list[dict[str, str]],
) -> tuple[list[dict[str, str]], dict[str, dict[str, str]], list[dict[str, str]]]:
    """Admin-dong and si/gun/gu rows (in the format of ``places_capital.csv``) for the dongs of
    ``admin_dongs_kr.csv`` outside the capital area (the capital's come from places_capital.csv),
    and the centroid rows :func:`_build_admin_dongs` reads."""
    source = "vuski/admdongkor 2022-03 (KOSTAT SGIS; free use with attribution)"
    dongs: list[dict[str, str]] = []
    centroids: dict[str, dict[str, str]] = {}
    by_sigungu: dict[tuple[str, str], list[dict[str, str]]] = defaultdict(list)
    for r in national:
        sido = SIDO_SHORT.get(r["sidonm"], r["sidonm"])
        if sido in CAPITAL_SIDO:
            continue
        code = r["adm_cd10"]
        dongs.append(
            {
                "name": r["emd_nm"],
                "aliases": collective_dong(r["emd_nm"]) or "",  # 전포1동 -> 전포동
                "lat": r["lat"],
                "lon": r["lon"],
                "code": code,
                "extra": f"{r['sidonm']} {r['sggnm']}",
                "source": source,
            }
        )
        centroids[code] = {
            "sidonm": r["sidonm"],
            "sggnm": r["sggnm"],
            "adm_nm": f"{r['sidonm']} {r['sggnm']} {r['emd_nm']}",
        }
        by_sigungu[(r["sidonm"], r["sggnm"])].append(r)
    sigungu: list[dict[str, str]] = []
    for (sidonm, sggnm), rows in by_sigungu.items():
        aliases = ""
        if re.fullmatch(r"[가-힣]{2,}시", sggnm) and split_city_gu(sggnm) is None:
            aliases = sggnm[:-1]  # 포항시 -> 포항 (not 군: 예산군, 장수군, 영광군 are words too)
        sigungu.append(
            {
                "name": sggnm,
                "aliases": aliases,
                "lat": f"{sum(float(r['lat']) for r in rows) / len(rows):.6f}",
                "lon": f"{sum(float(r['lon']) for r in rows) / len(rows):.6f}",
                "code": rows[0]["adm_cd10"][:5],
                "extra": sidonm,
                "source": f"{source}; centre = mean of its admin-dong centroids",
            }
        )
    return dongs, centroids, sigungu


def national_station_rows(
    capital_rows: list[dict[str, str]], kric: dict[str, list[dict[str, str]]]
) -> list[dict[str, str]]:
    """Station rows (format of ``places_capital.csv``) for every KRIC station that no row of
    places_capital.csv stands for (same stem within 3 km): the stations of the other cities, and
    capital stations missing from that list."""
    known: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for row in capital_rows:
        known[station_stem(row["name"])].append((float(row["lat"]), float(row["lon"])))
    grouped: dict[tuple[str, str, str], list[dict[str, str]]] = defaultdict(list)
    for ks in kric.values():
        for k in ks:
            if not k["역위도"] or not k["역경도"]:
                continue
            lat, lon = float(k["역위도"]), float(k["역경도"])
            sido, _ = parse_address_region(k["역사도로명주소"])
            if sido in CAPITAL_SIDO and not (36.8 < lat < 38.4 and 125.0 < lon < 127.9):
                continue  # an address that contradicts the point (경북 봉화 양원역 "서울 중랑구")
            stem = station_stem(k["역사명"].strip())
            if any(haversine_m(lat, lon, a, b) < 3000 for a, b in known.get(stem, [])):
                continue
            grouped[(stem, k["역번호"].strip(), k["노선명"].strip())].append(k)
    out: list[dict[str, str]] = []
    for (stem, code, line), ks in sorted(grouped.items()):
        k = ks[0]
        name = stem if stem.endswith("역") else f"{stem}역"
        plain = strip_parens(stem)
        out.append(
            {
                "name": name,
                "aliases": "|".join(dict.fromkeys([stem, plain, f"{plain}역"])),
                "lat": k["역위도"],
                "lon": k["역경도"],
                "code": code,
                "extra": f"lines={line}" if line else "",
                "source": "KRIC 전국도시철도역사정보표준데이터 (KOGL type 1)",
            }
        )
    return out


@dataclass
class Sources:
    """Every source of the gazetteer, read: the outlines (:class:`Regions`), the rows of
    ``places_capital.csv`` by type, the KRIC stations by station number, the admin-dong centroids by
    code, the national rows in the format of ``places_capital.csv``, the hot places of the other
    cities and the rows of ``landmarks.tsv``."""

    regions: Regions
    capital: dict[str, list[Row]]
    kric: dict[str, list[Row]]
    centroids: dict[str, Row]
    national_dongs: list[Row]
    national_sigungu: list[Row]
    national_stations: list[Row]
    national_hot_places: list[Row]
    landmarks: list[LandmarkRow]


def read_sources(root: Path) -> Sources:
    """Read the gazetteer's sources under ``root`` (the package's ``data`` directory)."""
    regions = Regions(root)
    folder = root / "gazetteer"
    capital: dict[str, list[Row]] = defaultdict(list)
    for r in read_csv(folder / "places_capital.csv"):
        capital[r["type"]].append(r)
    kric: dict[str, list[Row]] = defaultdict(list)
    for k in read_csv(folder / "subway_stations_kric.csv"):
        kric[k["역번호"].strip()].append(k)
    centroids = {r["adm_cd10"]: r for r in read_csv(folder / "admin_dong_centroids_2022.csv")}
    # the rest of the country: admin dongs and si/gun/gu (2022), KRIC stations, hot places
    dongs_kr, centroids_kr, sigungu_kr = national_rows(read_csv(folder / "admin_dongs_kr.csv"))
    centroids.update(centroids_kr)
    regions.known_sigungu |= {
        (SIDO_SHORT.get(r["extra"], r["extra"]), spaced_sigungu(r["name"])) for r in sigungu_kr
    }
    return Sources(
        regions=regions,
        capital=capital,
        kric=kric,
        centroids=centroids,
        national_dongs=dongs_kr,
        national_sigungu=sigungu_kr,
        national_stations=national_station_rows(capital["subway_station"], kric),
        national_hot_places=read_tsv(folder / "hot_places_kr.tsv"),
        landmarks=read_landmarks(folder / "landmarks.tsv"),
    )

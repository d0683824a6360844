"""Build ``src/matjip/data/gazetteer/admin_dongs_kr.csv``: every administrative dong (읍·면·동) of Korea
with its centroid in WGS84, from vuski/admdongkor (free use with attribution; KOSTAT SGIS):

* ``ver20220309/propertiesTable.tsv`` (CP949): the 3,512 admin dongs of March 2022 (code, sido, si/gun/gu,
  name);
* ``통계청MDIS인구용_행정경계중심점/coordinate_UTMK_이름포함.tsv``: centroids of every unit 2001-2023 in
  UTM-K (EPSG:5179), joined on the 10-digit code.

UTM-K is converted with the inverse transverse Mercator series (GRS80, lon0 127.5, lat0 38, k0 0.9996,
false easting 1,000,000, northing 2,000,000): exact to well under a metre, no pyproj needed.

Usage: python scripts/build_admin_dongs_kr.py PROPERTIES.tsv COORDINATES.tsv OUT.csv
"""

from __future__ import annotations

import csv
import math
import sys
from pathlib import Path

A = 6378137.0
F = 1 / 298.257222101
K0 = 0.9996
LON0 = math.radians(127.5)
LAT0 = math.radians(38.0)
FE, FN = 1_000_000.0, 2_000_000.0


def _meridian_arc(phi: float) -> float:
    e2 = F * (2 - F)
    e4, e6 = e2 * e2, e2 * e2 * e2
    return A * (
        (1 - e2 / 4 - 3 * e4 / 64 - 5 * e6 / 256) * phi
        - (3 * e2 / 8 + 3 * e4 / 32 + 45 * e6 / 1024) * math.sin(2 * phi)
        + (15 * e4 / 256 + 45 * e6 / 1024) * math.sin(4 * phi)
        - (35 * e6 / 3072) * math.sin(6 * phi)
    )


def utmk_to_wgs84(x: float, y: float) -> tuple[float, float]:
    """(lat, lon) in degrees for UTM-K easting ``x`` and northing ``y``."""
    e2 = F * (2 - F)
    ep2 = e2 / (1 - e2)
    m = _meridian_arc(LAT0) + (y - FN) / K0
    mu = m / (A * (1 - e2 / 4 - 3 * e2**2 / 64 - 5 * e2**3 / 256))
    e1 = (1 - math.sqrt(1 - e2)) / (1 + math.sqrt(1 - e2))
    phi1 = (
        mu
        + (3 * e1 / 2 - 27 * e1**3 / 32) * math.sin(2 * mu)
        + (21 * e1**2 / 16 - 55 * e1**4 / 32) * math.sin(4 * mu)
        + (151 * e1**3 / 96) * math.sin(6 * mu)
        + (1097 * e1**4 / 512) * math.sin(8 * mu)
    )
    n1 = A / math.sqrt(1 - e2 * math.sin(phi1) ** 2)
    t1 = math.tan(phi1) ** 2
    c1 = ep2 * math.cos(phi1) ** 2
    r1 = A * (1 - e2) / (1 - e2 * math.sin(phi1) ** 2) ** 1.5
    d = (x - FE) / (n1 * K0)
    lat = phi1 - (n1 * math.tan(phi1) / r1) * (
        d**2 / 2
        - (5 + 3 * t1 + 10 * c1 - 4 * c1**2 - 9 * ep2) * d**4 / 24
        + (61 + 90 * t1 + 298 * c1 + 45 * t1**2 - 252 * ep2 - 3 * c1**2) * d**6 / 720
    )
    lon = LON0 + (
        d
        - (1 + 2 * t1 + c1) * d**3 / 6
        + (5 - 2 * c1 + 28 * t1 - 3 * c1**2 + 8 * ep2 + 24 * t1**2) * d**5 / 120
    ) / math.cos(phi1)
    return math.degrees(lat), math.degrees(lon)


def main(props: Path, coords: Path, out: Path) -> None:
    xy: dict[str, tuple[float, float]] = {}
    with coords.open(encoding="utf-8") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            xy[row["ADMCD"].strip()] = (float(row["X"]), float(row["Y"]))
    raw = props.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("cp949")
    rows = list(csv.DictReader(text.splitlines(), delimiter="\t"))
    missing = 0
    with out.open("w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["adm_cd10", "sidonm", "sggnm", "emd_nm", "lat", "lon"])
        for r in sorted(rows, key=lambda r: r["adm_cd2"]):
            code = r["adm_cd2"].strip()
            if code not in xy:
                missing += 1
                continue
            lat, lon = utmk_to_wgs84(*xy[code])
            w.writerow(
                [
                    code,
                    r["sidonm"].strip(),
                    r["sggnm"].strip(),
                    r["emd_nm"].strip(),
                    f"{lat:.6f}",
                    f"{lon:.6f}",
                ]
            )
    print(f"{len(rows) - missing} admin dongs written, {missing} without a centroid", file=sys.stderr)


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]))

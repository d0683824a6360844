"""The area a collector covers: a rectangle from ``--rect`` or a gazetteer place (``--area``)."""

from __future__ import annotations

from dataclasses import dataclass

from matjip.errors import ConfigurationError, PlaceNotFoundError
from matjip.geo import Gazetteer, Place, PlaceType, bounding_box, get_gazetteer
from matjip.wording import say

AREA_TYPES = (PlaceType.SIDO, PlaceType.SIGUNGU, PlaceType.ADMIN_DONG, PlaceType.LEGAL_DONG)
# the gazetteer places whose names seed 000's recipe searches with ("강남역 국밥")
NAME_TYPES = (PlaceType.SUBWAY_STATION, PlaceType.HOT_PLACE, PlaceType.ADMIN_DONG, PlaceType.LEGAL_DONG)


@dataclass(frozen=True)
class Rect:
    """lon/lat rectangle: (x1, y1) the south-west corner, (x2, y2) the north-east one."""

    x1: float
    y1: float
    x2: float
    y2: float

    @classmethod
    def parse(cls, text: str) -> Rect:
        try:
            a, b, c, d = (float(v) for v in text.split(","))
        except ValueError as exc:
            raise ConfigurationError(say("collect.area.bad_rect", value=repr(text))) from exc
        rect = cls(min(a, c), min(b, d), max(a, c), max(b, d))
        if not (
            -180 <= rect.x1 <= 180
            and -90 <= rect.y1 <= 90
            and -180 <= rect.x2 <= 180
            and -90 <= rect.y2 <= 90
        ):
            raise ConfigurationError(say("collect.area.rect_out_of_range", value=repr(text)))
        if rect.x1 == rect.x2 or rect.y1 == rect.y2:
            raise ConfigurationError(say("collect.area.empty_rect", value=repr(text)))
        return rect

    @classmethod
    def of(cls, payload: list[float]) -> Rect:
        return cls(*payload)

    def as_list(self) -> list[float]:
        return [round(self.x1, 7), round(self.y1, 7), round(self.x2, 7), round(self.y2, 7)]

    def param(self) -> str:
        return ",".join(f"{v:.7f}" for v in self.as_list())

    def contains(self, lon: float, lat: float, margin: float = 0.0) -> bool:
        return self.x1 - margin <= lon <= self.x2 + margin and self.y1 - margin <= lat <= self.y2 + margin

    def quarters(self) -> list[Rect]:
        mx, my = (self.x1 + self.x2) / 2, (self.y1 + self.y2) / 2
        return [
            Rect(self.x1, self.y1, mx, my),
            Rect(mx, self.y1, self.x2, my),
            Rect(self.x1, my, mx, self.y2),
            Rect(mx, my, self.x2, self.y2),
        ]

    @property
    def width(self) -> float:
        return max(self.x2 - self.x1, self.y2 - self.y1)

    @property
    def center(self) -> tuple[float, float]:
        return (self.x1 + self.x2) / 2, (self.y1 + self.y2) / 2


def area_place(name: str, gazetteer: Gazetteer | None = None) -> Place:
    """The si/gun/gu or dong ``name`` names; several of them is an error that lists them."""
    gaz = gazetteer or get_gazetteer()
    found = [p for p in gaz.lookup(name) if p.type in AREA_TYPES]
    if not found:
        raise PlaceNotFoundError(say("collect.area.unknown", name=name))
    exact = [p for p in found if p.name == name] or found
    kinds = {(p.type, p.name) for p in exact}
    if len(exact) > 1 and len(kinds) < len(exact):
        names = ", ".join(p.display_name for p in exact[:5])
        raise ConfigurationError(say("collect.area.ambiguous", name=name, names=names))
    return exact[0]


def area_rect(place: Place, gazetteer: Gazetteer | None = None) -> Rect:
    """The place's outline bounding box where the gazetteer has one, else its centre ± its radius."""
    gaz = gazetteer or get_gazetteer()
    shape = gaz.shape(place)
    if shape is not None:
        x1, y1, x2, y2 = shape.bbox
        return Rect(x1, y1, x2, y2)
    min_lat, max_lat, min_lon, max_lon = bounding_box(place.lat, place.lon, place.default_radius_m)
    return Rect(min_lon, min_lat, max_lon, max_lat)


def area_place_names(rect: Rect, gazetteer: Gazetteer | None = None) -> list[str]:
    """Names of the stations, hot places and dongs inside ``rect`` (seed 000: 장소명)."""
    gaz = gazetteer or get_gazetteer()
    names: dict[str, None] = {}
    for p in gaz.places:
        if p.type in NAME_TYPES and rect.contains(p.lon, p.lat):
            names.setdefault(p.name, None)
    return list(names)

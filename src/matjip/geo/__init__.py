"""Places and geometry: the gazetteer of the capital area and great-circle distances."""

from matjip.geo.coverage import CoveredArea
from matjip.geo.distance import EARTH_RADIUS_M, bounding_box, destination, haversine_m, haversine_m_array
from matjip.geo.gazetteer import Gazetteer, contains_point, find_in_text, get_gazetteer, region_terms
from matjip.geo.landmarks import LandmarkKind, LandmarkRow, read_landmarks
from matjip.geo.names import normalize, parse_address_region
from matjip.geo.places import TYPE_LABELS, Candidate, Place, PlaceType
from matjip.geo.shapes import Shape

__all__ = [
    "EARTH_RADIUS_M",
    "TYPE_LABELS",
    "Candidate",
    "CoveredArea",
    "Gazetteer",
    "LandmarkKind",
    "LandmarkRow",
    "Place",
    "PlaceType",
    "Shape",
    "bounding_box",
    "contains_point",
    "destination",
    "find_in_text",
    "get_gazetteer",
    "haversine_m",
    "haversine_m_array",
    "normalize",
    "parse_address_region",
    "read_landmarks",
    "region_terms",
]

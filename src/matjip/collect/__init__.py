"""Collectors (issue 22, seed 000 step 1): grow the data with an operator's own API keys.

* :mod:`~matjip.collect.kakao` enumerates every restaurant/café of a rectangle through Kakao
  Local's category search (a quadtree under the API's 45-document cap, keyword queries for the
  points that still hold more);
* :mod:`~matjip.collect.naver` runs seed 000's recipe (place name × menu word) over Naver's local search;
* :mod:`~matjip.collect.details` reads menus, hours, tags and reviews from the Kakao Map place page JSON;
* :mod:`~matjip.collect.state` keeps a run's work, places and calls in SQLite so any run resumes;
* :mod:`~matjip.collect.records` turns them into crawl records (``matjip ingest`` reads them) and
  merges the same restaurant across sources.
"""

"""`matjip collect` (issue 22) against the protocol fakes of Kakao Local and Naver local search."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

from fakes.kakao_local import KEY, KakaoLocalFake
from fakes.local_area import AREA, FakePlace, FakeServer, synthetic_area
from fakes.naver_local import CLIENT_ID, CLIENT_SECRET, NaverLocalFake
from matjip.cli import cli
from matjip.collect import details, kakao, naver
from matjip.collect.area import Rect, area_place_names
from matjip.collect.client import ApiClient, CallPolicy
from matjip.collect.records import CollectedPlace, crawl_category, from_e7, merge_places, strip_tags, to_e7
from matjip.collect.runner import Collection, export, read_jsonl
from matjip.collect.state import CollectState
from matjip.errors import CollectKeyError, QuotaReached
from matjip.geo import get_gazetteer
from matjip.settings import Settings
from support.settings import clear_options

RECT = Rect(*AREA)
RECT_ARG = ",".join(str(v) for v in AREA)


@pytest.fixture(autouse=True)
def _no_options(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No option variable of the developer's environment or ``.env`` reaches these runs."""
    clear_options(monkeypatch)
    monkeypatch.chdir(tmp_path)


def _settings(tmp_path: Path, **kw: Any) -> Settings:
    base: dict[str, Any] = {
        "data_dir": tmp_path / "data",
        "kakao_rest_api_key": KEY,
        "naver_client_id": CLIENT_ID,
        "naver_client_secret": CLIENT_SECRET,
        "collect_rate_per_s": 0,
        "collect_backoff_s": 0.0,
        "collect_today": "2026-03-01",
    }
    return Settings(**{**base, **kw})


def _run_kakao(
    settings: Settings, out: Path, transport: httpx.BaseTransport, rect: Rect = RECT
) -> Collection:
    coll = Collection(settings, out, transport=transport)
    client = coll.kakao_client()
    coll.prepare(kakao.SOURCE, "t", lambda: kakao.start_tasks(rect, ["FD6", "CE7"]), resume=False)
    kakao.KakaoCollector(client, coll.state, naver.menu_words()).run()
    export(coll.state, out)
    return coll


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


# --- records -------------------------------------------------------------------------------------


def test_crawl_format_helpers() -> None:
    assert crawl_category("음식점 > 한식 > 국밥") == "한식>국밥"
    assert crawl_category("음식점 > 카페 > 커피전문점") == "카페>커피전문점"
    assert to_e7(127.0530139) == "1270530139"
    assert from_e7("375037000") == pytest.approx(37.5037)
    assert strip_tags("농민<b>백암순대</b> &amp; 본점") == "농민백암순대 & 본점"


def _place(source: str, pid: str, title: str, lon: float, lat: float, **kw: Any) -> CollectedPlace:
    return CollectedPlace(
        place_id=pid,
        title=title,
        mapx=to_e7(lon),
        mapy=to_e7(lat),
        source=source,
        provenance={source: pid},
        **kw,
    )


def test_merge_joins_the_same_restaurant_across_sources_only() -> None:
    k = _place("kakao", "1", "할매 국밥", 127.1, 37.5, telephone="02-1")
    n = _place("naver", "naver-a", "할매국밥", 127.1005, 37.5002, description="소개")  # ~50 m away
    far = _place("naver", "naver-b", "할매국밥", 127.11, 37.5)  # ~900 m: another branch
    same_source = _place("kakao", "2", "할매국밥", 127.1001, 37.5)  # Kakao says it is another place
    other = _place("naver", "naver-c", "옆집국밥", 127.1, 37.5)
    merged = merge_places([k, n, far, same_source, other, k])
    assert len(merged) == 4
    joined = [m for m in merged if m.source == "kakao+naver"]
    assert len(joined) == 1
    assert joined[0].place_id == "1"
    assert joined[0].provenance == {"kakao": "1", "naver": "naver-a"}
    assert (joined[0].telephone, joined[0].description) == ("02-1", "소개")


def test_merge_by_address_when_points_differ() -> None:
    k = _place("kakao", "1", "해뜰카페", 127.1, 37.5, roadAddress="서울 송파구 올림픽로 1")
    n = _place("naver", "naver-a", "해뜰카페", 127.105, 37.5, roadAddress="서울특별시 송파구 올림픽로 1")
    assert [m.source for m in merge_places([k, n])] == ["kakao+naver"]


# --- the fakes speak the real formats ----------------------------------------------------------------


def test_kakao_fake_caps_and_errors() -> None:
    fake = KakaoLocalFake(synthetic_area(n=3000))
    auth = {"authorization": f"KakaoAK {KEY}"}
    path = "/v2/local/search/category.json"
    status, body = fake.handle(
        "GET", path, {"category_group_code": "FD6", "rect": RECT.param(), "page": "3"}, auth
    )
    assert status == 200 and body["meta"]["pageable_count"] == 45 and body["meta"]["is_end"] is True
    assert body["meta"]["total_count"] > 2000
    assert (
        fake.handle("GET", path, {"category_group_code": "FD6", "rect": RECT.param(), "size": "16"}, auth)[0]
        == 400
    )
    assert (
        fake.handle("GET", path, {"category_group_code": "FD6", "rect": RECT.param(), "page": "46"}, auth)[0]
        == 400
    )
    assert fake.handle("GET", path, {"rect": RECT.param()}, auth)[1]["errorType"] == "MissingParameter"
    assert (
        fake.handle("GET", path, {"category_group_code": "FD6"}, {"authorization": "KakaoAK bad"})[0] == 401
    )
    points = Counter((p.x, p.y) for p in fake.places)
    assert points.most_common(1)[0][1] > 45  # one point holds more than the API shows


def test_naver_fake_caps_and_errors() -> None:
    fake = NaverLocalFake(synthetic_area(n=3000), {"잠실역": (127.1, 37.513)})
    h = {"x-naver-client-id": CLIENT_ID, "x-naver-client-secret": CLIENT_SECRET}
    path = "/v1/search/local.json"
    status, body = fake.handle("GET", path, {"query": "잠실역 국밥", "display": "5"}, h)
    assert status == 200 and 0 < len(body["items"]) <= 5 and "<b>국밥</b>" in body["items"][0]["title"]
    assert fake.handle("GET", path, {"query": "잠실역 국밥", "display": "6"}, h)[1]["errorCode"] == "SE02"
    assert fake.handle("GET", path, {"query": "잠실역 국밥", "start": "2"}, h)[1]["errorCode"] == "SE03"
    assert fake.handle("GET", path, {"query": "국밥"}, {})[1]["errorCode"] == "024"


# --- Kakao enumeration --------------------------------------------------------------------------------


def test_kakao_enumerates_the_whole_area(tmp_path: Path) -> None:
    fake = KakaoLocalFake()
    out = tmp_path / "kakao.jsonl"
    coll = _run_kakao(_settings(tmp_path), out, fake.transport())
    rows = _lines(out)
    ids = [r["place_id"] for r in rows]
    truth = {p.id for p in fake.places}
    assert len(truth) >= 3000
    assert len(ids) == len(set(ids))  # no duplicates
    found = set(ids) & truth
    assert len(found) >= 0.99 * len(truth)
    assert coll.state.unreached(kakao.SOURCE) == len(truth - found)  # what is missing is reported
    court = Counter((p.x, p.y) for p in fake.places).most_common(1)[0][0]
    at_court = {p.id for p in fake.places if (p.x, p.y) == court}
    assert at_court <= found  # the dense point was reached past the 45 cap
    row = rows[0]
    assert row["source"] == "kakao" and row["provenance"] == {"kakao": row["place_id"]}
    assert (
        ">" in row["category"] and " > " not in row["category"] and not row["category"].startswith("음식점")
    )
    assert row["mapx"].isdigit() and 1_270_000_000 < int(row["mapx"]) < 1_272_000_000
    assert fake.calls < len(truth) / 5  # far fewer calls than places
    coll.close()


def test_unreachable_places_are_counted_not_lost(tmp_path: Path) -> None:
    # 200 cafés with one name word on one point: no query can show more than 45 of them at a time
    pile = [
        FakePlace(
            str(900 + i), f"스타커피 {i}호", "카페 > 커피전문점", "카페", "CE7", 127.1, 37.51, "", "", "", 0
        )
        for i in range(200)
    ]
    fake = KakaoLocalFake([*synthetic_area(n=300), *pile])
    out = tmp_path / "pile.jsonl"
    coll = _run_kakao(_settings(tmp_path), out, fake.transport())
    found = {r["place_id"] for r in _lines(out)}
    missing = {p.id for p in fake.places} - found
    assert missing  # the API really hides some
    assert coll.state.unreached(kakao.SOURCE) == len(missing)
    coll.close()


def test_details_fill_menus_hours_tags_reviews(tmp_path: Path) -> None:
    fake = KakaoLocalFake(synthetic_area(n=40))
    out = tmp_path / "d.jsonl"
    coll = _run_kakao(_settings(tmp_path), out, fake.transport())
    waits: list[float] = []
    client = ApiClient(
        source=details.SOURCE,
        label="details",
        key_name="-",
        base_url="http://fake/main/v",
        headers={},
        state=coll.state,
        policy=CallPolicy(
            quota=1000, rate_per_s=1.0, max_retries=0, backoff_s=0, backoff_max_s=0, timeout_s=5
        ),
        day="2026-03-01",
        transport=fake.transport(),
        sleep=waits.append,
        clock=lambda: 0.0,
    )
    details.DetailReader(client, coll.state).run()
    export(coll.state, out)
    n = len(fake.places)
    assert fake.detail_calls == n
    assert len(waits) == n - 1 and all(w >= 0.99 for w in waits)  # ≤ 1 request per second
    rows = _lines(out)
    p = next(p for p in fake.places if p.reviews >= 3)
    row = next(r for r in rows if r["place_id"] == p.id)
    assert row["menus"] == [
        {"name": p.word, "price": "9,000원"},
        {"name": f"특{p.word}", "price": "12,000원"},
    ]
    assert row["businessHours"] == "매일 11:00 ~ 22:00; 휴게시간 월~금 15:00 ~ 17:00"
    assert row["reviewKeywords"] == {"맛": p.reviews // 2, "친절": p.reviews // 4}
    assert row["rating"] == 4.0 and row["reviewCount"] == p.reviews and len(row["reviews"]) == 3
    coll.close()


def test_server_error_is_retried(tmp_path: Path) -> None:
    fake = KakaoLocalFake(synthetic_area(n=60))
    inner = fake.transport()
    failures = {"left": 3}

    def flaky(request: httpx.Request) -> httpx.Response:
        if failures["left"]:
            failures["left"] -= 1
            return httpx.Response(503, json={"errorType": "ServiceUnavailable", "message": "busy"})
        return inner.handle_request(request)

    out = tmp_path / "r.jsonl"
    _run_kakao(_settings(tmp_path), out, httpx.MockTransport(flaky)).close()
    assert {r["place_id"] for r in _lines(out)} == {p.id for p in fake.places}


def test_api_429_after_retries_is_a_quota_stop(tmp_path: Path) -> None:
    fake = KakaoLocalFake(synthetic_area(n=3000), quota=20)
    with pytest.raises(QuotaReached, match="run again tomorrow with --resume"):
        _run_kakao(_settings(tmp_path, collect_max_retries=2), tmp_path / "q.jsonl", fake.transport())


def test_missing_key_is_named() -> None:
    with pytest.raises(CollectKeyError, match="KAKAO_REST_API_KEY"):
        Collection(Settings(collect_today="x"), Path("/nonexistent/out.jsonl")).kakao_client()


# --- the command line, against real local HTTP servers -----------------------------------------------


def _env(tmp_path: Path, kakao_url: str = "", naver_url: str = "", **extra: str) -> dict[str, str]:
    env = {
        "MATJIP_DATA_DIR": str(tmp_path / "data"),
        "KAKAO_REST_API_KEY": KEY,
        "NAVER_CLIENT_ID": CLIENT_ID,
        "NAVER_CLIENT_SECRET": CLIENT_SECRET,
        "MATJIP_KAKAO_LOCAL_URL": kakao_url,
        "MATJIP_NAVER_SEARCH_URL": naver_url,
        "MATJIP_COLLECT_RATE_PER_S": "0",
        "MATJIP_COLLECT_BACKOFF_S": "0",
        "MATJIP_COLLECT_TODAY": "2026-03-01",
    }
    env.update(extra)
    return env


@pytest.mark.parametrize(
    ("source", "env_key", "named"),
    [("kakao", "KAKAO_REST_API_KEY", "KAKAO_REST_API_KEY"), ("naver", "NAVER_CLIENT_SECRET", "NAVER_CLIENT")],
)
def test_wrong_key_is_one_clear_line(tmp_path: Path, source: str, env_key: str, named: str) -> None:
    kfake, nfake = (
        KakaoLocalFake(synthetic_area(n=50)),
        NaverLocalFake(synthetic_area(n=50), {"잠실역": (127.1, 37.51)}),
    )
    with FakeServer(kfake.handle) as ks, FakeServer(nfake.handle) as ns:
        env = _env(tmp_path, ks.url, ns.url, **{env_key: "wrong-key"})
        args = ["collect", source, "--rect", RECT_ARG, "--out", str(tmp_path / "o.jsonl")]
        result = CliRunner().invoke(cli, args, env=env)
    assert result.exit_code not in (0, None)
    lines = [x for x in result.stderr.splitlines() if x.strip()]
    assert len(lines) == 1, result.stderr
    assert named in lines[0] and "401" in lines[0] and "Traceback" not in result.stderr


def test_quota_stop_then_next_day_resume(tmp_path: Path) -> None:
    fake = KakaoLocalFake(synthetic_area(n=3000))
    baseline = KakaoLocalFake(synthetic_area(n=3000))
    _run_kakao(_settings(tmp_path / "b"), tmp_path / "b.jsonl", baseline.transport()).close()
    out = tmp_path / "k.jsonl"
    args = ["collect", "kakao", "--rect", RECT_ARG, "--out", str(out)]
    with FakeServer(fake.handle) as srv:
        first = CliRunner().invoke(cli, args, env=_env(tmp_path, srv.url, MATJIP_COLLECT_QUOTA_KAKAO="120"))
        assert first.exit_code == 3, first.output
        assert "quota reached after 120 calls; run again tomorrow with --resume" in " ".join(
            first.stderr.split()
        )
        partial = _lines(out)
        assert 0 < len(partial) < 3000
        same_day = CliRunner().invoke(
            cli, [*args, "--resume"], env=_env(tmp_path, srv.url, MATJIP_COLLECT_QUOTA_KAKAO="120")
        )
        assert same_day.exit_code == 3 and fake.calls == 120  # no call over the day's quota
        nxt = _env(tmp_path, srv.url, MATJIP_COLLECT_QUOTA_KAKAO="120", MATJIP_COLLECT_TODAY="2026-03-02")
        days = 1
        while (r := CliRunner().invoke(cli, [*args, "--resume"], env=nxt)).exit_code == 3:
            days += 1
            nxt["MATJIP_COLLECT_TODAY"] = f"2026-03-{days + 1:02d}"
        assert r.exit_code == 0, r.output
    rows = _lines(out)
    ids = [r["place_id"] for r in rows]
    assert len(ids) == len(set(ids))
    assert set(ids) == {r["place_id"] for r in _lines(tmp_path / "b.jsonl")}
    assert fake.calls <= 1.1 * baseline.calls
    state = CollectState(out.with_name(out.name + ".state.sqlite"))
    assert state.calls("2026-03-01", "kakao") == 120 and state.calls("2026-03-02", "kakao") == 120
    state.close()


def test_naver_recipe_and_merge_into_one_output(tmp_path: Path) -> None:
    places = synthetic_area(n=3000)
    gaz = get_gazetteer()
    names = area_place_names(RECT)[:6]
    points = {p.name: (p.lon, p.lat) for p in gaz.places if p.name in names}
    nfake, kfake = NaverLocalFake(places, points), KakaoLocalFake(places)
    menus = tmp_path / "menus.txt"
    menus.write_text("국밥\n카페\n초밥\n# a comment\n피자\n", encoding="utf-8")
    names_file = tmp_path / "places.txt"
    names_file.write_text("\n".join(names), encoding="utf-8")
    out = tmp_path / "both.jsonl"
    with FakeServer(kfake.handle) as ks, FakeServer(nfake.handle) as ns:
        env = _env(tmp_path, ks.url, ns.url)
        r1 = CliRunner().invoke(
            cli,
            [
                "collect",
                "naver",
                "--rect",
                RECT_ARG,
                "--places",
                str(names_file),
                "--menus",
                str(menus),
                "--out",
                str(out),
            ],
            env=env,
        )
        assert r1.exit_code == 0, r1.output
        assert nfake.calls == len(names) * 4 * 2  # every (place × menu × sort), once
        naver_rows = _lines(out)
        assert naver_rows and all(r["source"] == "naver" for r in naver_rows)
        assert all("<b>" not in r["title"] and r["mapx"].isdigit() for r in naver_rows)
        assert all(RECT.contains(from_e7(r["mapx"]) or 0, from_e7(r["mapy"]) or 0, 0.002) for r in naver_rows)
        r2 = CliRunner().invoke(cli, ["collect", "kakao", "--rect", RECT_ARG, "--out", str(out)], env=env)
        assert r2.exit_code == 0, r2.output
    rows = _lines(out)
    both = [r for r in rows if r["source"] == "kakao+naver"]
    assert len(both) == len(naver_rows)  # every Naver find is a Kakao place too: one record each
    assert len(rows) == len({p.id for p in places})
    assert all(set(r["provenance"]) == {"kakao", "naver"} for r in both)
    # the merge command gives the same result from two separate files
    k_only, n_only = tmp_path / "k.jsonl", tmp_path / "n.jsonl"
    from matjip.collect.runner import write_jsonl

    write_jsonl([p for p in read_jsonl(out) if p.source == "kakao"], k_only)
    write_jsonl([CollectedPlace.model_validate(r) for r in naver_rows], n_only)
    merged_out = tmp_path / "m.jsonl"
    r3 = CliRunner().invoke(cli, ["collect", "merge", str(n_only), str(k_only), "--out", str(merged_out)])
    assert r3.exit_code == 0, r3.output
    assert len(_lines(merged_out)) == len({p.id for p in places}) - len(both) + len(both)


def test_ingest_takes_the_output_incrementally(tmp_path: Path) -> None:
    from matjip.ingest.enrich import get_enricher
    from matjip.ingest.pipeline import ingest
    from matjip.ingest.store import DocumentStore

    fake = KakaoLocalFake(synthetic_area(n=60))
    out = tmp_path / "i.jsonl"
    _run_kakao(_settings(tmp_path), out, fake.transport()).close()
    store = DocumentStore(tmp_path / "docs.sqlite")
    first = ingest([out], store, get_enricher("offline"))
    n = len(fake.places)
    assert (first.new, first.rejected) == (n, 0)
    again = ingest([out], store, get_enricher("offline"))
    assert (again.new, again.updated, again.unchanged) == (0, 0, n)
    rows = _lines(out)
    rows[0]["telephone"] = "02-000-0000"
    out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    third = ingest([out], store, get_enricher("offline"))
    assert (third.updated, third.unchanged) == (1, n - 1)
    store.close()


def test_resume_with_another_area_is_refused(tmp_path: Path) -> None:
    fake = KakaoLocalFake(synthetic_area(n=50))
    out = tmp_path / "s.jsonl"
    with FakeServer(fake.handle) as srv:
        env = _env(tmp_path, srv.url)
        first = CliRunner().invoke(cli, ["collect", "kakao", "--rect", RECT_ARG, "--out", str(out)], env=env)
        assert first.exit_code == 0, first.output
        other = "127.0,37.4,127.05,37.45"
        again = CliRunner().invoke(
            cli, ["collect", "kakao", "--rect", other, "--out", str(out), "--resume"], env=env
        )
    assert again.exit_code == 2 and "다른 지역" in again.stderr

"""One collection run: the clients from the settings, the state next to the output, the tasks,
and the JSONL written from the state (atomically, so the file is always a consistent snapshot)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from matjip.collect import details, kakao, naver
from matjip.collect.area import Rect
from matjip.collect.client import ApiClient, CallPolicy, today
from matjip.collect.records import CollectedPlace, merge_places
from matjip.collect.state import CollectState, state_path
from matjip.errors import CollectKeyError, ConfigurationError
from matjip.settings import Settings, secret
from matjip.wording import say, text


@dataclass
class RunReport:
    source: str
    places: int = 0  # this source's places in the state
    written: int = 0  # records in the output (all sources, merged)
    calls_run: int = 0  # calls of this run
    calls_today: int = 0
    calls_total: int = 0  # every call of this source the state counted
    unreached: int = 0
    detail_calls: int = 0
    tasks_done: int = 0
    tasks_all: int = 0
    stopped: str | None = None  # why the run stopped early (quota)
    extra: dict[str, int] = field(default_factory=dict)


def write_jsonl(places: list[CollectedPlace], out: Path) -> int:
    """``out`` replaced atomically by one record per line."""
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        for p in places:
            fh.write(json.dumps(p.record(), ensure_ascii=False) + "\n")
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, out)
    return len(places)


def export(state: CollectState, out: Path) -> int:
    return write_jsonl(merge_places(state.places()), out)


def read_jsonl(path: Path) -> list[CollectedPlace]:
    out: list[CollectedPlace] = []
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                out.append(CollectedPlace.model_validate_json(line))
    return out


def merge_files(paths: list[Path], out: Path) -> tuple[int, int]:
    """(records read, records written) of merging collected files into one."""
    places = [p for path in paths for p in read_jsonl(path)]
    return len(places), write_jsonl(merge_places(places), out)


class Collection:
    """A run of one source over ``out``'s state. ``transport`` points the clients at a fake."""

    def __init__(
        self,
        settings: Settings,
        out: Path,
        *,
        transport: httpx.BaseTransport | None = None,
        detail_transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] | None = None,
    ) -> None:
        self.settings = settings
        self.out = out
        self.state = CollectState(state_path(out))
        self.day = today(settings)
        self.transport = transport
        self.detail_transport = detail_transport if detail_transport is not None else transport
        self.sleep = sleep

    def close(self) -> None:
        self.state.close()

    def _client(self, **kw: object) -> ApiClient:
        extra = {"sleep": self.sleep} if self.sleep is not None else {}
        return ApiClient(state=self.state, day=self.day, **kw, **extra)  # type: ignore[arg-type]

    def kakao_client(self) -> ApiClient:
        key = secret(self.settings.kakao_rest_api_key)
        if not key:
            raise CollectKeyError(
                say("collect.runner.no_key", key="KAKAO_REST_API_KEY", service="Kakao Local")
            )
        return self._client(
            source=kakao.SOURCE,
            label="Kakao Local",
            key_name="KAKAO_REST_API_KEY",
            base_url=self.settings.kakao_local_url,
            headers={"Authorization": f"KakaoAK {key}"},
            policy=CallPolicy.from_settings(self.settings, self.settings.collect_quota_kakao),
            transport=self.transport,
        )

    def naver_client(self) -> ApiClient:
        cid, csecret = secret(self.settings.naver_client_id), secret(self.settings.naver_client_secret)
        if not cid or not csecret:
            missing = "NAVER_CLIENT_ID" if not cid else "NAVER_CLIENT_SECRET"
            service = text("collect.runner.naver_label")
            raise CollectKeyError(say("collect.runner.no_key", key=missing, service=service))
        return self._client(
            source=naver.SOURCE,
            label=text("collect.runner.naver_label"),
            key_name="NAVER_CLIENT_ID/NAVER_CLIENT_SECRET",
            base_url=self.settings.naver_search_url,
            headers={"X-Naver-Client-Id": cid, "X-Naver-Client-Secret": csecret},
            policy=CallPolicy.from_settings(self.settings, self.settings.collect_quota_naver),
            transport=self.transport,
        )

    def detail_client(self) -> ApiClient:
        return self._client(
            source=details.SOURCE,
            label=text("collect.runner.details_label"),
            key_name="-",
            base_url=self.settings.collect_detail_url,
            headers={"User-Agent": "matjip-collect", "Accept": "application/json"},
            policy=CallPolicy.from_settings(
                self.settings,
                self.settings.collect_quota_details,
                rate_per_s=self.settings.collect_detail_rate_per_s,
            ),
            transport=self.detail_transport,
        )

    def report(self, source: str, client: ApiClient | None) -> RunReport:
        done, total = self.state.task_counts(source)
        return RunReport(
            source=source,
            places=self.state.place_count(source),
            calls_run=client.calls_this_run if client else 0,
            calls_today=self.state.calls(self.day, source),
            calls_total=self.state.calls(None, source),
            unreached=self.state.unreached(source),
            tasks_done=done,
            tasks_all=total,
        )

    def prepare(
        self, source: str, spec: str, tasks_factory: Callable[[], list[kakao.Task]], resume: bool
    ) -> bool:
        """Seed the tasks unless resuming a run of the same spec; True when resuming."""
        if resume and self.state.has_tasks(source):
            before = self.state.get_meta(f"spec:{source}")
            if before is not None and before != spec:
                raise ConfigurationError(
                    say("collect.runner.other_spec", out=self.out, source=source, before=before)
                )
            return True
        self.state.start(source, spec, tasks_factory())
        return False


def kakao_spec(rect: Rect, codes: list[str]) -> str:
    return json.dumps({"rect": rect.as_list(), "codes": codes})


def naver_spec(rect: Rect | None, places: list[str], menus: list[str], sorts: list[str]) -> str:
    return json.dumps(
        {
            "rect": rect.as_list() if rect else None,
            "n_places": len(places),
            "n_menus": len(menus),
            "sorts": sorts,
        }
    )

"""Configuring read replicas: ``MATJIP_DATABASE_READ_URLS`` is a comma-separated list of URLs, a
secret like ``MATJIP_DATABASE_URL``; logs and stats name a replica by host, port and database only."""

from __future__ import annotations

from pathlib import Path

from matjip.api.app import create_app
from matjip.index.postgres import read_urls, url_label
from matjip.settings import Settings, redact


def test_read_urls_are_a_comma_separated_list() -> None:
    st = Settings(  # type: ignore[call-arg]
        _env_file=None,
        database_read_urls=" postgresql://r:pw@10.0.0.2:5432/matjip , ,postgresql://10.0.0.3/matjip",
    )
    assert read_urls(st) == ["postgresql://r:pw@10.0.0.2:5432/matjip", "postgresql://10.0.0.3/matjip"]
    assert read_urls(Settings(_env_file=None)) == []  # type: ignore[call-arg]
    assert "pw" not in repr(st) and "10.0.0.2" not in str(st.database_read_urls)


def test_a_replica_is_named_without_its_credentials() -> None:
    assert url_label("postgresql://reader:s3cret@db-2.internal:5433/matjip", "replica 1") == (
        "db-2.internal:5433/matjip"
    )
    assert url_label("postgres://db-3/matjip", "replica 2") == "db-3/matjip"
    assert url_label("host=db-4 password=s3cret", "replica 3") == "replica 3"


def test_a_replica_password_is_redacted(tmp_path: Path) -> None:
    st = Settings(  # type: ignore[call-arg]
        _env_file=None,
        data_dir=tmp_path,
        database_read_urls="postgresql://reader:replica-pw-9431@10.0.0.2/matjip",
    )
    create_app(st)
    assert redact("connection failed: password replica-pw-9431 rejected") == (
        "connection failed: password *** rejected"
    )

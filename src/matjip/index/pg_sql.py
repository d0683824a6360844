"""The whitelist of SQL the PostgreSQL backend may run (seed 004's templates).

Every statement the backend executes is one of the constant strings below, or a query template
completed with constant filter clauses from :data:`FILTERS`, chosen by *which* request fields are
present — never by their values. Every value travels as a bound parameter (``%(name)s``; psycopg
sends them apart from the statement text, extended query protocol). :func:`compose` is the only
place a statement is assembled, and it only concatenates members of this module.

Migrations are append-only: a database at version n gets migrations n+1… in order, each in its
own transaction under an advisory lock (several workers may start at once).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

MIGRATION_LOCK = 7_404_015  # pg_advisory_xact_lock key shared by every matjip process
SETUP_LOCK = 7_404_016  # pg_advisory_lock key: the session tables' set-up (LangGraph's, the OpenAI map)

# the narrow filter rows and the BM25 postings are derived from matjip_docs in SQL: all of them
# after a build's COPY, those of the upserted places after an upsert's (and removed before a delete)
_ROW_COLUMNS = (
    "seq, place_id, lat, lon, cuisine_key, sub_key, conv_keys, kind_keys, title_key, title_words, "
    "title_prefixes, menu_text, addr_text, prices, hours_known, open_minutes, prior"
)
# each menu price a point of a multirange: the price filter is one overlap test
_ROW_VALUES = (
    f"{_ROW_COLUMNS}, (SELECT coalesce(range_agg(int8range(v, v, '[]')), '{{}}'::int8multirange) "
    "FROM unnest(prices) AS v)"
)
# migration 2's (matjip_rows as it made it; migration 4 makes it again with the columns below)
_DERIVE_ROWS_ALL_2 = f"INSERT INTO matjip_rows ({_ROW_COLUMNS}, price_points) SELECT {_ROW_VALUES} FROM matjip_docs ORDER BY seq"
# since migration 4 also the cheapest and dearest menu price (NULL without prices): the price
# filter's box test, fixed-width, before the exact overlap test
_ROW_VALUES_4 = (
    f"{_ROW_VALUES}, (SELECT min(v) FROM unnest(prices) AS v), (SELECT max(v) FROM unnest(prices) AS v)"
)
DERIVE_ROWS_ALL = (
    f"INSERT INTO matjip_rows ({_ROW_COLUMNS}, price_points, price_min, price_max) SELECT {_ROW_VALUES_4} "
    "FROM matjip_docs ORDER BY seq"
)
DERIVE_POSTINGS_ALL = (
    "INSERT INTO matjip_postings (term, seq, tf, fieldnorm) SELECT t.term, d.seq, t.tf, d.fieldnorm "
    "FROM matjip_docs d, unnest(d.terms, d.tf) AS t(term, tf) ORDER BY 1, 2"
)
DERIVE_ROWS = (
    f"INSERT INTO matjip_rows ({_ROW_COLUMNS}, price_points, price_min, price_max) SELECT {_ROW_VALUES_4} "
    "FROM matjip_docs WHERE place_id = ANY(%(ids)s::text[]) ORDER BY seq"
)
DERIVE_POSTINGS = (
    "INSERT INTO matjip_postings (term, seq, tf, fieldnorm) SELECT t.term, d.seq, t.tf, d.fieldnorm "
    "FROM matjip_docs d, unnest(d.terms, d.tf) AS t(term, tf) WHERE d.place_id = ANY(%(ids)s::text[]) ORDER BY 1, 2"
)
# since migration 5 the few filter columns most requests use, apart (matjip_keys: ~200 bytes a
# row against ~550 in matjip_rows; a filter scan of every row reads a third of the pages), derived
# from matjip_rows after its rows
_KEY_COLUMNS = "seq, lat, lon, prior, hours_known, price_min, price_max, open_minutes, price_points, cuisine_key, addr_text"
# migration 5's (matjip_keys as it made it; migration 6 makes it again with the vectors' codes)
_DERIVE_KEYS_ALL_5 = (
    f"INSERT INTO matjip_keys ({_KEY_COLUMNS}) SELECT {_KEY_COLUMNS} FROM matjip_rows ORDER BY seq"
)
# since migration 6 also each vector's compact code (halfvec: 2 bytes a dimension, in the row) and
# its norm (the code's error bound): a loose search's vector list is a first pass over the codes in
# its filter scan, then the exact inner product of the few rows the bound lets reach the top
_KEY_VALUES = ", ".join(f"r.{c}" for c in _KEY_COLUMNS.split(", "))
_DERIVE_KEYS_HEAD = (
    f"INSERT INTO matjip_keys ({_KEY_COLUMNS}, vnorm, code) SELECT {_KEY_VALUES}, vector_norm(x.embedding), "
    "x.embedding::halfvec FROM matjip_rows r JOIN matjip_docs x ON x.seq = r.seq"
)
DERIVE_KEYS_ALL = f"{_DERIVE_KEYS_HEAD} ORDER BY r.seq"
DERIVE_KEYS = f"{_DERIVE_KEYS_HEAD} WHERE r.place_id = ANY(%(ids)s::text[]) ORDER BY r.seq"
DROP_KEYS = (
    "DELETE FROM matjip_keys k USING matjip_rows r WHERE r.place_id = ANY(%(ids)s::text[]) AND k.seq = r.seq"
)

# the vectors alone, in the row (a scan of them reads a kilobyte a row, not the document too)
DERIVE_VECTORS_ALL = (
    "INSERT INTO matjip_vectors (seq, embedding) SELECT seq, embedding FROM matjip_docs ORDER BY seq"
)
DERIVE_VECTORS = (
    "INSERT INTO matjip_vectors (seq, embedding) SELECT seq, embedding FROM matjip_docs "
    "WHERE place_id = ANY(%(ids)s::text[]) ORDER BY seq"
)
DROP_VECTORS = "DELETE FROM matjip_vectors v USING matjip_docs d WHERE d.place_id = ANY(%(ids)s::text[]) AND v.seq = d.seq"
DROP_ROWS = "DELETE FROM matjip_rows WHERE place_id = ANY(%(ids)s::text[])"
DROP_POSTINGS = (
    "DELETE FROM matjip_postings p USING matjip_docs d, unnest(d.terms) AS t(term) "
    "WHERE d.place_id = ANY(%(ids)s::text[]) AND p.term = t.term AND p.seq = d.seq"
)

# 2 (issue 23): the filter columns apart from the document JSON and the vector (matjip_rows, a
# few hundred bytes a row), the BM25 postings (term, row, tf, field norm) and the vectors alone
# (matjip_vectors), all derived from matjip_docs by the statements above; a build with
# MATJIP_DATABASE_HNSW makes an HNSW index on matjip_vectors
_MIGRATION_2 = (
    """
    CREATE TABLE matjip_rows (
        seq bigint PRIMARY KEY,
        place_id text NOT NULL,
        lat double precision,
        lon double precision,
        cuisine_key text NOT NULL,
        sub_key text NOT NULL,
        conv_keys text[] NOT NULL,
        kind_keys text[] NOT NULL,
        title_key text NOT NULL,
        title_words text[] NOT NULL,
        title_prefixes text[] NOT NULL,
        menu_text text NOT NULL,
        addr_text text NOT NULL,
        prices bigint[] NOT NULL,
        hours_known boolean NOT NULL,
        open_minutes int4multirange NOT NULL,
        prior real NOT NULL,
        price_points int8multirange NOT NULL
    );
    CREATE INDEX matjip_rows_place ON matjip_rows (place_id);
    CREATE INDEX matjip_rows_lat ON matjip_rows (lat);
    CREATE INDEX matjip_rows_lon ON matjip_rows (lon);
    CREATE INDEX matjip_rows_conv ON matjip_rows USING gin (conv_keys);
    CREATE INDEX matjip_rows_kind ON matjip_rows USING gin (kind_keys);
    CREATE INDEX matjip_rows_cuisine ON matjip_rows (cuisine_key);
    CREATE TABLE matjip_postings (
        term text NOT NULL,
        seq bigint NOT NULL,
        tf integer NOT NULL,
        fieldnorm integer NOT NULL,
        PRIMARY KEY (term, seq)
    );
    CREATE TABLE matjip_vectors (
        seq bigint PRIMARY KEY,
        embedding vector NOT NULL
    );
    ALTER TABLE matjip_vectors ALTER COLUMN embedding SET STORAGE PLAIN;
    """
    + _DERIVE_ROWS_ALL_2
    + ";\n"
    + DERIVE_POSTINGS_ALL
    + ";\n"
    + DERIVE_VECTORS_ALL
    + ";\nANALYZE matjip_rows;\nANALYZE matjip_postings;\nANALYZE matjip_vectors;\n"
)

# 3 (issue 23): the menu's character bigrams, GIN-indexed (an expression index: the rows stay as
# narrow). A substring of two or more characters has all its bigrams in the text's, so a menu
# filter's rows come from the index (then the exact LIKE), not from a scan of every row the other
# filters keep
_MIGRATION_3 = """
    CREATE FUNCTION matjip_bigrams(t text) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
        RETURN ARRAY(SELECT DISTINCT substr(t, i, 2) FROM generate_series(1, char_length(t) - 1) AS i);
    CREATE INDEX matjip_rows_menu_grams ON matjip_rows USING gin (matjip_bigrams(menu_text));
    ANALYZE matjip_rows;
    """

# 4 (issue 23): matjip_rows made again with its fixed-width columns first (a row's columns are
# read in order, so a test of a late column walked every text and array before it: the opening
# hours' and prices' tests cost ~1 µs a row at 100k) and the price filter's box (cheapest,
# dearest); the indexes as before, the rows derived from matjip_docs again
_MIGRATION_4 = (
    """
    DROP TABLE matjip_rows;
    CREATE TABLE matjip_rows (
        seq bigint PRIMARY KEY,
        lat double precision,
        lon double precision,
        prior real NOT NULL,
        hours_known boolean NOT NULL,
        price_min bigint,
        price_max bigint,
        open_minutes int4multirange NOT NULL,
        price_points int8multirange NOT NULL,
        cuisine_key text NOT NULL,
        sub_key text NOT NULL,
        conv_keys text[] NOT NULL,
        kind_keys text[] NOT NULL,
        title_key text NOT NULL,
        title_words text[] NOT NULL,
        title_prefixes text[] NOT NULL,
        menu_text text NOT NULL,
        addr_text text NOT NULL,
        prices bigint[] NOT NULL,
        place_id text NOT NULL
    );
    CREATE INDEX matjip_rows_place ON matjip_rows (place_id);
    CREATE INDEX matjip_rows_lat ON matjip_rows (lat);
    CREATE INDEX matjip_rows_lon ON matjip_rows (lon);
    CREATE INDEX matjip_rows_conv ON matjip_rows USING gin (conv_keys);
    CREATE INDEX matjip_rows_kind ON matjip_rows USING gin (kind_keys);
    CREATE INDEX matjip_rows_cuisine ON matjip_rows (cuisine_key);
    CREATE INDEX matjip_rows_menu_grams ON matjip_rows USING gin (matjip_bigrams(menu_text));
    """
    + DERIVE_ROWS_ALL
    + ";\nANALYZE matjip_rows;\n"
)

# 5 (issue 23, sixth round): matjip_keys, the columns of the filters most requests use (the box,
# prices, opening hours, cuisine, address) without the menu, titles and arrays of matjip_rows
_MIGRATION_5 = (
    """
    CREATE TABLE matjip_keys (
        seq bigint PRIMARY KEY,
        lat double precision,
        lon double precision,
        prior real NOT NULL,
        hours_known boolean NOT NULL,
        price_min bigint,
        price_max bigint,
        open_minutes int4multirange NOT NULL,
        price_points int8multirange NOT NULL,
        cuisine_key text NOT NULL,
        addr_text text NOT NULL
    );
    CREATE INDEX matjip_keys_lat ON matjip_keys (lat);
    CREATE INDEX matjip_keys_lon ON matjip_keys (lon);
    CREATE INDEX matjip_keys_cuisine ON matjip_keys (cuisine_key);
    """
    + _DERIVE_KEYS_ALL_5
    + ";\nANALYZE matjip_keys;\n"
)

# 6 (issue 23, twelfth round): matjip_keys made again with each vector's norm (fixed-width, with
# the other fixed-width columns) and its halfvec code (last: read only for the vector list)
_MIGRATION_6 = (
    """
    DROP TABLE matjip_keys;
    CREATE TABLE matjip_keys (
        seq bigint PRIMARY KEY,
        lat double precision,
        lon double precision,
        prior real NOT NULL,
        hours_known boolean NOT NULL,
        price_min bigint,
        price_max bigint,
        vnorm real NOT NULL,
        open_minutes int4multirange NOT NULL,
        price_points int8multirange NOT NULL,
        cuisine_key text NOT NULL,
        addr_text text NOT NULL,
        code halfvec NOT NULL
    );
    ALTER TABLE matjip_keys ALTER COLUMN code SET STORAGE PLAIN;
    CREATE INDEX matjip_keys_lat ON matjip_keys (lat);
    CREATE INDEX matjip_keys_lon ON matjip_keys (lon);
    CREATE INDEX matjip_keys_cuisine ON matjip_keys (cuisine_key);
    """
    + DERIVE_KEYS_ALL
    + ";\nANALYZE matjip_keys;\n"
)

# 7 (issue 23, thirteenth round): the address's character bigrams, GIN-indexed in matjip_keys and
# matjip_rows (expression indexes, as migration 3's for the menu: the rows stay as narrow). A district
# or place-name filter is a LIKE of " name" over every address; a row holding the needle holds its
# bigrams, so the rows come from the index (then the exact LIKE) instead of a scan of every row
_MIGRATION_7 = """
    CREATE INDEX matjip_keys_addr_grams ON matjip_keys USING gin (matjip_bigrams(addr_text));
    CREATE INDEX matjip_rows_addr_grams ON matjip_rows USING gin (matjip_bigrams(addr_text));
    ANALYZE matjip_keys;
    ANALYZE matjip_rows;
    """

MIGRATIONS: tuple[str, ...] = (
    # 1: documents, their filter columns, BM25 terms, vectors; the embedder's learnt state
    """
    CREATE EXTENSION IF NOT EXISTS cube;
    CREATE EXTENSION IF NOT EXISTS earthdistance;
    CREATE EXTENSION IF NOT EXISTS vector;
    CREATE SEQUENCE matjip_docs_seq;
    CREATE TABLE matjip_docs (
        place_id text PRIMARY KEY,
        seq bigint NOT NULL UNIQUE DEFAULT nextval('matjip_docs_seq'),
        doc text NOT NULL,
        lat double precision,
        lon double precision,
        cuisine_key text NOT NULL,
        sub_key text NOT NULL,
        conv_keys text[] NOT NULL,
        kind_keys text[] NOT NULL,
        title text NOT NULL,
        title_key text NOT NULL,
        title_words text[] NOT NULL,
        title_prefixes text[] NOT NULL,
        menu_text text NOT NULL,
        addr_text text NOT NULL,
        prices bigint[] NOT NULL,
        price_count integer NOT NULL,
        hours_known boolean NOT NULL,
        open_minutes int4multirange NOT NULL,
        prior real NOT NULL,
        terms text[] NOT NULL,
        tf integer[] NOT NULL,
        doc_len integer NOT NULL,
        fieldnorm integer NOT NULL,
        embedding vector NOT NULL
    );
    CREATE INDEX matjip_docs_earth ON matjip_docs USING gist (ll_to_earth(lat, lon))
        WHERE lat IS NOT NULL AND lon IS NOT NULL;
    CREATE INDEX matjip_docs_terms ON matjip_docs USING gin (terms);
    CREATE INDEX matjip_docs_conv ON matjip_docs USING gin (conv_keys);
    CREATE INDEX matjip_docs_kind ON matjip_docs USING gin (kind_keys);
    CREATE INDEX matjip_docs_cuisine ON matjip_docs (cuisine_key);
    CREATE TABLE matjip_index_meta (
        id integer PRIMARY KEY CHECK (id = 1),
        embedder text NOT NULL,
        dim integer NOT NULL,
        documents bigint NOT NULL DEFAULT 0,
        tokens bigint NOT NULL DEFAULT 0,
        built_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        build_seconds double precision
    );
    CREATE TABLE matjip_embedder_files (
        path text PRIMARY KEY,
        data bytea NOT NULL
    );
    """,
    _MIGRATION_2,
    _MIGRATION_3,
    _MIGRATION_4,
    _MIGRATION_5,
    _MIGRATION_6,
    _MIGRATION_7,
)

CREATE_VERSION_TABLE = (
    "CREATE TABLE IF NOT EXISTS matjip_schema (version integer PRIMARY KEY, applied_at timestamptz "
    "NOT NULL DEFAULT now())"
)
LOCK_MIGRATIONS = "SELECT pg_advisory_xact_lock(%(key)s)"
TRY_LOCK_SETUP = "SELECT pg_try_advisory_lock(%(key)s) AS got"
UNLOCK_SETUP = "SELECT pg_advisory_unlock(%(key)s)"
SCHEMA_VERSION = "SELECT coalesce(max(version), 0) FROM matjip_schema"
RECORD_VERSION = "INSERT INTO matjip_schema (version) VALUES (%(version)s)"

# the columns of a document row, in the order of :func:`matjip.index.postgres.doc_row`
COPY_DOCS = (
    "COPY matjip_docs (place_id, doc, lat, lon, cuisine_key, sub_key, conv_keys, kind_keys, title, title_key, "
    "title_words, title_prefixes, menu_text, addr_text, prices, price_count, hours_known, open_minutes, prior, "
    "terms, tf, doc_len, fieldnorm, embedding) FROM STDIN"
)
TRUNCATE_DOCS = (
    "TRUNCATE matjip_docs, matjip_embedder_files, matjip_index_meta, matjip_rows, matjip_keys, matjip_postings, "
    "matjip_vectors"
)
# a build: the vectors' column typed with the embedder's dimension (the HNSW index needs it; the
# table is empty then), the index made after the COPY (far faster than row by row), the
# planner's statistics refreshed after the commit
DROP_VECTOR_INDEX = "DROP INDEX IF EXISTS matjip_vectors_hnsw"
_VECTOR_COLUMN = (
    "ALTER TABLE matjip_vectors ALTER COLUMN embedding TYPE vector({dim}) USING embedding::vector({dim})"
)
VECTOR_STORAGE = (
    "ALTER TABLE matjip_vectors ALTER COLUMN embedding SET STORAGE PLAIN"  # in the row, never TOASTed
)
BUILD_MEMORY = "SET LOCAL maintenance_work_mem = '1GB'"
# m 32 and ef_construction 200 (pgvector's defaults are 16 and 64): a denser graph, so a walk
# does not stall among many equal vectors (recall@50 0.97 against 0.90 at the same ef_search on
# the benchmark's corpus, where every vector is repeated ~8 times)
CREATE_VECTOR_INDEX = (
    "CREATE INDEX matjip_vectors_hnsw ON matjip_vectors USING hnsw (embedding vector_ip_ops) "
    "WITH (m = 32, ef_construction = 200)"
)
ANALYZE_INDEX = "ANALYZE matjip_docs, matjip_rows, matjip_keys, matjip_postings, matjip_vectors"
# every search connection: HNSW's iterative scan keeps its exact order, its candidate list of 1000
# rows, pgvector's largest (an unfiltered search's read sets its own, UNFILTERED_WALK; the recall of
# the vector list is this list's: a longer take from the walk finds no more; measured against the
# exact scan on the benchmark's 100k corpus in README, "HNSW"; the walk misses whole groups of equal
# vectors, not rows of a tie),
# the BM25 aggregation of large posting lists stays in memory, each statement is planned with its
# values; no JIT (a search's plan costs cross its threshold at 1M rows, and compiling costs more
# than a search), and index pages priced as cached (a served index lives in memory)
SEARCH_OPTIONS = (
    "-c hnsw.ef_search=1000 -c hnsw.iterative_scan=strict_order -c work_mem=64MB -c plan_cache_mode=force_custom_plan "
    "-c jit=off -c random_page_cost=1.1"
)


def vector_column(dim: int) -> str:
    """The statement typing the vectors' column with the embedder's dimension (an int, never a
    request value)."""
    return _VECTOR_COLUMN.format(dim=int(dim))


RESET_SEQ = "ALTER SEQUENCE matjip_docs_seq RESTART WITH 1"
DELETE_DOCS = "DELETE FROM matjip_docs WHERE place_id = ANY(%(ids)s::text[])"
SAVE_META = (
    "INSERT INTO matjip_index_meta (id, embedder, dim, build_seconds) VALUES (1, %(embedder)s, %(dim)s, "
    "%(build_seconds)s) ON CONFLICT (id) DO UPDATE SET embedder = excluded.embedder, dim = excluded.dim, "
    "build_seconds = excluded.build_seconds, built_at = now(), updated_at = now()"
)
REFRESH_COUNTS = (
    "UPDATE matjip_index_meta SET documents = s.n, tokens = s.t, updated_at = now() "
    "FROM (SELECT count(*) AS n, coalesce(sum(doc_len), 0) AS t FROM matjip_docs) s WHERE id = 1"
)
SAVE_FILE = "INSERT INTO matjip_embedder_files (path, data) VALUES (%(path)s, %(data)s)"
READ_META = (
    "SELECT embedder, dim, documents, tokens, built_at, updated_at, build_seconds FROM matjip_index_meta "
    "WHERE id = 1"
)
READ_FILES = "SELECT path, data FROM matjip_embedder_files ORDER BY path"
# every read (search, count, stats, get) runs in one snapshot, on a replica or the primary: the
# index meta and the rows it describes come from the same committed version
BEGIN_READ = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
END_READ = "COMMIT"
# an unfiltered search's HNSW walk (every row a candidate: the walk's first rows are the list's; a
# filtered list is exact) needs no more than this candidate list: at 600 the vector list's
# recall@50 0.996 and the hits' 0.997 on the benchmark's unfiltered queries, against 0.9998 / 0.997
# at 800 and 0.993 / 0.991 at 400 (fifteenth round, README "HNSW"); set for the read's transaction
# only, pipelined with its BEGIN
UNFILTERED_WALK = "SET LOCAL hnsw.ef_search = 600"
ABORT_READ = "ROLLBACK"
PROBE = "SELECT 1"  # is a replica that failed reachable again
# read-your-writes: the primary's WAL position after a write, and whether a replica has replayed it
WRITTEN_LSN = "SELECT pg_current_wal_insert_lsn()::text"
REPLAYED = "SELECT coalesce(pg_last_wal_replay_lsn() >= %(lsn)s::pg_lsn, TRUE)"
GET_DOC = "SELECT doc FROM matjip_docs WHERE place_id = %(id)s"
ALL_IDS = "SELECT place_id FROM matjip_docs ORDER BY seq"
EXISTING_IDS = "SELECT place_id FROM matjip_docs WHERE place_id = ANY(%(ids)s::text[])"
STATS = (
    "SELECT count(*), count(lat), count(*) FILTER (WHERE hours_known), count(*) FILTER (WHERE price_count > 0), "
    "count(DISTINCT sub_key) FILTER (WHERE sub_key <> ''), pg_total_relation_size('matjip_docs') FROM matjip_docs"
)
CUISINE_COUNTS = (
    "SELECT cuisine_key, min(doc::jsonb ->> 'cuisine'), count(*) FROM matjip_docs GROUP BY 1 ORDER BY 1"
)
CONVENIENCE_VALUES = "SELECT count(DISTINCT c) FROM matjip_docs, unnest(conv_keys) c"
COORDINATES = "SELECT seq, lat, lon FROM matjip_rows WHERE lat IS NOT NULL AND lon IS NOT NULL"
DOC_FREQ = "SELECT q.t, (SELECT count(*) FROM matjip_postings p WHERE p.term = q.t) FROM unnest(%(terms)s::text[]) AS q(t)"

_HAVERSINE = (
    "(2 * 6371008.8 * asin(least(1.0, sqrt(power(sin((radians(d.lat) - radians(%(geo_lat)s)) / 2), 2) "
    "+ cos(radians(%(geo_lat)s)) * cos(radians(d.lat)) * power(sin((radians(d.lon) - radians(%(geo_lon)s)) / 2), 2)))))"
)

# one clause per request field; the names are the keys SearchRequest fields map to
FILTERS: dict[str, str] = {
    # a latitude/longitude box around the circle first (B-tree indexes whose statistics the planner
    # weighs against the other filters'), then the exact haversine, skipped for rows inside a box
    # that lies well inside the circle (every point of it under 0.99 of the radius away)
    "geo": (
        "(d.lat BETWEEN %(geo_min_lat)s AND %(geo_max_lat)s AND d.lon BETWEEN %(geo_min_lon)s AND %(geo_max_lon)s "
        "AND ((d.lat BETWEEN %(geo_in_min_lat)s AND %(geo_in_max_lat)s "
        "AND d.lon BETWEEN %(geo_in_min_lon)s AND %(geo_in_max_lon)s) "
        f"OR {_HAVERSINE} <= %(geo_radius)s))"
    ),
    # a route's samples (issue 14): within one of the circles; a box around them all first
    "near_any": (
        "(d.lat IS NOT NULL AND d.lon IS NOT NULL "
        "AND d.lat BETWEEN %(near_min_lat)s AND %(near_max_lat)s AND d.lon BETWEEN %(near_min_lon)s AND %(near_max_lon)s "
        "AND EXISTS (SELECT 1 FROM unnest(%(near_lat)s::float8[], %(near_lon)s::float8[], %(near_radius)s::float8[]) "
        "AS c(lat, lon, r) WHERE (2 * 6371008.8 * asin(least(1.0, sqrt(power(sin((radians(d.lat) - radians(c.lat)) / 2), 2) "
        "+ cos(radians(c.lat)) * cos(radians(d.lat)) * power(sin((radians(d.lon) - radians(c.lon)) / 2), 2))))) <= c.r))"
    ),
    "region": "(d.addr_text LIKE ANY(%(region_needles)s::text[]) OR d.seq = ANY(%(region_seqs)s::bigint[]))",
    # with a region filter of address needles alone (no outline's rows): the bigrams every needle
    # holds (GIN), a superset of the rows the LIKE keeps
    "region_grams": "matjip_bigrams(d.addr_text) @> %(region_grams)s::text[]",
    "cuisine": "d.cuisine_key = ANY(%(cuisine)s::text[])",
    "sub_category": "(d.sub_key <> '' AND d.sub_key LIKE ANY(%(sub_category)s::text[]))",
    "menu": "(d.menu_text <> '' AND d.menu_text LIKE ALL(%(menu)s::text[]))",
    # with a menu filter whose needles have bigrams: the rows holding them all (GIN), a superset
    "menu_grams": "matjip_bigrams(d.menu_text) @> %(menu_grams)s::text[]",
    "kind": "d.kind_keys && %(kind)s::text[]",
    "exclude_kind": "NOT (d.kind_keys && %(exclude_kind)s::text[])",
    "exclude_cuisine": "d.cuisine_key <> ALL(%(exclude_cuisine)s::text[])",
    "exclude_menu": "NOT (d.menu_text <> '' AND d.menu_text LIKE ANY(%(exclude_menu)s::text[]))",
    "exclude_title": "NOT (d.title_key LIKE ANY(%(exclude_title)s::text[]))",
    "convenience": "d.conv_keys @> %(convenience)s::text[]",
    "title": (
        "(d.title_key <> '' AND (%(title_key)s = ANY(d.title_prefixes) "
        "OR (left(d.title_key, %(title_len)s) = %(title_key)s "
        "AND char_length(d.title_key) - %(title_len)s BETWEEN 1 AND %(title_branch)s "
        "AND right(d.title_key, 1) = ANY(%(title_suffixes)s::text[])) "
        "OR d.title_words @> %(title_words)s::text[]))"
    ),
    # the box of the menu's prices first (fixed-width columns), the exact overlap test for the rest
    "price": (
        "(d.price_min <= %(price_high)s AND d.price_max >= %(price_low)s "
        "AND d.price_points && int8range(%(price_low)s, %(price_high)s, '[]'))"
    ),
    "open_at": (
        "((d.hours_known AND d.open_minutes && %(open_minutes)s::int4multirange) "
        "OR (%(open_unknown)s AND NOT d.hours_known))"
    ),
    "exclude_ids": "d.place_id <> ALL(%(exclude_ids)s::text[])",
    # not a request field: the rows already chosen (filling a ranking up by prior)
    "not_chosen": "d.seq <> ALL(%(chosen)s::bigint[])",
    # not a request field: BM25 needs a term in common
    "terms": "d.terms && %(terms)s::text[]",
}
FILTER_ORDER = tuple(FILTERS)
# the filters whose every column matjip_keys holds (the box, prices, hours, cuisine, address): a
# search with no other filter scans it
KEY_FILTERS = frozenset(
    name
    for name, clause in FILTERS.items()
    if set(re.findall(r"\bd\.(\w+)", clause)) <= set(_KEY_COLUMNS.split(", "))
)

_DIST = f"CASE WHEN %(geo_on)s THEN {_HAVERSINE} END"

_C_HAVERSINE = _HAVERSINE.replace("d.lat", "c.lat").replace("d.lon", "c.lon")
_C_DIST = f"CASE WHEN %(geo_on)s THEN {_C_HAVERSINE} END"
_BM25_TERM = "q.w * p.tf / (p.tf + %(k1)s * (1 - %(b)s + %(b)s * p.fieldnorm / %(avgdl)s))"
_BM25_COLUMNS = (
    f"sum({_BM25_TERM}) AS score, array_agg(q.i ORDER BY q.i) AS qi, array_agg(p.tf ORDER BY q.i) AS tfs"
)
# a large list's rows are summed alone (a hash aggregate of one float a row), then the term
# positions and tfs read again for its first rows only: collecting them in order for every
# row holding a term (a sort of every posting and two arrays a row) cost more than the join
_BM25_SCORE = f"sum({_BM25_TERM}) AS score"
_BM25_TFS = (
    "CROSS JOIN LATERAL (SELECT array_agg(q.i ORDER BY q.i) AS qi, array_agg(p.tf ORDER BY q.i) AS tfs "
    "FROM q JOIN matjip_postings p ON p.term = q.term AND p.seq = b.seq) t"
)
_NULLS6 = "NULL::real, NULL::boolean, NULL::bigint[], NULL::integer[], NULL::integer, NULL::bytea"

# One search in one statement (issue 23): the candidates are materialised once from the narrow rows
# and every list the shared ranking reads is taken from them, each part switched on by a bound flag
# (a part switched off, or whose branch the candidate count rules out, is never executed):
#   part 0, the count; part 1, the BM25 list from the postings (from the candidates' own postings
#   when they are few — at most %(small_max)s — else from the terms' postings joined to them, or
#   with no filter at all from the postings alone); part 2, the exact vector list over the
#   candidates (or over every row: %(all_exact)s), else — no filter, HNSW on — from the HNSW index:
#   the last branch, the walk's %(ann_limit)s rows cut to the exact order's first %(vector_limit)s,
#   with how many the walk gave in the field norm's column (a filtered list is always exact: its
#   candidates' halfvec codes are scored in the filter scan, cheaper than a walk kept to them,
#   fifteenth round); part 3, the best by prior; part 4, the nearest.
# Rows: part, seq, score, lat, lon, prior, boost, term positions, tfs, field norm, vector.
_SEARCH = (
    "WITH c AS MATERIALIZED (SELECT d.seq, d.lat, d.lon, d.prior, (d.title_key = %(boost_key)s) AS boost "
    "FROM matjip_rows d WHERE {where}), "
    "n AS (SELECT count(*) AS n FROM c WHERE NOT %(all_rows)s), "
    "q AS (SELECT * FROM unnest(%(terms)s::text[], %(weights)s::float8[]) WITH ORDINALITY AS q(term, w, i)) "
    f"SELECT 0, NULL::bigint, (SELECT n FROM n)::float8, NULL::float8, NULL::float8, {_NULLS6} "
    "UNION ALL (SELECT 1, b.seq, b.score, b.lat, b.lon, NULL::real, NULL::boolean, b.qi, b.tfs, b.norm, NULL::bytea "
    f"FROM (SELECT c.seq, c.lat, c.lon, {_BM25_COLUMNS}, min(p.fieldnorm) AS norm FROM c "
    "JOIN matjip_postings p ON p.seq = c.seq AND p.term = ANY(%(terms)s::text[]) JOIN q ON q.term = p.term "
    "WHERE %(want_bm25)s AND NOT %(all_rows)s AND (SELECT n FROM n) <= %(small_max)s "
    "GROUP BY c.seq, c.lat, c.lon ORDER BY score DESC, c.seq LIMIT %(bm25_limit)s) b) "
    "UNION ALL (SELECT 1, b.seq, b.score, NULL::float8, NULL::float8, NULL::real, NULL::boolean, t.qi, t.tfs, b.norm, "
    f"NULL::bytea FROM (SELECT p.seq, {_BM25_SCORE}, min(p.fieldnorm) AS norm FROM q JOIN matjip_postings p ON p.term = q.term "
    "WHERE %(want_bm25)s AND %(all_rows)s "
    f"GROUP BY p.seq ORDER BY score DESC, p.seq LIMIT %(bm25_limit)s) b {_BM25_TFS}) "
    "UNION ALL (SELECT 1, b.seq, b.score, b.lat, b.lon, NULL::real, NULL::boolean, t.qi, t.tfs, b.norm, NULL::bytea "
    f"FROM (SELECT p.seq, c.lat, c.lon, {_BM25_SCORE}, min(p.fieldnorm) AS norm FROM q "
    "JOIN matjip_postings p ON p.term = q.term JOIN c ON c.seq = p.seq "
    "WHERE %(want_bm25)s AND NOT %(all_rows)s AND (SELECT n FROM n) > %(small_max)s "
    f"GROUP BY p.seq, c.lat, c.lon ORDER BY score DESC, p.seq LIMIT %(bm25_limit)s) b {_BM25_TFS}) "
    "UNION ALL (SELECT 2, v.seq, v.dist, v.lat, v.lon, NULL::real, NULL::boolean, NULL::bigint[], NULL::integer[], "
    "NULL::integer, vector_send(e.embedding) FROM (SELECT c.seq, c.lat, c.lon, "
    "(d.embedding <#> %(qv)s::real[]::vector) + 0 AS dist FROM c JOIN matjip_vectors d ON d.seq = c.seq "
    "WHERE %(want_vector)s AND NOT %(all_rows)s "
    "ORDER BY dist, c.seq LIMIT %(vector_limit)s) v JOIN matjip_vectors e ON e.seq = v.seq) "
    "UNION ALL (SELECT 2, v.seq, v.dist, NULL::float8, NULL::float8, NULL::real, NULL::boolean, NULL::bigint[], NULL::integer[], "
    "NULL::integer, vector_send(e.embedding) FROM (SELECT x.seq, (x.embedding <#> %(qv)s::real[]::vector) + 0 AS dist "
    "FROM matjip_vectors x WHERE %(want_vector)s AND %(all_rows)s AND %(all_exact)s "
    "ORDER BY dist, x.seq LIMIT %(vector_limit)s) v JOIN matjip_vectors e ON e.seq = v.seq) "
    f"UNION ALL (SELECT 3, c.seq, NULL::float8, c.lat, c.lon, c.prior, c.boost, NULL::bigint[], NULL::integer[], "
    "NULL::integer, NULL::bytea FROM c WHERE %(want_prior)s "
    f"ORDER BY c.prior::float8 + CASE WHEN c.boost THEN 10 ELSE 0 END DESC, {_C_DIST}, c.seq LIMIT %(prior_limit)s) "
    f"UNION ALL (SELECT 4, c.seq, NULL::float8, c.lat, c.lon, c.prior, NULL::boolean, NULL::bigint[], NULL::integer[], "
    "NULL::integer, NULL::bytea FROM c WHERE %(want_nearest)s "
    f"ORDER BY {_C_DIST}, c.prior DESC, c.seq LIMIT %(nearest_limit)s) "
    "UNION ALL (SELECT 2, v.seq, v.dist, NULL::float8, NULL::float8, NULL::real, NULL::boolean, NULL::bigint[], "
    "NULL::integer[], v.walked::integer, vector_send(e.embedding) FROM (SELECT w.seq, w.dist, count(*) OVER () AS walked "
    "FROM (SELECT x.seq, (x.embedding <#> %(qv)s::real[]::vector) + 0 AS dist FROM matjip_vectors x "
    "WHERE %(want_vector)s AND %(all_rows)s AND NOT %(all_exact)s "
    "ORDER BY x.embedding <#> %(qv)s::real[]::vector LIMIT %(ann_limit)s) w "
    "ORDER BY w.dist, w.seq LIMIT %(vector_limit)s) v JOIN matjip_vectors e ON e.seq = v.seq)"
)

# query templates; {where} is the AND of the chosen FILTERS clauses
QUERIES: dict[str, str] = {
    "search": _SEARCH,
    "count": "SELECT count(*) FROM matjip_rows d WHERE {where}",
    "bm25": (
        "SELECT d.seq, d.terms, d.tf, d.fieldnorm FROM matjip_docs d "
        "CROSS JOIN LATERAL (SELECT sum(q.w * t.tf / (t.tf + %(k1)s * (1 - %(b)s + %(b)s * d.fieldnorm / %(avgdl)s))) "
        "AS score FROM unnest(d.terms, d.tf) AS t(term, tf) JOIN unnest(%(terms)s::text[], %(weights)s::float8[]) "
        "AS q(term, w) ON q.term = t.term) s "
        "WHERE {where} ORDER BY s.score DESC, d.seq LIMIT %(limit)s"
    ),
    "vector": (
        "SELECT v.seq, vector_send(e.embedding), v.lat, v.lon FROM (SELECT d.seq, d.lat, d.lon, "
        "(x.embedding <#> %(qv)s::real[]::vector) + 0 AS dist FROM matjip_rows d JOIN matjip_vectors x ON x.seq = d.seq "
        "WHERE {where} ORDER BY dist, d.seq LIMIT %(limit)s) v JOIN matjip_vectors e ON e.seq = v.seq"
    ),
    "prior": (
        "SELECT d.seq, d.prior, d.lat, d.lon, (d.title_key = %(boost_key)s) FROM matjip_rows d WHERE {where} "
        f"ORDER BY d.prior::float8 + CASE WHEN d.title_key = %(boost_key)s THEN 10 ELSE 0 END DESC, "
        f"{_DIST}, d.seq LIMIT %(limit)s"
    ),
    "distance": (
        f"SELECT d.seq, d.prior, d.lat, d.lon FROM matjip_rows d WHERE {{where}} ORDER BY {_DIST}, d.prior DESC, d.seq "
        "LIMIT %(limit)s"
    ),
    "rows": (
        "SELECT d.seq, d.doc, d.terms, vector_send(d.embedding), d.lat, d.lon, d.prior FROM matjip_docs d "
        "WHERE d.seq = ANY(%(seqs)s::bigint[])"
    ),
    "locate": "SELECT d.seq, d.lat, d.lon FROM matjip_rows d WHERE d.seq = ANY(%(seqs)s::bigint[])",
}


# The search statement with only the parts a request can use (fewer branches to plan: a filtered
# kNN search plans the count and the vector list, not the BM25 lists too). The parts switched off
# by their bound flags are the ones left out, so every variant returns what the full one does.
# Named "search/<rows>/<parts>": rows "all" (no filter) or "some", parts from SEARCH_PARTS.
SEARCH_PARTS = ("bm25", "vector", "prior", "nearest")
_HEAD, *_BRANCHES = _SEARCH.split("UNION ALL (")
_SOME = dict(zip(SEARCH_PARTS, ((1, 3), (4,), (6,), (7,)), strict=True))  # branches, 1-based
_ALL = dict(zip(SEARCH_PARTS, ((2,), (5, 8), (6,), (7,)), strict=True))


def _search_variant(all_rows: bool, parts: Sequence[str]) -> str:
    use = _ALL if all_rows else _SOME
    chosen = sorted({b for p in parts for b in use[p]})
    return _HEAD + "".join("UNION ALL (" + _BRANCHES[b - 1] for b in chosen)


# the candidates from matjip_keys (every filter of the request in KEY_FILTERS; no title filter,
# so no title boost: the boost column is NULL, as title_key = NULL is)
_ROWS_SCAN = "(d.title_key = %(boost_key)s) AS boost FROM matjip_rows d WHERE {where}"
_KEYS_SCAN = "NULL::boolean AS boost FROM matjip_keys d WHERE {where}"

# A vector list from matjip_keys' codes (issue 23, twelfth round; exact), where the exact branch
# would run (every filtered list, with HNSW on too since the fifteenth round): the filter scan
# scores every candidate by its halfvec code (adist, in the row: no lookup), then only the candidates
# whose code's score, less its error bound, reaches the bound of the codes' best %(vector_limit)s
# are scored exactly (as the exact branch does) — the list's rows are those of the exact scan
# of every candidate. The bound: a row's exact distance is within %(code_err)s * (vnorm + 1) of
# its code's (the rounding of the row and the query to halfvec, 2^-11 a component, and float4
# sums; PgCandidates.statement), so at least %(vector_limit)s rows lie at or under u, the largest
# code distance plus bound of the codes' best, and a row of the exact list has its code distance
# less its bound at or under u.
_CODES_SCAN = (
    "NULL::boolean AS boost, (d.code <#> %(qv)s::real[]::halfvec) AS adist, d.vnorm "
    "FROM matjip_keys d WHERE {where}"
)
_EXACT_BRANCH = _BRANCHES[3]  # part 2 over the candidates
_CODED_BRANCH = (
    "SELECT 2, v.seq, v.dist, v.lat, v.lon, NULL::real, NULL::boolean, NULL::bigint[], NULL::integer[], "
    "NULL::integer, vector_send(e.embedding) FROM (SELECT c.seq, c.lat, c.lon, "
    "(d.embedding <#> %(qv)s::real[]::vector) + 0 AS dist FROM c JOIN matjip_vectors d ON d.seq = c.seq "
    "WHERE %(want_vector)s "
    "AND c.adist - %(code_err)s * (c.vnorm + 1) <= (SELECT max(a.adist + %(code_err)s * "
    "(a.vnorm + 1)) FROM (SELECT c.adist, c.vnorm FROM c WHERE %(want_vector)s ORDER BY c.adist "
    "LIMIT %(vector_limit)s) a) "
    "ORDER BY dist, c.seq LIMIT %(vector_limit)s) v JOIN matjip_vectors e ON e.seq = v.seq) "
)


def search_template(all_rows: bool, parts: Sequence[str], keys: bool = False, hits: bool = False) -> str:
    """The name of the search statement's variant for these parts (a key of QUERIES); ``keys``:
    the candidates scanned from matjip_keys (with the vector part, the exact list from
    the codes: :data:`_CODED_BRANCH`; with no filter the vector part holds the HNSW walk's
    branch too, run with ``all_exact`` off); ``hits``: with the hit rows of the
    BM25 and vector lists' first rows (:data:`_HITS_HEAD`; a variant with a list to rank and none
    by distance: a kNN or a text search)."""
    kept = [p for p in SEARCH_PARTS if p in parts]
    hits = hits and set(kept) <= HIT_PARTS and bool({"bm25", "vector"} & set(kept))
    name = f"search{'-keys' if keys else ''}/{'all' if all_rows else 'some'}/{'+'.join(kept)}"
    return name + ("+hits" if hits else "")


# A search's statement with its hit rows (issue 23, eleventh round for kNN, fourteenth for every
# text search: one round trip, not two): the first %(hit_limit)s rows of the BM25 list (part 1, best
# score first) and of the vector list (part 2, nearest first), each in the statement's order (then
# row), carry what a hit shows (the document, its terms, coordinates, prior and vector, as
# QUERIES["rows"] reads them) in six more columns; the client ranks the lists exactly, and a hit
# outside those rows (past the margin in both lists, a float tie, a fill-up by prior) is read in
# a read of its own, checked to be of the same index version.
# Rows: the search's eleven columns, the row's rank in its part, then doc, terms, lat, lon, prior,
# and the vector of a BM25 row (a vector row's is in its own column).
_HITS_HEAD = (
    "SELECT s.*, h.doc, h.terms, h.lat, h.lon, h.prior, CASE WHEN s.vec IS NULL THEN vector_send(h.embedding) END "
    "FROM (SELECT s.*, row_number() OVER (PARTITION BY s.part ORDER BY CASE WHEN s.part = 1 THEN -s.score "
    "ELSE s.score END, s.seq) AS rk FROM ("
)
_HITS_TAIL = (
    ") s(part, seq, score, lat, lon, prior, boost, qi, tfs, norm, vec)) s "
    "LEFT JOIN matjip_docs h ON s.part IN (1, 2) AND s.rk <= %(hit_limit)s AND h.seq = s.seq"
)
# the variants a search with its hit rows may take: a list to rank (BM25 or vectors), none by distance
HIT_PARTS = frozenset({"bm25", "vector", "prior"})


for _rows in (False, True):
    for _mask in range(2 ** len(SEARCH_PARTS)):
        _parts = [p for i, p in enumerate(SEARCH_PARTS) if _mask >> i & 1]
        QUERIES[search_template(_rows, _parts)] = _search_variant(_rows, _parts)
        if not _rows:
            _keyed = _search_variant(_rows, _parts)
            if "vector" in _parts:
                _keyed = _keyed.replace(_ROWS_SCAN, _CODES_SCAN).replace(_EXACT_BRANCH, _CODED_BRANCH)
            QUERIES[search_template(_rows, _parts, keys=True)] = _keyed.replace(_ROWS_SCAN, _KEYS_SCAN)
for _name in [n for n in QUERIES if n == "search" or n.startswith("search")]:
    _kept = set(_name.rpartition("/")[2].split("+")) if "/" in _name else HIT_PARTS
    if _name == "search" or (_kept <= HIT_PARTS and {"bm25", "vector"} & _kept):
        QUERIES[_name + "+hits"] = _HITS_HEAD + QUERIES[_name] + _HITS_TAIL


def compose(template: str, filters: Sequence[str]) -> str:
    """The statement for ``template`` with the named filter clauses (always in a fixed order)."""
    chosen = [FILTERS[name] for name in FILTER_ORDER if name in filters]
    return QUERIES[template].format(where=" AND ".join(chosen) if chosen else "TRUE")


def all_statements() -> set[str]:
    """Every constant statement (templates need :func:`compose`); for tests."""
    return {
        v
        for k, v in globals().items()
        if k.isupper() and isinstance(v, str) and k not in {"_HAVERSINE", "_DIST"} and not k.startswith("_")
    }

"""Every backend implements the whole `Store` Protocol with the same signatures (checked without a server)."""

from __future__ import annotations

import inspect
from typing import Any

from storage import SqliteStore, Store
from storage.postgres import PostgresStore


def _methods() -> list[str]:
    """The public methods of `Store` and of every Protocol it combines."""
    return sorted({name for cls in Store.__mro__ for name, value in vars(cls).items()
                   if inspect.isfunction(value) and not name.startswith("_")})


def _parameters(method: Any, *, defaults: bool = True) -> list[tuple[Any, ...]]:
    return [(p.name, p.kind, p.default) if defaults else (p.name, p.kind)
            for p in inspect.signature(method).parameters.values()]


def test_postgresql_and_sqlite_stores_offer_every_store_method_with_the_same_parameters() -> None:
    methods = _methods()
    assert len(methods) > 50
    for name in methods:
        sqlite, postgres = getattr(SqliteStore, name, None), getattr(PostgresStore, name, None)
        for backend, method in (("SqliteStore", sqlite), ("PostgresStore", postgres)):
            assert inspect.iscoroutinefunction(method), f"{backend}.{name} is missing or not async"
            assert _parameters(method, defaults=False) == _parameters(getattr(Store, name), defaults=False), name
        assert _parameters(postgres) == _parameters(sqlite), f"{name}: the backends' defaults differ"

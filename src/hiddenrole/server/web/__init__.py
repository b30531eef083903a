"""The browser client: lobby, table and replay pages served by ``hiddenrole serve`` (docs/BROWSER.md)."""

from .endpoints import routes

__all__ = ["routes"]

from collections.abc import Callable
from contextlib import AbstractContextManager
from decimal import Decimal
from gettext import NullTranslations

from babel import Locale
from flask import Flask

class Babel:
    def __init__(
        self,
        app: Flask | None = None,
        *,
        locale_selector: Callable[[], str | None] | None = None,
        timezone_selector: Callable[[], str | None] | None = None,
        default_locale: str = "en",
        default_domain: str = "messages",
        default_translation_directories: str = "translations",
        default_timezone: str = "UTC",
        configure_jinja: bool = True,
    ) -> None: ...
    def init_app(self, app: Flask) -> None: ...

def get_locale() -> Locale | None: ...
def get_translations() -> NullTranslations: ...
def force_locale(locale: str) -> AbstractContextManager[None]: ...
def format_decimal(number: float | Decimal, format: str | None = None) -> str: ...
def format_percent(number: float | Decimal, format: str | None = None) -> str: ...
def gettext(string: str, **variables: object) -> str: ...
def ngettext(singular: str, plural: str, num: int, **variables: object) -> str: ...

# Flask-Babel returns a LazyString, which renders its text when used as one; WTForms takes it
# wherever a label or message goes, so it is declared as the str it stands for.
def lazy_gettext(string: str, **variables: object) -> str: ...

from collections.abc import Mapping, Sequence
from typing import Any

from markupsafe import Markup
from wtforms import Form
from wtforms.fields.core import Field
from wtforms.meta import DefaultMeta

class FlaskForm(Form):
    class Meta(DefaultMeta): ...

    def __init__(self, formdata: Any = ..., **kwargs: Any) -> None: ...
    def is_submitted(self) -> bool: ...
    def validate_on_submit(
        self, extra_validators: Mapping[str, Sequence[Any]] | None = None
    ) -> bool: ...
    def hidden_tag(self, *fields: str | Field) -> Markup: ...

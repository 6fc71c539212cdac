"""The form that uploads a game file."""

from __future__ import annotations

from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired


class ImportForm(FlaskForm):
    game_file = FileField(validators=[FileRequired()])

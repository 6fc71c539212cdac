"""The form that uploads a backup to restore."""

from __future__ import annotations

from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired


class RestoreForm(FlaskForm):
    backup_file = FileField(validators=[FileRequired()])

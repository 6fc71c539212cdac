"""Flask extensions that more than one module needs, made once and bound in `create_app`."""

from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    """The typed base of every model (store/models.py)."""


db = SQLAlchemy(model_class=Base)
csrf = CSRFProtect()
migrate = Migrate()

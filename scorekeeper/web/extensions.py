"""Flask extensions that more than one module needs, made once and bound in `create_app`."""

from flask_migrate import Migrate
from flask_wtf.csrf import CSRFProtect

csrf = CSRFProtect()
migrate = Migrate()

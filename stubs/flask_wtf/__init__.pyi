from .csrf import CSRFProtect as CSRFProtect
from .form import FlaskForm as FlaskForm

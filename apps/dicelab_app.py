"""`panel serve apps/dicelab_app.py`: the dicelab app; this script runs once per session."""
import panel as pn

from dicelab.ui import create_app
from dicelab.ui.notebook import EXTENSIONS

pn.extension(*EXTENSIONS, notifications=False)
create_app().servable(title="dicelab")

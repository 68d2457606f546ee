"""`panel serve apps/dicelab_app.py`: the dicelab app; this script runs once per session."""
import panel as pn

from dicelab.ui import create_app
from dicelab.ui.gate import cheap_page_requests
from dicelab.ui.notebook import EXTENSIONS

cheap_page_requests()  # a GET answered from one page; a session made when its page connects
pn.extension(*EXTENSIONS, notifications=False)
create_app().servable(title="dicelab")

"""`panel serve apps/dicelab_app.py`: the dicelab app; this script runs once per session."""
import panel as pn

from dicelab.ui import create_app

pn.extension("tabulator", notifications=False)
create_app().servable(title="dicelab")

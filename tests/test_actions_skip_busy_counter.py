"""What people act through (the key bridge, the dice tray, the Roll/Stand buttons) is handled
without Panel's server-wide busy counter, which cost about 1 ms per key press or click (issue 15:
a tenth of an action's work on the server). The events go through Panel's own entry point, so a
renamed method in Panel fails here."""
from __future__ import annotations

import panel as pn
from bokeh.document import Document
from bokeh.events import ButtonClick
from panel.io.state import state
from panel.models.esm import DataEvent

from dicelab.ui.controls import Button
from dicelab.ui.keys import KeyBridge
from dicelab.ui.tray import TrayView


def _model(component, doc):
    root = component.get_root(doc)
    doc.add_root(root)
    return component._models[root.ref["id"]][0]


def _busy_touched(fn) -> int:
    """How often ``fn`` changed Panel's busy counter."""
    touched = []
    watcher = state.param.watch(touched.append, "_busy_counter")
    try:
        fn()
    finally:
        state.param.unwatch(watcher)
    return len(touched)


def test_keys_dice_and_buttons_skip_the_busy_counter():
    doc = Document()
    keys, toggled, clicks = [], [], []
    # each callback gets what was pressed and the mark the page showed (None here)
    bridge = KeyBridge(on_key=lambda key, seen: keys.append(key))
    tray = TrayView(on_toggle=lambda pos, seen: toggled.append(pos))
    button = Button(label="Roll")
    button.on_click(lambda e: clicks.append(e))
    m_bridge, m_tray, m_button = _model(bridge, doc), _model(tray, doc), _model(button, doc)

    def act():
        bridge._process_bokeh_event(doc, DataEvent(model=m_bridge, data={"key": "."}))
        tray._process_bokeh_event(doc, DataEvent(model=m_tray, data={"toggle": 2}))
        button._process_bokeh_event(doc, ButtonClick(m_button))

    assert _busy_touched(act) == 0
    assert keys == ["."] and toggled == [2] and len(clicks) == 1


def test_panel_s_own_button_does_count_as_busy():
    """The counter the mixin skips is real: a plain Panel button's click goes through it."""
    doc = Document()
    clicks = []
    button = pn.widgets.Button(label="Roll")
    button.on_click(lambda e: clicks.append(e))
    model = _model(button, doc)
    assert _busy_touched(lambda: button._process_bokeh_event(doc, ButtonClick(model))) > 0
    assert len(clicks) == 1

"""The whole app: start screen <-> table (or the lobby, a room) in a page with a settings
drawer and keys. One instance per browser session (``create_app`` is what gets served: a
function, never a shared object). Each screen is a module of its own."""
from __future__ import annotations

import panel as pn
from bokeh.settings import settings as bokeh_settings

from .. import config
from .. import i18n
from ..errors import RuleError
from ..i18n import _
from ..rooms.pacer import default_strategy
from .analysis import StepKeys
from .analysis_app import BoardScreens
from .class_screens import ClassScreens
from .join_link import JoinLink, served_at
from .keys import KeyBridge
from .language import (LanguageKeeper, built_in_words, first_language, header_language,
                       language_menu, set_page_language, url_language)
from .lobby import Lobby
from .look import Toggle, button, use_design
from .notebook import NotebookShow
from .page import Page
from .play import Play, Prefs
from .records import RecordStore
from .room import RoomScreen
from .score_card import CardView
from .seat_keeper import SeatKeeper
from .session import calm_gc, keep_flushing, one_message
from .settings_drawer import SettingsDrawer
from .start import SeatSpec, StartScreen
from .switch_player import SwitchPlayer
from .table import Table
from .tray import TrayView
from .url_args import url_arg as _arg
from .variant_cards import VARIANTS, VariantCards
from .wire import lean_patches, send_at_once, served_doc

__all__ = ["DicelabApp", "KeyBridge", "SeatSpec", "SettingsDrawer", "StartScreen",
           "SwitchPlayer", "Table", "VARIANTS", "VariantCards", "create_app",
           "default_strategy", "preload", "serve"]


def _header_button(label: str, on_click) -> pn.widgets.Button:
    return button(label, "outlined", on_click, light=True, size="small", margin=0,
                  css_classes=["dl-head"])


def preload():
    """Hidden instances of the custom components shown later, so that their model definitions
    travel with the first page: Panel sends a new component type's definition only once per
    process, and a client that first meets the type in an update cannot decode it. Not a
    Tabulator: a hidden one retries its resize in a loop (Panel 1.9.4), a whole core per open
    tab; its model is in Panel's bundle and its script comes with the extension."""
    return pn.Column(TrayView(), CardView(), JoinLink(), VariantCards(), StepKeys(), Toggle(),
                     pn.widgets.FileDownload(), visible=False)


class DicelabApp(BoardScreens, ClassScreens, NotebookShow, pn.viewable.Viewer):
    """Start screen <-> table in a page with a settings drawer."""

    def __init__(self, records_path=None, prefs: Prefs | None = None, lang: str | None = None,
                 **params):
        super().__init__(**params)
        use_design()  # (a served session's config starts without it)
        # the language first (``lang``: the caller's, e.g. dicelab.app(lang="ru"); ?lang= wins)
        self._lang_fixed = url_language() or (set_page_language(lang) if lang else None)
        self.lang = set_page_language(first_language(self._lang_fixed, None,
                                                     header_language()))
        self.prefs = prefs or Prefs()
        self._when_loaded(send_at_once)  # every message at once, not after a delayed ACK
        self._when_loaded(lean_patches)  # messages made without listing the whole page
        self._when_loaded(calm_gc.page_loaded)  # its objects out of the full collections
        self._session_prefs()
        self.records = RecordStore(records_path)
        self.play: Play | None = None
        self._start_screen: StartScreen | None = None  # (start_screen makes it)
        self._rules_slot = pn.Column(sizing_mode="stretch_width", margin=0)
        self.drawer = SettingsDrawer(self.prefs, self.records)
        self._wanted_room = _arg("room")  # a room's link opens on the room
        first = (pn.pane.HTML("<p>" + _("Opening {room}…", room=pn.util.escape(
            self._wanted_room)) + "</p>") if self._wanted_room else self.start_screen)
        # min-height: the page's scrolling area is a flex column that would otherwise squeeze
        # a screen taller than the window (its blocks then overlap instead of scrolling)
        self._screen = first  # what _main shows
        self._main = pn.Column(first, sizing_mode="stretch_width",
                               styles={"padding": "4px 10px 16px", "box-sizing": "border-box",
                                       "min-height": "max-content"})
        self.keys = KeyBridge(on_key=self.on_key, on_dark=self._on_dark)
        self._new = _header_button(_("New game"), lambda e: self.show_start())
        self._rules_btn = _header_button(_("Rules"), lambda e: self.start_screen.show_rules(
            self.play.variant if self.play else self.start_screen.variant))
        self._settings_btn = _header_button("", lambda e: self.toggle_settings())
        self._net_btn = _header_button(_("Network games"), lambda e: self.show_lobby())
        self._board_btn = _header_button(_("Analyse"), lambda e: self.show_board())
        self._board_btn.css_classes = [*self._board_btn.css_classes, "dl-board"]
        self._teach_btn = self.teach_button(_header_button)
        self._lang_keeper = LanguageKeeper(lang=self.lang, words=built_in_words())
        self._lang_keeper.param.watch(self._browser_reported, "read")
        # the header's menu; a phone's header has no room for it: the drawer has one too
        self._lang_menu = language_menu(self.lang, self._menu_chose, css_classes=["dl-lang"])
        self._drawer_menu = language_menu(self.lang, self._menu_chose, header=False)
        self.drawer.top = [self._drawer_menu]
        self._label_header()
        self._preload = preload()
        self.keeper = SeatKeeper()
        self.lobby = None  # made on first use: a single-screen game never opens the rooms store
        self.room_screen = None
        if self._wanted_room:
            self.keeper.param.watch(self._tokens_arrived, "tokens")
        self._class_links(_arg)
        if pn.state.curdoc is not None and pn.state.curdoc.session_context is not None:
            pn.state.on_session_destroyed(self._session_gone)
            keep_flushing()  # a page must never stay a message behind (see session.py)
        self.page = Page("dicelab", [self._new, self._net_btn, self._teach_btn, self._board_btn,
                                     self._rules_btn, self._settings_btn, self._lang_menu],
                         [self._main, self.keys, self.keeper, self._lang_keeper,
                          self._rules_slot, self._preload])
        self.page.param.watch(self._dark_theme, "dark")
        self.board_from_url()  # ?game=: the page opens on the analysis board

    @property
    def start_screen(self) -> StartScreen:
        """Made on first use (half of what opening a page costs): a room's link may not show it"""
        if self._start_screen is None:
            s = self._start_screen = StartScreen(on_start=self._start_when_loaded,
                                                 rules_slot=self._rules_slot)
            s.message = str(self.records.problem or "")  # a damaged records file set aside
        return self._start_screen

    def _session_prefs(self):
        for name, attr, conv in (("pace", "pace", float), ("anim", "anim_ms", int)):
            v = _arg(name)
            if v is not None:
                try:
                    setattr(self.prefs, attr, conv(v))
                except (ValueError, TypeError):
                    pass
        snd = _arg("sound")
        if snd is not None:
            self.prefs.sound = snd.lower() not in ("0", "off", "false", "no")
        elif config.value("DICELAB_SOUND") is not None:
            self.prefs.sound = config.value("DICELAB_SOUND")

    # ----- language --------------------------------------------------------------------------
    def _label_header(self):
        self._new.label = _("New game")
        self._rules_btn.label = _("Rules")
        self._settings_btn.label = "⚙ " + _("Settings")
        self._net_btn.label, self._teach_btn.label = _("Network games"), self.class_label()
        self._board_btn.label = _("Analyse")
        self._lang_menu.label = self._drawer_menu.label = _("Language")

    def _menu_chose(self, lang: str):
        if lang != self.lang:
            self.set_language(lang)
            self._lang_keeper.keep(self.lang)

    def _browser_reported(self, event):
        """The browser's kept choice and languages are known: they may change the language
        (not when the address or the caller chose it)."""
        if self._lang_fixed or not event.new:
            return
        k = self._lang_keeper
        lang = first_language(None, k.stored, header_language() or
                              i18n.from_accept_language(k.browser))
        if lang != self.lang:
            self._when_loaded(lambda: self.set_language(lang))

    def set_language(self, lang: str):
        """Show everything in ``lang``; the game, the settings and the screen stay as they are."""
        self.lang = set_page_language(lang)
        self._lang_keeper.param.update(lang=self.lang, words=built_in_words())
        with one_message():
            for menu in (self._lang_menu, self._drawer_menu):
                if menu.value != self.lang:
                    menu.value = self.lang
            self._label_header()
            self.page.relabel()
            if self._start_screen is not None:  # (one made later is made in the new words)
                self._start_screen.relabel()
            self.drawer.relabel()
            self._relabel_main()

    def _relabel_main(self):
        shown = self._screen
        if self.room_screen is not None:
            self.room_screen.relabel()
            self._show(self.room_screen)
        elif self.play is not None:
            self.play.relabel()
            self._show_table()
        elif self.lobby is not None and shown is self.lobby:
            self.lobby.relabel()
            self._show(self.lobby)
        elif shown is self._start_screen or self.relabel_board(shown):
            self._show(shown)

    def _show(self, screen):
        """Put ``screen`` on the page (a table shown before stops following its game)."""
        if isinstance(self._screen, Table):
            self._screen.retire()
        self._screen = screen
        self._main.objects = [screen]

    def _dark_theme(self, event):
        self.prefs.dark = bool(event.new)

    def _on_dark(self, dark: bool):
        def apply():
            self.page.dark = dark
        # changes made before the browser reports the page ready can be lost
        if pn.state.curdoc is not None and pn.state.curdoc.session_context is not None:
            pn.state.onload(apply)
        else:
            apply()

    def _notebook_text(self) -> str:
        if self.play:
            return _("dicelab app playing {game}", game=repr(self.play.game))
        return _("dicelab app")

    def toggle_settings(self):
        if len(self.page.drawer.objects) < 2:  # filled on first use: half a page's cost
            self.page.fill_drawer(self.drawer)
        self.page.drawer_open = not self.page.drawer_open

    def _start_when_loaded(self, game):
        self._when_loaded(lambda: self.start_game(game))

    @staticmethod
    def _when_loaded(fn):
        # a page swap before the page is ready can be lost (pn.state.onload: at once after)
        if pn.state.curdoc is not None and pn.state.curdoc.session_context is not None \
                and not pn.state.loaded:
            pn.state.onload(fn)
        else:
            fn()

    def start_game(self, game):
        self._leave_screens()
        self.play = Play(game, prefs=self.prefs, records=self.records)
        self.play.shared("open_board", lambda: lambda at: self.show_board(at=at))
        self.drawer.play = self.play
        self._show_table()
        return self.play

    def _show_table(self):
        self._show(Table(play=self.play))

    def show_start(self):
        self._leave_screens()
        self.drawer.play = None
        self._show(self.start_screen)

    def _leave_screens(self):
        """Stop what the screen being replaced was doing (pacing, following a room)."""
        if self.play is not None:
            self.play.close()
            self.play = None
        if self.room_screen is not None:
            self.room_screen.exit_quietly()
            self.room_screen = None
        if self.lobby is not None:
            self.lobby.activate(False)
        self._leave_class()

    # ----- network games ---------------------------------------------------------------------
    def show_lobby(self):
        self._leave_screens()
        self.drawer.play = None
        if self.lobby is None:
            self.lobby = Lobby(self.keeper, on_open=self.open_room)
        self.lobby.activate(True)
        self.keeper.show_room(None)
        self._show(self.lobby)
        return self.lobby

    def open_room(self, name: str, token: str | None):
        """Show a room: with ``token`` as its seated player, else as a spectator."""
        self._leave_screens()
        try:
            screen = RoomScreen(name, token, self.keeper, self.prefs, on_exit=self.show_lobby)
        except RuleError as exc:
            lobby = self.show_lobby()
            lobby.message = str(exc)
            return None
        except Exception as exc:  # the rooms store is unreachable: say so
            lobby = self.show_lobby()
            lobby.message = _("Network games are not available: {error}", error=str(exc))
            return None
        self.room_screen = screen
        self._show(screen)
        return screen

    def _tokens_arrived(self, event):
        name, self._wanted_room = self._wanted_room, None
        if name and event.new is not None:
            from ..rooms.model import room_key, room_name

            try:
                key = room_key(room_name(name))
            except RuleError:
                key = None
            token = self.keeper.token(key) if key else None
            self._when_loaded(lambda: self.open_room(name, token))

    def _session_gone(self, session_context):
        calm_gc.page_closed(session_context)
        if self.room_screen is not None:
            self.room_screen.away()
        if self.lobby is not None:
            self.lobby.activate(False)
        if self.play is not None:
            self.play.close()

    @property
    def active_play(self):
        if self.room_screen is not None:
            return self.room_screen.play
        return self.play

    def on_key(self, key: str, seen=None):
        if key == "Escape":
            self.page.drawer_open = False
            if self._start_screen is not None:
                self._start_screen.close_rules()
            return
        play = self.active_play if not self.board_shown else None
        if play is not None:
            play.key(key, seen)

    def __panel__(self):
        return self.page.root


def create_app(records_path=None, lang: str | None = None) -> pn.Column:
    """A fresh app (call once per session); ``lang``: its language (else the page's). A
    served session over the limits of ``gate.admit`` gets a page saying why instead."""
    from . import gate

    refusal = gate.session_opened(served_doc(), calm_gc.has_loaded)
    if refusal is not None:
        return refusal
    # served: no check of each of a page's ~700 Bokeh callbacks' signatures (10% of its CPU)
    bokeh_settings.perform_error_diagnostics.set_value(False)
    return DicelabApp(records_path=records_path, lang=lang).__panel__()


def serve(port: int = 5006, show: bool = False, address: str = "127.0.0.1",
          origins: list[str] | tuple = (), **kwargs):
    """Serve the app at http://localhost:PORT/dicelab_app (each session gets its own game);
    ``origins``: other host:port addresses browsers use (a classroom's)."""
    from .gate import cheap_page_requests

    cheap_page_requests()
    served_at(origins)
    origins = [f"localhost:{port}", f"127.0.0.1:{port}", *origins]
    return pn.serve({"dicelab_app": create_app}, port=port, address=address, show=show,
                    allow_websocket_origin=origins, title="dicelab", **kwargs)

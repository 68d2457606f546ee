"""The app's class screens (issue 36): "Teach a class" in the header opens the form, then the
teacher's page (``?teach=CODE`` reopens it after a reload); ``?class=CODE`` opens a student's
join page, which opens their table once the teacher starts. A mixin of ``DicelabApp``."""
from __future__ import annotations

from ..errors import RuleError
from ..i18n import _
from .class_join import JoinClass, teacher_key
from .class_teacher import TeachForm, TeacherPage


class ClassScreens:
    """Class screens for an app with ``keeper``, ``_show``, ``_leave_screens``, ``open_room``
    and ``_when_loaded`` (DicelabApp)."""

    class_screen = None

    def _class_links(self, args) -> None:
        """``?class=`` / ``?teach=`` in the address: open that once the tokens are read."""
        self._wanted_class = (args("class"), args("teach"))
        if any(self._wanted_class):
            self.keeper.param.watch(self._class_tokens, "tokens")

    def _class_tokens(self, event):
        (join, teach), self._wanted_class = self._wanted_class, (None, None)
        if event.new is None:
            return
        if teach:
            token = self.keeper.token(teacher_key(teach.upper()))
            if token:
                self._when_loaded(lambda: self.open_class_teacher(teach.upper(), token))
                return
        if join or teach:
            self._when_loaded(lambda: self.show_join_class(join or ""))

    def _leave_class(self) -> None:
        if self.class_screen is not None:
            self.class_screen.close()
            self.class_screen = None

    def show_teach(self):
        self._leave_screens()
        self._show(TeachForm(on_made=self.open_class_teacher))

    def open_class_teacher(self, code: str, token: str):
        self._leave_screens()
        try:
            page = TeacherPage(code, token)
        except RuleError as exc:
            form = TeachForm(on_made=self.open_class_teacher)
            form.message = str(exc)
            self._show(form)
            return None
        self.keeper.keep(teacher_key(code), token)
        self.keeper.show_query(teach=code, room="", **{"class": ""})
        self.class_screen = page
        self._show(page)
        return page

    def show_join_class(self, code: str = ""):
        self._leave_screens()
        self.class_screen = JoinClass(self.keeper, on_seated=self._seated, code=code)
        self._show(self.class_screen)
        return self.class_screen

    def _seated(self, table: str, token: str):
        self.class_screen = None
        self.keeper.show_query(**{"class": ""})  # a reload opens the table (?room=)
        self._when_loaded(lambda: self.open_room(table, token))

    def class_label(self) -> str:
        return _("Teach a class")

    def teach_button(self, make):
        """The header's button, ``make(label, on_click)``; not on a phone's one-row header (a
        class is taught from a larger screen)."""
        button = make(self.class_label(), lambda e: self.show_teach())
        button.css_classes = [*button.css_classes, "dl-teach"]
        return button

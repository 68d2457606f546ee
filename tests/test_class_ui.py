"""Teach a class (issue 36), the pages without a browser: the form makes a class, the
teacher's page shows its code, join address and a QR code that decodes to it, follows the
students and the tables with their names escaped; a student's join page seats them."""
from __future__ import annotations

import io
from types import SimpleNamespace

import panel as pn
import pytest

from dicelab.rooms.classes import default_class_service
from dicelab.ui.class_join import JoinClass, student_key
from dicelab.ui.class_teacher import TeachForm, TeacherPage, join_address, qr_png
from dicelab.ui.seat_keeper import SeatKeeper

HOSTILE = "<img src=x onerror=alert(1)>"


def decode(png: bytes) -> list[str]:
    zxingcpp = pytest.importorskip("zxingcpp")
    from PIL import Image

    return [r.text for r in zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))]


def test_the_qr_code_decodes_to_the_join_address_of_the_request_host(monkeypatch):
    request = SimpleNamespace(headers={"Host": "192.168.1.20:5006"}, host="127.0.0.1:5006",
                              protocol="http", path="/dicelab_app")
    doc = SimpleNamespace(session_context=SimpleNamespace(request=request))
    monkeypatch.setattr(pn.state, "_curdoc", SimpleNamespace(value=doc), raising=False)
    monkeypatch.setattr(type(pn.state), "curdoc", property(lambda self: doc))
    address = join_address("KXRTMP")
    assert address == "http://192.168.1.20:5006/dicelab_app?class=KXRTMP"
    assert decode(qr_png(address)) == [address]


def test_the_form_and_the_teacher_page_follow_the_class():
    made = []
    form = TeachForm(on_made=lambda code, token: made.append((code, token)))
    form.param.update(class_name="Maths <9B>", variant="under40", table_size=2)
    form.settings["under40"].target = 40
    klass = form.make()
    assert form.message == "" and made == [(klass.code, made[0][1])]
    code, teacher = made[0]
    page = TeacherPage(code, teacher)
    try:
        assert decode(page._qr.object) == [page.address]
        assert f">{code}</div>" in page._head.object
        assert "Maths &lt;9B&gt;" in page._head.object  # escaped
        classes = default_class_service()
        tokens = [classes.join(code, n) for n in [HOSTILE, "Bob", "=1+1"]]
        page.refresh()
        assert HOSTILE not in page._students.object
        assert pn.util.escape(HOSTILE) in page._students.object
        page.start()
        assert page.message == "" and classes.record(code, teacher).status == "playing"
        assert page._tables.object.count("data-testid='class-table'") == 2
        assert HOSTILE not in page._tables.object
        page.refresh_numbers()
        assert list(page._numbers.object["student"]) == [HOSTILE, "Bob", "=1+1"]
        csv = page._csv_file().getvalue()
        assert "'=1+1" in csv and "\n=1+1" not in csv
        page._game.value = page._game.options[0]
        assert '"seats"' in page._game_json().getvalue()
        page._buttons["pause"].clicks += 1
        assert classes.record(code, teacher).status == "paused"
        page._buttons["end"].clicks += 1
        assert classes.record(code, teacher).status == "ended"
        assert all(t for t in tokens)
    finally:
        page.close()
    with pytest.raises(Exception):
        TeacherPage(code, tokens[0])  # a student's token is no teacher's


def test_a_student_joins_waits_and_is_seated():
    classes = default_class_service()
    klass, teacher = classes.create("Join test", "under40", {"target": 40})
    seated = []
    keeper = SeatKeeper()
    join = JoinClass(keeper, on_seated=lambda table, token: seated.append((table, token)),
                     code=klass.code.lower())
    join.player = "Ann"
    join.join()
    assert join.message == "" and keeper.token(student_key(klass.code)) == join.token
    assert "Wait for your teacher" in join._body.objects[0].object
    join.code, join.player = "ZZZZZZ", "Eve"
    classes.start(klass.code, teacher)
    join.look()
    me = classes.student(klass.code, join.token)
    assert seated == [(me["table"], join.token)]
    # a reload: the kept token finds the seat again
    again = JoinClass(keeper, on_seated=lambda table, token: seated.append((table, token)),
                      code=klass.code)
    assert seated[-1] == (me["table"], join.token) and len(seated) == 2
    again.close()

"""A class under load (issue 36), on one process, through the services (no browsers): 60
students at 30 tables of two, each table acting every 0.5 s, against a lone table measured in
the same run. Figures: the players' p95 action latency (``RoomService.act``) against the lone
table's, the delay from an action's acknowledgement to the teacher's view of the tables
(``ClassService.tables``, read on the class's news) showing it, and memory per student.

    python benchmarks/class_load.py [seconds]
"""
import sys
import threading
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _table import pct, print_goals  # noqa: E402

from dicelab.rooms import ClassService, RoomService  # noqa: E402

GAP = 0.5  # seconds between a table's actions


def run(students: int, seconds: float):
    """Latencies of every act, and of the teacher's view catching up with each action."""
    classes = ClassService(RoomService("memory"), max_students=1000)
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    klass, teacher = classes.create("Load", "under40", {"target": 100_000})
    tokens = [classes.join(klass.code, f"S{i}") for i in range(students)]
    classes.start(klass.code, teacher)
    per_student = (tracemalloc.get_traced_memory()[0] - before) / students
    tracemalloc.stop()
    acted: dict[tuple[str, int], float] = {}  # (table, action number) -> acknowledged at
    lock = threading.Lock()
    seen: list[float] = []

    news = threading.Event()

    def teacher_looks():  # as a served page does: news wakes it, it reads in its own thread
        while not done.is_set():
            if not news.wait(0.5):
                continue
            news.clear()
            now = time.perf_counter()
            for t in classes.tables(klass.code, teacher):
                with lock:
                    for n in range(t["actions"]):
                        at = acted.pop((t["room"], n), None)
                        if at is not None:
                            seen.append(now - at)

    done = threading.Event()
    classes.subscribe(klass.code, lambda kind: news.set())
    looker = threading.Thread(target=teacher_looks)
    looker.start()
    latencies: list[float] = []
    stop = time.perf_counter() + seconds
    by_table: dict[str, dict[int, str]] = {}
    for token in tokens:
        me = classes.student(klass.code, token)
        by_table.setdefault(me["table"], {})[me["seat"]] = token

    def play(table, seats):
        while time.perf_counter() < stop:
            game = classes.rooms.state(table)
            action = game.legal_actions()[0]
            t = time.perf_counter()
            n = classes.rooms.act(table, seats[game.current_player], action)
            done = time.perf_counter()
            with lock:
                acted[(table, n)] = done
            latencies.append(done - t)
            time.sleep(GAP)

    threads = [threading.Thread(target=play, args=item) for item in by_table.items()]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    done.set()
    looker.join()
    classes.close()
    return latencies, seen, per_student


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 20.0
    lone, _, _ = run(2, seconds)
    full, seen, per_student = run(60, seconds)
    ratio = pct(full, 0.95) / pct(lone, 0.95)
    print_goals("A class of 60 (30 tables of two, an action every 0.5 s per table)", [
        ("players' p95 act latency / a lone table's", f"{ratio:.2f}x "
         f"({pct(full, 0.95) * 1e3:.1f} vs {pct(lone, 0.95) * 1e3:.1f} ms)", "<= 2x",
         ratio <= 2),
        ("teacher's view shows an action, p95", f"{pct(seen, 0.95) * 1e3:.0f} ms "
         f"({len(seen)} actions)", "<= 1000 ms", pct(seen, 0.95) <= 1.0),
        ("memory per student (class, seats, tables)", f"{per_student / 1024:.1f} KiB",
         "stated", True)])


if __name__ == "__main__":
    main()

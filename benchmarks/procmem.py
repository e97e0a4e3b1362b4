"""Peak memory of a process tree, sampled from /proc (Linux): the RSS sum of every descendant process; and
the CPU time of ended child processes (children_cpu_seconds)."""

from __future__ import annotations

import os
import resource
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field


def children_cpu_seconds() -> float:
    """User + system CPU seconds of every waited-for child so far: the difference around a run is its CPU."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _children_map() -> dict[int, list[int]]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as f:
                stat = f.read()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry))
    return children


def _rss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode("utf-8", "replace")
    except OSError:
        return ""


def tree(root: int) -> list[int]:
    """root and all its descendants now."""
    children = _children_map()
    out, stack = [], [root]
    while stack:
        pid = stack.pop()
        out.append(pid)
        stack.extend(children.get(pid, ()))
    return out


@dataclass
class Sample:
    t: float
    total_kb: int
    processes: int
    groups: dict[str, tuple[int, int]]  # group name -> (processes, RSS kB)


@dataclass
class MemorySampler:
    """Samples a process tree every `interval` s in a thread; `exclude(cmdline)` leaves processes out, and
    `group(cmdline)` names the kind of each process (e.g. "scrapy" / "wrapper" / "driver")."""

    root: int
    interval: float = 0.2
    exclude: Callable[[str], bool] = lambda cmd: False
    group: Callable[[str], str] = lambda cmd: "all"
    samples: list[Sample] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def _sample(self) -> None:
        groups: dict[str, list[int]] = {}
        for pid in tree(self.root):
            cmd = _cmdline(pid)
            if not cmd or self.exclude(cmd):
                continue
            g = groups.setdefault(self.group(cmd), [0, 0])
            g[0] += 1
            g[1] += _rss_kb(pid)
        total = sum(v[1] for v in groups.values())
        count = sum(v[0] for v in groups.values())
        self.samples.append(
            Sample(time.monotonic(), total, count, {k: (v[0], v[1]) for k, v in groups.items()})
        )

    def _run(self) -> None:
        while not self._stop.is_set():
            self._sample()
            self._stop.wait(self.interval)

    def __enter__(self) -> MemorySampler:
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join()

    @property
    def peak(self) -> Sample:
        return max(self.samples, key=lambda s: s.total_kb, default=Sample(0, 0, 0, {}))

"""The UI benchmarks run (figures are printed by ``cellwars bench``; nothing here is timed)."""

from __future__ import annotations

from cellwars_tui.bench import bench_modules
from cellwars_tui.bench import ui as bench
from cellwars_tui.ui.launcher import LauncherScreen


def test_the_ui_bench_module_is_collected():
    assert "cellwars_tui.bench.ui" in bench_modules()
    assert bench.bench_startup in bench.BENCHMARKS
    assert bench.bench_launcher_keys in bench.BENCHMARKS


def test_the_real_launcher_paints_a_first_frame_on_a_pseudo_terminal(tmp_path):
    seconds = bench._first_frame("launcher", str(tmp_path))
    assert seconds > 0


async def test_key_to_repaint_measures_one_figure_per_press():
    times = await bench.measure_key_to_repaint(bench.bare_screen, ("right",), samples=3, warmup=1)
    assert len(times) == 3 and all(t > 0 for t in times)
    times = await bench.measure_key_to_repaint(LauncherScreen, ("down", "up"), samples=2,
                                               warmup=0)
    assert len(times) == 2

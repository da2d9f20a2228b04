"""The LEDs, buttons and buzzer at the table, on the recording strip and gpiozero's MockFactory."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from companion.games.fog import rules
from companion.games.fog.movement import MoveAction
from companion.games.fog.setup import new_game
from hardware.output import LedConfig, LedOutput, Segment, make_strip
from hardware.strip import HardwareError, RecordingStrip, encode_spi
from hardware.table import TableHardware
from companion.games import Count, Game, GameType, Layout, LedScene, Light, Outcome, get_game
from companion.games.parts import Lights, Panel, Rules, Table
from companion.games.leds import ALERT
from companion.games.fog.table import ALERT_RED, SWALLOWED, WARN
from hardware.views import CAMERA_LOST, TableView, light_at, paint
from tests.tables import BOARD, nb, position, wait_for

RGB = BOARD.rgb
PLAIN = dict(gamma=1.0, brightness=1.0, colour_order="RGB", max_milliamps=0)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def table(clock: Clock | None = None, **led: object) -> tuple[TableHardware, MockFactory]:
    factory = MockFactory()
    config = LedConfig(backend="recording", **{**PLAIN, **led})  # type: ignore[arg-type]
    hw = TableHardware(get_game("fog"), config, pin_factory=factory, clock=clock or Clock())
    return hw, factory


def seg(hw: TableHardware, name: str) -> list[tuple[int, int, int]]:
    s = hw.output.segments[name]
    return [hw.strip.last[s.index(i)] for i in range(s.length)]


# ------------------------------------------------------------------------------------ output pipeline
def test_the_recording_strip_keeps_every_frame_with_its_time():
    clock = Clock()
    strip = RecordingStrip(3, clock=clock)
    strip.set_pixels([(1, 2, 3)] * 3)
    strip.show()
    clock.now = 0.5
    strip.set_pixels([(0, 0, 9)] * 3)
    strip.show()
    assert [f.at for f in strip.frames] == [0.0, 0.5]
    strip.assert_last([(0, 0, 9)] * 3)
    with pytest.raises(AssertionError, match="differs at 0"):
        strip.assert_last([(1, 1, 1)] * 3)


def test_colour_order_gamma_and_brightness_are_applied_on_the_way_out():
    strip = RecordingStrip(1)
    out = LedOutput(strip, LedConfig(pixel_count=1, segments=(Segment("a", 0, 1),), colour_order="GRB",
                                     gamma=2.0, brightness=0.5, max_milliamps=0))
    out.paint("a", [(255, 128, 0)])
    out.flush()
    # gamma 2: 128 -> 64; brightness 0.5; then green first on the wire
    assert strip.last == ((32, 127, 0),)  # values are truncated so the power limit is never exceeded


def test_a_reversed_segment_counts_from_its_far_end():
    strip = RecordingStrip(6)
    out = LedOutput(strip, LedConfig(pixel_count=6, segments=(Segment("a", 0, 3), Segment("b", 3, 3, reversed=True)),
                                     **PLAIN))
    out.paint("a", [(1, 0, 0), (2, 0, 0), (3, 0, 0)])
    out.paint("b", [(4, 0, 0), (5, 0, 0), (6, 0, 0)])
    out.flush()
    assert [p[0] for p in strip.last] == [1, 2, 3, 6, 5, 4]


def test_the_power_limit_dims_the_strip_to_stay_under_it():
    strip = RecordingStrip(30)
    out = LedOutput(strip, LedConfig(pixel_count=30, segments=(Segment("all", 0, 30),), gamma=1.0, brightness=1.0,
                                     max_milliamps=600))
    out.paint("all", [(255, 255, 255)] * 30)
    out.flush()
    assert out.last_scale < 0.35 and out.last_milliamps <= 600
    assert strip.last[0][0] < 90


def test_bad_led_settings_name_the_key_and_what_is_allowed():
    with pytest.raises(HardwareError, match="colour_order='XYZ'.*allowed: RGB"):
        LedConfig(colour_order="XYZ")
    with pytest.raises(HardwareError, match="brightness=2"):
        LedConfig(brightness=2)
    with pytest.raises(HardwareError, match="segment 'status' 0\\+11 does not fit 5 pixels"):
        LedConfig(pixel_count=5)


def test_without_led_hardware_the_recording_backend_is_used_and_says_so():
    strip, message = make_strip(LedConfig(backend="auto"), environ={})
    assert isinstance(strip, RecordingStrip) and "no LED hardware found, using the recording backend" in message
    strip, message = make_strip(LedConfig(backend="ws281x"), environ={"FOG_LED_BACKEND": "recording"})
    assert isinstance(strip, RecordingStrip)
    with pytest.raises(HardwareError, match="FOG_LED_BACKEND='laser'"):
        make_strip(LedConfig(), environ={"FOG_LED_BACKEND": "laser"})


def test_ws2812_bits_are_encoded_for_the_spi_bus():
    data = encode_spi([(255, 0, 0)])
    assert data[:9] == bytes.fromhex("db6db6924924924924") and data[9:] == b"\x00" * 24


# ------------------------------------------------------------------------------------ views
def test_the_fog_row_shows_swallowed_rows_the_fog_and_the_row_next_in_danger():
    hw, _ = table()
    state = position({"C3": "blue-elder-1"}, {"blue-elder-1": "black"}, fog=BOARD.fog_index("6"))  # A, B covered
    hw.show(state)
    hw.animator.tick(0.0)
    fog = seg(hw, "status")  # A B C D ... J shore
    assert fog[0] == SWALLOWED and fog[1] != SWALLOWED and fog[1] != (0, 0, 0)  # A swallowed, B: the FOG, pulsing
    assert fog[2] == WARN  # C goes next, blinking
    hw.animator.tick(0.6)
    later = seg(hw, "status")
    assert later[1] != fog[1] and later[2] != WARN


def test_the_turn_segment_shows_the_active_colour_and_the_next_one_dimmer():
    hw, _ = table()
    state = position({"C3": "blue-elder-1"}, {"blue-elder-1": "black"})
    hw.show(state)
    hw.animator.tick(0.0)
    active, following = seg(hw, "turn")
    assert active == RGB[state.active_colour] and following == tuple(round(v * 0.2) for v in RGB[state.next_colour])


def test_movement_points_drop_as_they_are_spent():
    hw, _ = table()
    state = position({"E4": "blue-elder-1"}, {"blue-elder-1": "black"})
    hw.show(state)
    hw.animator.tick(0.0)
    assert sum(p != (0, 0, 0) for p in seg(hw, "counter")) == 7
    state = rules.apply(state, MoveAction.parse(f"move run blue-elder-1 E4>{nb('E4', 'NW')}"))
    state = rules.apply(state, MoveAction.parse(f"move run blue-elder-1 {nb('E4', 'NW')}>{nb('E4', 'NW', 'NW')}"))
    hw.show(state)
    hw.animator.tick(0.1)
    assert sum(p != (0, 0, 0) for p in seg(hw, "counter")) == 5


def test_alerts_flash_the_offending_row_pulse_while_waiting_and_mark_a_lost_camera():
    hw, _ = table()
    state = position({"D3": "blue-elder-1"}, {"blue-elder-1": "black"})
    hw.show(state, alert="illegal", offenders=("blue-elder-1",))  # it stands in row D
    hw.animator.tick(0.0)
    assert seg(hw, "status")[3] == ALERT_RED
    hw.animator.tick(0.2)
    assert seg(hw, "status")[3] == (0, 0, 0)
    hw.show(state, alert="waiting")
    hw.animator.tick(0.0)
    first = seg(hw, "turn")
    hw.animator.tick(0.25)
    assert seg(hw, "turn") != first and first[0][2] > first[0][0]
    hw.show(state, alert="camera-lost")
    hw.animator.tick(0.0)
    assert seg(hw, "status")[0] == CAMERA_LOST and seg(hw, "counter")[0] == CAMERA_LOST


def test_at_the_end_the_whole_strip_shows_the_winner_s_colour():
    hw, _ = table()
    state = position({"blue-AL": "blue-sailor-1"}, {"blue-sailor-1": "pink"}, phase="finished")
    hw.show(state)
    hw.animator.tick(0.0)
    pink = RGB["pink"]
    assert all(p != (0, 0, 0) and p[0] / max(1, p[2]) == pytest.approx(pink[0] / pink[2], rel=0.05)
               for p in hw.strip.last)


# ----------------------------------------------------------------------------------- buttons, turn timer
def test_pressing_the_end_turn_button_ends_the_turn_and_undo_takes_it_back():
    hw, factory = table()
    state = new_game(BOARD, 3, seed=4)
    while state.phase == "draft":
        state = rules.apply(state, rules.legal_drafts(state)[0])
    game = {"state": state}
    drafted = state.history

    def end_turn() -> None:
        game["state"] = rules.apply(game["state"], "end-turn button")
        hw.show(game["state"])

    def undo() -> None:
        game["state"] = rules.undo(game["state"])
        hw.show(game["state"])

    hw.on_button("end_turn", end_turn)
    hw.on_button("undo", undo)
    first = game["state"].active_colour
    factory.pin(17).drive_low()
    factory.pin(17).drive_high()
    assert game["state"].active_colour != first and game["state"].history[-1] == "end-turn button"
    factory.pin(27).drive_low()
    factory.pin(27).drive_high()
    assert game["state"].active_colour == first and game["state"].history == drafted


def test_a_game_s_turn_timer_counts_down_beeps_near_the_end_and_ends_the_turn_when_it_runs_out():
    """The FOG's hourglass is a turn timer like any game's: the LEDs count it down by role."""
    clock = Clock()
    hw, factory = table(clock)
    game = {"state": position({"C3": "blue-elder-1"}, {"blue-elder-1": "black"}, options="hourglass=60")}

    def expired(key: tuple) -> None:
        assert key == (game["state"].round, game["state"].turn_index)  # the turn whose time ran out
        game["state"] = rules.apply(game["state"], "end-turn hourglass")
        hw.show(game["state"])

    hw.on_timer_expired = expired
    hw.show(game["state"])
    hw.animator.tick()
    full = sum(p != (0, 0, 0) for p in seg(hw, "timer"))
    clock.now = 30.0
    hw.animator.tick()
    assert sum(p != (0, 0, 0) for p in seg(hw, "timer")) == full // 2 and hw.turn_clock.log == []
    buzzer = factory.pin(23)
    clock.now = 50.5  # 9.5 s left: the warning beep
    hw.animator.tick()
    assert hw.turn_clock.log == ["warn"] and buzzer.state
    clock.now = 50.8
    hw.animator.tick()
    assert not buzzer.state
    clock.now = 60.0
    hw.animator.tick()
    assert game["state"].history[-1] == "end-turn hourglass" and buzzer.state
    assert game["state"].active_colour != "black"
    clock.now = 61.0
    hw.animator.tick()
    assert not buzzer.state  # three beeps done
    assert hw.turn_clock.left() == pytest.approx(59 / 60)  # the next player's time runs


def test_the_animator_thread_never_blocks_the_caller_and_survives_a_broken_strip():
    hw, _ = table()

    def broken() -> None:
        raise OSError("the strip came loose")

    hw.strip.show = broken  # type: ignore[method-assign]
    hw.start()
    state = position({"C3": "blue-elder-1"}, {"blue-elder-1": "black"})
    for _ in range(50):
        hw.show(state)  # returns at once: the view is only swapped
    assert wait_for(lambda: hw.animator.errors >= 3)  # the painter's thread went on after each failure
    hw.animator._stop.set()
    hw.animator._thread.join(timeout=2)  # type: ignore[union-attr]


def test_a_scene_is_a_plain_value_any_game_can_hand_the_painter():
    scene = LedScene({"status": (Light(SWALLOWED), Light((24, 18, 4))), "counter": Count(2, 3, Light((128, 0, 0)))},
                     status="counter")
    strip = RecordingStrip(30)
    out = LedOutput(strip, LedConfig(**PLAIN))
    paint(out, replace(TableView(scene), alert=None), 0.0)
    assert out.logical()[0] == SWALLOWED and out.logical()[13:16] == ((128, 0, 0), (128, 0, 0), (0, 0, 0))
    paint(out, TableView(scene, alert="disk-full"), 0.0)  # the system's alert takes the scene's status segment
    assert out.logical()[13] == (0, 190, 190) and out.logical()[0] == SWALLOWED


def test_a_board_found_moved_flashes_white_for_a_moment_under_the_lasting_alerts():
    from hardware.views import BOARD_MOVED

    clock = Clock()
    hw, factory = table(clock)
    state = position({"C3": "blue-elder-1"}, {"blue-elder-1": "black"})
    hw.show(state)
    hw.notice("board-moved", 10.0)
    hw.animator.tick(0.0)
    assert hw.system_alert == "board-moved" and factory.pin(23).state  # a beep with it
    assert seg(hw, "status")[0] == BOARD_MOVED and seg(hw, "status")[-1] == BOARD_MOVED
    hw.show(state, alert="camera-lost")  # a lasting alert matters more
    hw.animator.tick(0.0)
    assert hw.system_alert == "camera-lost" and seg(hw, "status")[0] == CAMERA_LOST
    hw.show(state)
    clock.now = 10.5  # the moment is over
    hw.animator.tick(0.0)
    assert hw.system_alert is None and BOARD_MOVED not in seg(hw, "status")


# ------------------------------------------------------------------------------------ a game with no LED part
@dataclass(frozen=True)
class Relay:
    """Two runners take turns to step; the first to three steps wins."""

    turn: int = 0
    steps: tuple[int, int] = (0, 0)


RUNNERS = ("red", "blue")
RELAY_COLOURS = {"red": (200, 0, 0), "blue": (0, 0, 200)}


class RelayRules(Rules[Relay, str]):
    """Two runners take turns to step; the first to three steps wins."""

    def new_game(self, players: int = 2, seed: int = 0, **_: object) -> Relay:
        return Relay()

    def to_dict(self, state: Relay) -> dict[str, object]:
        return {"game": "relay", "turn": state.turn, "steps": list(state.steps)}

    def from_dict(self, data: Any) -> Relay:
        return Relay(data["turn"], tuple(data["steps"]))

    def parse_action(self, text: str) -> str:
        return text

    def legal_actions(self, state: Relay) -> list[str]:
        return [] if self.outcome(state) else [f"step {RUNNERS[state.turn]}"]

    def apply(self, state: Relay, action: str) -> Relay:
        steps = list(state.steps)
        steps[state.turn] += 1
        return Relay(1 - state.turn, (steps[0], steps[1]))

    def outcome(self, state: Relay) -> Outcome | None:
        won = [r for r, n in zip(RUNNERS, state.steps) if n >= 3]
        return Outcome(tuple(won), "three steps first") if won else None

    def active(self, state: Relay) -> tuple[str, ...]:
        return () if self.outcome(state) else (RUNNERS[state.turn],)


class RelayTable(Table[Relay, str]):
    def correction(self, state: Relay, seen: object) -> str:
        return "correct"

    def layout(self, state: Relay | None = None, board: str | None = None) -> Layout:
        return Layout("track", (100.0, 100.0), "DICT_4X4_50", (), {}, {}, 10.0, 5.0)

    def expected(self, state: Relay) -> dict[str, tuple[str, ...]]:
        return {}


class RelayPanel(Panel[Relay, str]):
    def view(self, state: Relay, seat: str | None = None) -> dict[str, object]:
        return {"active": RUNNERS[state.turn], "steps": dict(zip(RUNNERS, state.steps))}


def relay_game() -> Game[Relay, str]:
    """A game written here with its rules, its declaration's colours and nothing for the LEDs: what the
    strip shows of it is the door's."""
    return Game(GameType("relay", "Relay", (2,), colours=RELAY_COLOURS), RelayRules(), RelayTable(), RelayPanel())


def test_a_game_that_writes_no_leds_still_shows_whose_turn_the_alert_and_the_winner():
    """A new game writes its rules and its players' colours: on the recording strip the door lights the
    runner to move in their colour (the other dark), the status segment red while a piece breaks a
    rule, and the winner over the whole strip at the end."""
    relay = relay_game()
    assert type(relay.lights) is Lights  # nothing of its own for the LEDs: the door's
    config = LedConfig(backend="recording", **PLAIN)  # type: ignore[arg-type]
    hw = TableHardware(relay, config, pin_factory=MockFactory(), clock=Clock())
    state = relay.new_game()

    hw.show(state, game=relay)
    hw.animator.tick(0.0)
    red_turn = light_at(Light(RELAY_COLOURS["red"], "pulse", 1.0, 0.3), 0.0)
    assert seg(hw, "turn") == [red_turn, (0, 0, 0)] and set(seg(hw, "status")) == {(0, 0, 0)}

    state = relay.apply(state, "step red")  # blue to move
    hw.show(state, game=relay)
    hw.animator.tick(0.0)
    assert seg(hw, "turn")[0] == light_at(Light(RELAY_COLOURS["blue"], "pulse", 1.0, 0.3), 0.0)

    hw.show(state, alert="illegal", offenders=("runner-red",), game=relay)  # a piece breaks a rule
    hw.animator.tick(0.0)
    assert seg(hw, "status")[0] == ALERT
    hw.animator.tick(0.25)  # the alert blinks: dark a quarter of a second on
    assert seg(hw, "status")[0] == (0, 0, 0)

    for action in ("step blue", "step red", "step blue", "step red"):  # red's third step wins
        state = relay.apply(state, action)
    hw.show(state, game=relay)
    hw.animator.tick(0.0)
    assert relay.outcome(state) == Outcome(("red",), "three steps first")
    assert set(hw.strip.last) == {light_at(Light(RELAY_COLOURS["red"], "pulse", 0.5, 0.2), 0.0)}
    assert set(hw.scene.labels.values()) == {"the winner"}

"""Home Assistant's MQTT discovery: each table appears as a device, opted in with ``[club] home_assistant``.

Home Assistant reads retained ``config`` messages under ``homeassistant/<component>/<node>/<object>/``
and builds entities from them; every entity here reads the table's own retained ``state`` (a
template picks its field), is available while the table's ``online`` says ``true`` (the broker's
last will makes it ``false``), and the ``game-over`` topic is an event entity an automation can
trigger on (docs/club.md has the example). Nothing is sent to Home Assistant that the club page
does not show: the same redacted state.
"""

from __future__ import annotations

from typing import Any

from companion.club import ROOT, topic

PREFIX = "homeassistant"

# (component, object, name, template, extra settings)
SENSORS: tuple[tuple[str, str, str, str, dict[str, Any]], ...] = (
    ("sensor", "game", "Game", "{{ value_json.title }}", {"icon": "mdi:dice-multiple"}),
    ("sensor", "phase", "Phase", "{{ value_json.phase }}", {}),
    ("sensor", "turn", "Whose turn", "{{ value_json.turn }}", {"icon": "mdi:account-clock"}),
    ("sensor", "round", "Round", "{{ value_json.round }}", {}),
    ("binary_sensor", "in_sync", "In sync", "{{ 'ON' if value_json.in_sync else 'OFF' }}",
     {"payload_on": "ON", "payload_off": "OFF"}),
)


def discovery_messages(table: str, name: str) -> list[tuple[str, dict[str, Any]]]:
    """The retained discovery messages of one table: (topic, payload) for each entity."""
    node = f"{ROOT}-{table}"
    device = {"identifiers": [node], "name": f"{name} (fog-companion)", "manufacturer": "fog-companion",
              "model": "board game companion"}
    common = {"availability_topic": topic(table, "online"), "payload_available": "true",
              "payload_not_available": "false", "device": device}
    out: list[tuple[str, dict[str, Any]]] = []
    for component, obj, label, template, extra in SENSORS:
        out.append((f"{PREFIX}/{component}/{node}/{obj}/config",
                    {"name": label, "unique_id": f"{node}-{obj}", "object_id": f"{node}-{obj}",
                     "state_topic": topic(table, "state"), "value_template": template, **common, **extra}))
    out.append((f"{PREFIX}/event/{node}/game_over/config",
                {"name": "Game over", "unique_id": f"{node}-game_over", "object_id": f"{node}-game_over",
                 "state_topic": topic(table, "game-over"), "event_types": ["game_over"], **common}))
    return out

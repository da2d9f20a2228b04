"""Game options of The FOG (rulebook section 6) as one value with a text form that parses back.

Text form: comma-separated tokens, e.g. ``hourglass=90,enhanced,min-crew,leaders``. The same
text is used on the CLI (``--options``), in saved states and in the panel, so
``Options.parse(str(o)) == o`` always holds.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.errors import OptionsError

TEAM_SCORING = ("sum", "lowest")
DRIVE_OFF = ("standard", "advanced")
TWO_PLAYER_SCORING = ("lower", "total")


@dataclass(frozen=True)
class Options:
    """Every optional rule; the defaults are the standard game."""

    hourglass_seconds: int | None = None
    enhanced_movements: bool = False
    minimum_boat_crew: bool = False
    teams: tuple[tuple[str, ...], ...] = ()
    team_scoring: str = "sum"
    rescue_the_leaders: bool = False
    drive_off: str = "standard"
    two_player_scoring: str = "lower"
    advanced_fog: bool = False  # solo: the FOG starts one field further ("number - 1")

    def __post_init__(self) -> None:
        if self.hourglass_seconds is not None and not 5 <= self.hourglass_seconds <= 3600:
            raise OptionsError(f"hourglass={self.hourglass_seconds}: the duration must be 5 to 3600 seconds")
        for name, value, allowed in (("team-scoring", self.team_scoring, TEAM_SCORING),
                                     ("drive-off", self.drive_off, DRIVE_OFF),
                                     ("two-player", self.two_player_scoring, TWO_PLAYER_SCORING)):
            if value not in allowed:
                raise OptionsError(f"{name}={value}: allowed values are {', '.join(allowed)}")
        seen: set[str] = set()
        for team in self.teams:
            if not team:
                raise OptionsError("teams: a team needs at least one colour")
            for colour in team:
                if colour in seen:
                    raise OptionsError(f"teams: colour {colour!r} is in two teams")
                seen.add(colour)

    @classmethod
    def parse(cls, text: str | None) -> Options:
        """Parse ``hourglass=90,enhanced,...``; unknown tokens are an error naming the token."""
        kwargs: dict[str, object] = {}
        for raw in (text or "").split(","):
            token = raw.strip()
            if not token:
                continue
            key, _, value = token.partition("=")
            key = key.strip().lower()
            value = value.strip()
            if key == "hourglass":
                try:
                    kwargs["hourglass_seconds"] = int(value or "60")
                except ValueError:
                    raise OptionsError(f"hourglass={value}: the duration must be whole seconds") from None
            elif key in ("enhanced", "enhanced-movements"):
                kwargs["enhanced_movements"] = True
            elif key in ("min-crew", "minimum-boat-crew"):
                kwargs["minimum_boat_crew"] = True
            elif key in ("leaders", "rescue-the-leaders"):
                kwargs["rescue_the_leaders"] = True
            elif key == "advanced-fog":
                kwargs["advanced_fog"] = True
            elif key == "teams":
                kwargs["teams"] = tuple(tuple(c for c in t.split("+") if c) for t in value.split("/") if t)
            elif key == "team-scoring":
                kwargs["team_scoring"] = value
            elif key == "drive-off":
                kwargs["drive_off"] = value
            elif key == "two-player":
                kwargs["two_player_scoring"] = value
            else:
                raise OptionsError(
                    f"unknown option {token!r}; known: hourglass=SECONDS, enhanced, min-crew, leaders, "
                    "teams=C+C/C+C, team-scoring=sum|lowest, drive-off=standard|advanced, "
                    "two-player=lower|total, advanced-fog")
        return cls(**kwargs)  # type: ignore[arg-type]

    def __str__(self) -> str:
        parts: list[str] = []
        if self.hourglass_seconds is not None:
            parts.append(f"hourglass={self.hourglass_seconds}")
        if self.enhanced_movements:
            parts.append("enhanced")
        if self.minimum_boat_crew:
            parts.append("min-crew")
        if self.rescue_the_leaders:
            parts.append("leaders")
        if self.teams:
            parts.append("teams=" + "/".join("+".join(t) for t in self.teams))
        if self.team_scoring != "sum":
            parts.append(f"team-scoring={self.team_scoring}")
        if self.drive_off != "standard":
            parts.append(f"drive-off={self.drive_off}")
        if self.two_player_scoring != "lower":
            parts.append(f"two-player={self.two_player_scoring}")
        if self.advanced_fog:
            parts.append("advanced-fog")
        return ",".join(parts)

    def __repr__(self) -> str:
        return f"Options.parse({str(self)!r})"

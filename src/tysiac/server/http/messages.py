"""Typed messages: HTTP bodies and WebSocket commands. See docs/protocol.md."""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from tysiac import catalogue
from tysiac.catalogue import spell, spelled
from tysiac.server.errors import ServiceError

MAX_BODY = 4096  # bytes of an HTTP body or a WebSocket message


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class CreateGame(Strict):
    nick: str = Field(max_length=100)
    players: Literal[2, 3, 4]
    name: str | None = Field(default=None, max_length=200)
    public: bool = False
    chat: bool | None = None  # default: on in private games, off in public ones
    short: bool = False
    move_seconds: Literal[60, 120, 300] = 60
    options: dict[str, Any] = Field(default_factory=dict)  # V1-V16, checked by the rules
    bots: list[str] = Field(default_factory=list, max_length=3)  # levels of seats 1, 2…


class JoinGame(Strict):
    nick: str = Field(max_length=100)


class Hello(Strict):
    type: Literal["hello"]
    token: str | None = Field(default=None, max_length=64)


class Move(Strict):
    type: Literal["move"]
    v: int
    action: dict[str, Any]


class Chat(Strict):
    type: Literal["chat"]
    text: str = Field(max_length=1000)


class Report(Strict):
    type: Literal["report"]
    seq: int  # the chat line's `seq`


class Rematch(Strict):
    type: Literal["rematch"]


class AddBot(Strict):
    type: Literal["add_bot"]
    level: str = Field(max_length=20)


class RemoveBot(Strict):
    type: Literal["remove_bot"]
    seat: int


class Ping(Strict):
    type: Literal["ping"]


ClientMessage = Annotated[
    Hello | Move | Chat | Report | Rematch | AddBot | RemoveBot | Ping, Field(discriminator="type")
]
_client_message: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)


def _refusal(error: ValidationError) -> ServiceError:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"])
    if not where:
        return ServiceError("error.malformed.whole", 422)
    # The form field it concerns: "options.bid_step" is the options.
    return ServiceError("error.malformed", 422, field=str(first["loc"][0]), where=where)


M = TypeVar("M", bound=Strict)


def parse_body(model: type[M], body: bytes) -> M:
    if len(body) > MAX_BODY:
        raise ServiceError("error.too_large", 413)
    try:
        return model.model_validate_json(body)
    except ValidationError as error:
        raise _refusal(error) from None


def parse_message(text: str) -> Hello | Move | Chat | Report | Rematch | AddBot | RemoveBot | Ping:
    if len(text) > MAX_BODY:
        raise ServiceError("error.too_large.message", 413)
    try:
        return _client_message.validate_json(text)
    except ValidationError as error:
        if any(e["type"] == "json_invalid" for e in error.errors()):
            raise ServiceError("error.bad_json", 400) from None
        raise _refusal(error) from None


def error_body(error: ServiceError, lang: str = catalogue.DEFAULT) -> dict[str, Any]:
    """``code`` (stable), ``key`` (the catalogue's ``error.<code>[.<variant>]``, by which
    the page words it) and ``message`` (the server's own wording, in ``lang``) always;
    ``field`` when the refusal concerns one field of the request (the form shows it there),
    ``params`` when the message has values (a value that is itself a word, an option's
    name, spelled in ``lang``), ``more`` when sentences follow the first (moderation's
    consequences: each its ``key`` and ``params``)."""
    more = error.words[1:]
    body: dict[str, Any] = {
        "code": error.code,
        "key": error.key,
        "message": spell(error.words, lang),
    }
    if error.field is not None:
        body["field"] = error.field
    params = {name: spelled(v, lang) for word in error.words for name, v in word.params.items()}
    if params:
        body["params"] = params
    if more:
        body["more"] = [
            {"key": word.key, "params": {n: spelled(v, lang) for n, v in word.params.items()}}
            for word in more
        ]
    return {"error": body}

"""Administration of local daemons and account aliases (``/admin``; seed parts 2 and 4.1).

Small integers (ids, pids, codes, ``delay``, ``max_priority``,
``preserved_levels``) are ``int31``; a list of protocol hashes is a list of
length-prefixed hashes (the seed's part 2).

Layouts the seed leaves open follow the reference's conventions, and stay:

* a **process state** is a union on a one-byte tag (running 0, exited 1,
  stopped 2, signaled 3) of ``{pid, state}`` records, ``state`` being the
  case's constant name and ``code`` following ``pid`` (a presence byte
  first for ``exited``, where it is optional);
* a **daemon status** is ``merge_objs(obj(id), process state)``: the id, then
  the state's tag, ``pid`` and ``code``;
* a **daemon record** is ``merge_objs(common fields, kind union)``: ``id``,
  ``protocols``, ``all_active_protocols``, ``spawned``, ``last_ping``,
  ``state``, then the kind's tag (baker 0, endorser 1, accuser 2) and the
  kind's own fields, ``kind`` first. The kind union alone is the **daemon
  description** that ``daemons/register`` takes.

>>> state = PROCESS_STATE.from_json({"pid": 42, "state": "exited"})
>>> PROCESS_STATE.encode(state).hex()
'010000002a00'
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal, NotRequired, TypedDict, cast

from ...tree.core import Encoding, publish
from ...tree.framing import dynamic_size
from ...tree.primitives import bool_, constant, int31
from ...tree.records import merge_objs, obj, opt, req
from ...tree.sequences import list_
from ...tree.strings import string
from ...tree.typed import typed
from ...tree.unions import case, string_enum, union
from ...tree.wrappers import def_
from ...tree.zarith import z
from ..hashes import ProtocolHash, protocol_hash
from ..keys import PublicKeyHash, public_key_hash
from ..registry import register
from ..timestamp import system

__all__ = [
    "ACCOUNTS",
    "ACCOUNT_ALIAS",
    "DAEMON",
    "DAEMONS",
    "DAEMON_DESCRIPTION",
    "DAEMON_KIND",
    "DAEMON_STATUS",
    "PROCESS_STATE",
    "PROTOCOLS",
    "REGISTER_DAEMON",
    "START_ACCUSER",
    "START_BAKER",
    "START_ENDORSER",
    "AccountAlias",
    "Daemon",
    "DaemonDescription",
    "DaemonStatus",
    "ProcessState",
    "RegisterDaemon",
    "StartAccuser",
    "StartBaker",
    "StartEndorser",
]

Unistring = str | bytes
DaemonKind = Literal["baker", "endorser", "accuser"]

# ------------------------------------------------------------------ accounts


class AccountAlias(TypedDict):
    alias: Unistring
    pkh: PublicKeyHash


ACCOUNT_ALIAS = typed(AccountAlias, obj(req("alias", string), req("pkh", public_key_hash)))
ACCOUNTS: Encoding[list[AccountAlias]] = list_(ACCOUNT_ALIAS)

# ------------------------------------------------------------------ process state


class Running(TypedDict):
    pid: int
    state: Literal["running"]


class Exited(TypedDict):
    pid: int
    state: Literal["exited"]
    code: NotRequired[int | None]


class Stopped(TypedDict):
    pid: int
    state: Literal["stopped"]
    code: int


class Signaled(TypedDict):
    pid: int
    state: Literal["signaled"]
    code: int


ProcessState = Running | Exited | Stopped | Signaled


# named as the seed names it, so that errors and tables say "process_state"
PROCESS_STATE: Encoding[ProcessState] = def_(
    "process_state",
    union(
        [
            case(
                0,
                "running",
                typed(Running, obj(req("pid", int31), req("state", constant("running")))),
            ),
            case(
                1,
                "exited",
                typed(
                    Exited,
                    obj(req("pid", int31), req("state", constant("exited")), opt("code", int31)),
                ),
            ),
            case(
                2,
                "stopped",
                typed(
                    Stopped,
                    obj(req("pid", int31), req("state", constant("stopped")), req("code", int31)),
                ),
            ),
            case(
                3,
                "signaled",
                typed(
                    Signaled,
                    obj(req("pid", int31), req("state", constant("signaled")), req("code", int31)),
                ),
            ),
        ]
    ),
)


class RunningStatus(Running):
    id: int


class ExitedStatus(Exited):
    id: int


class StoppedStatus(Stopped):
    id: int


class SignaledStatus(Signaled):
    id: int


DaemonStatus = RunningStatus | ExitedStatus | StoppedStatus | SignaledStatus

DAEMON_STATUS: Encoding[DaemonStatus] = cast(
    Encoding[DaemonStatus], merge_objs(obj(req("id", int31)), PROCESS_STATE)
)

# ------------------------------------------------------------------ daemons

PROTOCOLS: Encoding[list[ProtocolHash]] = list_(dynamic_size(protocol_hash))
"""A list of protocol hashes, each length-prefixed (the seed's part 2)."""

DAEMON_KIND: Encoding[DaemonKind] = string_enum(["baker", "endorser", "accuser"])


class BakerOptions(TypedDict):
    """A baker's optional settings: in its description and in start_baker's body."""

    minimal_fees: NotRequired[Unistring | None]
    minimal_nanotez_per_gas_unit: NotRequired[int | None]
    minimal_nanotez_per_byte: NotRequired[int | None]
    await_endorsements: NotRequired[bool | None]
    max_priority: NotRequired[int | None]


_BAKER_OPTIONS = (
    opt("minimal_fees", string),
    opt("minimal_nanotez_per_gas_unit", z),
    opt("minimal_nanotez_per_byte", z),
    opt("await_endorsements", bool_),
    opt("max_priority", int31),
)


class BakerDescription(BakerOptions):
    kind: Literal["baker"]
    delegates: list[PublicKeyHash]


class EndorserDescription(TypedDict):
    kind: Literal["endorser"]
    delegates: list[PublicKeyHash]
    delay: NotRequired[int | None]


class AccuserDescription(TypedDict):
    kind: Literal["accuser"]
    preserved_levels: NotRequired[int | None]


DaemonDescription = BakerDescription | EndorserDescription | AccuserDescription

DAEMON_DESCRIPTION: Encoding[DaemonDescription] = union(
    [
        case(
            0,
            "baker",
            typed(
                BakerDescription,
                obj(
                    req("kind", constant("baker")),
                    req("delegates", list_(public_key_hash)),
                    *_BAKER_OPTIONS,
                ),
            ),
        ),
        case(
            1,
            "endorser",
            typed(
                EndorserDescription,
                obj(
                    req("kind", constant("endorser")),
                    req("delegates", list_(public_key_hash)),
                    opt("delay", int31),
                ),
            ),
        ),
        case(
            2,
            "accuser",
            typed(
                AccuserDescription,
                obj(req("kind", constant("accuser")), opt("preserved_levels", int31)),
            ),
        ),
    ]
)


class DaemonCommon(TypedDict):
    id: int
    protocols: list[ProtocolHash]
    all_active_protocols: bool
    spawned: bool
    last_ping: datetime
    state: ProcessState


class BakerDaemon(DaemonCommon, BakerDescription):
    pass


class EndorserDaemon(DaemonCommon, EndorserDescription):
    pass


class AccuserDaemon(DaemonCommon, AccuserDescription):
    pass


Daemon = BakerDaemon | EndorserDaemon | AccuserDaemon

DAEMON_COMMON = typed(
    DaemonCommon,
    obj(
        req("id", int31),
        req("protocols", PROTOCOLS),
        req("all_active_protocols", bool_),
        req("spawned", bool_),
        req("last_ping", system),
        req("state", PROCESS_STATE),
    ),
)

DAEMON: Encoding[Daemon] = cast(Encoding[Daemon], merge_objs(DAEMON_COMMON, DAEMON_DESCRIPTION))
DAEMONS: Encoding[list[Daemon]] = list_(DAEMON)

# ------------------------------------------------------------------ request bodies


class RegisterDaemon(TypedDict):
    id: NotRequired[int | None]
    desc: DaemonDescription
    protocols: list[ProtocolHash]
    all_active_protocols: bool
    pid: NotRequired[int | None]


REGISTER_DAEMON = typed(
    RegisterDaemon,
    obj(
        opt("id", int31),
        req("desc", DAEMON_DESCRIPTION),
        req("protocols", PROTOCOLS),
        req("all_active_protocols", bool_),
        opt("pid", int31),
    ),
)


class StartBody(TypedDict):
    """What the three start_* bodies share."""

    protocols: NotRequired[list[ProtocolHash] | None]


class StartAccuser(StartBody):
    preserved_levels: NotRequired[int | None]


START_ACCUSER = typed(
    StartAccuser, obj(opt("protocols", PROTOCOLS), opt("preserved_levels", int31))
)


class StartBaker(StartBody, BakerOptions):
    delegates: list[Unistring]


START_BAKER = typed(
    StartBaker,
    obj(opt("protocols", PROTOCOLS), *_BAKER_OPTIONS, req("delegates", list_(string))),
)


class StartEndorser(StartBody):
    delay: NotRequired[int | None]
    delegates: list[Unistring]


START_ENDORSER = typed(
    StartEndorser,
    obj(opt("protocols", PROTOCOLS), opt("delay", int31), req("delegates", list_(string))),
)

# ------------------------------------------------------------------ registry

_ADMIN = "4.1 Administration"

register(
    "admin.account_alias",
    ACCOUNT_ALIAS,
    "an alias and its public key hash",
    "2 Account alias entry",
)
register("admin.accounts", ACCOUNTS, "a list of account alias entries", _ADMIN)
register("admin.process_state", PROCESS_STATE, "a daemon process's state", "2 Process state")
register("admin.daemon_status", DAEMON_STATUS, "a daemon's id and process state", "2 Daemon status")
register("admin.daemon_kind", DAEMON_KIND, "baker, endorser or accuser", "2 Daemon record")
register(
    "admin.daemon", DAEMON, "a daemon record (common and kind-specific fields)", "2 Daemon record"
)
register("admin.daemons", DAEMONS, "a list of daemon records", _ADMIN)
register(
    "admin.daemon_description",
    DAEMON_DESCRIPTION,
    "a daemon's kind and kind-specific fields",
    "2 Daemon description",
)
register(
    "admin.protocols", PROTOCOLS, "a list of length-prefixed protocol hashes", "2 Daemon record"
)
register("admin.register_daemon", REGISTER_DAEMON, "the body of daemons/register", _ADMIN)
register("admin.start_accuser", START_ACCUSER, "the body of daemons/start_accuser", _ADMIN)
register("admin.start_baker", START_BAKER, "the body of daemons/start_baker", _ADMIN)
register("admin.start_endorser", START_ENDORSER, "the body of daemons/start_endorser", _ADMIN)


publish(__name__, globals())  # the encodings above pickle by reference

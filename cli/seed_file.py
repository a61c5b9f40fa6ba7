"""``LOG.seed``: the secret dice seed of a committed scene, kept beside its log (mode 0600)
from ``fightlog play start`` until ``play end`` reveals it in ``scene_ended``."""

from __future__ import annotations

import os
import stat

from fightlog.dice import SEED_BYTES, commitment, seed_bytes
from fightlog.errors import DiceSeedError, InputError, SystemRefusedError
from fightlog.reducers.state import SceneState


def seed_path(log: str) -> str:
    return log + ".seed"


def write_seed(log: str, seed: str) -> str:
    """Keep ``seed`` in ``LOG.seed``, readable and writable by the owner only; refuse to
    replace one (it may be the only copy of another scene's seed)."""
    path = seed_path(log)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise InputError("exists already: it may hold another scene's secret seed; move it away first",
                         path=path) from None
    except OSError as exc:
        raise SystemRefusedError(f"cannot create: {exc.strerror}", path=path) from None
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, (seed + "\n").encode())
        os.fsync(fd)
    finally:
        os.close(fd)
    return path


def remove_seed(log: str) -> str:
    """Remove ``LOG.seed`` once ``scene_ended`` has revealed its seed, and say so (or say
    why it stays, and that it is public now)."""
    path = seed_path(log)
    try:
        os.unlink(path)
    except FileNotFoundError:
        return f"{path}: gone already (the seed is public in scene_ended)"
    except OSError as exc:
        return f"{path}: could not be removed ({exc.strerror}); the seed in it is public now"
    return f"removed {path}: the seed is public in scene_ended"


def read_seed(log: str, state: SceneState) -> str | None:
    """The scene's seed: revealed in the log (open mode, or ended), else from ``LOG.seed``,
    which must match the commitment in ``scene_started``."""
    info = state.scene
    if info is None or info.seed is not None:
        return None if info is None else info.seed
    path = seed_path(log)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO there: not waited on for a writer
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise SystemRefusedError(f"cannot read: {exc.strerror}", path=path) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise InputError("is not a regular file: the seed is kept in a file fightlog wrote (restore it from a "
                             "copy)", path=path)
        raw = os.read(fd, 1024)
    except OSError as exc:
        raise SystemRefusedError(f"cannot read: {exc.strerror}", path=path) from None
    finally:
        os.close(fd)
    if not raw.strip():
        raise InputError("the seed file is empty: it holds the scene's seed in hex digits (restore it from a copy; "
                         "a new one cannot match the commitment)", path=path)
    try:
        seed = seed_bytes(raw.decode("ascii", "replace"), minimum=SEED_BYTES, what="the seed").hex()
    except DiceSeedError as exc:
        raise InputError(exc.message, path=path) from None
    if info.commitment is not None and commitment(seed) != info.commitment:
        raise InputError("does not match the dice commitment in scene_started (a seed of another scene?)",
                         path=path)
    return seed

"""Checkpoint savers, as in ``langgraph.checkpoint``: the data model and contract (``base``),
the saver written once (``core``) over a small storage interface (``storage``), the in-memory
backend (``memory``), the serializer (``serde``), checkpoint ids (``ids``), the two errors of
saving and loading (``errors``) and how a stored record is named and checked (``records``).
"""

from lab.checkpoint.base import (
    ERROR,
    INTERRUPT,
    NO_WRITES,
    NULL_TASK_ID,
    RESUME,
    SCHEDULED,
    WRITES_IDX_MAP,
    BaseCheckpointSaver,
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    CheckpointTuple,
    PendingWrite,
    copy_checkpoint,
    empty_checkpoint,
)
from lab.checkpoint.core import CheckpointSaver
from lab.checkpoint.errors import CorruptRecordError, UnsavableValueError
from lab.checkpoint.ids import uuid6
from lab.checkpoint.memory import InMemorySaver, MemoryStorage
from lab.checkpoint.serde import MsgpackSerializer, register_type
from lab.checkpoint.storage import CheckpointStorage

__all__ = [
    "ERROR",
    "INTERRUPT",
    "NO_WRITES",
    "NULL_TASK_ID",
    "RESUME",
    "SCHEDULED",
    "WRITES_IDX_MAP",
    "BaseCheckpointSaver",
    "ChannelVersions",
    "Checkpoint",
    "CheckpointMetadata",
    "CheckpointSaver",
    "CheckpointStorage",
    "CheckpointTuple",
    "CorruptRecordError",
    "InMemorySaver",
    "MemoryStorage",
    "MsgpackSerializer",
    "PendingWrite",
    "UnsavableValueError",
    "copy_checkpoint",
    "empty_checkpoint",
    "register_type",
    "uuid6",
]

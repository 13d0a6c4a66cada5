"""The fake chat models that stand in for an LLM: LangChain's, or the lab's own twins.

Where ``langchain_core`` is importable (CPython) this module gives
``langchain_core.language_models.fake_chat_models``' classes themselves; in the browser, the
pure-Python twins of ``lab.plain_chat_models`` (same names, fields, replies and ids). Import them
from here (the playground answers ``langchain_core.language_models.fake_chat_models`` with it where
LangChain is not installed)::

    from lab.chat_models import GenericFakeChatModel
"""

from __future__ import annotations

from typing import Any

from lab import plain_chat_models
from lab.messages import USES_LANGCHAIN, langchain_or_twin

_source: Any = langchain_or_twin("language_models.fake_chat_models", plain_chat_models)

GenericFakeChatModel: Any = _source.GenericFakeChatModel
FakeListChatModel: Any = _source.FakeListChatModel
FakeMessagesListChatModel: Any = _source.FakeMessagesListChatModel

__all__ = ["USES_LANGCHAIN", "FakeListChatModel", "FakeMessagesListChatModel", "GenericFakeChatModel"]

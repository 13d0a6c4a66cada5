# Source: LangGraph docs, docs.langchain.com/oss/python/langgraph/persistence (github.com/langchain-ai/docs
# src/oss/persistence.mdx, commit 7df7f307), its Python blocks 7, 8, 9, 10 (counting from 0).
# Changed: 'import uuid' added (block 9 uses it); block 10's sample output (a dict literal after the code)
# left out and its displayed value printed.

import uuid
from langgraph.store.memory import InMemoryStore
in_memory_store = InMemoryStore()

user_id = "1"
namespace_for_memory = (user_id, "memories")

memory_id = str(uuid.uuid4())
memory = {"food_preference" : "I like pizza"}
in_memory_store.put(namespace_for_memory, memory_id, memory)

memories = in_memory_store.search(namespace_for_memory)
print(memories[-1].dict())

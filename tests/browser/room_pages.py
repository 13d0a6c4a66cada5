"""A class room's pages, as the browser tests drive them (``test_room.py``, ``test_room_thread.py``): a
teacher presenting a step, and what a browser's own IndexedDB holds of a thread."""

from browser_harness import BOOT_TIMEOUT_S
from playwright.sync_api import expect

# Plain JavaScript in the page: the checkpoints this browser's own IndexedDB holds for a thread.
OWN_CHECKPOINTS = """
async (thread) => {
  const db = await new Promise((resolve, reject) => {
    const request = indexedDB.open("checkpoint-lab-threads");
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  try {
    const store = db.transaction("checkpoints").objectStore("checkpoints");
    const read = store.getAllKeys(IDBKeyRange.bound([thread], [thread, []]));
    const keys = await new Promise((resolve) => { read.onsuccess = () => resolve(read.result); });
    return keys.map((key) => key[2]);
  } finally {
    db.close();
  }
}
"""


STEP_TIMEOUT_MS = 4 * BOOT_TIMEOUT_S * 1000  # two labs boot at once on a shared machine


def presented_step(teacher, step_id: str) -> None:
    """The teacher takes a step of the lesson: R reveals the answer (a step with a question), then the
    step's own control acts; wait for Python's verdict."""
    section = teacher.locator(f'section[data-step="{step_id}"]')
    expect(section).to_have_attribute("data-ready", "true", timeout=STEP_TIMEOUT_MS)
    if section.locator("[data-choice]").count():
        teacher.keyboard.press("r")
    section.locator("[data-do-it]").click()
    expect(section).to_have_attribute("data-done", "true", timeout=STEP_TIMEOUT_MS)

"""The playground's gallery: short LangGraph programs a learner opens, runs, crashes and travels.

Site content, like ``narratives/``: not part of ``lab`` (the runtime's wheel does not carry it; the
page reads the programs from ``/play/gallery.json``, written by ``site_build/play.py``).

Each program is a plain ``.py`` file of this folder, written against real LangGraph (``from
langgraph...`` imports, no LLM: plain functions) and runnable as is in a terminal, where its
``if __name__ == "__main__":`` part drives it and checks what LangGraph answered
(``tests/test_playground.py`` runs each one on real LangGraph). In the playground the lab drives the
graph instead. :data:`GALLERY` is the listing the page shows: id, title and one line, in English and
简体中文 (the page reads it as JSON, :func:`gallery_listing`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

__all__ = ["GALLERY", "GalleryProgram", "gallery_listing"]

FOLDER = Path(__file__).resolve().parent


@dataclass(frozen=True)
class GalleryProgram:
    """One program of the gallery: its file (``<id>.py``), and its title and line per language."""

    id: str
    title: dict[str, str]
    about: dict[str, str]

    @property
    def source(self) -> str:
        return (FOLDER / f"{self.id}.py").read_text(encoding="utf-8")


GALLERY: tuple[GalleryProgram, ...] = (
    GalleryProgram(
        "five_minutes",
        {"en": "Memory in five minutes", "zh": "五分钟：对话记忆"},
        {
            "en": "MessagesState and InMemorySaver: two invokes on one thread; the second sees the first.",
            "zh": "MessagesState 加 InMemorySaver：同一个 thread 上调用两次，第二次看得到第一次。",
        },
    ),
    GalleryProgram(
        "charge_before_interrupt",
        {"en": "A charge before interrupt()", "zh": "interrupt() 之前扣费"},
        {
            "en": "The node charges, then asks: on resume it re-runs from its first line and charges again.",
            "zh": "节点先扣费再提问：恢复时节点从第一行重跑，又扣一次费。",
        },
    ),
    GalleryProgram(
        "charge_in_a_task",
        {"en": "The charge in a @task", "zh": "把扣费放进 @task"},
        {
            "en": "LangGraph's remedy: the node re-runs on resume, the task's saved result comes back.",
            "zh": "LangGraph 给的办法：恢复时节点重跑，task 已保存的结果直接取回，不再扣费。",
        },
    ),
    GalleryProgram(
        "func_side_effect_outside_a_task",
        {"en": "A side effect outside a task (Functional API)", "zh": "task 之外的副作用（函数式 API）"},
        {
            "en": "An e-mail sent straight from the workflow goes again on resume; a charge in a task, once.",
            "zh": "直接在工作流里发的邮件在恢复时又发一次；放在 task 里的扣费只扣一次。",
        },
    ),
    GalleryProgram(
        "func_review",
        {"en": "A workflow that asks (Functional API)", "zh": "会提问的工作流（函数式 API）"},
        {
            "en": "@entrypoint and @task: a task drafts, interrupt() asks; resumed, the draft is not redone.",
            "zh": "@entrypoint 加 @task：task 写草稿，interrupt() 提问；恢复时草稿从 checkpoint 取回。",
        },
    ),
    GalleryProgram(
        "func_resume_after_error",
        {"en": "Resume after an error (Functional API)", "zh": "出错后恢复（函数式 API）"},
        {
            "en": "A task fails once; run again, the paid lookup's saved result comes back: paid once.",
            "zh": "一个 task 失败一次；再次运行时，付费查询已保存的结果直接取回：只付一次费。",
        },
    ),
    GalleryProgram(
        "charge_after_interrupt",
        {"en": "The charge after interrupt(), with a key", "zh": "interrupt() 之后扣费，带幂等键"},
        {
            "en": "Ask first, charge after the answer, with an idempotency key that names the operation.",
            "zh": "先提问，得到回答后再扣费，幂等键写明是哪一笔业务。",
        },
    ),
    GalleryProgram(
        "fan_out_failing_branch",
        {"en": "Fan-out, join, and a failing branch", "zh": "扇出、汇合，和一个失败的分支"},
        {
            "en": (
                "One branch fails; the other's writes stay as pending writes, so the retry runs only "
                "the failed one."
            ),
            "zh": "一个分支失败；另一个分支的写入作为 pending writes 保留，重试只跑失败的那个。",
        },
    ),
    GalleryProgram(
        "subgraph_interrupt",
        {"en": "A subgraph that interrupts", "zh": "会中断的子图"},
        {
            "en": "The subgraph asks a question; on resume the parent's node that calls it re-runs.",
            "zh": "子图提出问题；恢复时，调用它的父图节点会重跑。",
        },
    ),
    GalleryProgram(
        "durability",
        {"en": "Durability modes", "zh": "持久化模式"},
        {
            "en": 'One graph run with durability "sync", "async" and "exit": the checkpoints each saves.',
            "zh": "同一张图分别用 durability 为 sync、async、exit 运行：各自保存了多少个 checkpoint。",
        },
    ),
    GalleryProgram(
        "aml_investigation",
        {"en": "The AML graph itself, as code", "zh": "反洗钱案件图本身（代码版）"},
        {
            "en": (
                "The lab's investigation: a paid query beside a sanctions screen, a join, a router, the "
                "officer's interrupt() and the filing. Crash after the query: it is paid twice."
            ),
            "zh": (
                "实验室的案件调查图：付费查询与制裁筛查并行、汇合、路由、合规人员的 interrupt()，"
                "最后提交 SAR。在查询之后崩溃：同一次查询会扣费两次。"
            ),
        },
    ),
)


def gallery_listing() -> list[dict[str, object]]:
    """The gallery as the page reads it: ``[{id, title: {en, zh}, about: {en, zh}, source}]``."""
    return [{"id": p.id, "title": p.title, "about": p.about, "source": p.source} for p in GALLERY]

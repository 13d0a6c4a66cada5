/**
 * 练习场（/play）的中文文字，以及其 Python 一侧的句子（`py.play.<kind>`）：./zh.mjs 目录的一部分。
 */

/** @type {Record<string, string>} */
export const zhPlay = {
  "play.title": "Checkpoint Lab：练习场",
  "play.heading": "练习场：运行你自己的图",
  "play.tagline": "编写或粘贴一段 LangGraph 程序；lab 在你的浏览器里运行它，并展示每一个 checkpoint。",
  "play.note": "运行在 lab 上，它是 LangGraph 的一个重新实现；",
  "play.differsLink": "看看有哪些不同",
  "play.nav": "页面",
  "play.navLab": "实验室",
  "play.program": "你的程序",
  "play.gallery": "示例库",
  "play.galleryPick": "打开一个程序…",
  "play.run": "运行",
  "play.share": "通过链接分享",
  "play.shareLink": "这个程序的链接",
  "play.editorLabel": "你的 LangGraph 程序（Python）",
  "play.keys": "Tab 用于缩进。用键盘离开编辑器：先按 Esc，再按 Tab。",
  "play.instruments": "观测面板",
  "play.notRun": "还没有运行任何东西：请按“运行”。",
  "play.notConnected": "程序已就绪，但本页的观测面板还没有连接到 lab 的 Python。",
  "play.fromLink": "这个程序来自一个链接。请先读一读：在你按下“运行”之前，什么都不会运行。",
  "play.shareCopied": "链接已复制：它包含整个程序。",
  "play.shareReady": "复制下面的链接：它包含整个程序。",
  "play.shareTooLong": "这个程序太长，无法通过链接分享（压缩后 {size} 个字符；链接最多 {limit} 个）。",
  "play.linkUnreadable": "无法读取链接中的程序：链接已损坏或被截断。",
  "play.linkTooLarge": "链接中的程序超过练习场的上限（{limit} 字节）：没有打开。",
  "play.differsTitle": "lab 与 LangGraph 的不同之处",
  "play.differsIntro": "摘自项目的 README（英文）：",
  "py.play.too_large": "程序有 {size} 字节；练习场最多接受 {limit} 字节的程序。",
  "py.play.syntax": "{error}",
  "py.play.load": "程序在加载时于第 {line} 行抛出异常：{error}",
  "py.play.missing_module":
    "程序导入了 {module}，而浏览器里没有它：这里的程序可以使用 Python 标准库、langgraph（由 lab 提供）和 lab.world。请把这些调用换成普通函数。",
  "py.play.network_module":
    "程序导入了 {module}，它需要网络：这里的程序在浏览器中运行，没有网络，也没有 LLM。请把这些调用换成普通函数。",
  "py.play.not_in_lab": "lab 没有重新实现 {module}；它提供的是 {mirrored}。",
  "py.play.no_graph": "程序没有编译任何图：构建一个 StateGraph 并调用它的 compile()（命名为 graph）。",
  "py.play.not_compiled": "{name} 是一个从未编译的 StateGraph：加上 graph = {name}.compile()。",
  "py.play.several_graphs": "程序编译了 {count} 个图（{names}）：把要运行的那个命名为 graph。",
  "py.play.node": "节点 {name} 在第 {line} 行抛出异常：{error}",
  "py.play.router": "路由函数 {name} 在第 {line} 行抛出异常：{error}",
  "py.play.run": "运行失败：{error}",
};

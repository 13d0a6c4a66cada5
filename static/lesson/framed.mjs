/**
 * A lesson page inside another site's frame (`/embed?lesson=…` opens its steps there): a bare page.
 * The site's header (its title, languages, "Open the lab") is not shown in the frame, and every link
 * that leaves the lessons ("Open the lab", "Open this thread in the full lab") opens a new tab: the
 * lab page refuses to be framed (`frame-ancestors 'self'`), so followed inside the frame it would
 * replace the lesson with the browser's error page. Links between lesson pages stay in the frame.
 * Outside a frame this module changes nothing.
 */

/** Whether this page is shown inside a frame (a cross-origin parent cannot even be compared: framed). */
export const framed = (() => {
  try {
    return window.top !== window.self;
  } catch {
    return true;
  }
})();

/** Whether a link leaves the lesson pages (its target is not under /learn/ on this site). */
function leavesLessons(link) {
  const url = new URL(link.getAttribute("href"), location.href);
  return url.origin !== location.origin || !url.pathname.startsWith("/learn/");
}

/**
 * Make the page bare when framed: `body[data-framed]` (lesson.css hides the header), and the links
 * under `root` that leave the lessons open a new tab. Call again after content is swapped in.
 * @param {ParentNode} [root]
 */
export function bareWhenFramed(root = document) {
  if (!framed) return;
  document.body.dataset.framed = "true";
  for (const link of root.querySelectorAll("a[href], a[data-sandbox]")) {
    if (link.hasAttribute("href") && !leavesLessons(link)) continue;
    link.target = "_blank";
    link.rel = "noopener";
  }
}

bareWhenFramed();

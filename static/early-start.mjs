/**
 * The lab page's first module (index.html loads it before app.mjs): while the browser still fetches
 * the page's other modules, it starts the two things that take longest - the service worker (sw.mjs,
 * registered through offline.mjs) and, as soon as that controls the page, the lab's first Python
 * worker (first-worker.mjs), which the page's LabSession then adopts, already booting. A platform
 * concern, no LangGraph concept.
 */
import { startFirstWorker } from "./first-worker.mjs";

performance.mark("lab:first-module");
startFirstWorker();

/**
 * The lab page's first module: it registers the service worker (sw.mjs, through offline.mjs) while the
 * browser still fetches the page's other modules. On a first visit the Python worker starts only once
 * the service worker controls the page (so Pyodide is downloaded once, into its cache); registering here
 * lets the service worker install during the page's own loading instead of after it. A platform
 * concern, no LangGraph concept; LabSession (lab-session.mjs) awaits the same registration.
 */
import { controlled } from "./offline.mjs";

controlled();

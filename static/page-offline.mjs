/**
 * Every narratives page loads it: it keeps the site available offline (see offline.mjs) and shows
 * "A new version is available" when a new deployment is waiting.
 */
import { completeOfflineCopy, controlled, mountUpdatePrompt } from "./offline.mjs";

mountUpdatePrompt();
if (await controlled()) await completeOfflineCopy();

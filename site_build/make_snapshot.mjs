// Run by site_build/snapshot.py in Node: `node make_snapshot.mjs <Pyodide folder>/ <files> <out>`.
// Boots the pinned Pyodide ready to be snapshotted, writes <files> (the boot wheels' files, unpacked)
// into its site-packages as the browser's worker does (pyodide-boot.mjs), imports the lab's
// JavaScript-free modules (lab/preload.py) and writes Pyodide's memory snapshot to <out>.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";

const [indexURL, files, out] = process.argv.slice(2);
const { loadPyodide } = await import(new URL("pyodide.mjs", "file://" + indexURL).href);
const pyodide = await loadPyodide({ indexURL, _makeSnapshot: true });
const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
for (const entry of readdirSync(files, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile()) continue;
  const path = `${entry.parentPath}/${entry.name}`.slice(files.length + 1);
  const target = `${sitePackages}/${path}`;
  pyodide.FS.mkdirTree(target.slice(0, target.lastIndexOf("/")));
  pyodide.FS.writeFile(target, readFileSync(`${files}/${path}`));
}
pyodide.runPython("import importlib; importlib.invalidate_caches()");
const modules = pyodide.runPython("import lab.preload; len(lab.preload.preload())");
if (!(modules > 0)) throw new Error("lab.preload imported no module");
writeFileSync(out, pyodide.makeMemorySnapshot());

// Run by site_build/bytecode.py in Node: `node compile_bytecode.mjs <Pyodide folder>/ <sources> <site-packages>`.
// Compiles every module under <sources> with the pinned Pyodide's own Python (3.14), as unchecked-hash
// .pyc files written next to their sources; PYTHONNODEBUGRANGES leaves out the column ranges.
const [indexURL, folder, sitePackages] = process.argv.slice(2);
const { loadPyodide } = await import(new URL("pyodide.mjs", "file://" + indexURL).href);
const pyodide = await loadPyodide({ indexURL, env: { PYTHONNODEBUGRANGES: "1" } });
pyodide.FS.mkdirTree("/compile");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: folder }, "/compile");
const compiled = pyodide.runPython(`
import compileall, py_compile
compileall.compile_dir("/compile", ddir="${sitePackages}", quiet=1,
                       invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)`);
if (!compiled) throw new Error("compileall failed");

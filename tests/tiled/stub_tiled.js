// Runs maps/extensions/hexslinger.js in node with a stand-in for Tiled's scripting API (tiled, Process),
// triggers one of its actions on a map, and prints what the extension did as JSON (tests/test_tiled_extension.py).
// Process.exec really runs the program (child_process), so check-map's output is the real one.
// Usage: node stub_tiled.js EXTENSION MAP_FILE [ACTION_ID] [MODIFIED]
"use strict";
const vm = require("vm");
const fs = require("fs");
const childProcess = require("child_process");

const [script, mapFile, actionId, modified] = process.argv.slice(2);
const record = { actions: {}, menus: [], alerts: [], errors: [], logs: [], triggered: [], started: null };
const asset = { isTileMap: true, fileName: mapFile, modified: modified === "modified" };

class Process {
    constructor() { this.out = ""; this.err = ""; }
    getEnv(name) { return process.env[name] || ""; }
    close() {}
    exec(program, args) {
        const run = childProcess.spawnSync(program, args, { encoding: "utf8" });
        if (run.error) { this.err = String(run.error.message); return -1; }
        this.out = run.stdout; this.err = run.stderr;
        return run.status;
    }
    start(program, args) { record.started = [program, ...args]; return true; }
    readStdOut() { return this.out; }
    readStdErr() { return this.err; }
}

const tiled = {
    platform: "linux",
    activeAsset: asset,
    registerAction(id, callback) { const action = { id, callback }; record.actions[id] = action; return action; },
    extendMenu(menu, items) { record.menus.push({ menu, items }); },
    alert(text) { record.alerts.push(text); },
    log(text) { record.logs.push(text); },
    error(text) { record.errors.push(text); },
    trigger(action) { record.triggered.push(action); if (action === "Save") { asset.modified = false; } },
};

vm.runInNewContext(fs.readFileSync(script, "utf8"), { tiled, Process });
if (actionId) { record.actions[actionId].callback(record.actions[actionId]); }
for (const id of Object.keys(record.actions)) { record.actions[id] = { text: record.actions[id].text }; }
process.stdout.write(JSON.stringify(record));

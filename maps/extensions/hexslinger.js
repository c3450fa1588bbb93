/*
 * Hexslinger for Tiled (1.5 or newer): two entries at the end of Tiled's Map menu.
 *
 *   Check in Hexslinger  saves the map, runs `hexslinger check-map` on it and shows every problem in
 *                        Tiled's Issues panel (and the whole output in the Console); a message box says
 *                        how many there are.
 *   Play in Hexslinger   saves the map and opens it in Hexslinger's map view (`hexslinger play MAP`).
 *                        The window stays open and reloads the map each time it is saved here.
 *
 * Installing (docs/MAPS.md, "The Tiled extension"): open maps/hexslinger.tiled-project in Tiled (its
 * extensions folder is this one), or copy this file into Tiled's own extensions folder (Edit >
 * Preferences > Plugins > Open). Tiled runs `hexslinger` as found on the PATH it was started with; if it
 * is not there (a virtual environment, a desktop launcher), set HEXSLINGER_COMMAND to the command,
 * e.g. HEXSLINGER_COMMAND=/home/me/hexslinger/.venv/bin/hexslinger, before starting Tiled.
 */

/* global tiled, Process */

var HEXSLINGER_ENV = "HEXSLINGER_COMMAND";
var playing = []; // the game windows started from here (a Process that is collected ends its program)

/** The program and the arguments before the subcommand: HEXSLINGER_COMMAND split at spaces, or hexslinger. */
function hexslingerCommand() {
    var probe = new Process();
    var configured = (probe.getEnv(HEXSLINGER_ENV) || "").trim();
    probe.close();
    if (configured) {
        var words = configured.split(/\s+/);
        return { program: words[0], args: words.slice(1) };
    }
    return { program: tiled.platform === "windows" ? "hexslinger.exe" : "hexslinger", args: [] };
}

/** The map to hand to Hexslinger: the active map, saved; null (with a message) when there is none. */
function savedMap(what) {
    var asset = tiled.activeAsset;
    if (!asset || !asset.isTileMap) {
        tiled.alert("Open a map (.tmx) first: " + what + " works on the map in front.", "Hexslinger");
        return null;
    }
    if (!asset.fileName) {
        tiled.alert("Save the map as a .tmx file first: Hexslinger reads it from disk.", "Hexslinger");
        return null;
    }
    if (asset.modified) {
        tiled.trigger("Save");
    }
    if (asset.modified) { // the save was cancelled or failed
        tiled.alert("The map has unsaved changes; save it, then try again.", "Hexslinger");
        return null;
    }
    return asset.fileName;
}

function cannotRun(command, detail) {
    tiled.alert(
        "Tiled could not run '" + command.program + "'" + (detail ? ": " + detail : "") + ".\n\n" +
        "Install Hexslinger so that `hexslinger` is on the PATH Tiled starts with, or set " +
        HEXSLINGER_ENV + " to the command (for example the hexslinger in your virtual environment) " +
        "and start Tiled again.",
        "Hexslinger"
    );
}

/** Problems as check-map prints them: one "  - " line each, after a "FILE: N problems" line. */
function problemLines(output) {
    var problems = [];
    var lines = output.split(/\r?\n/);
    for (var i = 0; i < lines.length; ++i) {
        var match = /^\s+- (.*)$/.exec(lines[i]);
        if (match) {
            problems.push(match[1]);
        }
    }
    return problems;
}

function checkMap() {
    var fileName = savedMap("Check in Hexslinger");
    if (!fileName) {
        return;
    }
    var command = hexslingerCommand();
    var process = new Process();
    var code = process.exec(command.program, command.args.concat(["check-map", fileName]), false);
    var out = process.readStdOut();
    var err = process.readStdErr();
    process.close();
    if (code < 0) {
        cannotRun(command, err.trim());
        return;
    }
    tiled.log("hexslinger check-map " + fileName + "\n" + out + err);
    var problems = problemLines(out);
    var name = fileName.replace(/^.*[\\/]/, "");
    if (code === 0) {
        tiled.alert(name + ": no problems. Hexslinger can play it.", "Check in Hexslinger");
        return;
    }
    for (var i = 0; i < problems.length; ++i) { // the map's own path shortened to its name
        tiled.error("Hexslinger: " + problems[i].split(fileName).join(name), function () {});
    }
    if (problems.length === 0) { // not a problem list: a usage error or the like, shown as it came
        tiled.alert((err || out).trim() || "hexslinger check-map exited with " + code, "Check in Hexslinger");
        return;
    }
    tiled.alert(
        name + ": " + problems.length + " problem" + (problems.length === 1 ? "" : "s") +
        ". They are listed in the Issues panel (View > Views and Toolbars > Issues), each with how to fix it.",
        "Check in Hexslinger"
    );
}

function playMap() {
    var fileName = savedMap("Play in Hexslinger");
    if (!fileName) {
        return;
    }
    var command = hexslingerCommand();
    var process = new Process();
    if (!process.start(command.program, command.args.concat(["play", fileName]))) {
        cannotRun(command, process.readStdErr().trim());
        process.close();
        return;
    }
    playing.push(process);
    tiled.log("hexslinger play " + fileName + ": the window reloads the map each time you save it here.");
}

var checkAction = tiled.registerAction("HexslingerCheckMap", checkMap);
checkAction.text = "Check in Hexslinger";

var playAction = tiled.registerAction("HexslingerPlayMap", playMap);
playAction.text = "Play in Hexslinger";

tiled.extendMenu("Map", [
    { separator: true },
    { action: "HexslingerCheckMap" },
    { action: "HexslingerPlayMap" },
]);

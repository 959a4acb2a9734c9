"""The single page of ``negamax serve``: no external resources, works offline."""

PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>negamax: play and watch the search</title>
<style>
body { font-family: Helvetica, Arial, sans-serif; margin: 20px; max-width: 1100px; }
#board { font-size: 22px; line-height: 1.3; background: #f7f7f7; padding: 12px; display: inline-block; }
#moves button { font-size: 16px; margin: 3px; min-width: 40px; }
#thinking { font-family: monospace; font-size: 13px; background: #111; color: #9f9; padding: 8px;
            min-height: 80px; max-height: 220px; overflow: auto; white-space: pre; }
#status { font-size: 18px; margin: 10px 0; }
#result { font-size: 22px; font-weight: bold; color: #c0392b; }
#error { color: #c0392b; }
.row { margin: 8px 0; }
</style></head><body>
<h1>negamax</h1>
<div class="row">
  game <select id="game"></select>
  you play <select id="side"><option value="0">first</option><option value="1">second</option></select>
  engine thinks <select id="seconds"><option value="0.2">0.2 s</option><option value="1" selected>1 s</option>
  <option value="3">3 s</option></select>
  start position <input id="start" size="18" placeholder="(empty: the usual start)">
  <button id="new">New game</button>
</div>
<div id="status">choose a game and press New game</div>
<div id="result"></div>
<div class="row"><pre id="board"></pre></div>
<div class="row" id="moves"></div>
<div class="row"><button id="trace">Show the search behind the engine's last move</button> (small games)</div>
<div id="error"></div>
<h3>The engine's search</h3>
<div id="thinking"></div>
<div id="tree"></div>
<script>
let game = "", start = "", moves = [], human = 0, thinking = null, engineMoved = -1;
const $ = (id) => document.getElementById(id);

async function post(url, data) {
  const response = await fetch(url, {method: "POST", headers: {"Content-Type": "application/json"},
                                     body: JSON.stringify(data)});
  if (!response.ok) { throw new Error((await response.json()).error); }
  return response;
}

async function refresh() {
  $("error").textContent = "";
  let current;
  try { current = await (await post("/api/state", {game, start, moves})).json(); }
  catch (error) { $("error").textContent = error.message; moves.pop(); return; }
  $("board").textContent = current.board;
  $("result").textContent = current.result || "";
  const yourTurn = !current.result && current.turn === human;
  $("status").textContent = current.result ? "game over" : (yourTurn ? "your move" : "the engine is thinking...");
  $("moves").innerHTML = "";
  for (const move of current.moves) {
    const button = document.createElement("button");
    button.textContent = move;
    button.className = "move";
    button.disabled = !yourTurn;
    button.onclick = () => {
      for (const other of $("moves").children) { other.disabled = true; }  // one move per turn
      moves.push(move); refresh();
    };
    $("moves").appendChild(button);
  }
  if (!current.result && !yourTurn) { think(); }
}

function think() {
  const query = new URLSearchParams({game, start, moves: moves.join(","), seconds: $("seconds").value});
  thinking = new EventSource("/api/think?" + query);
  $("thinking").textContent = "";
  thinking.addEventListener("iteration", (event) => {
    const line = JSON.parse(event.data);
    $("thinking").textContent += `depth ${line.depth}  score ${line.score}  nodes ${line.nodes}  ` +
      `${line.nps} n/s  pv ${line.pv.join(" ")}\\n`;
  });
  thinking.addEventListener("done", (event) => {
    thinking.close(); thinking = null;
    const line = JSON.parse(event.data);
    $("thinking").textContent += `plays ${line.best} (score ${line.score})\\n`;
    engineMoved = moves.length;  // the engine searched the position before this move
    moves.push(line.best);
    refresh();
  });
  thinking.onerror = () => {
    if (thinking) { thinking.close(); thinking = null; $("error").textContent = "the search failed"; }
  };
}

$("new").onclick = () => {
  if (thinking) { thinking.close(); thinking = null; }
  game = $("game").value; start = $("start").value.trim(); moves = []; human = Number($("side").value);
  engineMoved = -1;
  $("tree").innerHTML = ""; $("thinking").textContent = "";
  refresh();
};
$("trace").onclick = async () => {
  if (engineMoved < 0) { $("error").textContent = "the engine has not moved yet"; return; }
  const before = moves.slice(0, engineMoved);
  try { $("tree").innerHTML = await (await post("/api/trace", {game, start, moves: before})).text(); }
  catch (error) { $("error").textContent = error.message; }
};
fetch("/api/games").then((response) => response.json()).then((games) => {
  for (const entry of games) {
    const option = document.createElement("option");
    option.value = entry.name; option.textContent = entry.name; option.title = entry.help;
    $("game").appendChild(option);
  }
});
</script></body></html>
"""

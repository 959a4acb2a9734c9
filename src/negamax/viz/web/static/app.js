// The page: a game is its name, a start position and the tree of moves played from it (the
// main line and its variations, `MoveTree`); the position shown is the start and the moves
// down to the node the page stands on. The server replays them for every answer, so the URL
// alone is enough to share a position, and the variations with it.
import { drawBoard } from "/static/boards.js";
import { BoardEditor } from "/static/editor.js";
import { TreeView } from "/static/tree.js";
import { MoveTree } from "/static/movetree.js";
import { showMoveList } from "/static/movelist.js";
import { Exercise } from "/static/exercise.js";
import { EvalGraph, remember, searched, solved } from "/static/graph.js";

const $ = (id) => document.getElementById(id);
const game = { name: "connect4", start: "", flipped: false };
const gameTree = new MoveTree();
let games = new Map();
let state = null;          // the server's answer for the current position
let generation = 0;        // bumped on every change of position: late answers are dropped
let thinking = null;       // { controller, playing } while the engine searches
let solving = null;        // the AbortController of the solution being asked for
let solution = null;       // move text -> { score, text } for the current position
let dropped = null;        // the Connect 4 column of the last move, to animate its disc
// "Edit board": opened, it stops the engine (a reply must not be played under the editor)
const editor = new BoardEditor(() => state, () => games.get(game.name), () => stopThinking());
const solutionWanted = new Map();  // game name -> whether its solution is shown (each its own)

const position = () => ({ game: game.name, start: game.start, moves: gameTree.moves() });

// Whether the solution is shown: asked for in this game, and a game that can be solved
// (a setting ticked in Connect 4 does not follow the page into chess).
const showingSolution = () => $("solution").checked && games.get(game.name).solvable;

async function post(path, body, signal) {
  const response = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), signal });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.error || `the server answered ${response.status}`);
  return data;
}

// A POST answered with Server-Sent Events: each event's name and data go to onEvent as they
// arrive; an "error" event, or a refused request, throws.
async function streamEvents(path, body, signal, onEvent) {
  const response = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), signal });
  if (!response.ok) {
    const data = await response.json().catch(() => ({}));
    throw new Error(data.error || `the server answered ${response.status}`);
  }
  const reader = response.body.getReader(), decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let cut;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const name = /^event: (.*)$/m.exec(block), data = /^data: (.*)$/m.exec(block);
      if (!name || !data) continue;
      const item = JSON.parse(data[1]);
      if (name[1] === "error") throw new Error(item.error);
      onEvent(name[1], item);
    }
  }
}

function showError(message) {
  $("error").hidden = !message;
  $("error").textContent = message || "";
}

// While a game's compiled engine is being made (the first start on a machine), a banner says
// so and counts down; the page asks again every two seconds until it is ready.
let engineTimer = null;

function showEngine(name, engine) {
  clearTimeout(engineTimer);
  const note = $("engine-note");
  const meanwhile = "until then the engine plays in pure Python, slower and weaker.";
  const messages = {
    // the estimate is the last compilation's time on this machine: a busy machine takes
    // longer, so the banner counts the seconds so far and never promises an end
    compiling: () => `Compiling the ${name} engine for this machine (first start only): ${engine.elapsed} s so far, estimated ${engine.estimate} s; ${meanwhile}`,
    queued: () => `The ${name} engine compiles once another game's is done (estimated ${engine.estimate} s); ${meanwhile}`,
    loading: () => `Loading the compiled ${name} engine…`,
  };
  const message = messages[engine.status];
  note.hidden = !message;
  note.textContent = message ? message() : "";
  if (!message) return;
  engineTimer = setTimeout(async () => {
    if (game.name !== name) return;
    const response = await fetch(`/api/engine?game=${encodeURIComponent(name)}`).catch(() => null);
    if (response && response.ok && game.name === name) showEngine(name, await response.json());
  }, 2000);
}

// -- the position ---------------------------------------------------------------------------

async function load({ askSolution = true } = {}) {
  const mine = ++generation;
  stopThinking();
  closePromotion();  // a piece chosen for another position is never played in this one
  if (solving) solving.abort();
  solution = null;
  $("solution-detail").textContent = "";
  writeUrl();
  exercise.update(game.name, game.start, gameTree.moves());
  showRule();
  try {
    const answer = await post("/api/state", { ...position(), flipped: game.flipped });
    if (mine !== generation) return;
    state = answer;
    showError(null);
    showEngine(game.name, answer.engine);
  } catch (error) {
    if (mine !== generation) return;
    state = null;  // a bad position leaves no board to play on
    showError(error.message);
  }
  render();
  // the start whose position is drawn (tests wait for it; the URL changes before the board)
  $("history").dataset.start = state ? game.start : "";
  if (state && askSolution && showingSolution() && !state.result) askForSolution(mine);
}

function render() {
  const board = $("board");
  const playable = state !== null && !state.result;
  board.classList.toggle("disabled", state === null);
  for (const id of ["undo", "go", "analyse", "trace", "flip"]) $(id).disabled = state === null;
  $("undo").disabled ||= gameTree.current === gameTree.root;
  $("promote").disabled = $("delete-line").disabled = state === null || gameTree.branch() === null;
  $("go").disabled ||= !playable;
  $("analyse").disabled ||= !playable;
  $("trace").disabled ||= !playable;
  if (state === null) {
    $("solution-note").hidden = true;
    board.replaceChildren();
    $("moves").replaceChildren();
    $("result").textContent = "";
    $("history").replaceChildren();
    return;
  }
  drawBoard(board, state, {
    play,
    hints: $("hints").checked,
    flipped: game.flipped,
    solution: showingSolution() ? solution || new Map() : null,
    animate: dropped,
    choosePromotion,
    explain: (text) => { $("solution-detail").textContent = text; },
  });
  dropped = null;
  showSolutionNote();
  $("result").textContent = state.result ? state.result + (state.ending ? ` (${state.ending})` : "") : "";
  showTurn();
  const buttons = state.moves.map((text) => {
    const button = document.createElement("button");
    button.className = "move";
    const known = solution && solution.get(text);
    button.textContent = known && known.text ? `${text} (${known.score === 0 ? "draw" : known.text})` : text;
    button.addEventListener("click", () => play(text));
    return button;
  });
  if (state.more_moves) buttons.push(Object.assign(document.createElement("span"), { textContent: `and ${state.more_moves} more` }));
  $("moves").replaceChildren(...buttons);
  showHistory();
}

// What the solution's marks mean on the board shown (games drawn as text list each move's
// value beside it, under the legal moves).
const SOLUTION_NOTES = {
  connect4: "Each column's exact score, as in Pascal Pons' solver: positive, the side to move wins by playing there (the higher, the sooner); 0, a draw; negative, it loses; ?, not solved within the time. Hover over or tap a score for the number of moves.",
  tictactoe: "Each free cell's exact value for the side to move if they play there: a win or a loss in so many plies (the moves of both sides until the game ends), or a draw; … while it is being solved, ? if not solved within the time.",
  nim: "Each object is a move (taking it and every object to its right in its heap): a thick green ring marks a move that wins, a red one a move that loses, and hovering says how soon; the list of legal moves says each one's value.",
};

function showSolutionNote() {
  const text = showingSolution() ? SOLUTION_NOTES[state.view.kind] || "Each legal move's exact value is written beside it in the list of legal moves." : "";
  $("solution-note").hidden = !text;
  $("solution-note").textContent = text;
  if (text && !(state.view.kind in SOLUTION_NOTES)) $("legal").open = true;
}

// The moves played, the variations with them (`showMoveList`); the server named the moves
// down to the position shown (chess in SAN) and said who played each.
function showHistory() {
  const path = gameTree.path();
  path.forEach((at, index) => {
    at.shown = state.played[index] ?? at.shown;
    if (state.movers && state.movers.length === path.length) at.mover = state.movers[index];
  });
  // without the server's word, the players alternate back from the side to move
  const firstMover = path.length ? path[0].mover ?? (state.turn + path.length) % 2 : state.turn;
  showMoveList($("history"), gameTree, firstMover, goToMove);
  $("history").dataset.line = gameTree.moves().join(",");  // the line to the position drawn
  // a finished game's exact value goes on its graph
  if (state.result && typeof state.advantage === "number") remember(gameTree.current, { advantage: state.advantage, text: state.result, exact: true });
  graph.draw(state.players);
}

// The page goes to the position after a move of the list, keeping every move after it.
function goToMove(at) {
  if (at === gameTree.current) return;
  gameTree.goTo(at);
  clearSearch();
  load();
}

// The arrow keys walk the game: left and right one move back and forward along the line
// walked, Home and End to its start and its end; not while a field or a menu has the keys,
// nor while the board editor is open (Cancel goes back to the game as it was).
function walk(event) {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || !$("editor").hidden) return;
  const target = event.target, typing = target.tagName === "INPUT" && !["checkbox", "radio", "button", "submit"].includes(target.type);
  if (typing || (target.closest && target.closest("select, textarea, dialog, [contenteditable]"))) return;
  const steps = { ArrowLeft: () => gameTree.back(), ArrowRight: () => gameTree.forward(), Home: () => gameTree.toStart(), End: () => gameTree.toEnd() };
  const step = steps[event.key];
  if (!step) return;
  event.preventDefault();
  const before = gameTree.current;
  step();
  if (gameTree.current === before) return;
  clearSearch();
  load();
}

// The server's names of the moves off the line shown (a link's or a PGN's variations), and
// who played each, so that the list reads as the moves shown do.
async function nameMoves() {
  const leaves = gameTree.leaves();
  if (!leaves.some((leaf) => gameTree.path(leaf).some((at) => at.shown === null))) return;
  const asked = { game: game.name, start: game.start, lines: gameTree.lines() };
  try {
    const answer = await post("/api/lines", asked);
    if (asked.game !== game.name || asked.start !== game.start) return;
    leaves.forEach((leaf, index) => {
      const named = answer.lines[index];
      if (!named) return;
      gameTree.path(leaf).forEach((at, depth) => {
        at.shown = named.played[depth] ?? at.shown;
        at.mover = named.movers[depth] ?? at.mover;
      });
    });
    if (state) showHistory();
  } catch {
    // a user's game is not named here: its moves are listed as they are written
  }
}

// Whose turn it is, and whether the engine is thinking: a click then is refused, and says so.
function showTurn(refused = false) {
  const turn = $("turn");
  const busy = thinking !== null && thinking.playing;
  turn.className = refused ? "refused" : busy ? "thinking" : "";
  if (state === null || state.result) {
    turn.textContent = "";
  } else if (refused) {
    turn.textContent = "Wait: the engine is thinking; your move was not played.";
  } else {
    const player = state.players[state.turn].replace(/^./, (letter) => letter.toUpperCase());
    const yours = $("autoplay").checked ? ": your turn" : "";
    turn.textContent = busy ? `${player} to move: the engine is thinking…` : `${player} to move${yours}`;
  }
}

async function play(text, byEngine = false) {
  if (thinking && thinking.playing && !byEngine) { showTurn(true); return; }
  if (!state || state.result) return;
  // a click plays only a move legal in the position shown (the engine's comes from the
  // server for this very position, and may be one past the moves listed)
  if (!byEngine && !state.moves.includes(text)) return;
  if (state.view.kind === "connect4") dropped = text;
  // a move already played here is followed; another starts a variation
  const { node, created } = gameTree.play(text, byEngine);
  const reply = !byEngine && $("autoplay").checked;
  await load({ askSolution: !reply });
  if (state === null && gameTree.current === node) {
    // the server refused the move: it is taken back, and the page goes on from the
    // position before it, the refusal said above the board
    const refusal = $("error").textContent;
    if (created) gameTree.remove(node);
    else gameTree.back();
    await load();
    if (state !== null) showError(`${text} was not played: ${refusal}`);
    return;
  }
  if (reply && state && !state.result) think(true);
}

// A promotion asks for the piece; the box belongs to the position it was opened in: any
// other move, or any change of position, closes it, and the piece chosen is played only
// if that promotion is legal where the page then stands.
function choosePromotion(choose) {
  const box = $("promotion"), mine = generation;
  box.hidden = false;
  for (const button of box.querySelectorAll("button")) {
    button.onclick = () => {
      closePromotion();
      if (mine === generation) choose(button.dataset.piece);
    };
  }
}

function closePromotion() {
  const box = $("promotion");
  box.hidden = true;
  for (const button of box.querySelectorAll("button")) button.onclick = null;
}

// -- the engine ------------------------------------------------------------------------------

function stopThinking() {
  if (thinking) thinking.controller.abort();
  thinking = null;
  if (state) showTurn();
  $("board").classList.remove("busy");
}

async function think(playing) {
  stopThinking();
  const mine = generation, controller = new AbortController(), at = gameTree.current, side = state.players[state.turn];
  thinking = { controller, playing };
  showTurn();
  $("score").textContent = "thinking…";
  let finished = null;
  try {
    // a level weakens the moves the engine plays; Analyse shows its best
    const body = { ...position(), seconds: Number($("seconds").value), lines: Number($("lines").value), level: playing ? Number($("level").value) : 8 };
    await streamEvents("/api/think", body, controller.signal, (name, item) => {
      if (mine !== generation) return;
      showSearch(item);
      // the graph keeps full-strength scores (a weaker level's is its chosen move's)
      if (body.level === 8 && remember(at, searched(item, side) || {})) graph.draw();
      if (name === "done") finished = item;
    });
  } catch (error) {
    if (error.name !== "AbortError" && mine === generation) showError(error.message);
  } finally {
    if (thinking && thinking.controller === controller) thinking = null;
    showTurn();
  }
  if (playing && finished && finished.best && mine === generation) play(finished.best, true);
}

function showSearch(item) {
  const score = $("score");
  // no text where nothing is known of the move's value (a move a low level picks at random)
  score.textContent = state && item.score_text ? `${item.score_text} for ${state.players[state.turn]}` : item.score_text;
  score.className = /^win/.test(item.score_text) ? "win" : /^loss/.test(item.score_text) ? "loss" : "";
  const rate = item.nps >= 1e6 ? `${(item.nps / 1e6).toFixed(1)} M` : `${Math.round(item.nps / 1e3)} k`;
  const engine = item.algorithm.startsWith("compiled") ? "compiled" : "pure Python";
  if (item.algorithm.startsWith("book")) {
    // the book knows this position's value: no search ran, so no nodes and no engine
    $("stats").textContent = "solved · from the book";
  } else if (/mcts/.test(item.algorithm)) {
    // Monte Carlo tree search: playouts and how deep its tree grew, not depths
    $("stats").textContent = `Monte Carlo · ${item.nodes.toLocaleString()} playouts · ${rate} playouts/s · tree ${item.seldepth} plies deep · ${item.seconds} s · ${engine}`;
  } else {
    const reach = item.solved ? "solved to the end" : `depth ${item.depth}`;
    $("stats").textContent = `${reach} · ${item.nodes.toLocaleString()} nodes · ${rate} nodes/s · ${item.seconds} s · ${engine}`;
  }
  $("pv").textContent = item.line.join(" ");
  showLines(item.lines.length > 1 ? item.lines : []);
  $("evalfill").style.height = `${((1 + item.advantage) / 2) * 100}%`;
}

function showLines(lines) {
  // each scored root move, best first: its value, then the line it leads to
  $("engine-lines").replaceChildren(...lines.map((line) => {
    const row = document.createElement("li"), value = document.createElement("b");
    value.textContent = line.score_text;
    value.className = /^win/.test(line.score_text) ? "win" : /^loss/.test(line.score_text) ? "loss" : "";
    row.dataset.move = line.move;
    // a Monte Carlo line: its playouts and the share of them won
    const visits = line.visits === null || line.visits === undefined ? "" : ` (${line.visits.toLocaleString()} playouts${line.win_rate === null ? "" : `, ${Math.round(100 * line.win_rate)}% won`})`;
    row.append(value, `${visits} ${line.line.join(" ")}`);
    return row;
  }));
}

function clearSearch() {
  showLines([]);
  $("score").textContent = "";
  $("score").className = "";
  $("stats").textContent = "";
  $("pv").textContent = "";
  $("evalfill").style.height = "50%";
}

async function askForSolution(mine) {
  const controller = new AbortController(), at = gameTree.current, side = state.players[state.turn];
  solving = controller;
  $("solution-detail").textContent = "solving every move…";
  // the scores come as they are known: the book's at once, then each move the solver finishes
  const show = (name, answer) => {
    if (mine !== generation) return;
    solution = new Map(answer.moves.map((item) => [item.move, item]));
    if (remember(at, solved(answer.moves, side) || {})) graph.draw();  // the best move's value is the position's
    const open = answer.moves.filter((item) => item.score === null).length;
    if (name === "done") $("solution-detail").textContent = open ? `${open} not solved within ${answer.seconds} s (?)` : "";
    else $("solution-detail").textContent = open ? `solving ${open} of ${answer.moves.length} moves…` : "";
    render();
  };
  try {
    await streamEvents("/api/solution/stream", position(), controller.signal, show);
  } catch (error) {
    if (mine === generation && solution) {
      // the moves still being solved are not going to be: shown unknown, not "…" for ever
      for (const item of solution.values()) if (item.score === null) item.source = "timeout";
      $("solution-detail").textContent = "";
      render();
    }
    if (error.name !== "AbortError" && mine === generation) showError(error.message);
  }
}

// -- the search tree -------------------------------------------------------------------------

const exercise = new Exercise({ post });  // a typed tree's alpha-beta, worked by hand
const graph = new EvalGraph({ svg: $("graph"), key: $("graph-key"), button: $("evaluate"), status: $("graph-status") }, gameTree, goToMove, { post, streamEvents, where: () => ({ game: game.name, start: game.start }) });
const previews = new Map();
let traced = null;  // the position the tree shown was traced from
const tree = new TreeView($("tree"), $("node-info"), {
  preview: async (moves, into) => {
    const body = { ...traced, moves: [...traced.moves, ...moves] };
    const key = JSON.stringify(body);
    try {
      if (!previews.has(key)) previews.set(key, await post("/api/state", body));
      drawBoard(into, previews.get(key), { play: () => {}, hints: false, flipped: game.flipped, solution: null });
    } catch (error) {
      into.textContent = error.message;
    }
  },
});

// The stepper: the traced search one step at a time, the node it is at ringed, its window
// and what happened said in words.
let stepping = null;  // the timer of "play"

tree.onStep = (step, at) => {
  const lecture = tree.minimax;  // the minimax view words each step from max's side
  // the window line names the node whose alpha, beta and best it shows
  const [text, line] = !step ? ["", ""] : lecture ? [step.minimax, step.minimax_window] : [step.text, step.window];
  $("step-text").textContent = text;
  $("step-text").className = step && step.cut ? "cut" : "";
  $("step-window").textContent = line;
  if (step) $("step-number").value = at + 1;
};

// the textbook's pruning rule: asked wherever a textbook search runs (a trace, the exercise)
function showRule() {
  $("prune-rule").hidden = $("trace-algorithm").value !== "textbook" && $("exercise").hidden;
}

function showView() {
  tree.setMode($("tree-view").value);
  $("view-note").hidden = $("tree-view").value !== "negamax" || !tree.tree;
}

function stopPlaying() {
  clearInterval(stepping);
  stepping = null;
  $("step-play").textContent = "play";
}

function stepBy(delta) {
  tree.goTo(tree.step === null ? (delta > 0 ? 0 : tree.steps.length - 1) : tree.step + delta);
}

function wireStepper() {
  $("step-first").addEventListener("click", () => { stopPlaying(); tree.goTo(0); });
  $("step-back").addEventListener("click", () => { stopPlaying(); stepBy(-1); });
  $("step-forward").addEventListener("click", () => { stopPlaying(); stepBy(1); });
  $("step-done").addEventListener("click", () => { stopPlaying(); tree.finish(); });
  $("step-number").addEventListener("change", () => { stopPlaying(); tree.goTo(Number($("step-number").value) - 1); });
  $("step-play").addEventListener("click", () => {
    if (stepping) { stopPlaying(); return; }
    $("step-play").textContent = "pause";
    stepping = setInterval(() => {
      if (tree.step !== null && tree.step >= tree.steps.length - 1) { stopPlaying(); return; }
      stepBy(1);
    }, 700);
  });
}

// PGN for chess: the game so far to copy, or a pasted game to play from.
async function openPgn() {
  $("pgn-error").textContent = "";
  try {
    $("pgn-text").value = (await post("/api/pgn", { ...position(), lines: gameTree.lines() })).pgn;
  } catch (error) {
    $("pgn-text").value = "";
    $("pgn-error").textContent = error.message;
  }
  $("pgn-dialog").showModal();
}

async function loadPgn(event) {
  event.preventDefault();  // the dialog stays open if the text does not read
  try {
    const read = await post("/api/pgn/read", { pgn: $("pgn-text").value });
    game.start = read.start;
    gameTree.reset();
    gameTree.addLines(read.lines);
    gameTree.toEnd();  // the game's last position, its variations listed
    $("start").value = read.start;
    $("pgn-dialog").close();
    clearSearch();
    await load();
    nameMoves();
  } catch (error) {
    $("pgn-error").textContent = error.message;
  }
}

async function trace() {
  const body = {
    ...position(),
    max_nodes: Number($("trace-nodes").value),
    algorithm: $("trace-algorithm").value,
  };
  if ($("trace-depth").value) body.depth = Number($("trace-depth").value);
  if (body.algorithm === "textbook") body.prune_equal = $("prune-equal").checked;
  $("tree-note").textContent = "tracing…";
  try {
    const answer = await post("/api/trace", body);
    traced = { game: body.game, start: body.start, moves: body.moves };
    stopPlaying();
    tree.show(answer);
    showView();
    $("stepper").hidden = !answer.steps.length;
    $("step-count").textContent = answer.steps.length.toLocaleString();
    $("step-number").max = answer.steps.length;
    // the textbook's tree opens at its first step, the answer not shown yet; the others finished
    if (answer.steps.length) { if (body.algorithm === "textbook") tree.goTo(0); else tree.finish(); }
    const parts = [`value ${answer.value}`, `${answer.nodes.length.toLocaleString()} nodes`, `${answer.seconds} s`];
    $("tree-note").textContent = (answer.note ? answer.note + "; " : "") + parts.join(", ");
  } catch (error) {
    $("tree-note").textContent = error.message;
  }
}

// -- the URL: the game, its start and its moves ---------------------------------------------

// "moves" is the line to the position shown, as links have always said; "tree", only where
// there is more (moves after it, or variations), the whole tree (`MoveTree.write`).
function writeUrl() {
  const encode = encodeURIComponent;
  const flipped = game.flipped ? "&flipped=1" : "";
  const level = $("level").value !== "8" ? `&level=${$("level").value}` : "";
  const leaves = gameTree.leaves();
  const more = leaves.length > 1 || (leaves.length === 1 && leaves[0] !== gameTree.current) ? `&tree=${gameTree.write()}` : "";
  const hash = `#game=${encode(game.name)}&start=${encode(game.start)}&moves=${gameTree.moves().map(encode).join(",")}${more}${flipped}${level}`;
  history.replaceState(null, "", hash);
  $("share").href = location.href;
}

function readUrl() {
  const fields = new Map(location.hash.slice(1).split("&").map((part) => {
    const at = part.indexOf("=");
    return at < 0 ? [part, ""] : [part.slice(0, at), part.slice(at + 1)];
  }));
  if (fields.has("game") && games.has(decodeURIComponent(fields.get("game")))) game.name = decodeURIComponent(fields.get("game"));
  game.start = decodeURIComponent(fields.get("start") || "");
  try {
    gameTree.read(fields.get("tree") || "");
  } catch {
    gameTree.reset();  // a tree mangled in copying: the line to the position still stands
  }
  for (const move of (fields.get("moves") || "").split(",").filter(Boolean).map(decodeURIComponent)) gameTree.play(move);
  game.flipped = fields.get("flipped") === "1" && FLIPPABLE.has(games.get(game.name).kind);
  const level = Number(fields.get("level") || 8);
  $("level").value = Number.isInteger(level) && level >= 1 && level <= 8 ? String(level) : "8";
}

// Only boards with a side at the bottom turn round (chess, draughts); each game starts the
// right way up, and a link keeps the board as it was turned.
const FLIPPABLE = new Set(["chess", "draughts"]);

function chooseGame(name) {
  if (name !== game.name) game.flipped = false;
  game.name = name;
  const chosen = games.get(name);
  $("flip").hidden = !FLIPPABLE.has(chosen.kind);
  $("pgn").hidden = chosen.kind !== "chess";
  editor.chosen(chosen);
  $("game").value = name;
  $("start").value = game.start;
  $("start").placeholder = chosen.position_help;
  $("solution-toggle").hidden = !chosen.solvable;
  $("solution").checked = chosen.solvable && solutionWanted.get(name) === true;
  // chess levels carry their measured rating on Stockfish's scale
  for (const option of $("level").options) {
    const elo = chosen.level_elo && chosen.level_elo[Number(option.value) - 1];
    option.textContent = elo ? `${option.value} (${elo})` : option.value;
  }
  $("legal").open = chosen.kind === "text";
}

// -- wiring ----------------------------------------------------------------------------------

async function main() {
  const response = await fetch("/api/games");
  for (const item of await response.json()) games.set(item.name, item);
  $("game").replaceChildren(...[...games.values()].map((item) => Object.assign(document.createElement("option"), { value: item.name, textContent: item.name, title: item.description })));
  for (let depth = 1; depth <= 12; depth++) $("trace-depth").appendChild(Object.assign(document.createElement("option"), { value: depth, textContent: depth }));
  readUrl();
  chooseGame(game.name);

  const restart = (start, line = []) => {
    game.start = start;
    gameTree.reset();
    for (const move of line) gameTree.play(move);
    clearSearch();
    load();
  };
  $("game").addEventListener("change", () => { chooseGame($("game").value); $("start").value = ""; restart(""); });
  $("new").addEventListener("click", () => { $("start").value = ""; restart(""); });
  $("start-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    // a line typed ("4455", "startpos moves e2e4 e7e5") is listed move by move, to go back through
    const typed = { game: game.name, start: $("start").value.trim() };
    const split = await post("/api/start", typed).catch(() => ({ start: typed.start, moves: [] }));
    if (typed.game === game.name) restart(split.start, split.moves);
  });
  // Undo takes back the last move, and the engine's replies after it; a move with moves
  // after it stays in the list (the page only steps back over it)
  $("undo").addEventListener("click", () => {
    const takeBack = () => {
      const last = gameTree.current;
      gameTree.back();
      if (!last.children.length) gameTree.remove(last);
    };
    clearSearch();
    while (gameTree.current.parent && gameTree.current.byEngine) takeBack();
    if (gameTree.current.parent) takeBack();
    load();
  });
  $("promote").addEventListener("click", () => { gameTree.promote(gameTree.current); render(); writeUrl(); });
  $("delete-line").addEventListener("click", () => {
    const from = gameTree.branch();
    if (!from) return;
    gameTree.remove(from);
    clearSearch();
    load();
  });
  document.addEventListener("keydown", walk);
  $("flip").addEventListener("click", () => { game.flipped = !game.flipped; load({ askSolution: false }); });
  $("go").addEventListener("click", () => think(true));
  $("analyse").addEventListener("click", () => think(false));
  $("hints").addEventListener("change", render);
  $("level").addEventListener("change", writeUrl);
  $("solution").addEventListener("change", () => { solutionWanted.set(game.name, $("solution").checked); load(); });
  $("trace").addEventListener("click", trace);
  // textbook alpha-beta opens in the minimax view; the other searches in negamax, as they run
  const viewFor = () => {
    const textbook = $("trace-algorithm").value === "textbook";
    $("tree-view").value = textbook ? "minimax" : "negamax";
    showRule();
    showView();
  };
  $("trace-algorithm").addEventListener("change", viewFor);
  $("tree-view").addEventListener("change", showView);
  viewFor();
  $("pgn").addEventListener("click", openPgn);
  $("pgn-load").addEventListener("click", loadPgn);
  wireStepper();
  $("zoom-in").addEventListener("click", () => tree.zoom(1.25));
  $("zoom-out").addEventListener("click", () => tree.zoom(0.8));
  $("fit").addEventListener("click", () => tree.fit());
  $("centre").addEventListener("click", () => tree.centre());
  window.addEventListener("hashchange", async () => { readUrl(); chooseGame(game.name); clearSearch(); await load(); nameMoves(); });
  await load();
  nameMoves();
}

main();

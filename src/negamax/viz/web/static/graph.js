// The evaluation graph of the line shown, as lichess's analysis board draws one: a point for
// each position of the line (the main line, or the variation the page stands in) whose score
// is known, from the first player's side, the evaluation bar's scale (-1 to 1: a win at the
// edge, other scores clipped short of it); a ring marks an exact (solved) value. Clicking a
// ply goes to its position. Each node of the move tree remembers its score (`node.score`):
// every score the page gets for a position is kept, and "evaluate the game" asks a short
// search at each position of the line that has none.

const SVG = "http://www.w3.org/2000/svg";
const HEIGHT = 110, PAD = 7;
const EVALUATE_SECONDS = 0.2;  // each position's search: the game's shape, not its truth

// The height a score is drawn at, as lichess draws its graph: the advantage (the server's
// score / 1000, clipped at 0.95) as the first player's winning chances by lichess's curve,
// so that a pawn or two in chess reads (+1.00 a little under a fifth of the way from the
// middle to the top, +3.00 halfway), a win at the edge.
export function height(advantage) {
  if (Math.abs(advantage) >= 1) return Math.sign(advantage);
  return 2 / (1 + Math.exp(-0.00368208 * advantage * 1000)) - 1;
}

const shape = (name, attributes = {}) => {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  return element;
};

// The line shown: the start, the moves down to the position shown, and on from it along the
// line last walked (what "forward" would follow).
export function lineShown(tree) {
  const line = [tree.root, ...tree.path()];
  for (let next = tree.following(); next; next = tree.following(next)) line.push(next);
  return line;
}

// A score kept on a node; an exact one is never replaced by a search's guess.
export function remember(at, score) {
  if (score.advantage === null || score.advantage === undefined) return false;
  if (at.score && at.score.exact && !score.exact) return false;
  at.score = score;
  return true;
}

// A search's answer as a node keeps it (nothing where the search knows nothing: a move a
// weak level picked at random, a search stopped before its first depth).
export const searched = (item, side) => (item.score_text ? { advantage: item.advantage, text: `${item.score_text} for ${side}`, exact: item.solved } : null);

// The solution's best move gives its position's exact value, once every move is solved.
// Best by `score`, the mover's exact game score: the advantage is clipped (every win 1), so
// it cannot tell a win in 1 from a win in 3.
export function solved(moves, side) {
  const unknown = (value) => value === null || value === undefined;
  if (!moves.length || moves.some((item) => unknown(item.advantage) || unknown(item.score))) return null;
  const best = moves.reduce((a, b) => (b.score > a.score ? b : a));
  return { advantage: best.advantage, text: `${best.score === 0 ? "draw" : best.text} for ${side} (solved)`, exact: true };
}

export class EvalGraph {
  // The graph `svg`, its `key` in words, its `button` and its `status`; `go(node)` shows a node's position; `ask` is { post, streamEvents, where } of the page:
  // where() the game and start the tree is played from.
  constructor({ svg, key, button, status }, tree, go, ask) {
    Object.assign(this, { svg, key, button, status, tree, go, ask });
    this.players = ["first player", "second player"];
    this.running = null;  // { controller, root } while the line is evaluated
    button.addEventListener("click", () => (this.running ? this.stop("stopped") : this.evaluate()));
    new ResizeObserver(() => this.draw()).observe(svg.parentElement);
  }

  // Drawn again for the line shown now; an evaluation of another game (the tree reset) stops.
  draw(players = this.players) {
    this.players = players;
    if (this.running && this.running.root !== this.tree.root) this.stop("");
    const line = lineShown(this.tree), svg = this.svg;
    const width = Math.max(200, svg.parentElement.clientWidth || 300);
    svg.setAttribute("viewBox", `0 0 ${width} ${HEIGHT}`);
    svg.setAttribute("width", width);
    svg.setAttribute("height", HEIGHT);
    svg.dataset.line = this.tree.moves(line[line.length - 1]).join(",");
    const step = (width - 2 * PAD) / Math.max(1, line.length - 1);
    const x = (ply) => PAD + ply * step, y = (advantage) => HEIGHT / 2 - height(advantage) * (HEIGHT / 2 - PAD);
    const middle = HEIGHT / 2, defs = shape("defs");
    for (const [id, top] of [["graph-above", 0], ["graph-below", middle]]) {
      const clip = shape("clipPath", { id });
      clip.append(shape("rect", { x: 0, y: top, width, height: middle }));
      defs.append(clip);
    }
    const parts = [defs, shape("rect", { class: "back", x: 0, y: 0, width, height: HEIGHT })];
    // as lichess: the area between the curve and the middle, light where the first player
    // is ahead, dark where the second is; a position with no score breaks the line
    let run = [];
    const close = () => {
      if (run.length > 1) {
        const points = run.map(([ply, advantage]) => `${x(ply)},${y(advantage)}`).join(" ");
        const area = `${x(run[0][0])},${middle} ${points} ${x(run[run.length - 1][0])},${middle}`;
        parts.push(shape("polygon", { class: "area above", points: area, "clip-path": "url(#graph-above)" }));
        parts.push(shape("polygon", { class: "area below", points: area, "clip-path": "url(#graph-below)" }));
        parts.push(shape("polyline", { class: "curve", points }));
      }
      run = [];
    };
    line.forEach((at, ply) => (at.score ? run.push([ply, at.score.advantage]) : close()));
    close();
    parts.push(shape("line", { class: "middle", x1: 0, x2: width, y1: middle, y2: middle }));
    this.key.textContent = `up: ${players[0]} ahead, down: ${players[1]}, as winning chances (lichess's curve); a win at the edge, ○ solved exactly. Click a move's point to go there.`;
    const current = line.indexOf(this.tree.current);
    parts.push(shape("line", { class: "marker", x1: x(current), x2: x(current), y1: 0, y2: HEIGHT, "data-ply": current }));
    // each ply's column is its target, wide enough to tap on a phone however long the game
    line.forEach((at, ply) => {
      const hit = shape("rect", { class: "hit", x: x(ply) - step / 2, y: 0, width: Math.max(step, 1), height: HEIGHT, "data-ply": ply });
      hit.append(Object.assign(shape("title"), { textContent: this.describe(at, ply) }));
      hit.addEventListener("click", () => this.go(at));
      parts.push(hit);
    });
    line.forEach((at, ply) => {
      if (!at.score) return;
      const point = shape("circle", {
        class: "point" + (at.score.exact ? " exact" : "") + (at === this.tree.current ? " current" : ""),
        cx: x(ply), cy: y(at.score.advantage), r: at.score.exact ? 4 : 3,
        "data-ply": ply, "data-advantage": at.score.advantage, "data-exact": at.score.exact ? "1" : "0",
      });
      point.append(Object.assign(shape("title"), { textContent: this.describe(at, ply) }));
      point.addEventListener("click", () => this.go(at));
      parts.push(point);
    });
    svg.replaceChildren(...parts);
  }

  describe(at, ply) {
    const where = ply === 0 ? "the start" : `after ${at.shown ?? at.move}`;
    return `ply ${ply}, ${where}: ${at.score ? at.score.text : "no score yet"}`;
  }

  // A short search at each position of the line shown that has no score yet, one after
  // another (a finished game's end has its exact value instead); stopped by the button or
  // a change of game.
  async evaluate() {
    const root = this.tree.root, line = lineShown(this.tree), where = this.ask.where();
    const wanted = line.filter((at) => !at.score);
    const controller = new AbortController();
    this.running = { controller, root };
    this.button.textContent = "Stop";
    let done = 0, scored = 0;
    const progress = () => { this.status.textContent = `evaluating: ${done} of ${wanted.length}`; };
    progress();
    try {
      for (const at of wanted) {
        if (this.running === null || this.running.controller !== controller) return;
        if (this.tree.root !== root) { this.stop(""); return; }  // another game, or a new one
        const body = { ...where, moves: this.tree.moves(at) };
        // the state first: a finished game's exact value, else who is to move, for the text
        const state = await this.ask.post("/api/state", body, controller.signal);
        let score = state.result && typeof state.advantage === "number" ? { advantage: state.advantage, text: state.result, exact: true } : null;
        if (!score) {
          const asked = { ...body, seconds: EVALUATE_SECONDS, lines: 1, level: 8 };
          await this.ask.streamEvents("/api/think", asked, controller.signal, (name, item) => {
            if (name === "done") score = searched(item, state.players[state.turn]);
          });
        }
        if (score && remember(at, score)) scored += 1;
        done += 1;
        progress();
        this.draw();
      }
      // a search stopped before its first depth knows nothing: said, not drawn
      const missed = wanted.length - scored;
      this.stop(`${wanted.length} position${wanted.length === 1 ? "" : "s"} evaluated, ${EVALUATE_SECONDS} s each` + (missed ? `; ${missed} found no score in that time` : ""));
    } catch (error) {
      if (error.name !== "AbortError" && this.running && this.running.controller === controller) this.stop(error.message);
    }
  }

  stop(message) {
    if (this.running) this.running.controller.abort();
    this.running = null;
    this.button.textContent = "Evaluate the game";
    this.status.textContent = message;
  }
}
